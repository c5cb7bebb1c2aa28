"""`lmsexport key`: the printable answer key of every kind of question, read back as HTML.

The key of examples/all-kinds/quiz.txt (one question of each kind, math and images) is
parsed with lxml.html and checked against the model it came from: every correct option
marked and no other, every accepted answer with its credit, tolerances, pairs, order,
gaps, points, explanations and feedback. Then language and direction, escaping and the
sanitiser, determinism, and the command itself.
"""

from __future__ import annotations


import pytest
from click.testing import CliRunner
from lxml import html

import lmsexport
from conftest import ROOT
from lmsexport.cli import main
from lmsexport.model import Choice, MultipleChoice, Quiz, Text, TrueFalse
from lmsexport.preview.key import render

ALL_KINDS = ROOT / "examples" / "all-kinds" / "quiz.txt"


@pytest.fixture(scope="module")
def quiz() -> Quiz:
    return lmsexport.read(ALL_KINDS)


@pytest.fixture(scope="module")
def page(quiz):
    return html.fromstring(render(quiz))


def section(page, question_id: str):
    (found,) = page.xpath(f"//section[@id='{question_id}']")
    return found


def words(node) -> str:
    return " ".join(node.text_content().split())


def test_every_question_is_in_the_key_in_order_with_its_points(quiz, page):
    sections = page.xpath("//section[contains(@class, 'question')]")
    assert [s.get("id") for s in sections] == [q.id for q in quiz.questions]
    assert [s.get("data-kind") for s in sections] == [q.kind for q in quiz.questions]
    for question, found in zip(quiz.questions, sections):
        points = found.xpath(".//h2/span[@class='points']")
        if question.kind == "description":
            assert points == [] and "Information" in words(found.find(".//h2"))
        else:
            assert words(points[0]) == (f"{question.points:g} point" + ("" if question.points == 1 else "s"))


def test_the_header_sums_up_the_quiz(page):
    facts = [words(item) for item in page.xpath("//ul[@class='facts']/li")]
    assert facts == ["Questions: 12", "Total: 25 points", "Pass mark: 50%"]


def test_exactly_the_correct_options_are_marked(quiz, page):
    for question in quiz.questions:
        if not isinstance(question, MultipleChoice):
            continue
        options = section(page, question.id).xpath(".//li[contains(@class, 'option')]")
        marked = {o.get("data-choice") for o in options if "correct" in o.get("class").split()}
        checked = {o.get("data-choice") for o in options if "✓" in o.text_content()}
        assert marked == checked == {c.id for c in question.correct_choices}, question.id
        assert [o.get("data-choice") for o in options] == [c.id for c in question.choices]


def test_choices_carry_their_feedback_and_the_question_its_own(page):
    q1 = section(page, "q1")
    assert words(q1.xpath(".//li[@data-choice='a']//div[contains(@class, 'option-feedback')]")[0]) == \
        "Broadcast copies one rank's data to the others."
    assert words(q1.find(".//div[@class='explanation']")) == \
        "Explanation: All-reduce leaves the same reduced tensor on every rank."
    assert words(q1.find(".//div[@class='feedback when-correct']")) == "Feedback when right: Well done."
    assert words(q1.find(".//div[@class='feedback when-incorrect']")).startswith("Feedback when wrong: Not quite")
    assert words(section(page, "q2").find(".//p[@class='rule']")) == "Every correct option must be chosen"


def test_true_false_shows_the_answer(page):
    assert words(section(page, "q3").find(".//p[@class='answer']")) == "Correct answer: True"


def test_short_answers_with_their_credit_case_and_feedback(page):
    q4 = section(page, "q4")
    answers = q4.xpath(".//ul[@class='accepted']/li")
    assert [a.get("class") for a in answers] == ["correct", "partial"]
    assert words(answers[0]) == "✓NCCL"
    assert words(answers[1]).startswith("MPI 50% of the points") and "PyTorch's GPU default is NCCL" in words(answers[1])
    assert "Letter case does not matter" in words(q4.find(".//p[@class='rule']"))


