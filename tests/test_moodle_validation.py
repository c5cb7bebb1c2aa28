"""Validating Moodle XML: lmsexport's schema plus moodlerules, on cases, the corpus and our own output."""

from __future__ import annotations

import functools
import io
from pathlib import Path

import pytest
from lxml import etree

import casefile
from lmsexport import spool
from lmsexport.formats.moodle import validation as moodlevalidation
from lmsexport.spool import SpooledFiles
from lmsexport.validation import validate_bytes

FIXTURES = Path(__file__).parent / "fixtures" / "moodle"
CASES = FIXTURES / "validate.txt"
CORPUS = sorted(FIXTURES.glob("*.xml"))
INVALID = {
    "broken_cloze_questions.xml": ["V312"] * 5,  # qtype_multianswer's own cases of what its parser refuses
    "testimportlong.moodle.xml": ["V301"],  # a qtype_ordering unit-test fragment: a bare <question>
    "validate-invalid.xml": ["V302", "V302", "V302", "V304", "V307"],  # hand-made, one of each rule
}


def _verdict(document: str) -> str:
    findings = validate_bytes(document.encode("utf-8"), source="case.xml")
    return "\n".join(f.render() for f in findings) or "valid"


@pytest.mark.parametrize("case", casefile.load(CASES), ids=lambda c: c.id)
def test_cases(case, request):
    actual = _verdict(case.input)
    casefile.check(CASES, case, actual, request)


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.name)
def test_fixture_verdicts(path):
    """Exports written by Moodle and its plugins pass (Moodle imports them); the others do not."""
    findings = validate_bytes(path.read_bytes(), source=path.name)
    assert [f.code for f in findings] == INVALID.get(path.name, []), [f.render() for f in findings]


_QUESTION = ('<question type="multichoice"><name><text>N</text></name><questiontext><text>Q</text></questiontext>'
             '<answer fraction="50"><text>a</text></answer><idnumber>i</idnumber></question>')


@pytest.mark.parametrize("document", [*(case.input.encode("utf-8") for case in casefile.load(CASES)),
                                      *(path.read_bytes() for path in CORPUS),
                                      f"<quiz>\n<!-- a -->{_QUESTION}<?pi?>\n{_QUESTION}</quiz>".encode(),
                                      f"<quiz>{_QUESTION}{_QUESTION}</quiz>".encode()])
@pytest.mark.parametrize("spooled", [False, True], ids=["bytes", "spooled"])
def test_question_by_question_finds_what_the_whole_tree_shows(document, spooled, monkeypatch):
    """Each question validated in a <quiz> of its own: the findings of the whole file, line for
    line; from a spooled file, read a few bytes at a time, too."""
    monkeypatch.setattr(spool, "CHUNK", 7)
    streamed = moodlevalidation.stream(_opener(document, spooled), source="case.xml")
    if streamed is None:  # not a plain <quiz> of questions: the bare-<question> fixtures
        assert etree.fromstring(document).tag != "quiz"
        return
    whole = moodlevalidation.check(etree.fromstring(document), b"", source="case.xml")
    assert [f.render() for f in streamed] == [f.render() for f in whole]


@pytest.mark.parametrize("document", [
    f'<quiz a="1">{_QUESTION}</quiz>',  # attributes on <quiz>
    f"<quiz>text{_QUESTION}</quiz>",
    f"<quiz>{_QUESTION}text</quiz>",
    f"<quiz>{_QUESTION}<other/>{_QUESTION}</quiz>",
    "<quiz></quiz>",
    f"<!DOCTYPE quiz><quiz>{_QUESTION}</quiz>",
    f"<quiz>{_QUESTION}<question",
    _QUESTION,
], ids=["attribute", "text-first", "text-after", "other-element", "empty", "doctype", "broken", "bare-question"])
def test_anything_but_questions_in_a_bare_quiz_is_validated_whole(document):
    """The parser and the schema word what is wrong outside the questions; the stream does not guess."""
    assert moodlevalidation.stream(_opener(document.encode(), False), source="case.xml") is None
    assert moodlevalidation.stream(_opener(document.encode(), True), source="case.xml") is None
    assert validate_bytes(document.encode(), source="case.xml")


def _opener(document: bytes, spooled: bool):
    """What validation gives the stream: a function opening the bytes, held or spooled on disk."""
    if not spooled:
        return functools.partial(io.BytesIO, document)
    return functools.partial(SpooledFiles({"bank.xml": document}, budget=0).open, "bank.xml")
