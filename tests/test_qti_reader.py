"""The QTI 2.1 reader on packages and items other tools wrote, and on input it must refuse.

Round trips of lmsexport's own packages are in test_qti.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import lmsexport
from conftest import ROOT
from lmsexport import SourceError, registry
from lmsexport.package import zip_bytes
from lmsexport.readers import qti21 as reader
from lmsexport.writers import qti21 as writer

FIXTURES = Path(__file__).parent / "fixtures" / "qti21"
NS = 'xmlns="http://www.imsglobal.org/xsd/imsqti_v2p1"'


def _errors(data: bytes, source: str = "p.zip") -> list[tuple[str, str, str]]:
    with pytest.raises(SourceError) as caught:
        reader.read(data, source=source)
    return [(d.code, str(d.span), d.message) for d in caught.value.diagnostics]


def _features() -> dict[str, bytes]:
    return dict(writer.write(lmsexport.read(ROOT / "examples" / "features.txt")).files)


def test_registered_by_name_only():
    assert registry.reader("qti21") is reader
    assert ".zip" not in registry.READER_EXTENSIONS


def test_an_ims_sample_item_reads_as_a_one_question_quiz():
    quiz = reader.read((FIXTURES / "choice.xml").read_bytes(), source="choice.xml")
    (question,) = quiz.questions
    assert (quiz.id, quiz.title, question.title) == ("choice", "Unattended Luggage", "Unattended Luggage")
    assert question.points == 1.0
    assert question.prompt.format == "html" and question.prompt.value == (
        '<p>Look at the text in the picture.</p><p><img src="images/sign.png" alt="NEVER LEAVE LUGGAGE UNATTENDED"></p>'
        "<div>What does it say?</div>"
    )
    assert [(c.id, c.correct) for c in question.choices] == [("ChoiceA", True), ("ChoiceB", False), ("ChoiceC", False)]
    assert str(question.source) == "choice.xml:6"


def test_points_of_a_foreign_item_come_from_its_mapping():
    quiz = reader.read((FIXTURES / "choice_multiple.xml").read_bytes(), source="choice_multiple.xml")
    (question,) = quiz.questions
    assert question.multiple_response and question.points == 2.0 and quiz.settings.shuffle
    assert question.prompt.value == "Which of the following elements are used to form water?"
    assert [c.id for c in question.correct_choices] == ["H", "O"]


def test_other_interactions_are_refused_at_their_place():
    assert _errors((FIXTURES / "text_entry.xml").read_bytes(), "text_entry.xml") == [
        ("E803", "text_entry.xml:20",
         "the item has textEntryInteraction; lmsexport reads items with one choiceInteraction")]


def test_a_foreign_package_reports_every_item_it_cannot_read():
    assert _errors((FIXTURES / "WebDeveloperTest1.zip").read_bytes(), "wdt.zip") == [
        ("E803", "wdt.zip!question8.xml:24",
         "the item has inlineChoiceInteraction; lmsexport reads items with one choiceInteraction")]


def test_problems_in_several_items_arrive_together():
    files = _features()
    files["items/q2.xml"] = files["items/q2.xml"].replace(b"</itemBody>", b"")
    files["items/q5.xml"] = files["items/q5.xml"].replace(b"<correctResponse>", b"<!---->").replace(
        b"</correctResponse>", b"")
    files = {k: v.replace(b"<value>a</value>\n    ", b"") if k == "items/q5.xml" else v for k, v in files.items()}
    errors = _errors(zip_bytes(files))
    assert [(code, where) for code, where, _ in errors] == [
        ("E802", "p.zip!items/q2.xml:30:18"), ("E803", "p.zip!items/q5.xml:3")]
    assert errors[1][2] == "the response declaration has no correctResponse"


def test_a_missing_item_is_reported_where_the_test_refers_to_it():
    files = {name: content for name, content in _features().items() if name != "items/q3.xml"}
    assert _errors(zip_bytes(files)) == [
        ("E805", "p.zip!test.xml:22", "'items/q3.xml' is referred to here but is not in the package")]


def test_feedback_the_model_cannot_hold_is_refused():
    item = f"""<assessmentItem {NS} identifier="i" title="t" adaptive="false" timeDependent="false">
  <responseDeclaration identifier="RESPONSE" cardinality="single" baseType="identifier">
    <correctResponse><value>A</value></correctResponse></responseDeclaration>
  <outcomeDeclaration identifier="FEEDBACK" cardinality="single" baseType="identifier"/>
  <itemBody><choiceInteraction responseIdentifier="RESPONSE" maxChoices="1">
    <simpleChoice identifier="A">a</simpleChoice><simpleChoice identifier="B">b</simpleChoice>
  </choiceInteraction></itemBody>
  <responseProcessing><responseCondition><responseIf>
    <match><variable identifier="RESPONSE"/><correct identifier="RESPONSE"/></match>
    <setOutcomeValue identifier="FEEDBACK"><baseValue baseType="identifier">correct_fb</baseValue></setOutcomeValue>
  </responseIf></responseCondition></responseProcessing>
  <modalFeedback outcomeIdentifier="FEEDBACK" identifier="correct_fb" showHide="show">Right</modalFeedback>
</assessmentItem>""".encode()
    assert _errors(item, "i.xml") == [
        ("E803", "i.xml:12", "modalFeedback 'correct_fb' is shown on a condition the model has no place for")]


def test_feedback_set_to_the_response_itself_is_per_option_feedback():
    item = f"""<assessmentItem {NS} identifier="i" title="t" adaptive="false" timeDependent="false">
  <responseDeclaration identifier="RESPONSE" cardinality="single" baseType="identifier">
    <correctResponse><value>A</value></correctResponse></responseDeclaration>
  <outcomeDeclaration identifier="FEEDBACK" cardinality="single" baseType="identifier"/>
  <itemBody><p>Q?</p><choiceInteraction responseIdentifier="RESPONSE" maxChoices="1">
    <simpleChoice identifier="A">a</simpleChoice><simpleChoice identifier="B">b</simpleChoice>
  </choiceInteraction></itemBody>
  <responseProcessing template="http://www.imsglobal.org/question/qti_v2p1/rptemplates/match_correct">
    <setOutcomeValue identifier="FEEDBACK"><variable identifier="RESPONSE"/></setOutcomeValue>
  </responseProcessing>
  <modalFeedback outcomeIdentifier="FEEDBACK" identifier="B" showHide="show"><p>Not <b>b</b></p></modalFeedback>
</assessmentItem>""".encode()
    (question,) = reader.read(item, source="i.xml").questions
    assert question.choices[1].feedback.value == "<p>Not <b>b</b></p>" and question.choices[0].feedback is None


@pytest.mark.parametrize("data, expected", [
    (b"PK\x03\x04 not really a zip", "E801"),
    (zip_bytes({"items/q1.xml": b"<x/>"}), "E801"),
    (b"<assessmentItem", "E802"),
    (b"<quiz/>", "E803"),
])
def test_what_is_not_a_qti_package_is_refused(data, expected):
    assert [code for code, _, _ in _errors(data)] == [expected]
