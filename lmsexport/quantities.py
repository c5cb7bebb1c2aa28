"""Answers that are numbers: a value, its tolerance or range, and its unit (docs/format.md, "Numbers").

    78,9                 a number, as the answer's language writes it (numbers.py)
    78,9 ± 0,1           within a tolerance (`+-` and `+/-` too); `± 5 %` is 5 % of the value
    1,5..2,5             anything from 1,5 to 2,5
    9,81 m/s²            a number and its unit; `71 %`, `71%` and `٧١٪` have the unit %
    70 % ± 1 %           with the unit %, a tolerance in % is in points of it: 69 to 71

The unit is one word after the number (no spaces in it, starting with a letter, a symbol or a
percent sign: `m/s²`, `°C`, `km/h`, `Kč`); it may follow the tolerance or both ends of a range
instead, and where written twice it must be the same. What is not one of these shapes is no
number (`3 blind mice`, `2 3`): the reader takes it as text. Readers of formats with their own
number syntax (GIFT, text2qti) do not use this module: their files say `3.14:0.01`, `[1, 2]`.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from decimal import Decimal

from .numbers import BIDI, NUMBER, PERCENT, Note, read_number

PERCENT_UNIT = "%"
"""The unit of a percentage, however its sign was written."""
UNIT_LENGTH = 50
"""The longest unit (Moodle keeps 50 characters of a unit name)."""
_TOLERANCE = re.compile(r"\s*(?:±|\+/-|\+-)\s*")
_RANGE = re.compile(r"\s*\.\.\s*")


class QuantityError(ValueError):
    """An answer that is plainly meant as a number but cannot be one (two units, a negative
    tolerance); `message` says what is wrong with it (`has two units, m and cm`)."""

    def __init__(self, message: str, hint: str):
        super().__init__(message)
        self.message, self.hint = message, hint


@dataclass(frozen=True, slots=True)
class Quantity:
    """A numeric answer as read: right within `tolerance` of `value`, in `unit`.

    The numbers are floats as the model holds them, and may be infinite when the text names a
    number beyond a float's range (the reader reports that); `notes` say where a number's
    reading was in doubt."""

    value: float
    tolerance: float
    unit: str | None
    notes: tuple[Note, ...] = ()
    bounded: bool = False
    """True when the text gave a tolerance or a range (`± 0` included), False for a bare number."""


def read_answer(text: str, lang: str | None, *, decimal: str | None = None) -> Quantity | None:
    """The numeric answer `text` says in `lang` (with `decimal` as the decimal sign, if given: see
    numbers.convention()), or None if it is no number (a text answer).

    Raises QuantityError for a number with a unit its tolerance or range contradicts, or a
    negative tolerance."""
    text = BIDI.sub("", text).strip()
    plus_minus = _TOLERANCE.split(text)
    if len(plus_minus) == 2:
        return _within(*plus_minus, lang, decimal)
    ends = _RANGE.split(text)
    if len(plus_minus) > 2 or len(ends) > 2 or "..." in text:
        return None
    if len(ends) == 2:
        return _range(*ends, lang, decimal)
    single = _amount(text, lang, decimal)
    if single is None:
        return None
    number, unit, notes = single
    return Quantity(float(number), 0.0, unit, notes)


def _amount(text: str, lang: str | None, decimal: str | None) -> tuple[Decimal, str | None, tuple[Note, ...]] | None:
    """A number and the unit after it, if any."""
    match = NUMBER.match(text)
    number = read_number(match.group(), lang, decimal=decimal) if match else None
    if number is None:
        return None
    rest = text[match.end():].strip()
    unit = unit_of(rest) if rest else None
    if rest and unit is None:
        return None
    return number.value, unit, (number.note,) if number.note else ()


def unit_of(text: str) -> str | None:
    """`text` as a unit (`%` for any percent sign), or None if it cannot be one: one word
    starting with a letter, a symbol or a percent sign, at most UNIT_LENGTH characters."""
    if text in PERCENT:
        return PERCENT_UNIT
    first = text[:1]
    if not first or len(text) > UNIT_LENGTH or any(c.isspace() for c in text):
        return None
    return text if unicodedata.category(first)[0] in "LS" or first in PERCENT | {"‰", "‱"} else None


def _within(value_text: str, tolerance_text: str, lang: str | None, decimal: str | None) -> Quantity | None:
    value, tolerance = _amount(value_text, lang, decimal), _amount(tolerance_text, lang, decimal)
    if value is None or tolerance is None:
        return None
    (number, unit, notes), (margin, margin_unit, more) = value, tolerance
    if margin < 0:
        raise QuantityError("has a negative tolerance",
                            "write the tolerance as a distance from the number: 3.14 ± 0.01")
    if margin_unit == PERCENT_UNIT and unit != PERCENT_UNIT:
        return Quantity(float(number), float(abs(number) * margin / 100), unit, notes + more, True)
    return Quantity(float(number), float(margin), _one_unit(unit, margin_unit), notes + more, True)


def _range(low_text: str, high_text: str, lang: str | None, decimal: str | None) -> Quantity | None:
    low, high = _amount(low_text, lang, decimal), _amount(high_text, lang, decimal)
    if low is None or high is None:
        return None
    unit = _one_unit(low[1], high[1])
    smaller, larger = sorted((low[0], high[0]))
    # In decimal, so 3.141..3.142 is 3.1415 ± 0.0005 exactly as written.
    return Quantity(float((smaller + larger) / 2), float((larger - smaller) / 2), unit, low[2] + high[2], True)


def _one_unit(first: str | None, second: str | None) -> str | None:
    if first and second and first != second:
        raise QuantityError(f"has two units, {first} and {second}",
                            "lmsexport does not convert units: write both numbers in one unit, or the unit once "
                            "at the end")
    return first or second
