"""Every writer warns through the one `diagnostics.Log`, at the place `Quiz.where()` gives.

The same lossy input is written in every LMS format through `lmsexport.write`; each writer must
point its warnings at the same places and say a thing once.
"""

from __future__ import annotations

import pytest

import lmsexport
from lmsexport.diagnostics import SourceSpan
from lmsexport.model import Choice, MultipleChoice, Quiz, Text

BROKEN = r"\(\frac{a}\)"
"""TeX that no writer can turn into MathML: QTI and the SCORM player warn (W804, W605)."""
MATH_WARNINGS = {"qti": "W804", "scorm12": "W605", "scorm2004": "W605"}


def _question(id_: str, prompt: Text, source: SourceSpan | None = None) -> MultipleChoice:
    choices = (Choice(id="a", text=Text("yes"), correct=True), Choice(id="b", text=Text("no")))
    return MultipleChoice(id=id_, prompt=prompt, choices=choices, source=source)


@pytest.mark.parametrize("flavour", MATH_WARNINGS)
def test_a_problem_repeated_in_a_question_is_one_warning(flavour):
    choices = (Choice(id="a", text=Text(BROKEN, "html"), correct=True), Choice(id="b", text=Text("no")))
    quiz = Quiz(id="quiz", title="Quiz", questions=(MultipleChoice(
        id="q1", prompt=Text(f"<p>{BROKEN} and again {BROKEN}</p>", "html"), choices=choices,
        source=SourceSpan("quiz.txt", 3)),))
    warnings = lmsexport.write(quiz, flavour).warnings
    assert [(w.code, str(w.span)) for w in warnings] == [(MATH_WARNINGS[flavour], "quiz.txt:3")]


@pytest.mark.parametrize("flavour", MATH_WARNINGS)
def test_a_question_without_a_position_is_placed_at_the_quiz_file(flavour):
    """q2 has no position (built in code, or read from JSON): its warning names the quiz's file,
    never the position of the question written before it."""
    quiz = Quiz(id="quiz", title="Quiz", questions=(
        _question("q1", Text("Fine?"), SourceSpan("quiz.txt", 3)),
        _question("q2", Text(f"<p>{BROKEN}</p>", "html")),
    ))
    warnings = lmsexport.write(quiz, flavour).warnings
    assert [(w.code, str(w.span)) for w in warnings] == [(MATH_WARNINGS[flavour], "quiz.txt")]


def test_quiz_where_names_the_question_else_the_file_else_the_quiz():
    placed = _question("q1", Text("A?"), SourceSpan("a.txt", 4, 1))
    unplaced = _question("q2", Text("B?"))
    assert Quiz(id="z", title="Z", questions=(unplaced, placed)).where(unplaced) == SourceSpan("a.txt")
    assert Quiz(id="z", title="Z", questions=(unplaced, placed)).where(placed) == SourceSpan("a.txt", 4, 1)
    assert Quiz(id="z", title="Z", questions=(unplaced,)).where() == SourceSpan("z")
