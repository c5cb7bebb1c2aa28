"""Numeric questions of the text format (docs/format.md, "Numbers"): `=` answers that are numbers.

    3. g at the Earth's surface?
       @unit: m/s²          optional: the unit, when the answers do not say it
       = 9,81 ± 0,05 m/s²   a number as the question's language writes it (@lang, else lang:)
       =50% 10              partial credit; a unit written once holds for every answer

Each answer is read by the shared layer (`lmsexport.quantities`), so a number means the same
here as in a spreadsheet or to the SCORM player. A number that reads two ways is a warning
with the reading chosen (W131, W132); answers that are not all numbers make a short answer.
"""

from __future__ import annotations

import math

from ...model import NumericAnswer
from ...quantities import Quantity, QuantityError, read_answer

NOT_NUMBERS = object()
"""What `numeric_fields()` returns when the answers are not all numbers (a short-answer question)."""


def numeric_fields(parser, draft, lang: str | None, declared: str | None, feedback) -> dict | None | object:
    """The `answers` and `unit` of a numeric question, NOT_NUMBERS, or None after reporting why the
    answers cannot be a question's. `lang` is the question's language, `declared` its `@unit`,
    `feedback(lines)` makes an answer's feedback text."""
    read = [_read(parser, draft, answer, lang) for answer in draft.answers]
    if None in read:
        return None
    if any(quantity is NOT_NUMBERS for quantity in read):
        return NOT_NUMBERS
    for (line, column, _, text, _), quantity in zip(draft.answers, read):
        if not (math.isfinite(quantity.value) and math.isfinite(quantity.tolerance)):
            shown = text if len(text) <= 40 else f"{text[:37]}..."
            parser.error("E220", f"the number {shown} of {draft.name} is out of range", line, column,
                         hint="write a number between -1e308 and 1e308, with a tolerance in that range too",
                         length=len(text))
            return None
        for note in quantity.notes:
            parser.warn(note.code, f"{draft.name}: {note.message}", line, column, note.hint, len(text))
    answers = tuple(NumericAnswer(value=q.value, tolerance=q.tolerance, credit=credit, feedback=feedback(lines),
                                  source=parser.span(line, column, len(text)))
                    for q, (line, column, credit, text, lines) in zip(read, draft.answers))
    return {"answers": answers, "unit": _unit(parser, draft, read, declared)}


def _read(parser, draft, answer, lang: str | None) -> Quantity | None | object:
    """One `=` answer as a number, NOT_NUMBERS, or None after reporting an error."""
    line, column, _, text, _ = answer
    try:
        quantity = read_answer(text, lang)
    except QuantityError as exc:
        parser.error("E231", f"the answer {text} of {draft.name} {exc.message}", line, column, exc.hint, len(text))
        return None
    return NOT_NUMBERS if quantity is None else quantity


def _unit(parser, draft, read: list[Quantity], declared: str | None) -> str | None:
    """The question's one unit: `@unit`, or the one its answers give; two different ones are an
    error, at the first answer (or the `@unit`) that disagrees with the others."""
    given = [(answer[0], answer[1], len(answer[3]), q.unit) for answer, q in zip(draft.answers, read) if q.unit]
    if declared:
        line, column, value = draft.attributes["unit"]
        given.insert(0, (line, column, len(value), declared))
    units = list(dict.fromkeys(unit for *_, unit in given))
    if len(units) > 1:
        line, column, length, _ = next(place for place in given if place[3] != units[0])
        parser.error("E231", f"the answers of {draft.name} have different units: {', '.join(units)}", line, column,
                     "lmsexport does not convert units: write every answer in one unit (or give it once, with @unit)",
                     length)
    return units[0] if units else None
