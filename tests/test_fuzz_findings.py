"""What the property tests (tests/test_properties_*.py) found, each made a small case: inputs that
crashed a reader or `validate`, or read into a quiz a writer then wrote invalid (exit 4 or 3
before). Each is now a located error, a finding, or a writer's refusal (exit 1)."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

import lmsexport
from conftest import ROOT
from lmsexport.cli import main
from lmsexport.diagnostics import Log
from lmsexport.model import Choice, Matching, MatchPair, MultipleChoice, Ordering, OrderItem, Quiz, Text
from lmsexport.validation import validate_bytes

QTI = ROOT / "tests" / "fixtures" / "qti21"


def _item(name: str, old: str, new: str) -> bytes:
    data = (QTI / name).read_bytes()
    assert old.encode() in data, f"{old!r} is not in {name}"
    return data.replace(old.encode(), new.encode(), 1)


def _refusal(name: str, old: str, new: str):
    """The one error reading fixture `name` with `old` replaced by `new` gives: E803, located."""
    with pytest.raises(lmsexport.SourceError) as refused:
        lmsexport.read(name, _item(name, old, new), format="qti21")
    (error,) = refused.value.diagnostics
    assert error.code == "E803" and error.span.line > 0
    return error


@pytest.mark.parametrize("name, old, new, message", [
    ("text_entry.xml", 'mapKey="York" ', "", "a mapEntry without a mapKey"),
    ("text_entry.xml", 'mappedValue="1"', 'mappedValue="$$x$$"', "a mappedValue is '$$x$$', not a number"),
    ("text_entry.xml", 'mappedValue="1"', "", "a mappedValue is None, not a number"),
    ("choice_multiple.xml", 'upperBound="', 'upperBound="1,5', "the mapping's upperBound is '1,5"),
    ("order.xml", 'identifier="DriverA"', "", "the correct response does not put every item"),
    ("match.xml", "<value>C R</value>", "<value>C</value>", "a correct response of a matchInteraction is not a pair"),
    ("extended_text.xml", "<extendedTextInteraction ", '<extendedTextInteraction expectedLines="many" ',
     "expectedLines is 'many', not a number"),
    ("text_entry.xml", "Identify the missing", "Identify \ue0000\ue001 the missing",
     "the text holds U+E000 or U+E001"),
])
def test_a_qti_item_with_a_broken_value_is_a_located_error(name, old, new, message):
    error = _refusal(name, old, new)
    assert message in error.message and error.hint


@pytest.mark.parametrize("name, old, new, message", [
    ("choice_multiple.xml", 'mappedValue="1"', 'mappedValue="abc"', "a mappedValue is 'abc', not a number"),
    ("choice_multiple.xml", 'defaultValue="-2"', 'defaultValue="none"', "the mapping's defaultValue is 'none'"),
    ("choice_multiple.xml", 'lowerBound="0"', 'lowerBound="1e999"', "the mapping's lowerBound is '1e999'"),
    ("match.xml", 'mappedValue="1"', 'mappedValue="one"', "a mappedValue is 'one', not a number"),
    ("TextEntrynumeric_2040297025.xml", "<value>4.0</value>", "<value>four</value>",
     "the correct response is 'four', not a number"),
])
def test_a_number_a_qti_item_is_scored_by_is_checked_where_it_is_read(name, old, new, message):
    """reader/scoring.py read them with float(): Python's own words ("could not convert string to
    float: 'abc'"), no line and no hint."""
    error = _refusal(name, old, new)
    assert message in error.message
    assert error.hint == "write a number such as 1 or 2.5"


