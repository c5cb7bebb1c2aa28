"""The quiz's settings: `name | value` rows above the header row.

    title       | Photosynthesis, week 3
    lang        | en
    points      | 2
    (blank rows, # comments)
    type | question | a | b | correct ...      <- the header row

The keys are lmsexport's quiz settings, those of the text format's `---` header
(docs/format.md, checked by `lmsexport.settings`), plus `description` and `decimal`;
`lmsexport.toml`'s `[defaults]` fill in what a sheet leaves out. Rows, not a settings sheet:
they live on the one sheet the teacher edits, and they survive Excel's "Save as CSV", which
keeps one sheet only. Without a `title` row the file's name is the title.
"""

from __future__ import annotations

import difflib
import math
from typing import Callable

from ... import settings
from ...diagnostics import Diagnostic
from . import values
from .columns import fold
from .grid import Cell, Grid, Row
from .values import Numbers


def _text(cell: Cell, numbers: Numbers) -> str:
    return cell.text


def _as_written(check: Callable[[str], object]) -> Callable[[Cell, Numbers], object]:
    """A setting whose cell is read as text, checked as a text header's line is (lmsexport.settings)."""
    return lambda cell, numbers: check(cell.text)


def _boolean(cell: Cell, numbers: Numbers) -> bool:
    found = values.boolean(cell.text)
    if found is None:
        raise ValueError("use yes or no")
    return found


def _points(cell: Cell, numbers: Numbers) -> float:
    return settings.check_points(values.number(cell, numbers))


def _pass_mark(cell: Cell, numbers: Numbers) -> float:
    text = cell.text.removesuffix("%").strip()
    return settings.check_pass_mark(values.number(Cell(text, cell.number), numbers) if text else math.nan)


def _feedback(cell: Cell, numbers: Numbers) -> str:
    return settings.feedback(cell.text.lower())


def _attempts(cell: Cell, numbers: Numbers) -> int:
    try:
        count = values.number(cell, numbers)
    except ValueError:
        count = 0
    return settings.check_attempts(count)


def _markup(cell: Cell, numbers: Numbers) -> str:
    if cell.text.lower() not in ("plain", "markdown"):
        raise ValueError("use plain (text shown as written) or markdown")
    return cell.text.lower()


def _decimal(cell: Cell, numbers: Numbers) -> str:
    marks = {"dot": ".", ".": ".", "point": ".", "comma": ",", ",": ","}
    if cell.text.lower() not in marks:
        raise ValueError("use dot (3.14) or comma (3,14)")
    return marks[cell.text.lower()]


KEYS: dict[str, Callable[[Cell, Numbers], object]] = {
    "title": _text,
    "description": _text,
    "id": _as_written(settings.identifier),
    "lang": _as_written(settings.language),
    "shuffle": _boolean,
    "points": _points,
    "pass": _pass_mark,
    "feedback": _feedback,
    "attempts": _attempts,
    "time": _as_written(settings.time_limit),
    "tags": _as_written(settings.tags),
    "lint": _as_written(settings.lint),
    "markup": _markup,
    "decimal": _decimal,
}
"""Each setting and the function that reads its value (raising ValueError with a hint)."""


def key(name: str) -> str | None:
    """The setting a row's first cell names (`Title`, `time:`), or None."""
    folded = fold(name)
    return folded if folded in KEYS else None


def suggest(name: str) -> str:
    close = difflib.get_close_matches(fold(name), list(KEYS), n=1, cutoff=0.6)
    guess = f"did you mean {close[0]}? " if close else ""
    return (f"{guess}rows above the header row are settings ({', '.join(KEYS)}); the header row names "
            "the columns and must have a question column; start a row with # to make it a comment")


def value(name: str, cell: Cell, numbers: Numbers):
    """The value of setting `name`; raises ValueError with a hint."""
    return KEYS[name](cell, numbers)


def read_settings(grid: Grid, rows: list[Row], problems: list[Diagnostic],
                  lang: str | None = None) -> dict[str, tuple[object, Row, int]]:
    """Each setting the rows above the header give: name -> (value, row, column of the value).
    Numbers are read in the sheet's `lang` setting, else `lang` (lmsexport.toml's)."""
    cells: dict[str, tuple[Row, int, Cell]] = {}
    for row in rows:
        number, cell = row.first()
        name = key(cell.text)
        filled = [(i, c) for i, c in enumerate(row.cells, start=1) if c is not None and i > number]
        if name is None:
            problems.append(grid.error("E976", f"unknown setting {cell.text!r}", row, number, suggest(cell.text)))
        elif name in cells:
            problems.append(grid.error("E976", f"the setting {name} is given twice", row, number, "keep one"))
        elif not filled or filled[0][0] != number + 1:
            problems.append(grid.error("E976", f"the setting {name} has no value", row, number + 1,
                                       "write its value in the cell right of its name"))
        elif len(filled) > 1:
            problems.append(grid.error("E976", f"the setting {name} has more than one value", row, filled[1][0],
                                       "a settings row holds a name and its value; in a CSV file, put a value "
                                       "that holds the delimiter in quotes"))
        else:
            cells[name] = (row, number + 1, filled[0][1])
    numbers, found = Numbers(lang), {}
    for name in sorted(cells, key=lambda name: name not in ("decimal", "lang")):  # other settings' numbers use them
        row, number, _ = cells[name]
        found[name] = (_read(grid, name, cells, numbers, problems), row, number)
        if name in ("decimal", "lang") and found[name][0] is not None:
            numbers = numbers._replace(**{name: found[name][0]})
    return {name: entry for name, entry in found.items() if entry[0] is not None}


def _read(grid: Grid, name: str, cells: dict, numbers: Numbers, problems: list[Diagnostic]):
    row, number, cell = cells[name]
    if cell.problem is not None:
        problems.append(grid.error("E987", cell.problem, row, number, "format the cell as Text and type it again"))
        return None
    try:
        return value(name, cell, numbers)
    except ValueError as exc:
        problems.append(grid.error("E976", f"bad value {cell.text!r} for the setting {name}", row, number, str(exc)))
        return None