def test_numbers_with_their_tolerance_and_range(page):
    q5 = [words(a) for a in section(page, "q5").xpath(".//ul[@class='accepted']/li")]
    assert q5[0] == "✓256"
    assert q5[1].startswith("256 ± 1 (255 to 257) 50% of the points")
    (q6,) = [words(a) for a in section(page, "q6").xpath(".//ul[@class='accepted']/li")]
    assert q6 == "✓0.25 ± 0.0125 (0.2375 to 0.2625)"


def test_an_essay_says_a_person_grades_it_and_keeps_its_model_answer(page):
    q7 = section(page, "q7")
    assert "Graded by a person" in words(q7)
    assert "summing gradients over micro-batches" in words(q7.find(".//div[@class='explanation']"))


def test_matching_pairs_and_the_item_that_matches_nothing(quiz, page):
    q8 = section(page, "q8")
    rows = [[words(td) for td in tr.xpath("./td")] for tr in q8.xpath(".//table[@class='pairs']//tr")]
    question = next(q for q in quiz.questions if q.id == "q8")
    assert rows == [[pair.left.value, "→", pair.right.value] for pair in question.pairs]
    assert [words(li) for li in q8.xpath(".//ul[@class='distractors']/li")] == ["the learning rate"]


def test_ordering_lists_the_items_in_the_correct_order(page):
    items = [words(li) for li in section(page, "q9").xpath(".//ol[@class='order']/li")]
    assert items == ["forward pass", "backward pass", "optimizer step"]


def test_gaps_are_filled_with_what_they_accept(page):
    q10 = section(page, "q10")
    typed, picked = q10.xpath(".//mark[@class='gap']")
    assert [words(c) for c in typed.xpath(".//code")] == ["reduce-scatter", "reduce scatter"]
    assert words(picked.find(".//strong[@class='correct']")) == "all-gather"
    assert words(picked.find(".//span[@class='others']")) == "(broadcast, scatter)"
    assert words(q10.find(".//p[@class='filled']")).startswith("All-reduce is made of a 1 reduce-scatter")


def test_math_becomes_mathml_and_images_travel_inside_the_page(page):
    q11 = section(page, "q11")
    assert q11.xpath(".//math"), "TeX should be MathML"
    sources = [img.get("src") for img in page.xpath("//img")]
    assert sources and all(src.startswith(("data:image/png;base64,", "data:image/svg+xml;base64,")) for src in sources)


def test_the_page_is_styled_for_paper_and_self_contained(page):
    style = page.find(".//style").text
    assert "@page" in style and "@media print" in style
    assert page.xpath("//script") == [] and page.xpath("//link[@rel='stylesheet']") == []


def _quiz(lang: str, *questions) -> Quiz:
    return Quiz(id="k", title="<b>Title</b> & more", lang=lang, questions=questions)


def _choice(qid: str, prompt: Text, lang=None) -> MultipleChoice:
    return MultipleChoice(id=qid, prompt=prompt, lang=lang, choices=(
        Choice(id="a", text=Text("yes"), correct=True), Choice(id="b", text=Text("no"))))


def test_language_and_direction_follow_the_quiz_and_each_question():
    page = html.fromstring(render(_quiz("ar", _choice("q1", Text("ما هو؟")), _choice("q2", Text("What?"), lang="en"))))
    assert (page.get("lang"), page.get("dir")) == ("ar", "rtl")
    assert words(page.find(".//p[@class='kicker']")) == "مفتاح الإجابات"
    assert words(section(page, "q1").find(".//h2/span[@class='number']")) == "السؤال 1"
    assert (section(page, "q1").get("lang"), section(page, "q2").get("lang"), section(page, "q2").get("dir")) == \
        (None, "en", "ltr")


@pytest.mark.parametrize("lang", ["syr", "nqo", "rhg", "pa-PK", "az-Arab"])
def test_a_right_to_left_language_is_told_as_every_writer_tells_it(lang):
    """The key's direction is text.direction's (Unicode and CLDR), the one answer the writers
    give, not a list of its own: Syriac, N'Ko, Rohingya and Punjabi in Pakistan run right to left."""
    page = html.fromstring(render(_quiz(lang, _choice("q1", Text("?")), _choice("q2", Text("What?"), lang="en"))))
    assert (page.get("dir"), section(page, "q2").get("dir")) == ("rtl", "ltr")


