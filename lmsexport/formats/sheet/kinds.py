"""One function per question type: a row's cells to the model question, every problem placed at its cell.

Each builder gets the row (`rows.RowReader`) and the fields every question has, and returns
the question, or None once it has reported why it cannot be one.
"""

from __future__ import annotations

import math

from ...ids import letters as ids
from ...model import (
    Answer, Choice, Description, Essay, FillBlanks, Gap, Matching, MatchPair, MultipleChoice, Numeric,
    NumericAnswer, OrderItem, Ordering, Question, ShortAnswer, Text, TrueFalse,
)
from ...quantities import UNIT_LENGTH, Quantity, QuantityError
from . import gaps, values
from .columns import OPTION_LETTERS
from .rows import RowReader

_OPTIONS_HINT = "fill the options from a on, without gaps between them"


def build(reader: RowReader, kind: str, common: dict) -> Question | None:
    return _BUILDERS[kind](reader, kind, common)


def _prompt(reader: RowReader) -> Text:
    return reader.text("question")


def _filled_options(reader: RowReader, fewest: int, what: str = "options"):
    """The row's options if they run from a without a gap and there are at least `fewest`, else None."""
    options = reader.options()
    found = [letter for letter, _, _ in options]
    expected = list(OPTION_LETTERS[:len(found)])
    if found != expected:
        missing = next(want for letter, want in zip(found, expected) if letter != want)
        reader.error("E981", f"option {missing} of {reader.name} is empty, but a later option is filled",
                     f"option {missing}", _OPTIONS_HINT)
        return None
    if len(options) < fewest:
        empty = f"option {OPTION_LETTERS[len(options)]}"
        reader.error("E981", f"{reader.name} has {len(options) or 'no'} option{'s' * (len(options) != 1)}; "
                     f"it needs {fewest} {what} or more", empty if empty in reader.header.columns else "question",
                     "write each option in its own column: a, b, c, ...")
        return None
    seen: dict[str, str] = {}
    for letter, _, cell in options:
        first = seen.setdefault(" ".join(cell.text.casefold().split()), letter)
        if first != letter:
            reader.error("E981", f"options {first} and {letter} of {reader.name} are the same: {cell.text!r}",
                         f"option {letter}", "remove one of them or reword it")
            return None
    return options


def _choice(reader: RowReader, kind: str, common: dict):
    options = _filled_options(reader, 2)
    keys = _keys(reader, options) if options else None
    if keys is None:
        return None
    if kind == "multiple_choice" and len(keys) > 1:
        reader.error("E980", f"{reader.name} is a multiple choice question, with one right option, but correct "
                     f"names {', '.join(keys)}", "correct", "set its type to multiple_response, or name one option")
        return None
    filled = {letter for letter, _, _ in options}
    for letter in OPTION_LETTERS:
        if reader.get(f"feedback {letter}") is not None and letter not in filled:
            reader.error("E984", f"feedback {letter} is for option {letter}, which is empty", f"feedback {letter}",
                         "clear the cell, or fill in the option")
            return None
    choices = tuple(
        Choice(id=letter, text=reader.text(f"option {letter}"), correct=letter in keys,
               feedback=reader.text(f"feedback {letter}"), source=reader.grid.span(reader.row, column))
        for letter, column, _ in options
    )
    several = kind == "multiple_response" or (kind == "choice" and len(keys) > 1)
    return MultipleChoice(**common, prompt=_prompt(reader), choices=choices, multiple_response=several)


def _keys(reader: RowReader, options) -> list[str] | None:
    """The letters of the right options: `correct` holds letters (`b`, `a, c`) or the options' texts."""
    correct = reader.get("correct")
    if correct is None:
        reader.error("E979", f"{reader.name} has no correct answer", "correct",
                     "write the letter of the right option (b), or several for multiple response (a, c)")
        return None
    filled = [letter for letter, _, _ in options]
    keys = values.letters(correct.text)
    if keys is not None and set(keys) <= set(filled):
        return keys
    by_text = {" ".join(cell.text.casefold().split()): letter for letter, _, cell in options}
    named = [by_text.get(" ".join(text.casefold().split())) for text in values.alternatives(correct.text)]
    if named and None not in named:
        return list(dict.fromkeys(named))
    if keys is not None and (len(keys) <= len(filled) or not correct.text.isalpha()):
        wrong = ", ".join(key for key in keys if key not in filled)
        reader.error("E980", f"correct names {wrong}, but {reader.name} has options a to {filled[-1]}", "correct",
                     "write the letter of each right option, from the option columns' names")
    else:
        reader.error("E980", f"correct holds {correct.text!r}, which is no option's letter nor an option's text",
                     "correct", "write the letter of the right option (b), several for multiple response (a, c), "
                     "or the right option's text")
    return None


