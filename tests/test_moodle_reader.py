"""readers/moodle.py: round trips through writers/moodle.py, Moodle's own exports, and errors."""

from __future__ import annotations

import base64
import dataclasses
import re
from collections import Counter
from pathlib import Path

import pytest

import casefile
import lmsexport
from conftest import ROOT
from lmsexport import SourceError
from lmsexport.model import (
    Answer, Asset, Choice, Description, Essay, FillBlanks, Gap, Matching, MatchPair, MultipleChoice, Numeric,
    NumericAnswer, OrderItem, Ordering, Quiz, Settings, ShortAnswer, Text, TrueFalse,
)
from lmsexport.validation import validate_bytes
from lmsexport.formats.moodle import writer as writer

FIXTURES = Path(__file__).parent / "fixtures" / "moodle"
ERRORS = FIXTURES / "read-errors.txt"
SOURCES = sorted((ROOT / "quizzes").glob("*.txt")) + [ROOT / "examples" / "features.txt",
                                                     ROOT / "examples" / "all-kinds" / "quiz.txt",
                                                     ROOT / "examples" / "numbers" / "cs.txt"]
PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="


def _through_moodle(quiz: Quiz) -> Quiz:
    (content,) = lmsexport.write(quiz, 'moodle').files.values()
    return lmsexport.read(f"{quiz.id}.moodle.xml", content, format='moodle')


def without_lossy_fields(quiz: Quiz) -> Quiz:
    """The quiz as a Moodle question bank can hold it: see docs/formats/moodle.md, "Lossy fields"."""
    shuffles = any(q.kind in ("multiple_choice", "matching") or any(g.choices for g in getattr(q, "gaps", ()))
                   for q in quiz.questions)
    return dataclasses.replace(quiz, settings=Settings(shuffle=quiz.settings.shuffle and shuffles), lint_ignore=())


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: p.parent.name if p.stem == "quiz" else p.stem)
def test_quizzes_come_back_from_moodle_xml(source):
    quiz = lmsexport.read(source)
    assert _through_moodle(quiz) == without_lossy_fields(quiz)


def test_a_quiz_scored_all_or_nothing_comes_back_with_what_moodle_can_grade():
    """Moodle grades ordering all or nothing; the other kinds only partially (W661 when written),
    so they come back partial, each with the reader's W671."""
    quiz = dataclasses.replace(lmsexport.read(ROOT / "examples" / "all-kinds" / "quiz.txt"),
                               settings=Settings(scoring="all_or_nothing", shuffle=True, pass_mark=50.0,
                                                 feedback="end"))
    package = lmsexport.write(quiz, 'moodle')
    written = {d.message.split(":")[0] for d in package.warnings if d.code == "W661"}
    parts = {q.id: q.kind for q in quiz.questions if q.has_parts}
    assert written == {quiz.label(q) for q in quiz.questions if q.has_parts and q.kind != "ordering"}
    log = lmsexport.Log()
    back = lmsexport.read("x.moodle.xml", next(iter(package.files.values())), format='moodle', log=log)
    assert {q.id: back.scoring_of(q) for q in back.questions if q.has_parts} == {
        i: "all_or_nothing" if kind == "ordering" else "partial" for i, kind in parts.items()}
    assert [d.code for d in log.diagnostics] == ["W671"]  # the multiple-response question's -100 % penalties


RICH = ('<p><strong>Bold</strong>, <code>x = 1</code> and \\(x^2\\):</p>\n<ul>\n<li>one</li>\n</ul>\n'
        '<table><tbody><tr><td>1 &lt; 2</td></tr></tbody></table>\n<p>\\[\\frac{a}{b}\\]</p>')
ASSETS = (
    Asset(path="img/a.png", media_type="image/png", data=base64.b64decode(PNG)),
    Asset(path="img/b c.svg", media_type="image/svg+xml", data=b'<svg xmlns="http://www.w3.org/2000/svg"/>'),
    Asset(path="other/a.png", media_type="image/png", data=base64.b64decode(PNG) + b"other"),
)
"""Two images named a.png in two folders, and a name with a space, in the order the bank shows them."""


