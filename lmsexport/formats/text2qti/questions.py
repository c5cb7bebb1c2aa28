"""A text2qti question, read to its end, as a model question (`Question.finalize` in text2qti).

| text2qti                         | model                                                   |
|----------------------------------|---------------------------------------------------------|
| `a)` choices, one `*a)`          | MultipleChoice                                          |
| two choices `true` / `false`     | TrueFalse (choice feedback becomes + / - feedback)      |
| `[ ]` / `[*]` choices            | MultipleChoice, multiple_response                       |
| `*` answers                      | ShortAnswer (case-insensitive, as Canvas compares them) |
| `= 5`, `= x +- m`, `= [a, b]`    | Numeric (one answer: its value and tolerance)           |
| `____`                           | Essay                                                   |
| `^^^^`                           | skipped with a warning: no writer here takes uploads    |

`...` under the question is the explanation, `+` / `-` the feedback when right / wrong.
"""

from __future__ import annotations

import math
import re
from decimal import Decimal, InvalidOperation

from ...diagnostics import SourceSpan
from ...ids import letters
from ...model import (
    Answer, Choice, ModelError, Essay, MultipleChoice, Numeric, NumericAnswer, Question, ShortAnswer, TrueFalse,
)
from ...numbers import read_plain, written
from ...quantities import QuantityError, read_answer
from .drafts import QuestionDraft

_TRUE_FALSE = ("true", "True", "false", "False")
_INTEGER = re.compile(r"(?:0|[+-]?[1-9](?:[0-9]+|_[0-9]+)*)\Z")
_NUMERIC_HINT = "write = 5 (an exact integer), = 1.5 +- 0.1 (or +- 2%), or = [1.4, 1.6] (a range)"


def build(reader, draft: QuestionDraft) -> Question | None:
    """The model question of `draft`, or None (reported: incomplete, or a file upload)."""
    builder = _BUILDERS.get(draft.kind)
    if builder is None:
        reader.error("E959", f"{draft.name} has no answers", draft.element,
                     "give it choices (a) ... with *a) for the right one), answers (* ...), a number (= ...) "
                     "or an essay box (____)")
        return None
    if draft.prompt is None or draft.broken:
        return None  # its text could not be read, or an answer was refused: reported
    points = _points(reader, draft)
    feedback = draft.feedback
    common = dict(id=f"q{draft.number}", title=draft.title, points=points, prompt=draft.prompt,
                  explanation=feedback.get("feedback"), correct_feedback=feedback.get("correct_feedback"),
                  incorrect_feedback=feedback.get("incorrect_feedback"),
                  source=SourceSpan(reader.source, draft.element.line, 1))
    try:
        question = builder(reader, draft, common)
    except ModelError as exc:  # a value the model refuses that no check above catches
        reader.error("E959", f"{draft.name} cannot be read: {exc}", draft.element, "see docs/formats/text2qti.md")
        return None
    if draft.solution_line and question is not None:
        reader.log.unsupported("W953", SourceSpan(reader.source, draft.solution_line, 1), question=draft.name,
                               format="the lmsexport model", feature="a solution (!)", instead="it is left out "
                               "(text2qti puts it only in its solutions export, never in the quiz)")
    return question


def _points(reader, draft: QuestionDraft) -> float:
    if draft.points is None:
        return 1.0
    try:
        points = Decimal(draft.points.text)
    except InvalidOperation:
        points = Decimal("NaN")
    if not points.is_finite() or points <= 0 or not math.isfinite(float(points)):
        reader.error("E961", f"the points of {draft.name} are not a number above 0: {draft.points.text!r}",
                     draft.points, "write Points: 2 (or 1.5)")
        return 1.0
    return float(points)


def _choices(reader, draft: QuestionDraft, multiple: bool):
    correct = sum(choice.correct for choice in draft.choices)
    if len(draft.choices) < 2:
        reader.error("E959", f"{draft.name} has one choice; it needs two or more", draft.element,
                     "add the other choices under it, one to a line: b) ...")
    elif not correct:
        reader.error("E959", f"{draft.name} has no correct choice", draft.element,
                     "mark the correct choice with a * before it: *a) ..." if not multiple else
                     "mark each correct choice [*]")
    elif correct > 1 and not multiple:
        reader.error("E959", f"{draft.name} marks {correct} choices correct; a multiple-choice question has one",
                     draft.element, "keep one *; for several correct answers use [*] and [ ] instead of *a) and a)")
    else:
        return tuple(Choice(id=letters(index), text=choice.text, correct=choice.correct, feedback=choice.feedback,
                            source=_span(reader, choice.element))
                     for index, choice in enumerate(draft.choices))
    return None