def _true_false(reader: RowReader, kind: str, common: dict):
    correct = reader.get("correct")
    answer = values.boolean(correct.text) if correct is not None else None
    if answer is None:
        found = f"holds {correct.text!r}" if correct is not None else "is empty"
        reader.error("E983", f"correct of {reader.name} (true/false) {found}", "correct", "write true or false")
        return None
    return TrueFalse(**common, prompt=_prompt(reader), answer=answer)


def _short_answer(reader: RowReader, kind: str, common: dict):
    correct = _required_correct(reader, "the accepted answer; several separated by | (Paris | paris)")
    if correct is None:
        return None
    answers = [values.credit(text) for text in values.alternatives(correct.text)]
    if not _credits_ok(reader, [credit for credit, _ in answers]):
        return None
    case = _case(reader)
    if case is None:
        return None
    return ShortAnswer(**common, prompt=_prompt(reader), case_sensitive=case,
                       answers=tuple(Answer(text=text, credit=credit, source=_cell(reader, "correct"))
                                     for credit, text in answers))


def _numeric(reader: RowReader, kind: str, common: dict):
    correct = _required_correct(reader, "the number; " + _numeric_hint(reader))
    if correct is None:
        return None
    if correct.number is not None:
        found = [(100.0, Quantity(correct.number, 0.0, None))]
    else:
        found = [(credit, _quantity(reader, rest))
                 for credit, rest in map(values.credit, values.alternatives(correct.text))]
        if any(quantity is None for _, quantity in found):
            return None
    if not _credits_ok(reader, [credit for credit, _ in found]):
        return None
    answers = []
    for credit, quantity in found:
        tolerance = quantity.tolerance if quantity.bounded else _tolerance(reader, quantity.value)
        if tolerance is None:
            return None
        answers.append(NumericAnswer(value=quantity.value, tolerance=tolerance, credit=credit,
                                     source=_cell(reader, "correct")))
    unit = _unit(reader, [quantity.unit for _, quantity in found])
    if unit is False:
        return None
    return Numeric(**common, prompt=_prompt(reader), answers=tuple(answers), unit=unit)


def _numeric_hint(reader: RowReader) -> str:
    show = reader.numbers.show
    return (f"write a number ({show('3.14')}), a number and its tolerance ({show('3.14 ± 0.01')}), a range "
            f"({show('3.1..3.2')}) or a number and its unit ({show('9.81 m/s²')})")


def _quantity(reader: RowReader, text: str) -> Quantity | None:
    """An answer of a numeric row, its notes warned about; None after reporting why it is no number."""
    try:
        quantity = values.numeric(text, reader.numbers)
    except QuantityError as exc:
        reader.error("E982", f"{text!r} in correct of {reader.name} {exc.message}", "correct", exc.hint)
        return None
    if quantity is None or not (math.isfinite(quantity.value) and math.isfinite(quantity.tolerance)):
        what = "is not a number" if quantity is None else "is out of range"
        reader.error("E982", f"{text!r} in correct of {reader.name} {what}", "correct", _numeric_hint(reader))
        return None
    for note in quantity.notes:
        reader.warn(note.code, f"{reader.name}: {note.message}", "correct", note.hint)
    return quantity


def _unit(reader: RowReader, given: list[str | None]):
    """The row's unit: its `unit` cell, or the one its answers give; False after reporting two."""
    cell = reader.get("unit")
    units = dict.fromkeys(unit for unit in [cell.text.strip() if cell else None, *given] if unit)
    if len(units) > 1:
        reader.error("E982", f"the answers of {reader.name} have different units: {', '.join(units)}",
                     "unit" if cell else "correct", "lmsexport does not convert units: write every answer in one "
                     "unit (or give it once, in the unit column)")
        return False
    unit = next(iter(units), None)
    if unit is not None and len(unit) > UNIT_LENGTH:
        reader.error("E982", f"the unit of {reader.name} is longer than {UNIT_LENGTH} characters", "unit",
                     "write the unit short (m/s², %, km/h)")
        return False
    return unit


def _tolerance(reader: RowReader, value: float) -> float | None:
    cell = reader.get("tolerance")
    if cell is None:
        return 0.0
    try:
        return values.tolerance(cell, reader.numbers, value)
    except ValueError as exc:
        reader.error("E982", f"tolerance of {reader.name} holds {cell.text!r}", "tolerance",
                     f"{exc}; or a percentage of the answer (5%)")
        return None