def _html(value: str) -> Text:
    return Text(value, "html")


def _every_kind() -> Quiz:
    """Every kind, with rich text, math, images and every feedback each kind's Moodle type can hold."""
    right, wrong = _html("<p><em>Right</em>.</p>"), Text("Wrong: 1 < 2.")
    feedback = {"correct_feedback": right, "incorrect_feedback": wrong}
    tricky = ['}#~/"\\', "=x", "%50%y", "a&", "&amp;", "{1:SA:=no}"]
    return Quiz(id="every-kind", title="Every kind", lang="en", settings=Settings(shuffle=True), assets=ASSETS,
                questions=(
        MultipleChoice(id="q1", prompt=_html(RICH + '<p><img src="img/a.png" alt="A"></p>'), **feedback,
                       explanation=_html('<p><img src="img/b c.svg" alt="B"> \\(\\sqrt{2}\\)</p>'),
                       choices=(Choice(id="a", text=_html('<img src="other/a.png" alt="other">'), correct=True,
                                       feedback=_html("<p>yes</p>")), Choice(id="b", text=Text("no")))),
        TrueFalse(id="q2", prompt=Text("False?"), answer=False, **feedback),
        ShortAnswer(id="q3", prompt=_html("<p>Capital?</p>"), case_sensitive=True, **feedback, answers=(
            Answer(text="Paris", feedback=_html("<p>Yes</p>")), Answer(text="par*", credit=50),
            Answer(text="Lyon", credit=0, feedback=Text("No")))),
        Numeric(id="q4", prompt=Text("Pi?"), points=3, **feedback, answers=(
            NumericAnswer(value=3, tolerance=0.5, credit=50), NumericAnswer(value=3.14159, tolerance=0.001,
                                                                            feedback=Text("Good")),
            NumericAnswer(value=1e-09, credit=-25))),
        Essay(id="q5", prompt=_html(RICH), lines=7, explanation=_html("<p>A model answer</p>")),
        Matching(id="q6", prompt=Text("Match."), **feedback, distractors=(Text("none"), Text("0 < 1")), pairs=(
            MatchPair(id="a", left=_html('<img src="img/a.png" alt="A"> \\(x\\)'), right=Text("ex")),
            MatchPair(id="b", left=Text("y < z"), right=Text("why & zed")))),
        Ordering(id="q7", prompt=Text("Order."), **feedback, items=(
            OrderItem(id="a", text=_html("\\(1\\)")), OrderItem(id="b", text=_html("<strong>2</strong>")),
            OrderItem(id="c", text=Text("3 < 4")))),
        FillBlanks(id="q8", prompt=Text("{1:SA:=x} is ___ or ___ ~ #."), points=4, case_sensitive=True, segments=(
            "{1:SA:=x} is ", Gap(id="g1", answers=(Answer(text=tricky[0]), *(
                Answer(text=t, credit=50, feedback=Text("<b>not</b> quite ~ } #")) for t in tricky[1:]))),
            " or ", Gap(id="g2", choices=(Choice(id="a", text=_html("<code>a~b</code>")),
                                         Choice(id="b", text=Text("{1:SA:x}"), correct=True,
                                                feedback=_html("<i>}</i>")))),
            " ~ #.")),
        Description(id="t1", points=0, prompt=_html('<p><img src="img/b c.svg" alt="B"></p>'),
                    explanation=Text("Read it.")),
    ))


def test_every_kind_with_rich_text_math_and_images_comes_back():
    quiz = _every_kind()
    (content,) = lmsexport.write(quiz, 'moodle').files.values()
    assert validate_bytes(content, source="every-kind.moodle.xml") == []
    assert lmsexport.read("every-kind.moodle.xml", content, format='moodle') == quiz


