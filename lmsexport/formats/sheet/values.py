"""What a cell's text means: numbers, yes/no, option letters, lists of accepted answers.

Each reader raises ValueError with the hint to show, so the caller can place the message
at the cell. Numbers are read as the sheet's language writes them (lmsexport/numbers.py: `3,14`
in Czech, `3.14` in English), unless its settings name the decimal mark (`decimal | comma`); a
workbook's number cells are numbers already and need neither. A number that reads two ways
(`1,500`) is a warning in an answer and an error in a setting.
"""

from __future__ import annotations

import math
import re
from typing import NamedTuple

from ...numbers import PERCENT, convention, read_number
from ...quantities import Quantity, read_answer
from .grid import Cell

TRUE = frozenset({"true", "t", "yes", "y", "1", "wahr", "ja", "vrai", "oui", "verdadero", "sí", "si", "vero",
                  "verdadeiro", "sim", "waar"})
FALSE = frozenset({"false", "f", "no", "n", "0", "falsch", "nein", "faux", "non", "falso", "não", "nao", "onwaar",
                   "nee"})
"""Yes and no as a cell may say them: English words, and what Excel writes for TRUE and FALSE
(and yes and no) in German, French, Spanish, Italian, Portuguese and Dutch."""
TRUE_FALSE = frozenset({"true", "t", "false", "f"})
"""The words a `correct` cell may hold to make a true/false question without a `type`; the
others need the type, since `no` or `sim` may well be a short answer."""

_CREDIT = re.compile(r"(?P<credit>-?\d+(?:[.,]\d+)?)\s*%\s+(?P<rest>\S.*)\Z", re.S)
_LETTERS = re.compile(r"[a-zA-Z](?:[\s,;/&+]*[a-zA-Z])*\Z")
_LETTER_SEPARATORS = re.compile(r"[\s,;/&+]+")
_DOT = re.compile(r"(?<=\d)\.(?=\d)")


class Numbers(NamedTuple):
    """How a sheet's numbers are written: in its language (`lang`, the quiz's or the row's), unless
    the settings name the decimal mark (`decimal | comma`), which wins: a CSV file saved by a
    spreadsheet in another language than the quiz's has that language's numbers."""

    lang: str | None
    decimal: str | None = None

    def show(self, example: str) -> str:
        """An example written with a dot as these numbers write it (`3.14` -> `3,14`)."""
        return _DOT.sub(self.decimal or convention(self.lang).latin.decimal, example)

    def hint(self) -> str:
        return f"write a number such as 2 or {self.show('2.5')}"


def number(cell: Cell, numbers: Numbers) -> float:
    """The number in a cell; raises ValueError (with the hint) if it holds none, or one that
    reads two ways (a setting or points cell has no place for a warning)."""
    if cell.number is not None:
        return cell.number
    found = read_number(cell.text, numbers.lang, decimal=numbers.decimal)
    if found is None:
        raise ValueError(numbers.hint())
    if found.note is not None:
        raise ValueError(f"{found.note.message}; {found.note.hint}")
    if not math.isfinite(float(found.value)):
        raise ValueError("write a finite number")
    return float(found.value)


def numeric(text: str, numbers: Numbers) -> Quantity | None:
    """A numeric answer (`3,14`, `3,14 ± 0,01`, `1,5..2,5`, `9,81 m/s²`), read as the shared
    layer reads answers (lmsexport/quantities.py); None if the text is no number. Raises
    QuantityError for one that cannot be an answer (two units)."""
    return read_answer(text, numbers.lang, decimal=numbers.decimal)


def tolerance(cell: Cell, numbers: Numbers, value: float) -> float:
    """A tolerance cell: a number, or a percentage of `value` (`5%`)."""
    text = cell.text.strip()
    if cell.number is None and text[-1:] in PERCENT:
        return abs(value) * number(Cell(text[:-1].strip()), numbers) / 100
    found = number(cell, numbers)
    if found < 0:
        raise ValueError("a tolerance is 0 or more")
    return found


def boolean(text: str) -> bool | None:
    """True or False for yes/no words (true, yes, 1, ...), else None."""
    folded = text.strip().casefold()
    return True if folded in TRUE else False if folded in FALSE else None


def letters(text: str) -> list[str] | None:
    """The option letters in a `correct` cell (`b`, `a, c`, `ACD`), lower case, or None if it holds
    anything else."""
    if not _LETTERS.match(text.strip()):
        return None
    return list(dict.fromkeys(_LETTER_SEPARATORS.sub("", text).lower()))


def alternatives(text: str) -> list[str]:
    """The accepted answers in a cell: separated by `|` or line breaks, each stripped."""
    return [part.strip() for part in re.split(r"[|\n]", text) if part.strip()]


def credit(text: str) -> tuple[float, str]:
    """An answer's credit and text: `50% Lyon` -> (50, "Lyon"); `Paris` -> (100, "Paris")."""
    match = _CREDIT.match(text)
    if not match:
        return 100.0, text
    return float(match["credit"].replace(",", ".")), match["rest"].strip()