def _required_correct(reader: RowReader, what: str):
    correct = reader.get("correct")
    if correct is None:
        reader.error("E979", f"{reader.name} has no correct answer", "correct", f"write {what}")
    return correct


def _credits_ok(reader: RowReader, credits: list[float]) -> bool:
    if any(not -100 <= credit <= 100 for credit in credits):
        reader.error("E990", f"a credit in correct of {reader.name} is outside -100% to 100%", "correct",
                     "write 50% answer for half credit")
        return False
    if 100 not in credits:
        reader.error("E990", f"no answer in correct of {reader.name} gives full credit", "correct",
                     "write at least one answer without a % (or with 100%)")
        return False
    return True


def _case(reader: RowReader) -> bool | None:
    cell = reader.get("case")
    if cell is None:
        return False
    words = {"sensitive": True, "insensitive": False}
    found = words.get(cell.text.casefold(), values.boolean(cell.text))
    if found is None:
        reader.error("E982", f"case of {reader.name} holds {cell.text!r}", "case",
                     "write yes (answers must match letter case) or no")
    return found


def _essay(reader: RowReader, kind: str, common: dict):
    cell = reader.get("lines")
    lines = 10
    if cell is not None:
        try:
            lines = values.number(cell, reader.numbers)
        except ValueError:
            lines = 0
        if not (1 <= lines <= 100 and lines == int(lines)):
            reader.error("E982", f"lines of {reader.name} holds {cell.text!r}", "lines",
                         "write the size of the answer box: a whole number of lines from 1 to 100")
            return None
    return Essay(**common, prompt=_prompt(reader), lines=int(lines))


def _matching(reader: RowReader, kind: str, common: dict):
    options = _filled_options(reader, 2, "pairs")
    if options is None:
        return None
    pairs, distractors = [], []
    for letter, column, cell in options:
        arrow = next((arrow for arrow in ("->", "→") if arrow in cell.text), None)
        left, _, right = cell.text.partition(arrow) if arrow else (cell.text, "", "")
        left, right = left.strip(), right.strip()
        if not right:
            reader.error("E985", f"option {letter} of {reader.name} (matching) has no right-hand side after ->",
                         column, "write left -> right (or -> right alone for a right-hand item that matches nothing)")
            return None
        if left:
            pairs.append(MatchPair(id=ids(len(pairs)), left=reader.texts.text(left, reader.row, column),
                                   right=reader.texts.text(right, reader.row, column),
                                   source=reader.grid.span(reader.row, column)))
        else:
            distractors.append(reader.texts.text(right, reader.row, column))
    if len(pairs) < 2:
        reader.error("E985", f"{reader.name} (matching) has fewer than two pairs", "question",
                     "write two pairs or more, one per option cell: left -> right")
        return None
    return Matching(**common, prompt=_prompt(reader), pairs=tuple(pairs), distractors=tuple(distractors))


def _ordering(reader: RowReader, kind: str, common: dict):
    options = _filled_options(reader, 2, "items")
    if options is None:
        return None
    items = tuple(OrderItem(id=letter, text=reader.text(f"option {letter}"), source=reader.grid.span(reader.row, column))
                  for letter, column, _ in options)
    return Ordering(**common, prompt=_prompt(reader), items=items)


def _cell(reader: RowReader, name: str):
    """The span of the row's cell in column `name` (the answers in `correct`)."""
    return reader.grid.span(reader.row, reader.header.columns[name])


def _fill_blanks(reader: RowReader, kind: str, common: dict):
    question = reader.get("question")
    try:
        segments, shown = gaps.split(question.text)
    except ValueError as exc:
        reader.error("E986", f"a gap in {reader.name} is not right", "question", str(exc))
        return None
    if not any(isinstance(segment, Gap) for segment in segments):
        reader.error("E986", f"{reader.name} is a fill-in-the-blanks question without gaps", "question",
                     "write each blank in the question as {=answer}, or {=right ~wrong ~wrong} for a drop-down")
        return None
    case = _case(reader)
    if case is None:
        return None
    return FillBlanks(**common, prompt=Text(shown), segments=tuple(segments), case_sensitive=case)


def _description(reader: RowReader, kind: str, common: dict):
    return Description(**{**common, "points": 0.0}, prompt=_prompt(reader))


_BUILDERS = {
    "multiple_choice": _choice,
    "multiple_response": _choice,
    "choice": _choice,
    "true_false": _true_false,
    "short_answer": _short_answer,
    "numeric": _numeric,
    "essay": _essay,
    "matching": _matching,
    "ordering": _ordering,
    "fill_blanks": _fill_blanks,
    "description": _description,
}