def _every_feature() -> Quiz:
    choices = (
        Choice(id="a", text=Text("<b>2</b> &amp; <i>3</i>", "html"), correct=True, feedback=Text("prime ]]>")),
        Choice(id="b", text=Text("4", lang="en"), feedback=Text("٤ ليس أوليًا", lang="ar")),
        Choice(id="c", text=Text("5\nfive"), correct=True),
        Choice(id="d", text=Text("9 🎓")),
        Choice(id="e", text=Text("7"), correct=True),
    )
    return Quiz(
        id="every-feature",
        title="Every feature: a/b, <i>, 1 < 2",
        lang="yo",
        description=Text("<p>Ìbéèrè <em>mẹ́ta</em></p>", "html"),
        settings=Settings(shuffle=True),
        tags=("week 1", "ml"),
        questions=(
            MultipleChoice(id="primes", prompt=Text("Ewo ni nọmba akọkọ?"), choices=choices, multiple_response=True,
                           points=2.5, explanation=Text("<p>Akọkọ: 2, 5, 7</p>", "html"), tags=("maths",)),
            MultipleChoice(id="fr", prompt=Text("Quelle ville ?"), lang="fr", title="Intro",
                           choices=(Choice(id="a", text=Text("Paris"), correct=True), Choice(id="b", text=Text("Lyon")))),
            MultipleChoice(id="q3", prompt=Text("Kí ni?"), title="Intro",
                           choices=(Choice(id="a", text=Text("bẹ́ẹ̀ni")), Choice(id="b", text=Text("rárá"), correct=True))),
        ),
    )


def test_every_model_feature_comes_back():
    quiz = _every_feature()
    back = _through_moodle(quiz)
    assert back.title == "Every feature: a/b, \u2039i>, 1 < 2"  # PHP strip_tags() would eat "<i>"
    assert back == dataclasses.replace(quiz, title=back.title)


def test_a_moodle_export_validates_and_reads():
    """A file as Moodle 4.x writes it (writequestion): CDATA, files, hints, tags, combined feedback."""
    path = FIXTURES / "moodle-4-export.xml"
    assert lmsexport.validate(path) == []
    with pytest.warns(lmsexport.ConversionWarning, match=r"'Prime numbers': Moodle grades .* -100 %.*\[W671\]"):
        quiz = lmsexport.read(path)  # each wrong option costs 100 %, not what a right one earns
    assert (quiz.id, quiz.title, quiz.lang, quiz.tags) == ("week-1", "Week 1 review", None, ("course-101",))
    assert quiz.description == Text("<p>Questions for the <strong>week 1</strong> review.</p>", "html")
    capital, primes = quiz.questions
    assert (capital.id, capital.title, capital.points, capital.tags) == ("capital-fr", "Capital of France", 2.0,
                                                                         ("geography", "europe"))
    # Files become assets, their @@PLUGINFILE@@ links (URL-encoded or not) the assets' paths.
    assert [(a.path, a.media_type, a.data) for a in quiz.assets] == [
        ("flag fr.png", "image/png", base64.b64decode(PNG)), ("sub/port.png", "image/png", base64.b64decode(PNG))]
    assert '<img src="flag fr.png" alt="French flag"' in capital.prompt.value
    assert '<img src="sub/port.png" alt="port">' in capital.choices[2].text.value
    assert capital.explanation == Text("<p>Paris has been the capital since 987 &amp; still is.</p>", "html")
    assert [(c.text.value, c.correct) for c in capital.choices[:2]] == [("<p>Paris</p>", True), ("Lyon", False)]
    assert capital.choices[1].feedback == Text("Lyon is the third largest city.") and capital.choices[2].feedback is None
    assert capital.correct_feedback is not None and capital.incorrect_feedback is not None
    assert (primes.id, primes.multiple_response, primes.tags) == ("primes", True, ("maths",))
    assert [c.correct for c in primes.choices] == [True, True, True, False]
    assert primes.choices[3].text == Text("<p>9, which ends a CDATA section: ]]&gt;</p>", "html")  # sanitised
    assert primes.choices[3].feedback == Text("9 = 3 x 3")
    assert _through_moodle(quiz) == quiz


