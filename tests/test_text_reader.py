"""The quiz text reader, case by case (tests/fixtures/text/*.txt) and on encodings."""

from __future__ import annotations

import codecs
import dataclasses
import json
import re
import unicodedata
from pathlib import Path

import pytest

import casefile
from lmsexport import SourceError
from lmsexport.diagnostics import Log
from lmsexport.formats.text import reader as text
from lmsexport.formats.json.writer import dumps
from lmsexport.model.packed import Packer

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


def _warnings(source: str) -> str:
    log = Log()
    text.read(source, source="case.txt", log=log)
    return "\n".join(d.render() for d in log.diagnostics) or "(no warnings)"


@pytest.mark.parametrize("case", casefile.load(WARNINGS), ids=lambda c: c.id)
def test_warnings(case, request):
    casefile.check(WARNINGS, case, _warnings(case.input), request)


@pytest.mark.parametrize("case", casefile.load(READS), ids=lambda c: c.id)
def test_reads(case, request):
    casefile.check(READS, case, _model(case.input), request)


@pytest.mark.parametrize("case", casefile.load(ERRORS), ids=lambda c: c.id)
def test_errors(case, request):
    casefile.check(ERRORS, case, _errors(case.input), request)


def _outcome(source: str | bytes) -> tuple:
    """Everything a read tells: the quiz with its positions, or each error with its line; the warnings."""
    log = Log()
    try:
        quiz = text.read(source, source="case.txt", log=log)
    except SourceError as error:
        result = [(d.render(), d.source_line) for d in error.diagnostics]
    else:
        result = repr(quiz)
    return result, [d.render() for d in log.diagnostics]


@pytest.mark.parametrize("case", [*casefile.load(READS), *casefile.load(ERRORS), *casefile.load(WARNINGS)],
                         ids=lambda c: c.id)
def test_a_case_reads_the_same_from_its_utf8_bytes(case):
    """Bytes that decoding leaves as they are are read line by line without a decoded copy
    (textinput.read_lines); with a BOM too. What the read tells must not differ."""
    expected = _outcome(case.input)
    assert _outcome(case.input.encode()) == expected
    assert _outcome(codecs.BOM_UTF8 + case.input.encode()) == expected


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


_TAILS = {
    "comment": ["/"], "question": [". x", ")"], "pool": ["ool: x"], "pool_end": ["nd pool", "ndpool"],
    "text_block": ["ext: x"], "option": [" x", ") x", ". x", "• x", "- x"], "attribute": ["k: v"],
    "answer": [" x", "50% x"], "essay": ["__"], "item_feedback": ["> x"], "correct_feedback": ["+ x"],
    "incorrect_feedback": ["- x"], "explanation": [" x"], "key": ["nswers: 1a", "nswer key: 1a", "nswer:"],
    "stray_star": [" x"],
}


def test_lines_are_classified_by_their_first_character_as_by_every_pattern():
    """`classify` tries only the patterns a line's first character allows (syntax._FIRST): no
    character of the BMP starts a line of a kind without being among that kind's first characters."""
    from lmsexport.formats.text import syntax

    assert set(_TAILS) == set(syntax.LINE_PATTERNS) == set(syntax._FIRST)
    for kind, pattern in syntax.LINE_PATTERNS.items():
        first = re.compile(syntax._FIRST[kind], pattern.flags & re.IGNORECASE)
        starts = {c for c in map(chr, range(0x10000)) for tail in _TAILS[kind]
                  if pattern.match(f" \t{c}{tail}") and not c.isspace()}
        assert starts and all(first.fullmatch(c) for c in starts), (kind, sorted(c for c in starts if not first.fullmatch(c)))
    for line in ["", " \t", "\u3000", "  1. Q", "٣) Q", "   *• x", "   b) x", "POOL: x", "End pool", "ﬀ x", "Answers: 1a",
                 "K. x", "\u212a. x", "@id: q", "// c", "* x", "  > e", "text: t", "ſ x", "\u0130 x", "plain"]:
        kind, match = next(((kind, m) for kind, p in syntax.LINE_PATTERNS.items() if (m := p.match(line))), ("text", None))
        expected = ("blank", None) if not line.strip() else (kind, match and match.span())
        kind, match = syntax.classify(line)
        assert (kind, match and match.span()) == expected, line


def test_every_line_of_a_key_or_a_pool_stops_a_streamed_read():
    """A quiz is read streamed (each draft built as the next begins) only without a line the
    drafts before it wait for: every line `classify` takes for the key or a pool matches
    `STREAM_BREAKS`, whatever its first character."""
    from lmsexport.formats.text import syntax

    waited_for = ("key", "pool", "pool_end")
    lines = [f" \t{c}{tail}" for kind in waited_for for tail in _TAILS[kind] for c in map(chr, range(0x10000))]
    found = [line for line in lines if syntax.classify(line)[0] in waited_for]
    assert found and all(syntax.STREAM_BREAKS.search(f"text\n{line}\nmore") for line in found)


def _told(source: str) -> tuple:
    """`_outcome`, its questions as a tuple whether they were packed or not; and whether they were."""
    log = Log()
    try:
        quiz = text.read(source, source="case.txt", log=log)
    except SourceError as error:
        return [(d.render(), d.source_line) for d in error.diagnostics], [d.render() for d in log.diagnostics], False
    packed = not isinstance(quiz.questions, tuple)
    return repr(dataclasses.replace(quiz, questions=tuple(quiz.questions))), [d.render() for d in log.diagnostics], packed


@pytest.mark.parametrize("case", [*casefile.load(READS), *casefile.load(ERRORS), *casefile.load(WARNINGS)],
                         ids=lambda c: c.id)
def test_a_case_reads_the_same_streamed_packed_and_whole(case, monkeypatch):
    """A quiz without a key or pools is read streamed, each draft built as the next begins
    (`questions.Builder`), and its questions are packed past `PACK_FROM`; one with a problem is
    read again whole. Streamed, packed or whole, what the read tells is the same, warnings in order."""
    from lmsexport.formats.text import questions

    streamed = _told(case.input)
    monkeypatch.setattr(questions, "Packer", lambda **_: Packer(pack_from=1))
    *packed, was_packed = _told(case.input)
    monkeypatch.setattr(text, "STREAM_BREAKS", re.compile(""))  # found in every source: none is read streamed
    *whole, _ = _told(case.input)
    assert [*streamed[:2]] == packed == whole
    assert was_packed == isinstance(whole[0], str)
