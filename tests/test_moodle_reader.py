"""readers/moodle.py: round trips through writers/moodle.py, Moodle's own exports, and errors."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

import casefile
import lmsexport
from conftest import ROOT
from lmsexport import SourceError
from lmsexport.model import Choice, MultipleChoice, Quiz, Settings, Text
from lmsexport.readers import moodle as reader
from lmsexport.writers import moodle as writer

FIXTURES = Path(__file__).parent / "fixtures" / "moodle"
ERRORS = FIXTURES / "read-errors.txt"
SOURCES = sorted((ROOT / "quizzes").glob("*.txt")) + [ROOT / "examples" / "features.txt"]
PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="


def _through_moodle(quiz: Quiz) -> Quiz:
    (content,) = writer.write(quiz).files.values()
    return reader.read(content, source=f"{quiz.id}.moodle.xml")


def without_lossy_fields(quiz: Quiz) -> Quiz:
    """The quiz as a Moodle question bank can hold it: see docs/formats/moodle.md, "Lossy fields"."""
    return dataclasses.replace(quiz, settings=Settings(shuffle=quiz.settings.shuffle), lint_ignore=())


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: p.stem)
def test_quizzes_come_back_from_moodle_xml(source):
    quiz = lmsexport.read(source)
    assert _through_moodle(quiz) == without_lossy_fields(quiz)


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
    quiz = lmsexport.read(path)
    assert (quiz.id, quiz.title, quiz.lang, quiz.tags) == ("week-1", "Week 1 review", None, ("course-101",))
    assert quiz.description == Text("<p>Questions for the <strong>week 1</strong> review.</p>", "html")
    capital, primes = quiz.questions
    assert (capital.id, capital.title, capital.points, capital.tags) == ("capital-fr", "Capital of France", 2.0,
                                                                         ("geography", "europe"))
    assert f'<img src="data:image/png;base64,{PNG}" alt="French flag"' in capital.prompt.value
    assert f'<img src="data:image/png;base64,{PNG}" alt="port">' in capital.choices[2].text.value
    assert capital.explanation == Text("<p>Paris has been the capital since 987 &amp; still is.</p>", "html")
    assert [(c.text.value, c.correct) for c in capital.choices[:2]] == [("<p>Paris</p>", True), ("Lyon", False)]
    assert capital.choices[1].feedback == Text("Lyon is the third largest city.") and capital.choices[2].feedback is None
    assert (primes.id, primes.multiple_response, primes.tags) == ("primes", True, ("maths",))
    assert [c.correct for c in primes.choices] == [True, True, True, False]
    assert primes.choices[3].text == Text("<p>9, which ends a CDATA section: ]]></p>", "html")
    assert primes.choices[3].feedback == Text("9 = 3 x 3")
    assert _through_moodle(quiz) == quiz


def test_lmsexport_read_takes_xml_files_as_moodle_xml():
    quiz = lmsexport.read(FIXTURES / "multichoice-testquestion.moodle.xml")
    assert (quiz.id, quiz.title, quiz.settings.shuffle) == ("multichoice-testquestion", "Default for C1", True)
    (question,) = quiz.questions
    assert question.multiple_response and question.title == "Multi-choice-001"
    assert [c.id for c in question.correct_choices] == ["c", "e"]


UNSUPPORTED = {
    "broken_cloze_questions.xml": [4, 20, 36, 52, 68],
    "essay-testquestion.moodle.xml": [12],
    "html_chars_in_idnumbers.xml": [15],
    "moodle-bank-exemple.xml": [12, 259, 284, 312, 340, 375, 417, 534],
    "nested_categories_with_questions.xml": [15, 55, 83, 123, 163],
    "match-testquestion.moodle.xml": [12],
    "ordering-testquestion.moodle.xml": [12],
    "shortanswer-testquestion.moodle.xml": [12],
}


@pytest.mark.parametrize("name", sorted(UNSUPPORTED))
def test_every_question_of_a_type_not_read_is_reported_on_its_line(name):
    with pytest.raises(SourceError) as caught:
        lmsexport.read(FIXTURES / name)
    assert {d.code for d in caught.value.diagnostics} == {"E603"}
    assert [d.span.line for d in caught.value.diagnostics] == UNSUPPORTED[name]


def test_a_bare_question_is_refused_with_what_is_read():
    with pytest.raises(SourceError) as caught:
        lmsexport.read(FIXTURES / "testimportlong.moodle.xml")
    (error,) = caught.value.diagnostics
    assert error.code == "E602" and "<quiz>" in error.hint


@pytest.mark.parametrize("case", casefile.load(ERRORS), ids=lambda c: c.id)
def test_errors(case, request):
    with pytest.raises(SourceError) as caught:
        reader.read(case.input, source="case.xml")
    actual = "\n".join(d.render() for d in caught.value.diagnostics)
    if request.config.getoption("--update-goldens"):
        cases = casefile.load(ERRORS)
        for other in cases:
            if other.title == case.title:
                other.expected = actual
        casefile.save(ERRORS, cases)
        return
    assert actual == case.expected, f"{ERRORS.name}:{case.line}: {case.title}"


def test_a_bank_of_several_quizzes_reads_as_one_quiz_named_after_the_first():
    quizzes = [lmsexport.read(source) for source in SOURCES[:3]]
    (content,) = writer.write_bank(quizzes, "course").files.values()
    quiz = reader.read(content, source="course.moodle.xml")
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
    (question,) = reader.read(document, source="f.xml").questions
    assert question.prompt == Text("Line one<br>line <b>two</b>", "html")
    assert question.explanation == Text("**bold**")  # Markdown is kept as its source
    assert question.choices[0].text == Text("<a>") and question.choices[1].text == Text("x")


def test_the_quiz_language_is_its_questions_most_common_one():
    document = """<quiz>{}</quiz>""".format("".join(
        f'<question type="multichoice"><name><text>N{i}</text></name><questiontext><text>'
        f'&lt;span lang="{lang}"&gt;Q&lt;/span&gt;</text></questiontext>'
        '<answer fraction="100"><text>a</text></answer><answer fraction="0"><text>b</text></answer></question>'
        for i, lang in enumerate(["fr", "de", "fr"])))
    quiz = reader.read(document, source="langs.xml")
    assert quiz.lang == "fr" and [q.lang for q in quiz.questions] == [None, "de", None]
    assert quiz.id == "langs" and quiz.title == "langs"


def test_character_references_a_plain_text_cannot_hold_stay_html():
    document = """<quiz><question type="multichoice"><name><text>N</text></name>
      <questiontext><text>&amp;#1; e&amp;#769; &amp;amp;</text></questiontext>
      <answer fraction="100"><text>a</text></answer><answer fraction="0"><text>b</text></answer></question></quiz>"""
    (question,) = reader.read(document, source="refs.xml").questions
    assert question.prompt == Text("&#1; e&#769; &amp;", "html")


@pytest.mark.parametrize("golden", sorted((ROOT / "tests" / "golden" / "writers" / "moodle").glob("*.xml")),
                         ids=lambda p: p.stem)
def test_reading_and_rewriting_a_written_bank_gives_the_same_bytes(golden):
    content = golden.read_bytes()
    assert writer.write(reader.read(content, source=golden.name)).files == {golden.name: content}