def test_lmsexport_read_takes_xml_files_as_moodle_xml():
    with pytest.warns(lmsexport.ConversionWarning, match="wrong options 0, 0, 0 %"):  # no penalty: W671
        quiz = lmsexport.read(FIXTURES / "multichoice-testquestion.moodle.xml")
    assert (quiz.id, quiz.title, quiz.settings.shuffle) == ("multichoice-testquestion", "Default for C1", True)
    (question,) = quiz.questions
    assert question.multiple_response and question.title == "Multi-choice-001"
    assert [c.id for c in question.correct_choices] == ["c", "e"]


def test_moodles_own_exports_of_every_kind_read():
    """Moodle's qtype test fixtures: each question type the model has becomes its kind."""
    (essay,) = lmsexport.read(FIXTURES / "essay-testquestion.moodle.xml").questions
    assert (essay.kind, essay.lines, essay.explanation) == ("essay", 15, Text("This is general feedback"))
    (match,) = lmsexport.read(FIXTURES / "match-testquestion.moodle.xml").questions
    assert [(p.left.value, p.right.value) for p in match.pairs] == [
        ("frog", "amphibian"), ("cat", "mammal"), ("newt", "amphibian")]
    assert match.distractors == (Text("insect"),)
    assert (match.correct_feedback, match.incorrect_feedback) == (Text("Well done!"), Text("That is not right at all."))
    (order,) = lmsexport.read(FIXTURES / "ordering-testquestion.moodle.xml").questions
    assert [i.text.value for i in order.items] == [
        "Modular", "Object", "Oriented", "Dynamic", "Learning", "Environment"]
    (short,) = lmsexport.read(FIXTURES / "shortanswer-testquestion.moodle.xml").questions
    assert [(a.text, a.credit) for a in short.answers] == [("frog", 100), ("toad", 80)]
    assert short.incorrect_feedback == Text("That is a bad answer.")  # the last answer *, worth 0
    (tf,) = lmsexport.read(FIXTURES / "html_chars_in_idnumbers.xml").questions
    assert tf.kind == "true_false" and tf.answer is True
    bank = lmsexport.read(FIXTURES / "nested_categories_with_questions.xml")
    assert [q.kind for q in bank.questions] == ["true_false", "essay", "true_false", "true_false", "true_false"]


def test_moodles_numerical_description_and_cloze_questions_read():
    """moodle-bank-exemple.xml without its calculatedmulti questions, and the core Cloze of gapfill's examples."""
    bank = re.sub(r'<question type="calculatedmulti">.*?</question>', "",
                  (FIXTURES / "moodle-bank-exemple.xml").read_text(encoding="utf-8"), flags=re.DOTALL)
    quiz = lmsexport.read("bank.xml", bank, format='moodle')
    kinds = Counter(q.kind for q in quiz.questions)
    assert kinds == {"multiple_choice": 5, "numeric": 4, "essay": 1, "description": 1}
    two_answers = next(q for q in quiz.questions if q.title == "num:2rounding")
    assert [(a.value, a.tolerance, a.credit) for a in two_answers.answers] == [
        (1.4142135623730951, 0.001, 100), (1.4142135623730951, 0.1, 50)]
    assert [a.path for a in quiz.assets] == ["4.png", "dessin.svg"]
    gapfill = (FIXTURES / "gapfill-en-gapfill_examples.xml").read_text(encoding="utf-8")
    cloze = re.search(r'<question type="cloze">.*?</question>', gapfill, flags=re.DOTALL)[0]
    (question,) = lmsexport.read("cloze.xml", f"<quiz>{cloze}</quiz>", format='moodle').questions
    assert question.kind == "fill_blanks" and question.points == 2
    assert [g.answers[0].text for g in question.gaps] == ["cat", "mat"]
    assert question.prompt == Text("This is an example of the Moodle core Embedded (Cloze) question type for "
                                   "comparison with Gapfill.\n\nThe ___ sat on the ___")  # gap texts are plain


