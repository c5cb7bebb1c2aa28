"""The quiz text reader, case by case (tests/fixtures/text/*.txt) and on encodings."""

from __future__ import annotations

import codecs
import json
import unicodedata
from pathlib import Path

import pytest

import casefile
from lmsexport import SourceError
from lmsexport.diagnostics import Log
from lmsexport.formats.text import reader as text
from lmsexport.formats.json.writer import dumps

FIXTURES = Path(__file__).parent / "fixtures" / "text"
READS = FIXTURES / "reads.txt"
ERRORS = FIXTURES / "errors.txt"
WARNINGS = FIXTURES / "warnings.txt"


def _model(source: str) -> str:
    return json.dumps(json.loads(dumps(text.read(source, source="case.txt")))["quiz"], ensure_ascii=False, indent=1)


def _errors(source: str) -> str:
    with pytest.raises(SourceError) as caught:
        text.read(source, source="case.txt")
    return "\n".join(d.render() for d in caught.value.diagnostics)


def _run(path: Path, case: casefile.Case, produce, update: bool) -> None:
    actual = produce(case.input)
    if update:
        cases = casefile.load(path)
        for other in cases:
            if other.title == case.title:
                other.expected = actual
        casefile.save(path, cases)
        return
    assert actual == case.expected, f"{path.name}:{case.line}: {case.title}"


def _warnings(source: str) -> str:
    log = Log()
    text.read(source, source="case.txt", log=log)
    return "\n".join(d.render() for d in log.diagnostics) or "(no warnings)"


@pytest.mark.parametrize("case", casefile.load(WARNINGS), ids=lambda c: c.id)
def test_warnings(case, request):
    _run(WARNINGS, case, _warnings, request.config.getoption("--update-goldens"))


@pytest.mark.parametrize("case", casefile.load(READS), ids=lambda c: c.id)
def test_reads(case, request):
    _run(READS, case, _model, request.config.getoption("--update-goldens"))


@pytest.mark.parametrize("case", casefile.load(ERRORS), ids=lambda c: c.id)
def test_errors(case, request):
    _run(ERRORS, case, _errors, request.config.getoption("--update-goldens"))


QUIZ = "Title\n\n1. Question?\n   • yes\n   • no\n\nAnswers: 1a\n"


def _same_as_plain(quiz) -> None:
    plain = text.read(QUIZ, source="q.txt")
    assert quiz == plain


def test_bom_is_dropped():
    _same_as_plain(text.read(codecs.BOM_UTF8 + QUIZ.encode(), source="q.txt"))


def test_crlf_and_cr_line_ends():
    _same_as_plain(text.read(QUIZ.replace("\n", "\r\n").encode(), source="q.txt"))
    _same_as_plain(text.read(QUIZ.replace("\n", "\r").encode(), source="q.txt"))


def test_tabs_indent_options():
    _same_as_plain(text.read(QUIZ.replace("   •", "\t•"), source="q.txt"))


def test_utf16_with_bom():
    _same_as_plain(text.read(QUIZ.encode("utf-16"), source="q.txt"))


def test_nfd_input_is_normalised_to_nfc():
    source = "Bài kiểm tra\n\n1. Câu hỏi?\n   • Đúng\n   • Sai\n\nAnswers: 1a\n"
    quiz = text.read(unicodedata.normalize("NFD", source).encode(), source="q.txt")
    assert quiz.title == "Bài kiểm tra"
    assert unicodedata.is_normalized("NFC", quiz.questions[0].prompt.value)
    assert quiz.questions[0].choices[0].text.value == "Đúng"


def test_position_is_kept_for_messages():
    quiz = text.read(QUIZ, source="q.txt")
    assert (quiz.questions[0].source.line, quiz.questions[0].source.source) == (3, "q.txt")


def test_quiz_id_comes_from_the_file_name():
    assert text.read(QUIZ, source="folder/Week 3: Ölçüm.txt").id == "week-3-olcum"
    assert text.read(QUIZ, source="000_abc.txt").id == "quiz-000-abc"
