"""A spreadsheet as the sheet reader sees it: numbered rows of cells, each cell findable.

CSV files and workbooks both come down to a `Grid`, so everything after (the header, the
settings rows, one question per row) is written once. A grid knows where each cell is in its
source and makes the messages about it: in a workbook the place is the cell itself
(`bank.xlsx:Sheet1!D14`), in a CSV file the line and column a text editor shows
(`bank.csv:14:23`, with the line and a marker) and the cell a spreadsheet shows (`D14`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...diagnostics import Diagnostic, SourceSpan, column_letters

MAX_ROWS = 20_000
"""The most rows a sheet may have, blank ones included: a bank of 10,000 questions fits twice."""
MAX_COLUMNS = 64
"""The most columns a sheet may have: 26 options, their feedback and every other column fit."""


@dataclass(slots=True)
class Cell:
    """A cell that is not empty: its text as shown, surrounding spaces removed."""

    text: str
    number: float | None = None
    """The number a workbook stores in a number cell (so no decimal mark is read from text)."""
    problem: str | None = None
    """Why the cell cannot be read as text (a workbook's date or error value), if it cannot."""


@dataclass(slots=True)
class Row:
    """One row that is not blank: its number as a spreadsheet shows it, its cells by column."""

    number: int
    cells: list[Cell | None]
    """From column 1; None for an empty cell."""
    places: list[tuple[int, int]] = field(default_factory=list)
    """CSV only: (line, column) where each field starts in the file, then where the row ends."""

    def cell(self, column: int) -> Cell | None:
        return self.cells[column - 1] if column <= len(self.cells) else None

    def first(self) -> tuple[int, Cell] | None:
        """The first cell that is not empty, and its column."""
        return next(((i, c) for i, c in enumerate(self.cells, 1) if c is not None), None)


@dataclass
class Grid:
    """The rows of one sheet; `sheet` names the worksheet of a workbook (None for CSV)."""

    source: str
    rows: list[Row]
    sheet: str | None = None
    lines: list[str] = field(default_factory=list)
    """CSV only: the file's lines, shown under messages with a marker."""

    def span(self, row: Row, column: int, length: int = 1) -> SourceSpan:
        if self.sheet is not None:
            return SourceSpan(self.source, row.number, column, sheet=self.sheet)
        line, start = row.places[min(column, len(row.places)) - 1] if row.places else (row.number, 0)
        return SourceSpan(self.source, line, start, length)

    def error(self, code: str, message: str, row: Row, column: int, hint: str = "") -> Diagnostic:
        """A message about the cell at (`row`, `column`); in CSV it also names the cell."""
        cell = row.cell(column)
        length = max(1, len(cell.text.split("\n", 1)[0])) if cell is not None else 1
        span = self.span(row, column, length)
        if self.sheet is not None:
            return Diagnostic(code, message, span, hint)
        where = f" (cell {column_letters(column)}{row.number})"
        line = self.lines[span.line - 1] if 0 < span.line <= len(self.lines) else None
        return Diagnostic(code, message + where, span, hint, source_line=line)