SKIPPED = {
    "gapfill-en-gapfill_examples.xml": [71, 135, 229, 305, 365, 437, 575, 651, 744, 834, 914, 986, 1056, 1140, 1240,
                                        1314, 1506, 1614, 1674, 1746, 1818, 1872],
    "moodle-bank-exemple.xml": [417, 534],
}


@pytest.mark.parametrize("name", sorted(SKIPPED))
def test_every_question_of_a_type_the_model_cannot_hold_is_skipped_with_a_warning_on_its_line(name):
    log = lmsexport.Log()
    quiz = lmsexport.read(FIXTURES / name, log=log)
    skipped = [d for d in log.diagnostics if d.code == "W681"]
    assert [d.span.line for d in skipped] == SKIPPED[name]
    assert all(d.message.endswith("the question is skipped") for d in skipped)
    assert quiz.questions, "the other questions are read"


def test_a_bank_with_2_calculated_questions_gives_the_11_others():
    log = lmsexport.Log()
    quiz = lmsexport.read(FIXTURES / "moodle-bank-exemple.xml", log=log)
    assert Counter(q.kind for q in quiz.questions) == {"multiple_choice": 5, "numeric": 4, "essay": 1, "description": 1}
    assert [d.message.split(":")[0] for d in log.diagnostics if d.code == "W681"] == [
        "question 9 'Calculée' (calculatedmulti)", "question 10 'CheckComputation' (calculatedmulti)"]


def test_a_file_of_which_no_question_can_be_read_is_refused_with_every_reason():
    with pytest.raises(SourceError) as caught:
        lmsexport.read(FIXTURES / "ddimageortext-testquestion.moodle.xml", log=lmsexport.Log())
    (error,) = caught.value.diagnostics
    assert (error.code, error.span.line) == ("E603", 12)
    assert error.message.startswith("question 1 'Imported Drag and drop onto image 001' (ddimageortext): its answers")
    with pytest.raises(SourceError) as caught:
        lmsexport.read(FIXTURES / "broken_cloze_questions.xml", log=lmsexport.Log())
    assert [(d.code, d.span.line) for d in caught.value.diagnostics] == [("E607", line) for line in (8, 24, 40, 56, 72)]


def test_close_fits_are_mapped_to_the_nearest_kind():
    log = lmsexport.Log()
    (select,) = lmsexport.read(FIXTURES / "gapselect-testquestion.moodle.xml", log=log).questions
    assert select.kind == "fill_blanks" and select.prompt == Text("The ___ ___ on the ___.")
    assert [[(c.text.value, c.correct) for c in gap.choices] for gap in select.gaps][0] == [
        ("cat", True), ("sat", False), ("mat", False), ("dog", False), ("table", False)]
    assert [next(c.text.value for c in gap.choices if c.correct) for gap in select.gaps] == ["cat", "sat", "mat"]
    (many,) = lmsexport.read(FIXTURES / "oumultiresponse-testquestion.moodle.xml", log=log).questions
    assert many.multiple_response and [c.text.value for c in many.correct_choices] == ["London", "Paris"]
    quiz = lmsexport.read(FIXTURES / "gapfill-en-gapfill_examples.xml", log=log)
    drag = next(q for q in quiz.questions if q.title == "Core DDWTos Example")
    assert drag.kind == "fill_blanks" and len(drag.gaps) == 2
    codes = Counter(d.code for d in log.diagnostics)
    assert codes["W683"] == 2 and codes["W684"] >= 2  # ddwtos and oumultiresponse mapped; hints left out