def _multiple_choice(reader, draft: QuestionDraft, common: dict) -> Question | None:
    choices = _choices(reader, draft, multiple=False)
    if choices is None or None in (choice.text for choice in choices):
        return None
    raw = [choice.element.text for choice in draft.choices]
    if len(raw) == 2 and all(text in _TRUE_FALSE for text in raw):
        right, wrong = sorted(draft.choices, key=lambda choice: not choice.correct)
        given = common["correct_feedback"], common["incorrect_feedback"]
        if not (right.feedback and given[0]) and not (wrong.feedback and given[1]):
            return TrueFalse(**{**common, "correct_feedback": given[0] or right.feedback,
                                "incorrect_feedback": given[1] or wrong.feedback},
                             answer=right.element.text.lower() == "true")
    return MultipleChoice(**common, choices=choices)


def _multiple_answers(reader, draft: QuestionDraft, common: dict) -> Question | None:
    choices = _choices(reader, draft, multiple=True)
    if choices is None or None in (choice.text for choice in choices):
        return None
    return MultipleChoice(**common, choices=choices, multiple_response=True)


def _short_answer(reader, draft: QuestionDraft, common: dict) -> Question:
    # text2qti compares answers literally; the model's `*` is a wildcard, so it is escaped.
    answers = tuple(Answer(text=choice.element.text.replace("*", "\\*"), source=_span(reader, choice.element))
                    for choice in draft.choices)
    return ShortAnswer(**common, answers=answers)


def _numerical(reader, draft: QuestionDraft, common: dict) -> Question | None:
    element = draft.numerical
    try:
        value, tolerance = numeric_answer(element.text)
    except ValueError as exc:
        reader.error("E960", f"the answer of {draft.name} is not a number text2qti reads: {exc}", element,
                     _numeric_hint(element.text))
        return None
    return Numeric(**common, answers=(NumericAnswer(value=value, tolerance=tolerance, source=_span(reader, element)),))


def _span(reader, element) -> SourceSpan:
    """Where an answer element's text starts."""
    return SourceSpan(reader.source, element.line, element.column, max(1, len(element.text.split("\n")[0])))


def _numeric_hint(text: str) -> str:
    """The hint for an answer text2qti refuses; for a number it would take written otherwise (with a
    decimal comma or a unit, read as lmsexport reads numbers), the form text2qti takes."""
    try:
        quantity = read_answer(text, None)
    except QuantityError:
        quantity = None
    if quantity is None or quantity.bounded or not math.isfinite(quantity.value) or read_plain(text) is not None:
        return _NUMERIC_HINT
    unit = f", and the unit ({quantity.unit}) in the question's text" if quantity.unit else ""
    return f"text2qti reads numbers with a dot and no unit: write = {written(quantity.value, None)} +- 0{unit}"


def numeric_answer(text: str) -> tuple[float, float]:
    """(value, tolerance) of `5`, `1.5 +- 0.1`, `1.5 +- 2%` or `[1.4, 1.6]`; raises ValueError."""
    if text.startswith("["):
        if not text.endswith("]") or "," not in text:
            raise ValueError(f"{text!r} is not a range [low, high]")
        low, high = (_decimal(part) for part in text[1:-1].split(",", 1))
        if low > high:
            raise ValueError(f"the range {text} runs from high to low")
        return _floats((low + high) / 2, (high - low) / 2)
    if "+-" in text:
        number, margin = text.split("+-", 1)
        percent = margin.strip().endswith("%")
        value, margin = _decimal(number), _decimal(margin.strip().removesuffix("%"))
        if margin < 0:
            raise ValueError("the margin after +- is negative")
        return _floats(value, abs(value) * margin / 100 if percent else margin)
    if _INTEGER.match(text):
        return _floats(Decimal(text), Decimal(0))
    raise ValueError(f"{text!r} is not an integer (a decimal needs +- 0 to be exact)")


def _floats(value: Decimal, tolerance: Decimal) -> tuple[float, float]:
    """The value and tolerance as the model holds them (floats), which must be finite."""
    if not all(math.isfinite(float(number)) for number in (value, tolerance)):
        raise ValueError("the number is too large")
    return float(value), float(tolerance)


def _decimal(text: str) -> Decimal:
    try:
        number = Decimal(text.strip())
    except InvalidOperation:
        raise ValueError(f"{text.strip()!r} is not a number") from None
    if not number.is_finite():
        raise ValueError(f"{text.strip()!r} is not a finite number")
    return number


def _essay(reader, draft: QuestionDraft, common: dict) -> Question:
    return Essay(**common)


def _upload(reader, draft: QuestionDraft, common: dict) -> None:
    reader.log.unsupported("W951", common["source"], question=draft.name, format="lmsexport's output formats",
                           feature="a file-upload question (^^^^)", instead="the question is left out of the quiz",
                           hint="make it an essay question (____) and ask for a link to the file, or add the "
                           "upload question in the LMS")
    return None


_BUILDERS = {"multiple_choice": _multiple_choice, "multiple_answers": _multiple_answers,
             "short_answer": _short_answer, "numerical": _numerical, "essay": _essay, "upload": _upload}