def test_an_empty_option_a_qti_feedback_rule_tests_for_is_read_as_no_option():
    """`match(RESPONSE, <baseValue/>)` deciding a feedback crashed the reader (AttributeError on None)."""
    quiz = lmsexport.read("q.txt", "Q\n\n1. A?\n   *• x\n   >> right\n   • y\n")
    package = lmsexport.write(quiz, "qti")
    (item,) = [name for name in package.files if name.startswith("items/")]
    broken = re.sub(rb'(<baseValue baseType="identifier">)a(</baseValue>)', rb"\1\2", package.files[item], count=1)
    assert broken != package.files[item]
    lmsexport.read("q.zip", lmsexport.Package({**package.files, item: broken}).to_bytes(), log=Log())


def test_a_qti_gap_match_word_without_identifier_is_read():
    """A gapText without an identifier crashed the gap-match reading (TypeError on None)."""
    quiz = lmsexport.read("gap_match.xml", _item("gap_match.xml", 'identifier="Sp" ', ""), format="qti21", log=Log())
    assert quiz.questions[0].kind == "fill_blanks"


def test_a_qti_pass_mark_that_is_no_number_is_a_located_error():
    quiz = lmsexport.read("q.txt", "---\npass: 50\n---\nQ\n\n1. A?\n   *• x\n   • y\n")
    package = lmsexport.write(quiz, "qti")
    test = package.files["test.xml"].replace(b"<baseValue baseType=\"float\">50</baseValue>",
                                             b"<baseValue baseType=\"float\">half</baseValue>")
    assert test != package.files["test.xml"]
    with pytest.raises(lmsexport.SourceError) as refused:
        lmsexport.read("q.zip", lmsexport.Package({**package.files, "test.xml": test}).to_bytes())
    (error,) = refused.value.diagnostics
    assert (error.code, error.message) == ("E804", "the pass mark is 'half', not a number")
    assert error.span.source == "q.zip!test.xml" and error.span.line > 0 and error.hint


def test_validate_reports_a_cloze_question_without_its_text():
    bank = b'<quiz><question type="cloze"><name><text>c</text></name></question></quiz>'
    findings = validate_bytes(bank, source="bank.xml")
    assert findings and all(f.span.source == "bank.xml" for f in findings)


def _moodle_refusal(question) -> str:
    with pytest.raises(lmsexport.SourceError) as refused:
        lmsexport.write(Quiz(id="q", title="Q", questions=(question,)), "moodle")
    (error,) = refused.value.diagnostics
    assert error.code == "E008"
    return error.message


def _choice(ident: str, text: str, correct: bool = False) -> Choice:
    return Choice(id=ident, text=Text(text), correct=correct)


@pytest.mark.parametrize("question, blank", [
    (MultipleChoice(id="q1", prompt=Text("Which?"), multiple_response=True,
                    choices=(_choice("a", "", True), _choice("b", "Helium"), _choice("c", "Oxygen", True))),
     "option a has no text"),
    (MultipleChoice(id="q1", prompt=Text("Which?"), choices=(_choice("a", " \t", True), _choice("b", "x"))),
     "option a has no text"),
    (Matching(id="q1", prompt=Text("Match"), pairs=(MatchPair(id="a", left=Text("Capulet"), right=Text("")),
                                                   MatchPair(id="b", left=Text("Puck"), right=Text("Dream")))),
     "the right item of pair a has no text"),
    (Matching(id="q1", prompt=Text("Match"), pairs=(MatchPair(id="a", left=Text(""), right=Text("Romeo")),
                                                   MatchPair(id="b", left=Text("Puck"), right=Text("Dream")))),
     "the left item of pair a has no text"),
    (Ordering(id="q1", prompt=Text("Order"), items=(OrderItem(id="a", text=Text("1")), OrderItem(id="b", text=Text("")),
                                                     OrderItem(id="c", text=Text("3")))),
     "item b has no text"),
])
def test_moodle_refuses_an_answer_its_importer_would_drop(question, blank):
    """An empty option read from a QTI package came out as a Moodle question whose grades do not
    add up (V304), or a subquestion without its answer (V310): exit 3. (A text in a known language
    is never blank there: Moodle keeps the `<span lang>` around it.)"""
    assert f"question 1: {blank}, and Moodle's importer drops an answer without text" in _moodle_refusal(question)
    assert lmsexport.validate(lmsexport.write(Quiz(id="q", title="Q", questions=(question,)), "qti")) == []


