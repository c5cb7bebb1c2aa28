"""The layout of a question sheet, and what each question row is.

    title  | Photosynthesis                  settings rows (settings.py), optional
    # any row whose first cell starts with # is a comment
    type   | question       | a    | b    | correct | points      the header row: the first
           | Capital of France? | Paris | Rome | a    | 2           row with a `question` cell
    (blank rows are skipped)

A row's type is its `type` cell, else what its cells show: options with `->` make matching;
options and `correct` a choice question (one option named, by letter or text: multiple
choice; several: multiple response); no options and `true`/`false` in `correct` true/false; numbers numeric;
other text short answer; `{=...}` gaps in the question and no `correct` fill in the blanks.
Essays, ordering and text blocks cannot be told from their cells and need their `type`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...diagnostics import Diagnostic, Log, column_letters
from ...model import is_language_tag
from ...quantities import QuantityError
from . import values
from .columns import OPTION_LETTERS, column, is_note, question_type, suggest_column, suggest_type
from .gaps import has_gaps
from .grid import Cell, Grid, Row
from .texts import Texts

_ARROWS = ("->", "→")
COMMON = frozenset({"type", "question", "title", "tags", "points", "lang", "explanation", "correct feedback",
                    "incorrect feedback"})
_OPTIONS = frozenset(f"option {letter}" for letter in OPTION_LETTERS)
_FEEDBACK = frozenset(f"feedback {letter}" for letter in OPTION_LETTERS)
USES: dict[str, frozenset[str]] = {
    "multiple_choice": COMMON | _OPTIONS | _FEEDBACK | {"correct"},
    "multiple_response": COMMON | _OPTIONS | _FEEDBACK | {"correct"},
    "choice": COMMON | _OPTIONS | _FEEDBACK | {"correct"},
    "true_false": COMMON | {"correct"},
    "short_answer": COMMON | {"correct", "case"},
    "numeric": COMMON | {"correct", "tolerance", "unit"},
    "essay": COMMON | {"lines"},
    "matching": COMMON | _OPTIONS,
    "ordering": COMMON | _OPTIONS,
    "fill_blanks": COMMON | {"case"},
    "description": frozenset({"type", "question", "title", "tags", "lang"}),
}
"""The columns each question type reads; a filled cell in any other column is an error. `choice`
is a choice question without a `type`: multiple response if `correct` names several options."""
_UNUSED_HINTS = {
    "correct": {"ordering": "an ordering question lists its items in their correct order in a, b, c, ...",
                "matching": "a matching question pairs its items in the option cells: left -> right",
                "fill_blanks": "a fill-in-the-blanks question has its answers in the gaps: {=answer}"},
    "tolerance": "a tolerance goes with a number in correct (a numeric question)",
    "unit": "a unit goes with a number in correct (a numeric question)",
    "points": "a text block has no points",
}


@dataclass
class Header:
    """The header row: which column holds what."""

    row: Row
    columns: dict[str, int] = field(default_factory=dict)
    """Column name (`question`, `option a`, `feedback a`) -> its column number."""
    named: set[int] = field(default_factory=set)
    """Every column that has a name in the header row, notes (`#...`) included."""
    reported: set[int] = field(default_factory=set)
    """Columns without a name already reported (once each)."""

    @property
    def options(self) -> list[tuple[str, int]]:
        """(letter, column) of each option column, in letter order."""
        return [(letter, self.columns[f"option {letter}"]) for letter in OPTION_LETTERS
                if f"option {letter}" in self.columns]


def is_comment(row: Row) -> bool:
    first = row.first()
    return first is not None and is_note(first[1].text)


def split(grid: Grid) -> tuple[list[Row], Row | None, list[Row]]:
    """The settings rows, the header row (None if no row names a question column), the question rows."""
    before: list[Row] = []
    for index, row in enumerate(grid.rows):
        if is_comment(row):
            continue
        if any(cell is not None and column(cell.text) == "question" for cell in row.cells):
            return before, row, [r for r in grid.rows[index + 1:] if not is_comment(r)]
        before.append(row)
    return before, None, []


def read_header(grid: Grid, row: Row, problems: list[Diagnostic]) -> Header:
    header = Header(row)
    for number, cell in enumerate(row.cells, start=1):
        if cell is None:
            continue
        header.named.add(number)
        if is_note(cell.text):
            continue
        name = column(cell.text)
        if name is None:
            problems.append(grid.error("E975", f"unknown column {cell.text!r}", row, number, suggest_column(cell.text)))
        elif name in header.columns:
            first = header.columns[name]
            problems.append(grid.error("E975", f"two columns are named {name} (also column {column_letters(first)})",
                                       row, number,
                                       "keep one of them"))
        else:
            header.columns[name] = number
    _check_options(grid, header, problems)
    return header


def _check_options(grid: Grid, header: Header, problems: list[Diagnostic]) -> None:
    letters = [letter for letter, _ in header.options]
    expected = OPTION_LETTERS[:len(letters)]
    if letters != list(expected):
        missing = next(want for letter, want in zip(letters, expected) if letter != want)
        problems.append(grid.error("E975", f"the option columns are {', '.join(letters)}: {missing} is missing",
                                   header.row, header.options[0][1], "name the option columns a, b, c, ... in order"))
    for name, number in header.columns.items():
        if name.startswith("feedback ") and f"option {name[-1]}" not in header.columns:
            problems.append(grid.error("E975", f"there is a {name} column but no option {name[-1]} column",
                                       header.row, number, f"add a column {name[-1]} for the option, or remove this one"))


class RowReader:
    """One question row, read through the header: its cells by column name, its messages."""

    def __init__(self, grid: Grid, header: Header, row: Row, problems: list[Diagnostic], numbers: values.Numbers,
                 texts: Texts, log: Log):
        self.grid, self.header, self.row, self.problems = grid, header, row, problems
        self.texts, self.log = texts, log
        lang = self.get("lang")
        self.numbers = numbers._replace(lang=lang.text) if lang is not None and is_language_tag(lang.text) else numbers
        """How the row's numbers are written: in its own `lang`, else the sheet's."""
        self.name = "this row"
        """How messages name the question (`question 3`, `text block 1`), once it is known."""

    def get(self, name: str) -> Cell | None:
        number = self.header.columns.get(name)
        return None if number is None else self.row.cell(number)

    def error(self, code: str, message: str, name: str | int, hint: str = "") -> None:
        """A problem at the cell of column `name` (or column number) of this row."""
        number = name if isinstance(name, int) else self.header.columns.get(name, self.header.columns["question"])
        self.problems.append(self.grid.error(code, message, self.row, number, hint))

    def warn(self, code: str, message: str, name: str, hint: str = "") -> None:
        """A warning at the cell of column `name` of this row."""
        self.log.warn(code, message, self.grid.span(self.row, self.header.columns[name]), hint)

    def text(self, name: str):
        """The cell's text as a model Text, or None for an empty cell."""
        cell = self.get(name)
        return None if cell is None else self.texts.text(cell.text, self.row, self.header.columns[name])

    def options(self) -> list[tuple[str, int, Cell]]:
        """(letter, column, cell) of each filled option cell, in letter order."""
        return [(letter, number, cell) for letter, number in self.header.options
                if (cell := self.row.cell(number)) is not None]

    def usable(self) -> bool:
        """False (after saying why) if a cell cannot be read or stands in a column without a name."""
        clean = True
        for number, cell in enumerate(self.row.cells, start=1):
            if cell is None:
                continue
            if cell.problem is not None:
                self.error("E987", cell.problem, number,
                           "format the cell as Text and type it again (or start it with an apostrophe: '1/2)")
                clean = False
            elif number not in self.header.named and number not in self.header.reported:
                self.header.reported.add(number)
                self.error("E975", "this cell is in a column without a name", number,
                           "name the column in the header row (start the name with # for notes), or clear the cell")
        return clean

    def check_uses(self, kind: str) -> bool:
        """False (after saying where) if a cell is filled in a column `kind` does not read."""
        clean = True
        for name, number in self.header.columns.items():
            if name not in USES[kind] and self.row.cell(number) is not None:
                hint = _UNUSED_HINTS.get(name, "")
                hint = hint.get(kind, "") if isinstance(hint, dict) else hint
                what = label(kind, article=True) + ("" if kind == "description" else " question")
                self.error("E984", f"{self.name} is {what}, which does not use the {name} column", number,
                           (hint + "; " if hint else "") + "clear this cell, or change the question's type")
                clean = False
        return clean