CALCULATED = """<quiz><question type="calculatedsimple"><name><text>Sum</text></name>
  <questiontext format="html"><text>What is {a} + {b} (twice: {={a}*2})?</text></questiontext>
  <answer fraction="100"><text>{a} + {b}</text><tolerance>0.1</tolerance><tolerancetype>1</tolerancetype>
    <correctanswerformat>1</correctanswerformat><correctanswerlength>2</correctanswerlength></answer>
  <dataset_definitions>
    <dataset_definition><status><text>private</text></status><name><text>a</text></name>
      <dataset_items><dataset_item><number>2</number><value>9</value></dataset_item>
        <dataset_item><number>1</number><value>1.5</value></dataset_item></dataset_items></dataset_definition>
    <dataset_definition><status><text>private</text></status><name><text>b</text></name>
      <dataset_items><dataset_item><number>1</number><value>2.5</value></dataset_item></dataset_items>
    </dataset_definition>
  </dataset_definitions></question></quiz>"""


def test_a_calculatedsimple_question_is_numeric_with_its_first_dataset_item():
    log = lmsexport.Log()
    (question,) = lmsexport.read("calc.xml", CALCULATED, format='moodle', log=log).questions
    assert question.prompt == Text("What is 1.5 + 2.5 (twice: 3)?")
    assert [(a.value, a.tolerance) for a in question.answers] == [(4.0, pytest.approx(0.4))]
    (warning,) = log.diagnostics
    assert warning.code == "W683" and "({a} = 1.5, {b} = 2.5)" in warning.message
    broken = CALCULATED.replace("{a} + {b}</text><tol", "{c} + exec('x')</text><tol")
    with pytest.raises(SourceError) as caught:
        lmsexport.read("calc.xml", broken, format='moodle')
    assert "the wildcard {c} has no value" in caught.value.diagnostics[0].message


def test_a_bare_question_is_read_as_a_bank_of_one_with_a_warning():
    log = lmsexport.Log()
    (question,) = lmsexport.read(FIXTURES / "testimportlong.moodle.xml", log=log).questions
    assert question.kind == "ordering"
    assert log.diagnostics[0].code == "W690" and "<quiz>" in log.diagnostics[0].hint


@pytest.mark.parametrize("case", casefile.load(ERRORS), ids=lambda c: c.id)
def test_errors(case, request):
    """Each case: the warnings of the questions skipped, then the errors if no question reads."""
    log = lmsexport.Log()
    try:
        lmsexport.read("case.xml", case.input, format='moodle', log=log)
        errors = []
    except SourceError as exc:
        errors = exc.diagnostics
    actual = "\n".join(d.render() for d in [*log.diagnostics, *errors])
    casefile.check(ERRORS, case, actual, request)


def test_a_bank_of_several_quizzes_reads_as_one_quiz_named_after_the_first():
    quizzes = [lmsexport.read(source) for source in SOURCES[:3]]
    (content,) = writer.write_bank(quizzes, "course").files.values()
    quiz = lmsexport.read("course.moodle.xml", content, format='moodle')
    assert (quiz.id, quiz.title) == (quizzes[0].id, quizzes[0].title)
    assert [q.prompt for q in quiz.questions] == [q.prompt for other in quizzes for q in other.questions]
    assert len({q.id for q in quiz.questions}) == 24


def test_formats_moodle_writes_are_read_as_moodle_shows_them():
    document = """<quiz><question type="multichoice"><name><text>N</text></name>
      <questiontext format="moodle_auto_format"><text>Line one
line &lt;b&gt;two&lt;/b&gt;</text></questiontext>
      <generalfeedback format="markdown"><text>**bold**</text></generalfeedback>
      <answer fraction="100" format="plain_text"><text>&lt;a&gt;</text></answer>
      <answer fraction="0"><text>x</text></answer></question></quiz>"""
    (question,) = lmsexport.read("f.xml", document, format='moodle').questions
    assert question.prompt == Text("Line one<br>line <b>two</b>", "html")
    assert question.explanation == Text("**bold**")  # Markdown is kept as its source
    assert question.choices[0].text == Text("<a>") and question.choices[1].text == Text("x")


