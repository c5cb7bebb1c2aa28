"""Every kind of question in the SCORM player, in Chromium against scorm-again, for both versions.

Each kind is answered right and wrong: what the learner sees (verdicts, feedback, the review),
what the LMS records (the interaction type, the response and the correct pattern in each
version's syntax, the result) and the score, with partial credit. Ordering and matching are
also taken with the keyboard alone, on a phone-sized screen, and every kind's answer
survives leaving and resuming. Math must be drawn and images loaded.
"""

from __future__ import annotations

import dataclasses
import json
import struct
import zlib
from pathlib import Path

import pytest

import lmsexport
from lmsexport.model import (
    Answer, Asset, Choice, Description, Essay, FillBlanks, Gap, Matching, MatchPair, Numeric, NumericAnswer,
    Ordering, OrderItem, Quiz, Settings, ShortAnswer, Text, TrueFalse,
)

from .lms import VERSIONS, WRONG_RESULT, Run, interactions, outcome, package

ROOT = Path(__file__).resolve().parents[2]
ALL_KINDS = ROOT / "examples" / "all-kinds" / "quiz.txt"


def png(width: int, height: int) -> bytes:
    """A red PNG image of the given size."""
    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    rows = b"".join(b"\x00" + b"\xff\x00\x00" * width for _ in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


def kinds_quiz(**settings) -> Quiz:
    """One question of each kind but choice (test_scorm_player.py plays those), after a text with math and an image."""
    return Quiz(id="kinds", title="Kinds", lang="en", settings=Settings(**settings),
                assets=(Asset(path="img/dot.png", media_type="image/png", data=png(4, 4)),), questions=(
        Description(id="t1", points=0, prompt=Text(
            '<p>Read: <img src="img/dot.png" alt="A dot" width="40"> and \\(\\frac{a}{b}\\)</p>', "html")),
        TrueFalse(id="q1", prompt=Text("Water boils at 50 °C."), answer=False, correct_feedback=Text("Yes."),
                  incorrect_feedback=Text("It boils at 100 °C."), explanation=Text("At sea level.")),
        ShortAnswer(id="q2", prompt=Text("Which collective sums across ranks?"), answers=(
            Answer(text="all-reduce"), Answer(text="allreduce*", credit=50, feedback=Text("Mind the hyphen.")))),
        Numeric(id="q3", prompt=Text("Pi to two decimals?"), points=2, answers=(
            NumericAnswer(value=3.14, tolerance=0.01), NumericAnswer(value=3, tolerance=0.5, credit=50,
                                                                     feedback=Text("Nearly.")))),
        Essay(id="q4", prompt=Text("Why?"), lines=3),
        Matching(id="q5", prompt=Text("Match."), distractors=(Text("metal"),), pairs=(
            MatchPair(id="a", left=Text("H2O"), right=Text("water")),
            MatchPair(id="b", left=Text("NaCl"), right=Text("salt")),
            MatchPair(id="c", left=Text("CO2"), right=Text("gas")))),
        Ordering(id="q6", prompt=Text("Order."), items=tuple(
            OrderItem(id=i, text=Text(t)) for i, t in (("a", "one"), ("b", "two"), ("c", "three")))),
        FillBlanks(id="q7", prompt=Text("Paris is in ___ and Rome in ___."), case_sensitive=True, segments=(
            "Paris is in ", Gap(id="g1", answers=(Answer(text="France"),)), " and Rome in ",
            Gap(id="g2", choices=(Choice(id="a", text=Text("Italy"), correct=True),
                                  Choice(id="b", text=Text("Spain"), feedback=Text("Spain is west.")))),
            ".")),
    ))


class Learner:
    """Answers whatever question the player shows, right or wrong, from the page's own data."""

    def __init__(self, run: Run):
        self.run, self.frame, self.keys = run, run.frame, run.page.keyboard

    def answer(self, question: dict, right: bool) -> None:
        getattr(self, question["kind"])(question, right)

    def description(self, question, right):
        pass

    def multiple_choice(self, question, right):
        ids = [c["id"] for c in question["choices"] if c.get("correct", False) == right]
        self.run.choose(*(ids if right else ids[:1]))

    def true_false(self, question, right):
        self.run.choose(str(question["answer"] == right).lower())

    def short_answer(self, question, right):
        text = next(a["text"] for a in question["answers"] if a["credit"] == 100).replace("*", "x")
        # Spaces around and, when case does not matter, other letter case: both must not count.
        typed = f"  {text if question.get('caseSensitive') else text.upper()} " if right else "zzz"
        self.frame.locator("#answer-input").fill(typed)

    def numeric(self, question, right):
        answer = next(a for a in question["answers"] if a["credit"] == 100)
        typed = f"{answer['value']:g}".replace(".", ",") if right else str(answer["value"] + answer["tolerance"] + 1000)
        self.frame.locator("#answer-input").fill(typed)

    def essay(self, question, right):
        self.frame.locator("#answer-input").fill("First line.\nSecond line.")

    def matching(self, question, right):
        options = [option["id"] for option in question["options"]]
        for pair in question["pairs"]:
            chosen = pair["option"] if right else next(o for o in options if o != pair["option"])
            self.frame.locator(f"select[name={pair['id']}]").select_option(chosen)

    def ordering(self, question, right):
        """Right: the items in order; wrong: each one place off (none in its place earns anything)."""
        ids = [item["id"] for item in question["items"]]
        self.reorder(ids if right else ids[1:] + ids[:1])

    def reorder(self, ids: list[str]) -> None:
        """Move each item up to its place with the keyboard: focus its Move up button, press Enter."""
        for position, item in enumerate(ids):
            for _ in range(self.shown_order().index(item) - position):
                self.frame.locator(f"#item-{item}-up").focus()
                self.keys.press("Enter")
        assert self.shown_order() == ids

    def shown_order(self) -> list[str]:
        return self.frame.locator(".order-item").evaluate_all("rows => rows.map((row) => row.dataset.id)")

    def fill_blanks(self, question, right):
        for segment in (s for s in question["segments"] if "gap" in s):
            control = self.frame.locator(f".gap[name={segment['gap']}]")
            if "choices" in segment:
                control.select_option(next(c["id"] for c in segment["choices"] if c.get("correct", False) == right))
            else:
                control.fill(next(a["text"] for a in segment["answers"] if a["credit"] == 100) if right else "zzz")


DRAWN = """async (stage) => {
  const shown = (e) => { const box = e.getBoundingClientRect(); return box.width > 0 && box.height > 0; };
  const images = [...stage.querySelectorAll("#prompt img")];
  await Promise.all(images.map((img) => img.decode().catch(() => null)));   // loaded, or failed for good
  return {
    math: [...stage.querySelectorAll("#prompt math")].filter(shown).length,
    img: images.filter((img) => shown(img) && img.naturalWidth > 0).length,
  };
}"""
"""How many formulas of the prompt are drawn, and how many of its images loaded (once loading ends)."""

TYPES = {"multiple_choice": "choice", "true_false": "true-false", "short_answer": "fill-in", "numeric": "numeric",
         "essay": {"1.2": "fill-in", "2004": "long-fill-in"}, "matching": "matching", "ordering": "sequencing",
         "fill_blanks": "fill-in"}


@pytest.mark.parametrize("version", VERSIONS)
def test_the_feature_fixture_answered_right_then_wrong(page, new_page, site, artifacts, version):
    quiz = lmsexport.read(ALL_KINDS)
    immediate = dataclasses.replace(quiz, settings=dataclasses.replace(quiz.settings, feedback="immediate"))
    right = Run(page, site, version, package(immediate, version))
    data = right.data()
    learner = Learner(right)
    drawn = {"math": 0, "img": 0}
    for number, question in enumerate(data["questions"]):
        for kind, count in right.frame.locator("#stage").evaluate(DRAWN).items():
            drawn[kind] += count
        learner.answer(question, right=True)
        if question["kind"] != "description":
            right.button.click()
            expected = "To be graded" if question["kind"] == "essay" else "Correct"
            assert right.text(".feedback .verdict") == expected, question["id"]
            if version == "2004":         # one set of pictures: the page is the same in both versions
                page.screenshot(path=artifacts / f"scorm-all-kinds-{number:02}-{question['id']}.png", full_page=True)
        right.button.click()
    snapshot = right.finished()["final"]
    assert drawn["math"] > 0 and drawn["img"] > 0                      # the fixture has both
    assert drawn == {"math": sum(q["prompt"]["value"].count("<math") for q in data["questions"]),
                     "img": sum(q["prompt"]["value"].count("<img") for q in data["questions"])}
    scored = [q for q in data["questions"] if q["kind"] not in ("description", "essay")]
    recorded = interactions(version, snapshot)
    answered = [q for q in data["questions"] if q["kind"] != "description"]
    assert [item["type"] for item in recorded] == [
        TYPES[q["kind"]][version] if q["kind"] == "essay" else TYPES[q["kind"]] for q in answered]
    assert [item["result"] for item in recorded] == ["" if q["kind"] == "essay" else "correct" for q in answered]
    total = sum(q["points"] for q in scored)
    assert_pending(version, snapshot, earned=total, total=total)
    assert right.text(".summary").startswith("You have completed the quiz. Your teacher will grade")
    right.check_clean()

    wrong = Run(new_page(), site, version, package(quiz, version))
    learner = Learner(wrong)
    for question in data["questions"]:
        learner.answer(question, right=False)
        wrong.button.click()
    snapshot = wrong.finished()["final"]
    results = [item["result"] for item in interactions(version, snapshot)]
    assert results == ["" if q["kind"] == "essay" else WRONG_RESULT[version] for q in answered]
    assert_pending(version, snapshot, earned=0, total=total)
    verdicts = wrong.frame.locator(".review-item .verdict").all_inner_texts()
    assert verdicts == ["To be graded" if q["kind"] == "essay" else "Incorrect" for q in answered]
    wrong.page.set_viewport_size({"width": 900, "height": 6000})
    wrong.page.screenshot(path=artifacts / f"scorm{version.replace('.', '')}-all-kinds-results.png")
    wrong.check_clean()


def assert_pending(version: str, snapshot: dict, *, earned: float, total: float) -> None:
    """With an essay: completed, no pass or fail, the score of the other questions."""
    result = outcome(version, snapshot)
    if version == "1.2":
        assert result["status"] == "completed"
        assert float(result["score"]["raw"]) == pytest.approx(100 * earned / total, abs=0.01)
    else:
        assert (result["completion"], result["success"]) == ("completed", "unknown")
        assert float(result["score"]["raw"]) == pytest.approx(earned, abs=1e-6)
        assert float(result["score"]["max"]) == total


# What the LMS records for each kind, right and wrong, in each version's syntax (RTE 1.2 3.4.2.7, 2004 4.2.9).
RIGHT = {
    "1.2": [("true-false", "f", ["f"], "correct"), ("fill-in", "ALL-REDUCE", ["all-reduce"], "correct"),
            ("numeric", "3.14", ["3.14"], "correct"), ("fill-in", "First line. ¶ Second line.", [], ""),
            ("matching", "a.1,b.2,c.3", ["a.1,b.2,c.3"], "correct"), ("sequencing", "a,b,c", ["a,b,c"], "correct"),
            ("fill-in", "France,Italy", ["France,Italy"], "correct")],
    "2004": [("true-false", "false", ["false"], "correct"),
             ("fill-in", "ALL-REDUCE", ["{case_matters=false}all-reduce"], "correct"),
             ("numeric", "3.14", ["3.13[:]3.15"], "correct"),
             ("long-fill-in", "First line. ¶ Second line.", [], ""),
             ("matching", "a[.]1[,]b[.]2[,]c[.]3", ["a[.]1[,]b[.]2[,]c[.]3"], "correct"),
             ("sequencing", "a[,]b[,]c", ["a[,]b[,]c"], "correct"),
             ("fill-in", "France[,]Italy", ["{case_matters=true}{order_matters=true}France[,]Italy"], "correct")],
}
PARTLY = {  # typed and picked in test_each_kind_wrong_or_partly_right
    "q1": "true", "q2": "allreduce-ring", "q3": "3.3", "q4": "x", "q5": {"a": "1", "b": "4", "c": "2"},
    "q6": ["c", "b", "a"], "q7": ("france", "a"),
}



def take_kinds(run: Run, answers: dict, immediate: bool) -> list[str]:
    """Answer kinds_quiz: typed text or picks per question, q6 the order to put the items in (or
    none, to leave them as shown); returns the order the ordering question was shown in."""
    frame = run.frame
    assert frame.locator("#prompt math").bounding_box()["width"] > 0
    assert frame.locator("#prompt img").evaluate("img => img.decode().then(() => img.naturalWidth)") == 4

    def submit(last=False):
        run.button.click()
        if immediate and not last:
            run.button.click()

    run.button.click()                                                  # the text block
    run.choose(answers["q1"])
    submit()
    for question in ("q2", "q3", "q4"):
        frame.locator("#answer-input").fill(answers[question])
        submit()
    for left, option in answers["q5"].items():
        frame.locator(f"select[name={left}]").select_option(option)
    submit()
    shown = Learner(run).shown_order()
    if answers.get("q6"):
        Learner(run).reorder(answers["q6"])
    submit()
    frame.locator(".gap[name=g1]").fill(answers["q7"][0])
    frame.locator(".gap[name=g2]").select_option(answers["q7"][1])
    submit(last=True)
    return shown


@pytest.mark.parametrize("version", VERSIONS)
def test_each_kind_right_in_the_versions_syntax(page, site, version, expect):
    run = Run(page, site, version, package(kinds_quiz(), version))
    right = {"q1": "false", "q2": " ALL-REDUCE ", "q3": "3,14", "q4": "First line.\nSecond line.",
             "q5": {"a": "1", "b": "2", "c": "3"}, "q6": ["a", "b", "c"], "q7": ("France", "a")}
    take_kinds(run, right, immediate=True)
    assert run.text(".feedback .verdict") == "Correct"
    run.button.click()
    snapshot = run.finished()["final"]
    recorded = [(i["type"], i["response"], i["patterns"], i["result"]) for i in interactions(version, snapshot)]
    assert recorded == RIGHT[version]
    result = outcome(version, snapshot)
    assert result["score"]["raw"] == ("100" if version == "1.2" else "7")
    assert run.text(".score") == "Score: 7 of 7 (100%)"
    run.check_clean()


@pytest.mark.parametrize("version", VERSIONS)
def test_each_kind_wrong_or_partly_right_with_its_feedback(page, site, version):
    run = Run(page, site, version, package(kinds_quiz(feedback="end"), version))
    take_kinds(run, PARTLY, immediate=False)
    snapshot = run.finished()["final"]
    recorded = [(i["type"], i["response"], i["result"]) for i in interactions(version, snapshot)]
    wrong, join = WRONG_RESULT[version], {"1.2": ",", "2004": "[,]"}[version]
    pairs = {"1.2": "a.1,b.4,c.2", "2004": "a[.]1[,]b[.]4[,]c[.]2"}[version]
    assert recorded == [
        ("true-false", {"1.2": "t", "2004": "true"}[version], wrong), ("fill-in", "allreduce-ring", wrong),
        ("numeric", "3.3", wrong), ({"1.2": "fill-in", "2004": "long-fill-in"}[version], "x", ""),
        ("matching", pairs, wrong), ("sequencing", join.join(PARTLY["q6"]), wrong),
        ("fill-in", join.join(["france", "Italy"]), wrong)]
    # 0 + 0.5 (the wildcard answer) + 1 (half of 2) + 1/3 (one pair) + 1/3 (one item in its place)
    # + 0.5 (one blank of two) = 2.67 of 7.
    result = outcome(version, snapshot)
    assert result["score"]["raw"] == ("38.1" if version == "1.2" else "2.6666667")
    items = run.frame.locator(".review-item")
    assert items.locator(".verdict").all_inner_texts() == [
        "Incorrect", "Partly correct", "Partly correct", "To be graded", "Partly correct", "Partly correct",
        "Partly correct"]
    first = items.nth(0).inner_text()
    assert "It boils at 100 °C." in first and "At sea level." in first and "Yes." not in first
    assert "Mind the hyphen." in items.nth(1).inner_text() and "Nearly." in items.nth(2).inner_text()
    assert "Correct answer" not in items.nth(3).inner_text() and "First" not in items.nth(3).inner_text()
    assert items.nth(6).locator("dd .filled").all_inner_texts() == ["france", "Italy", "France", "Italy"]
    assert run.text(".summary").startswith("You have completed the quiz. Your teacher will grade")
    run.check_clean()


# ---- The keyboard alone, on a phone ----

PHONE_CHECK = """() => ({
  overflow: document.documentElement.scrollWidth > document.documentElement.clientWidth,
  small: [...document.querySelectorAll('button, select, .order-item, .match')]
    .filter((e) => e.getBoundingClientRect().height < 44).length,
})"""


def tab_to(run: Run, selector: str) -> None:
    """Press Tab until the focus is on `selector` (as a keyboard user moves through the page)."""
    for _ in range(30):
        run.page.keyboard.press("Tab")
        if run.frame.locator(f"{selector}:focus").count():
            return
    raise AssertionError(f"Tab never reached {selector}")


NAMES = {"a": "one", "b": "two", "c": "three"}
"""The items of kinds_quiz's ordering question."""


def test_matching_and_ordering_with_the_keyboard_alone_on_a_phone(page, site, artifacts, expect):
    page.set_viewport_size({"width": 360, "height": 740})
    quiz = kinds_quiz()
    quiz = dataclasses.replace(quiz, questions=quiz.questions[5:7])
    run = Run(page, site, "2004", package(quiz, "2004"))
    body, keys = run.frame.locator("body"), page.keyboard
    assert body.evaluate(PHONE_CHECK) == {"overflow": False, "small": 0}
    labels = "selects => selects.map((s) => s.labels.length || s.getAttribute('aria-labelledby'))"
    assert run.frame.locator("select").evaluate_all(labels) == ["left-a", "left-b", "left-c"]
    for left, word in (("a", "water"), ("b", "salt"), ("c", "gas")):
        tab_to(run, f"select[name={left}]")
        keys.type(word)                          # a closed select picks the option typed
        assert run.frame.locator(f"select[name={left}]").input_value() == {"water": "1", "salt": "2", "gas": "3"}[word]
    tab_to(run, "button.primary")
    keys.press("Enter")
    assert run.text(".feedback .verdict") == "Correct"
    keys.press("Enter")                          # next question, focus on its heading
    assert run.frame.locator("h2:focus").inner_text() == "Question 2 of 2"
    learner = Learner(run)
    shown = learner.shown_order()
    page.screenshot(path=artifacts / "scorm2004-phone-ordering.png")
    assert body.evaluate(PHONE_CHECK) == {"overflow": False, "small": 0}
    for position, item in enumerate(["a", "b", "c"]):
        moves = learner.shown_order().index(item) - position
        if moves:
            tab_to(run, f"#item-{item}-up")
        for _ in range(moves):
            keys.press("Enter")
        if moves:
            # Focus stays with the item moved; the learner hears where it is now.
            assert run.frame.locator(f"#item-{item}-up:focus, #item-{item}-down:focus").count() == 1
            expect(run.frame.locator("#announcer")).to_have_text(f"{NAMES[item]}: position {position + 1} of 3.")
    assert learner.shown_order() == ["a", "b", "c"] != shown
    tab_to(run, "button.primary")
    keys.press("Enter")
    assert run.text(".feedback .verdict") == "Correct"
    keys.press("Enter")
    snapshot = run.finished()["final"]
    assert [i["result"] for i in interactions("2004", snapshot)] == ["correct", "correct"]
    run.check_clean()


# ---- Leaving and resuming ----

@pytest.mark.parametrize("version", VERSIONS)
def test_every_kinds_answer_and_order_survive_leaving_and_resuming(page, new_page, site, version):
    files = package(kinds_quiz(feedback="end", shuffle=True), version)
    first = Run(page, site, version, files)
    answers = {**PARTLY, "q3": "3,14", "q4": "Line one\nLine two"}
    first.button.click()
    first.choose(answers["q1"])
    first.button.click()
    for question in ("q2", "q3", "q4"):
        first.frame.locator("#answer-input").fill(answers[question])
        first.button.click()
    options = first.frame.locator("select[name=a] option").evaluate_all("options => options.map((o) => o.value)")
    for left, option in answers["q5"].items():
        first.frame.locator(f"select[name={left}]").select_option(option)
    first.button.click()
    shown = Learner(first).shown_order()
    page.evaluate("window.__leave()")
    left = outcome(version, first.finished()["final"])
    saved = json.loads(left["suspend_data"])
    assert saved["i"] == 6
    assert saved["a"] == {"q1": "true", "q2": "allreduce-ring", "q3": "3,14", "q4": "Line one\nLine two",
                          "q5": {"a": "1", "b": "4", "c": "2"}}
    assert saved["o"]["q6"] == ",".join(shown) and saved["o"]["q5"] == ",".join(options[1:])
    first.check_clean()

    entry = {"core": {"entry": "resume"}} if version == "1.2" else {"entry": "resume"}
    again = Run(new_page(), site, version, files, {**entry, "suspend_data": left["suspend_data"]})
    assert again.text("h2") == "Question 6 of 7" and Learner(again).shown_order() == shown
    again.button.click()
    gaps = again.frame.locator("select.gap option").evaluate_all("options => options.map((o) => o.value)")
    again.frame.locator(".gap[name=g1]").fill("France")
    again.frame.locator(".gap[name=g2]").select_option("a")
    again.button.click()
    again.finished()
    review = again.frame.locator(".review-item")
    assert review.nth(3).locator(".essay").inner_text() == "Line one\nLine two"
    assert review.nth(2).locator("dd").first.inner_text() == "3,14"
    assert review.nth(4).locator("dd").first.locator("li").all_inner_texts() == [
        "H2O → water", "NaCl → metal", "CO2 → salt"]
    assert sorted(gaps) == ["", "a", "b"]
    again.check_clean()