def test_a_yoruba_quiz_gets_a_key_wholly_in_yoruba():
    page = html.fromstring(render(lmsexport.read(ROOT / "quizzes" / "fsdp-yo.txt")))
    assert (page.get("lang"), page.get("dir")) == ("yo", "ltr")
    assert words(section(page, "q1").find(".//h2/span[@class='number']")) == "Ìbéèrè 1"
    assert words(page.find(".//p[@class='kicker']")) == "Àwọn ìdáhùn tó tọ̀nà"


def test_text_is_escaped_and_html_passes_the_sanitiser():
    unsafe = Text('<p>hi<script>alert(1)</script><img src="x.png" onerror="alert(1)"></p>', "html")
    page = html.fromstring(render(_quiz("en", TrueFalse(id="q1", prompt=unsafe, answer=False))))
    assert page.find(".//h1").text == "<b>Title</b> & more"
    assert page.xpath("//script") == [] and page.xpath("//@onerror") == []
    assert words(section(page, "q1").find(".//p[@class='answer']")) == "Correct answer: False"


def test_the_same_quiz_gives_the_same_key(quiz):
    assert render(quiz) == render(lmsexport.read(ALL_KINDS))


def test_the_command_writes_one_key_per_quiz(tmp_path):
    out = tmp_path / "keys"
    result = CliRunner().invoke(main, ["key", str(ROOT / "quizzes"), "-o", str(out)])
    assert result.exit_code == 0, result.output
    names = sorted(p.name for p in out.iterdir())
    assert names == ["data-parallel-vi.key.html", "fsdp-yo.key.html", "zero-id.key.html"]  # nothing half-written
    assert f"-> {out.as_posix()}/fsdp-yo.key.html" in result.stdout
    first = (out / "zero-id.key.html").read_bytes()
    assert CliRunner().invoke(main, ["key", str(ROOT / "quizzes"), "-o", str(out)]).exit_code == 0
    assert (out / "zero-id.key.html").read_bytes() == first
    assert html.fromstring(first).get("lang") == "id"


def test_a_source_with_errors_gets_no_key_and_the_others_do(tmp_path):
    (tmp_path / "good.txt").write_text("Good\n\n1. Yes?\n   *• yes\n   • no\n", encoding="utf-8")
    (tmp_path / "bad.txt").write_text("Bad\n\n1. Which option is marked?\n   • a\n   • b\n", encoding="utf-8")
    (tmp_path / "twin").mkdir()
    (tmp_path / "twin" / "good.txt").write_text("Twin\n\n1. Yes?\n   *• yes\n   • no\n", encoding="utf-8")
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["key", str(tmp_path), "-o", str(out)])
    assert result.exit_code == 1
    assert sorted(p.name for p in out.iterdir()) == ["good.key.html"]
    assert "bad.txt:3:1: error:" in result.stderr
    assert "[E003]" in result.stderr and "twin/good.txt" in result.stderr


def test_a_pool_stands_together_under_what_each_attempt_draws():
    quiz = lmsexport.read(ROOT / "examples" / "pools" / "quiz.txt")
    page = html.fromstring(render(quiz))
    pools = page.xpath("//div[@class='pool']")
    assert [pool.get("id") for pool in pools] == ["pool1", "pool2"]
    assert [words(pool.find("h2")) for pool in pools] == [
        "Warm-up: each attempt draws 2 of these 4 questions 2 points each",
        "Harder: each attempt draws 1 of these 3 questions 3 points each"]
    assert [[s.get("id") for s in pool.xpath("section")] for pool in pools] == [list(p.questions) for p in quiz.pools]
    facts = [words(item) for item in page.xpath("//ul[@class='facts']/li")]
    assert facts == ["Questions: 9", "Each attempt: 5 questions", "Total: 9 points", "Pass mark: 60%"]