def test_the_quiz_language_is_its_questions_most_common_one():
    document = """<quiz>{}</quiz>""".format("".join(
        f'<question type="multichoice"><name><text>N{i}</text></name><questiontext><text>'
        f'&lt;span lang="{lang}"&gt;Q&lt;/span&gt;</text></questiontext>'
        '<answer fraction="100"><text>a</text></answer><answer fraction="0"><text>b</text></answer></question>'
        for i, lang in enumerate(["fr", "de", "fr"])))
    quiz = lmsexport.read("langs.xml", document, format='moodle')
    assert quiz.lang == "fr" and [q.lang for q in quiz.questions] == [None, "de", None]
    assert quiz.id == "langs" and quiz.title == "langs"


def test_character_references_are_resolved_to_what_a_text_can_hold():
    document = """<quiz><question type="multichoice"><name><text>N</text></name>
      <questiontext><text>&amp;#1; e&amp;#769; &amp;amp;</text></questiontext>
      <answer fraction="100"><text>a</text></answer><answer fraction="0"><text>b</text></answer></question></quiz>"""
    (question,) = lmsexport.read("refs.xml", document, format='moodle').questions
    assert question.prompt == Text("\u00e9 &")  # sanitised: NFC, without U+0001, then a plain text


@pytest.mark.parametrize("golden", sorted((ROOT / "tests" / "golden" / "writers" / "moodle").glob("*.xml")),
                         ids=lambda p: p.stem)
def test_reading_and_rewriting_a_written_bank_gives_the_same_bytes(golden):
    content = golden.read_bytes()
    again = lmsexport.write(lmsexport.read(golden.name, content, format="moodle"), "moodle").files
    if golden.name == "pools.moodle.xml":
        # A category is no pool in Moodle (nothing in it says how many to draw): the pools' questions
        # come back as the quiz's own, as a quiz without pools writes them.
        source = lmsexport.read(ROOT / "examples" / "pools" / "quiz.txt")
        content = lmsexport.write(dataclasses.replace(source, pools=()), "moodle").files[golden.name]
    assert again == {golden.name: content}


def _with_file(name: str, text: str, data: bytes, path: str = "/") -> str:
    encoded = base64.b64encode(data).decode("ascii")
    return (f'<question type="description"><name><text>{name}</text></name><questiontext format="html">'
            f'<text>{text}</text><file name="{name}" path="{path}" encoding="base64">{encoded}</file>'
            '</questiontext></question>')


def test_files_of_one_name_in_several_questions_are_told_apart():
    """Each Moodle question has its own file area: two image.png may differ; the same one is kept once."""
    link = "&lt;img src=&quot;@@PLUGINFILE@@/image.png&quot;&gt;"
    document = "<quiz>{}</quiz>".format("".join([
        _with_file("image.png", link, b"\x89PNG one"), _with_file("image.png", link, b"\x89PNG two"),
        _with_file("image.png", link, b"\x89PNG one"), _with_file("notes.pdf", "&lt;a href=&quot;@@PLUGINFILE@@/notes.pdf"
                                                          "&quot;&gt;notes&lt;/a&gt;", b"%PDF")]))
    log = lmsexport.Log()
    quiz = lmsexport.read("files.xml", document, format='moodle', log=log)
    assert [(a.path, a.data) for a in quiz.assets] == [("image.png", b"\x89PNG one"), ("q2/image.png", b"\x89PNG two")]
    assert [q.prompt.value for q in quiz.questions[:3]] == [
        '<img src="image.png">', '<img src="q2/image.png">', '<img src="image.png">']
    # The model's assets are images: a link to any other file keeps its text, with a warning.
    assert quiz.questions[3].prompt == Text("notes")
    (warning,) = log.diagnostics
    assert warning.code == "W688" and "the file 'notes.pdf' is left out" in warning.message


def test_a_file_no_text_links_to_is_not_an_asset():
    quiz = lmsexport.read("unused.xml", f"<quiz>{_with_file('unused.png', 'no image', b'x')}</quiz>", format='moodle')
    assert quiz.assets == () and quiz.questions[0].prompt == Text("no image")


