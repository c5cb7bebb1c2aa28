"""The model guards its invariants, and its JSON form round-trips."""

from __future__ import annotations

import dataclasses
import json

import pytest

import lmsexport
from conftest import ROOT
from lmsexport.model import Choice, ModelError, MultipleChoice, Quiz, Settings, Text
from lmsexport.formats.json import writer as json_writer

SOURCES = sorted((ROOT / "quizzes").glob("*.txt")) + [ROOT / "examples" / "features.txt"]


def _question(**changes):
    fields = dict(
        id="q1",
        prompt=Text("Which?"),
        choices=(Choice(id="a", text=Text("x"), correct=True), Choice(id="b", text=Text("y"))),
    )
    fields.update(changes)
    return MultipleChoice(**fields)


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.stem)
def test_text_model_json_model_round_trip(path):
    quiz = lmsexport.read(path)
    again = lmsexport.read("x.json", json_writer.dumps(quiz).encode(), format='json')
    assert again == quiz
    assert json_writer.dumps(again) == json_writer.dumps(quiz)


@pytest.mark.parametrize(
    "build, message",
    [
        (lambda: Text("e\u0301"), "NFC"),
        (lambda: Text("a\x01"), "XML cannot carry"),
        (lambda: Text("x", format="markdown"), "unknown text format"),
        (lambda: Text("x", lang="not a tag"), "bad language tag"),
        (lambda: _question(id="1st"), "bad question id"),
        (lambda: _question(points=-1.0), "bad points"),
        (lambda: _question(choices=(Choice(id="a", text=Text("x"), correct=True),)), "two options"),
        (lambda: _question(choices=(Choice(id="a", text=Text("x")), Choice(id="b", text=Text("y")))), "no correct"),
        (
            lambda: _question(choices=(Choice(id="a", text=Text("x"), correct=True), Choice(id="a", text=Text("y")))),
            "repeat",
        ),
        (
            lambda: _question(
                choices=(Choice(id="a", text=Text("x"), correct=True), Choice(id="b", text=Text("y"), correct=True))
            ),
            "several correct",
        ),
        (lambda: Settings(pass_mark=101), "pass mark"),
        (lambda: Settings(feedback="never"), "feedback mode"),
        (lambda: Settings(scoring="most"), "unknown scoring policy"),
        (lambda: _question(multiple_response=True, scoring="strict"), "unknown scoring"),
        (lambda: _question(scoring="all_or_nothing"), "one part has no scoring policy"),
        (lambda: Quiz(id="q", title=" ", questions=()), "title"),
        (lambda: Quiz(id="q", title="T", questions=(_question(), _question())), "repeat"),
    ],
)
def test_invariants_are_checked_on_construction(build, message):
    with pytest.raises(ModelError, match=message):
        build()


def test_model_objects_are_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        _question().points = 3  # type: ignore[misc]


def test_source_position_is_not_part_of_the_meaning():
    from lmsexport.diagnostics import SourceSpan

    assert _question(source=SourceSpan("a.txt", 3)) == _question(source=SourceSpan("b.txt", 9))


def test_plain_text_as_html_escapes_and_keeps_line_breaks():
    assert Text("1 < 2 & <b>\nnext").html() == "1 &lt; 2 &amp; &lt;b&gt;<br>next"
    assert Text("<b>kept</b>", format="html").html() == "<b>kept</b>"


def test_json_reader_refuses_other_model_versions():
    document = json.loads(json_writer.dumps(lmsexport.read(SOURCES[0])))
    document["lmsexport-model"] = 2
    with pytest.raises(lmsexport.SourceError, match="not an lmsexport model version 1"):
        lmsexport.read("x.json", json.dumps(document), format='json')


def test_a_question_s_own_policy_wins_over_the_quiz_s():
    own = _question(id="q2", multiple_response=True, scoring="all_or_nothing")
    quiz = Quiz(id="q", title="T", questions=(_question(), own))
    assert [quiz.scoring_of(q) for q in quiz.questions] == ["partial", "all_or_nothing"]
    strict = dataclasses.replace(quiz, settings=Settings(scoring="all_or_nothing"))
    assert strict.scoring_of(_question()) == "all_or_nothing"


def test_a_document_written_before_the_scoring_policy_reads_with_the_default():
    """Adding an optional field is no new model version: older documents still read."""
    document = json.loads(json_writer.dumps(lmsexport.read(SOURCES[0])))
    del document["quiz"]["settings"]["scoring"]
    assert all("scoring" not in question for question in document["quiz"]["questions"])
    quiz = lmsexport.read("x.json", json.dumps(document), format='json')
    assert quiz.settings.scoring == "partial" and quiz == lmsexport.read(SOURCES[0])


@pytest.mark.parametrize(
    "text, message",
    [
        ("{", "not valid JSON"),
        ('{"lmsexport-model": 1}', "missing field 'quiz'"),
        ('{"lmsexport-model": 1, "quiz": {"id": "q", "title": "T", "questions": [{"kind": "drawing"}]}}',
         "unknown question kind"),
        ("[]", "not an lmsexport model"),
        ('{"lmsexport-model": 1, "quiz": {"id": "q", "title": "T", "settings": {"scoring": "most"}, '
         '"questions": []}}', "unknown scoring policy"),
    ],
)
def test_json_reader_reports_bad_documents(text, message):
    with pytest.raises(lmsexport.SourceError, match=message):
        lmsexport.read("x.json", text, format='json')