def test_a_gap_credit_past_100_percent_is_a_located_error():
    with pytest.raises(lmsexport.SourceError, match="E217"):
        lmsexport.read("t.txt", "Q\n\n1. The capital is {=Paris =3333% paris}.\n")


def test_what_a_writer_refuses_in_a_model_file_names_that_file(tmp_path):
    """The JSON form keeps no positions: the refusal named the quiz id instead of the file."""
    quiz = Quiz(id="blank", title="Q", questions=(
        MultipleChoice(id="q1", prompt=Text("Which?"), choices=(_choice("a", "x", True), _choice("b", ""))),))
    (tmp_path / "model.json").write_bytes(lmsexport.write(quiz, "json").files["blank.json"])
    result = CliRunner().invoke(main, ["build", str(tmp_path), "-f", "moodle", "-o", str(tmp_path / "out")])
    assert result.exit_code == 1
    assert f"{tmp_path.as_posix()}/model.json: error: question 1: option b has no text" in result.stderr


@pytest.mark.parametrize("answers", [
    '<answer fraction="100"><text>2</text><tolerance>nan</tolerance></answer>',
    '<answer fraction="100"><text>inf</text><tolerance>0</tolerance></answer>',
])
def test_a_moodle_numerical_answer_out_of_range_is_a_located_error(answers):
    with pytest.raises(lmsexport.SourceError, match="E60"):
        lmsexport.read("bank.xml", _moodle_question("numerical", answers))


def test_a_moodle_catch_all_answer_with_a_grade_out_of_range_is_a_located_error():
    answers = '<answer fraction="100"><text>Paris</text></answer><answer fraction="1e22"><text>*</text></answer>'
    with pytest.raises(lmsexport.SourceError, match="E60"):
        lmsexport.read("bank.xml", _moodle_question("shortanswer", answers))


@pytest.mark.parametrize("kind", ["gapselect", "ddwtos"])
def test_a_moodle_gap_question_without_its_text_is_a_located_error(kind):
    with pytest.raises(lmsexport.SourceError):
        lmsexport.read("bank.xml", f'<quiz><question type="{kind}"><name><text>n</text></name></question></quiz>',
                       format="moodle", log=Log())


def _moodle_question(kind: str, answers: str) -> str:
    return (f'<quiz><question type="{kind}"><name><text>n</text></name><questiontext format="html"><text>Which?'
            f"</text></questiontext>{answers}</question></quiz>")


def test_validate_judges_a_canvas_drop_down_without_its_ident():
    """A response_lid without `ident` beside one no condition names crashed validate's QTI 1.2
    rules (sorting None with a name)."""
    quiz = lmsexport.read("gaps.txt", "Q\n\n1. The sky is {=blue ~green ~red} and grass {=green ~blue}.\n",
                          format="text")
    package = lmsexport.write(quiz, "canvas")
    (name,) = [n for n in package.files if n.endswith(f"{quiz.id}.xml")]
    broken = re.sub(rb'<response_lid ident="[^"]*"', b"<response_lid", package.files[name], count=1)
    broken = re.sub(rb'<response_lid ident="[^"]*"', b'<response_lid ident="unnamed"', broken, count=1)
    assert broken.count(b"<response_lid") == 2 and b'ident="unnamed"' in broken
    findings = lmsexport.validate(lmsexport.Package({**package.files, name: broken}))
    assert findings and any("'ident' is required" in f.message for f in findings)


def test_a_root_element_in_a_strange_namespace_is_no_moodle_bank():
    """lxml's QName of a root whose namespace holds '}' is a ValueError: it was exit 4."""
    with pytest.raises(lmsexport.SourceError, match="E602"):
        lmsexport.read("bank.xml", b'<q xmlns="a}b"/>', format="moodle", log=Log())