def test_an_image_whose_base64_holds_characters_beyond_ascii_is_refused_at_its_file():
    document = "<quiz>{}</quiz>".format(_with_file("a.png", "&lt;img src=&quot;@@PLUGINFILE@@/a.png&quot;&gt;", b"")
                                        .replace("</file>", "iVBOR²w0KGgo=</file>"))
    with pytest.raises(SourceError) as caught:
        lmsexport.read("damaged.xml", document, format="moodle")
    assert [(d.code, d.message) for d in caught.value.diagnostics] == [
        ("E610", "the image 'a.png' cannot be carried: its base64 data is damaged")]


EVIL_FILE = r"""<?xml version="1.0" encoding="UTF-8"?>
<quiz>
  <question type="essay">
    <name><text>Evil</text></name>
    <questiontext format="html">
      <text><![CDATA[<p><img src="@@PLUGINFILE@@/..%5C..%5Cevil.png"> Look</p>]]></text>
      <file name="..\..\evil.png" path="/" encoding="base64">iVBORw0KGgo=</file>
    </questiontext>
  </question>
</quiz>
"""


def test_a_file_name_that_would_leave_the_package_is_refused_on_read_and_on_validate(tmp_path):
    path = tmp_path / "evil.xml"
    path.write_text(EVIL_FILE, encoding="utf-8")
    with pytest.raises(SourceError) as caught:
        lmsexport.read(path)
    assert [(d.code, d.span.line) for d in caught.value.diagnostics] == [("E609", 7)]
    assert "the file name '..\\\\..\\\\evil.png' is unsafe" in caught.value.diagnostics[0].message
    assert ("V314", 7) in [(d.code, d.span.line) for d in validate_bytes(path.read_bytes(), source="evil.xml")]


GOLDENS = sorted(p for p in (ROOT / "tests" / "golden" / "readers" / "moodle").glob("*.xml"))


@pytest.mark.parametrize("source", GOLDENS, ids=lambda p: p.name)
def test_moodles_banks_come_back_through_our_writer(source):
    """A bank from Moodle, read, written by lmsexport and read again, is the same quiz, but for what
    the writer warns a Cloze question cannot hold (a gapselect's combined feedback, its points)."""
    quiz = lmsexport.read(source, log=lmsexport.Log())
    back = _through_moodle(quiz)
    if any(q.kind == "fill_blanks" for q in quiz.questions):
        quiz, back = (dataclasses.replace(q, questions=tuple(x for x in q.questions if x.kind != "fill_blanks"))
                      for q in (quiz, back))
    assert back == quiz


def _read(data, source: str = "case.xml"):
    """What the Moodle reader makes of `data`: the quiz (or None), the warnings, the errors."""
    from lmsexport.formats.moodle import reader

    log = lmsexport.Log()
    try:
        return reader.read(data, source=source, log=log), log.diagnostics, []
    except SourceError as exc:
        return None, log.diagnostics, exc.diagnostics


_CUT_BANKS = [*sorted(FIXTURES.glob("*.xml")), *(case.input.encode("utf-8") for case in casefile.load(ERRORS))]


@pytest.mark.parametrize("bank", _CUT_BANKS, ids=lambda bank: getattr(bank, "name", "case"))
def test_a_bank_read_in_chunks_is_the_bank_read_whole(bank):
    """A large bank is read from pieces let go as they are parsed (chunks.py): the same quiz,
    warnings and errors, with the same lines and columns, wherever the pieces are cut (one byte,
    a few, a block), and the pieces are gone once it is read."""
    from lmsexport.chunks import Chunks

    data = bank.read_bytes() if isinstance(bank, Path) else bank
    for size in (1, 7, 4096):
        chunks = Chunks.of(data, size)
        assert _read(chunks) == _read(data), size
        assert len(chunks) == 0 or _read(data)[0] is None
