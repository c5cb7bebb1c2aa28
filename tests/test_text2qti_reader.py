"""The text2qti reader through the public interface: its errors, its warnings, images, bytes.

Reader goldens (tests/golden/readers/text2qti/) cover what it reads, and
tests/test_text2qti_oracle.py that it reads what text2qti writes; here are its errors
(casefile tests/fixtures/text2qti/errors.txt, each checked against text2qti too), images
loaded beside the quiz, and a property: any text gives a quiz or a SourceError, nothing else.
"""

from __future__ import annotations

import codecs
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st
from text2qti.config import Config
from text2qti.err import Text2qtiError
from text2qti.quiz import Quiz as Text2qtiQuiz

import casefile
import lmsexport
from lmsexport import SourceError

FIXTURES = Path(__file__).parent / "fixtures" / "text2qti"
ERRORS = FIXTURES / "errors.txt"
QUIZ = "Quiz title: Capitals\n\n1.  Which city is the capital of France?\na)  Lyon\n*b) Paris\n"


def _read(data: str | bytes, name: str = "case.md") -> lmsexport.Quiz:
    return lmsexport.read(name, data, format="text2qti", log=lmsexport.Log())


def _errors(source: str) -> str:
    with pytest.raises(SourceError) as caught:
        _read(source)
    return "\n".join(d.render() for d in caught.value.diagnostics)


@pytest.mark.parametrize("case", casefile.load(ERRORS), ids=lambda c: c.id)
def test_errors(case, request):
    actual = _errors(case.input)
    casefile.check(ERRORS, case, actual, request)


@pytest.mark.parametrize("case", casefile.load(ERRORS), ids=lambda c: c.id)
def test_text2qti_refuses_them_too(case, tmp_path, monkeypatch):
    """Each error case is an error for text2qti as well, except the deliberate differences:
    file uploads (left out here) and texts inside a group (text2qti puts them in the quiz, out of the
    group's draw; the model's pools hold questions only)."""
    monkeypatch.chdir(tmp_path)
    if "^^^^" in case.input or case.title == "a text inside a group":
        return
    with pytest.raises(Text2qtiError):
        Text2qtiQuiz(case.input, config=Config(), source_name="case.md")


@pytest.mark.parametrize("variant", [
    QUIZ.replace("\n", "\r\n"), QUIZ.replace("\n", "\r"), QUIZ.rstrip("\n"), "\ufeff" + QUIZ,
    QUIZ.replace("1.  ", "1.\t").replace("a)  ", "a)\t"),
], ids=["crlf", "cr", "no-final-newline", "bom", "tabs"])
def test_line_ends_and_layout_do_not_change_the_quiz(variant):
    assert _read(variant) == _read(QUIZ)


def test_utf16_is_read():
    assert _read(QUIZ.encode("utf-16")) == _read(QUIZ)


def test_images_beside_the_quiz_become_its_files(tmp_path):
    (tmp_path / "img").mkdir()
    (tmp_path / "img" / "map.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    source = tmp_path / "quiz.md"
    source.write_text("1.  Where is this? ![a map](./img/map.png){width=10em}\n*a) Kenya\nb)  Peru\n"
                      "\n2.  And this? ![online](https://example.org/x.png)\n*a) yes\nb)  no\n", encoding="utf-8")
    log = lmsexport.Log()
    quiz = lmsexport.read(source, log=log)
    assert [(a.path, a.media_type) for a in quiz.assets] == [("img/map.png", "image/png")]
    assert 'src="img/map.png"' in quiz.questions[0].prompt.value
    assert 'src="https://example.org/x.png"' in quiz.questions[1].prompt.value
    assert [(d.code, d.span.line) for d in log.diagnostics] == [("W954", 1)]


def test_an_image_that_is_missing_or_outside_the_folder_is_located(tmp_path):
    source = tmp_path / "quiz.md"
    source.write_text("1.  Which? ![x](missing.png)\n*a) ![y](../up.png)\nb)  ![z](notes.txt)\n", encoding="utf-8")
    with pytest.raises(SourceError) as caught:
        lmsexport.read(source)
    assert [(d.code, d.span.line, d.message.split(":")[0]) for d in caught.value.diagnostics] == [
        ("E965", 1, "image 'missing.png' cannot be read"),
        ("E965", 2, "image '../up.png' is not a file in the quiz's folder"),
        ("E965", 3, "image 'notes.txt' is not a PNG, JPEG, GIF, SVG or WebP file")]


_PIECES = ["1.  Q?", "*a) x", "a)  y", "[*] z", "[ ] w", "*   s", "=   5", "=   [1, 2]", "= 1 +- 5%", "____",
           "^^^^", "... f", "+   r", "-   w", "!   s", "Title: t", "Points: 2", "Text: t", "Text title: t",
           "Quiz title: q", "shuffle answers: true", "GROUP", "END_GROUP", "pick: 1", "```", "```{.py .run}",
           "COMMENT", "END_COMMENT", "% c", "    indented", "", "$x$ \\SI{1}{m}", "\\num{x}", "![i](a.png)",
           "=   1e400 +- 1", "=   [nan, 1]", "Points: 1e309", "<!-- x", "$$", "`$x$`", "\t*b)\tt"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.sampled_from(_PIECES), st.text(max_size=20)), max_size=14))
def test_any_text_gives_a_quiz_or_a_source_error(lines):
    try:
        _read("\n".join(lines))
    except SourceError as error:
        assert error.diagnostics and all(d.span.source == "case.md" for d in error.diagnostics)


def test_bytes_that_are_not_utf8_are_located():
    with pytest.raises(SourceError) as caught:
        _read(codecs.BOM_UTF8 + "1.  Caf\xe9?\n*a) oui\nb)  non\n".encode("latin-1"))
    assert [(d.code, d.span.line) for d in caught.value.diagnostics] == [("E101", 1)]


@pytest.mark.parametrize("value", ["²", "①"])
def test_group_pick_of_a_digit_that_is_no_number(value):
    """A character str.isdigit() calls a digit and int() refuses is an error, not a crash."""
    errors = _errors(f"GROUP\npick: {value}\n\n1.  Which?\n*a) one\nb)  two\n\nEND_GROUP\n")
    assert f"'pick:' must be a whole number above 0, not '{value}' [E962]" in errors