def label(kind: str, article: bool = False) -> str:
    """A type as messages name it (`multiple choice`, `an essay`)."""
    name = {"true_false": "true/false", "fill_blanks": "fill-in-the-blanks", "description": "text block"}.get(
        kind, kind.replace("_", " "))
    return f"{'an' if name[0] in 'aeio' else 'a'} {name}" if article else name


def explicit_type(reader: RowReader) -> str | None:
    """The type the `type` cell names, None if it is empty; "" (after saying why) if it names none."""
    cell = reader.get("type")
    if cell is None:
        return None
    kind = question_type(cell.text)
    if kind is None:
        reader.error("E977", f"unknown question type {cell.text!r}", "type", suggest_type(cell.text))
        return ""
    return kind


def inferred_type(reader: RowReader) -> str | None:
    """The type a row's cells show (see the module's docstring); None after saying why there is none."""
    options, correct, question = reader.options(), reader.get("correct"), reader.get("question")
    if options:
        if any(arrow in cell.text for _, _, cell in options for arrow in _ARROWS):
            return "matching"
        if correct is None:
            reader.error("E979", f"{reader.name} has options but no correct answer", "correct",
                         "write the letter of the right option in correct (b), several for multiple response "
                         "(a, c); or set type to ordering to have the options put in order")
            return None
        return "choice"
    if correct is None:
        if question is not None and has_gaps(question.text):
            return "fill_blanks"
        reader.error("E979", f"{reader.name} has no answer", "correct",
                     "write the answer in correct, or options in a, b, ... and the right one's letter in correct; "
                     "for an essay, an ordering question or a text block, set its type")
        return None
    if correct.number is not None:
        return "numeric"
    if correct.text.casefold() in values.TRUE_FALSE:
        return "true_false"
    answers = [values.credit(text)[1] for text in values.alternatives(correct.text)]
    if answers and all(_numeric(text, reader.numbers) for text in answers):
        return "numeric"
    return "short_answer"


def _numeric(text: str, numbers: values.Numbers) -> bool:
    """Whether an answer is meant as a number (one that cannot be an answer is, to be reported)."""
    try:
        return values.numeric(text, numbers) is not None
    except QuantityError:
        return True
