"""Every message names a question the way its author counts it: `question 2`, `text block 1`.

The text reader counts numbered questions from 1 (pooled ones among them) and `Text:` blocks
apart; `Quiz.label` counts the same way, and lint and every writer name questions through it, so
a writer warning, a lint finding and the reader's own message about one question use the same
words, whatever ids the questions have (`@id: photosynthesis`, or ids from another LMS).
"""

from __future__ import annotations

import pytest
from click.testing import CliRunner

import lmsexport
from lmsexport.cli import main

SECOND = """1. Which is a planet?
   *- Mars
   - Moon

2. Which is the capital of France?
   @id: capital
   @title: {title}
   - [x] Paris
   - [ ] Lyon
""".replace("{title}", "Capitals " * 40)
"""Question 2 has checkboxes but one correct option (a QTI 2.1 warning for Canvas, W803) and a title
longer than Moodle keeps (lint L050, and Moodle's W652 when it is cut)."""


def _quiz(body: str, header: str = "") -> str:
    return f"{header}Labels\n\n{body}"


def _warnings(source: str, format_name: str) -> list[str]:
    quiz = lmsexport.read("labels.txt", source.encode())
    return [f"{w.code} {w.message}" for w in lmsexport.write(quiz, format_name).warnings]


def _lint(tmp_path, source: str) -> str:
    path = tmp_path / "labels.txt"
    path.write_text(source, encoding="utf-8")
    return CliRunner().invoke(main, ["lint", str(path)]).output


def test_a_writer_warning_names_the_second_question_of_a_text_quiz_question_2_not_its_id():
    (warning,) = _warnings(_quiz(SECOND), "qti")
    assert warning.startswith("W803 question 2 has checkboxes but one correct option")


def test_a_text_block_before_it_leaves_it_question_2_and_is_named_text_block_1():
    source = _quiz("Text: Read this first.\n\n" + SECOND)
    warnings = _warnings(source, "qti")
    assert [w.split(":")[0] for w in warnings] == [
        "W810 text block 1", "W803 question 2 has checkboxes but one correct option"]


@pytest.mark.parametrize("before", ["", "Text: Read this first.\n\n"], ids=["alone", "after-a-text-block"])
def test_lint_and_the_writer_name_the_question_alike(tmp_path, before):
    source = _quiz(before + SECOND)
    assert "warning: the title of question 2 has 359 characters" in _lint(tmp_path, source)
    assert any(w.startswith("W652 the title of question 2 ") for w in _warnings(source, "moodle"))
    assert any(w.startswith("W803 question 2 ") for w in _warnings(source, "qti"))


def test_the_reader_the_writer_and_lint_count_pooled_questions_alike(tmp_path):
    """Questions in a pool are numbered on from the fixed ones before them, as the reader numbers them."""
    body = ("1. Warm up?\n   *- yes\n   - no\n\nPool: Two of these\n@draw: 1\n\n2. First?\n   *- a\n   - b\n\n"
            "3. Second?\n   *- a\n   - b\n\nEnd pool\n\n4. Which are right?\n   @title: " + "Long " * 60
            + "\n   - [x] a\n   - [ ] b\n")
    source = _quiz(body, "---\nshuffle: false\n---\n")
    quiz = lmsexport.read("labels.txt", source.encode())
    assert [quiz.label(question) for question in quiz.questions] == [f"question {n}" for n in range(1, 5)]
    assert any(w.startswith("W803 question 4 ") for w in _warnings(source, "qti"))
    assert "the title of question 4 has 299 characters" in _lint(tmp_path, source)
    assert "W813 pool 1 (Two of these) shuffles its questions" in " ".join(_warnings(source, "qti"))


@pytest.mark.parametrize("format_name", ["moodle", "canvas", "scorm2004"])
def test_every_writer_names_questions_by_number(format_name):
    """An essay after a typed question, with feedback for a right answer, which Moodle's essays and
    Canvas's have no place for (W656, W856), and which leaves pass or fail to the teacher in a SCORM
    package (W603): each writer names it question 2, not by its id."""
    body = "1. Name a planet.\n   = Mars\n\n2. Discuss.\n   @id: essay\n   ___\n   >+ Good.\n"
    source = _quiz(body, "---\npass: 50\n---\n")
    named = {"moodle": "W656 question 2 has correct feedback", "canvas": "W856 question 2: it is not scored",
             "scorm2004": "W603 question 2 is an essay"}
    assert any(w.startswith(named[format_name]) for w in _warnings(source, format_name))


def test_a_question_is_never_named_by_its_id():
    source = _quiz(SECOND.replace("@id: capital", "@id: q3"))  # an id another question's number would give
    assert _warnings(source, "qti")[0].startswith("W803 question 2 ")


def test_a_gift_reader_warning_and_a_writer_warning_name_the_question_after_a_description_alike():
    """GIFT's descriptions (a text with no answers) are text blocks: the question after one is
    question 1 to the reader (W908, an empty answer) and to the writers (Canvas's W853)."""
    log = lmsexport.Log()
    source = "Read this first.\n\n::Capital:: Which city is the capital?\n{=Paris =%50%Lutetia =}\n"
    quiz = lmsexport.read("labels.gift", source.encode(), log=log)
    assert [f"{d.code} {d.message}".split(":")[0] for d in log.diagnostics] == ["W908 question 1"]
    assert [quiz.label(question) for question in quiz.questions] == ["text block 1", "question 1"]
    assert any(w.startswith("W853 question 1: ") for w in
               (f"{w.code} {w.message}" for w in lmsexport.write(quiz, "canvas").warnings))
