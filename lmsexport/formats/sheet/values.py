"""What a cell's text means: numbers, yes/no, option letters, lists of accepted answers.

Each reader raises ValueError with the hint to show, so the caller can place the message
at the cell. Numbers use a dot as the decimal mark unless the sheet's settings say
`decimal: comma` (`3,14`); a workbook's number cells are numbers already and need neither.
The mark is never guessed from the text: `1,500` is 1.5 in one country and 1500 in another.
"""

from __future__ import annotations

import math
import re

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

_DIGITS = {".": r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?", ",": r"[-+]?(?:\d+(?:,\d*)?|,\d+)(?:[eE][-+]?\d+)?"}
_NUMERIC = {
    mark: re.compile(
        rf"(?P<value>{digits})(?:\s*(?:±|\+-|\+/-)\s*(?P<tolerance>{digits})\s*(?P<percent>%)?)?\Z"
        rf"|(?P<low>{digits})\s*\.\.\s*(?P<high>{digits})\Z"
    )
    for mark, digits in _DIGITS.items()
}
_CREDIT = re.compile(r"(?P<credit>-?\d+(?:[.,]\d+)?)\s*%\s+(?P<rest>\S.*)\Z", re.S)
_LETTERS = re.compile(r"[a-zA-Z](?:[\s,;/&+]*[a-zA-Z])*\Z")
_LETTER_SEPARATORS = re.compile(r"[\s,;/&+]+")
NUMBER_HINT = {".": "write a number such as 2 or 2.5", ",": "write a number such as 2 or 2,5 (decimal: comma)"}


def number(cell: Cell, decimal: str) -> float:
    """The number in a cell; raises ValueError (with the hint) if it holds none."""
    if cell.number is not None:
        return cell.number
    text = cell.text.replace(" ", "").replace("\u00a0", "")
    if not re.fullmatch(_DIGITS[decimal], text):
        hint = NUMBER_HINT[decimal]
        if decimal == "." and re.fullmatch(_DIGITS[","], text):
            hint += "; for a decimal comma, add a settings row decimal | comma above the header"
        raise ValueError(hint)
    return _float(text, decimal)


def _float(text: str, decimal: str) -> float:
    value = float(text.replace(",", ".") if decimal == "," else text)
    if not math.isfinite(value):
        raise ValueError("write a finite number")
    return value


def numeric(text: str, decimal: str) -> tuple[float, float | None] | None:
    """(value, tolerance or None) for `3.14`, `3.14 ± 0.01` (`+-`, or `%` of the value), `1..5`; else
    None (also for numbers too big to be finite, and a negative tolerance)."""
    match = _NUMERIC[decimal].match(text.strip())
    if not match:
        return None
    try:
        value, tolerance = _numeric(match, decimal)
    except ValueError:
        return None
    if not math.isfinite(value) or (tolerance is not None and not 0 <= tolerance < math.inf):
        return None
    return value, tolerance


def _numeric(match: re.Match, decimal: str) -> tuple[float, float | None]:
    if match["low"] is not None:
        low, high = sorted((_float(match["low"], decimal), _float(match["high"], decimal)))
        return (low + high) / 2, (high - low) / 2
    value = _float(match["value"], decimal)
    if match["tolerance"] is None:
        return value, None
    tolerance = _float(match["tolerance"], decimal)
    return value, abs(value) * tolerance / 100 if match["percent"] else tolerance


def tolerance(cell: Cell, decimal: str, value: float) -> float:
    """A tolerance cell: a number, or a percentage of `value` (`5%`)."""
    text = cell.text.strip()
    if cell.number is None and text.endswith("%"):
        return abs(value) * number(Cell(text[:-1].strip()), decimal) / 100
    found = number(cell, decimal)
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


def credit(text: str, decimal: str) -> tuple[float, str]:
    """An answer's credit and text: `50% Lyon` -> (50, "Lyon"); `Paris` -> (100, "Paris")."""
    match = _CREDIT.match(text)
    if not match:
        return 100.0, text
    return float(match["credit"].replace(",", ".")), match["rest"].strip()
