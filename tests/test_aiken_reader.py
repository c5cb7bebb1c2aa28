"""The Aiken reader through the public interface: what it refuses and where it says so.

Reader goldens (tests/golden/readers/aiken/) cover what it reads; here are its errors
(casefile tests/fixtures/aiken/errors.txt), Moodle's own error fixture read from its file,
edge cases of the bytes, and a property: any text gives a quiz or a SourceError, nothing else.
"""

from __future__ import annotations

import codecs
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

import casefile
import lmsexport
from lmsexport import SourceError

FIXTURES = Path(__file__).parent / "fixtures" / "aiken"
ERRORS = FIXTURES / "errors.txt"
QUIZ = "Which city is the capital of France?\nA) Lyon\nB) Paris\nANSWER: B\n"


def _read(data: str | bytes, name: str = "case.txt") -> lmsexport.Quiz:
    return lmsexport.read(name, data, format="aiken", log=lmsexport.Log())


def _errors(source: str) -> str:
    with pytest.raises(SourceError) as caught:
        _read(source)
    return "\n".join(d.render() for d in caught.value.diagnostics)


@pytest.mark.parametrize("case", casefile.load(ERRORS), ids=lambda c: c.id)
def test_errors(case, request):
    actual = _errors(case.input)
    casefile.check(ERRORS, case, actual, request)


def test_moodle_error_fixture_is_refused_with_every_problem_located(monkeypatch):
    """Moodle's aiken_errors.txt holds 2 good questions among 5: the file is refused, not thinned."""
    monkeypatch.chdir(FIXTURES)
    with pytest.raises(SourceError) as caught:
        lmsexport.read("aiken_errors.txt", format="aiken")
    found = [(d.code, d.span.source, d.span.line) for d in caught.value.diagnostics]
    assert found == [("E944", "aiken_errors.txt", 3), ("E941", "aiken_errors.txt", 5),
                     ("E943", "aiken_errors.txt", 18)]
    assert all(d.hint for d in caught.value.diagnostics)


def test_the_file_is_read_as_aiken_by_its_content(monkeypatch):
    monkeypatch.chdir(FIXTURES)
    with pytest.raises(SourceError) as caught:
        lmsexport.read("aiken_errors.txt")
    assert {d.code for d in caught.value.diagnostics} == {"E941", "E943", "E944"}


@pytest.mark.parametrize("variant", [
    QUIZ.replace("\n", "\r\n"), QUIZ.replace("\n", "\r"), QUIZ.rstrip("\n"), "\n\n  " + QUIZ.replace("\n", "\n  "),
    QUIZ.replace("A) ", "A. ").replace("B) ", "B.\t"),
], ids=["crlf", "cr", "no-final-newline", "indented", "dot-labels"])
def test_line_ends_and_layout_do_not_change_the_quiz(variant):
    assert _read(variant) == _read(QUIZ)


def test_bom_and_utf16_are_read():
    assert _read(codecs.BOM_UTF8 + QUIZ.encode()) == _read(QUIZ)
    assert _read(QUIZ.encode("utf-16")) == _read(QUIZ)


def test_the_quiz_is_named_after_its_file():
    quiz = _read(QUIZ, "banks/Geography Week 1.aiken")
    assert (quiz.id, quiz.title) == ("geography-week-1", "Geography Week 1")
    question = quiz.questions[0]
    assert (question.points, [c.correct for c in question.choices]) == (1.0, [False, True])


def test_non_utf8_bytes_are_located():
    with pytest.raises(SourceError) as caught:
        _read("Caf\xe9?\nA) oui\nB) non\nANSWER: A\n".encode("latin-1"))
    (problem,) = caught.value.diagnostics
    assert (problem.code, problem.span.line, problem.span.column) == ("E101", 1, 4)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(
    st.sampled_from(["A) x", "B) y", "C.z", "a) w", "ANSWER: A", "ANSWER: B", "Answer: c", "ANSWER:", "", "  ",
                     "Question?", "D)", "\t", "\r", "\ufeff", "\x00", "\x0b"]),
    st.text(max_size=20)), max_size=12))
def test_any_text_gives_a_quiz_or_a_source_error(lines):
    try:
        _read("\n".join(lines))
    except SourceError as error:
        assert error.diagnostics and all(d.span.source == "case.txt" for d in error.diagnostics)
