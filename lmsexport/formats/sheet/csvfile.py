"""CSV text to a grid (RFC 4180, https://www.rfc-editor.org/rfc/rfc4180, as spreadsheets write it).

Decoded by `textinput.decode` (BOM, UTF-16, CRLF, NFC, located encoding errors). The delimiter
is what the file says or what its header row shows: Excel writes `,` or, where the decimal
mark is a comma (most of Europe, Latin America), `;`; "Unicode text" is tab-separated; and a
first line `sep=;` (Excel's own directive) names it outright. Rather than `csv.Sniffer`'s
guess from character counts, each candidate splits the lines until one names the `question`
column: the delimiter that finds the most known column names in it wins.

Values come from the `csv` module (strict, so an unclosed quote is an error, not a swallowed
file); a small scan beside it finds the line and column where each field starts, for messages.
"""

from __future__ import annotations

import csv
import io
import re

from ...diagnostics import Diagnostic, SourceError, SourceSpan
from .columns import column
from .grid import MAX_COLUMNS, MAX_ROWS, Cell, Grid, Row

DELIMITERS = (",", ";", "\t")
_SEP_LINE = re.compile(r"sep=(?P<delimiter>[^\w\s\"]|\t)\Z", re.IGNORECASE)
_HEADER_SEARCH = 50
"""How many lines may come before the header row (settings rows, comments)."""


def read_csv(text: str, source: str) -> Grid:
    """The rows of a CSV text; raises SourceError for a quote never closed or an oversized file."""
    lines = text.split("\n")
    directive = _SEP_LINE.match(lines[0].rstrip(" "))
    skipped = 1 if directive else 0
    delimiter = directive["delimiter"] if directive else _delimiter(lines)
    grid = Grid(source, [], lines=lines)
    reader = csv.reader(io.StringIO("\n".join(lines[skipped:])), delimiter=delimiter, strict=True)
    consumed, number = skipped, 0
    try:
        for fields in reader:
            first, consumed = consumed + 1, reader.line_num + skipped
            number += 1
            if any(value.strip() for value in fields):
                row = Row(number, [_cell(value) for value in fields])
                row.places = _places("\n".join(lines[first - 1:consumed]), first, delimiter)
                _check_size(grid, row)
                grid.rows.append(row)
    except csv.Error as exc:
        raise SourceError([_syntax(grid, consumed + 1, str(exc), delimiter)]) from None
    return grid


def _cell(value: str) -> Cell | None:
    text = value.strip()
    return Cell(text) if text else None


def _check_size(grid: Grid, row: Row) -> None:
    if row.number > MAX_ROWS:
        raise SourceError([grid.error("E972", f"the sheet has more than {MAX_ROWS:,} rows", row, row.first()[0],
                                      "split the questions into several files")])
    if len(row.cells) > MAX_COLUMNS and any(row.cells[MAX_COLUMNS:]):
        column = next(i for i, cell in enumerate(row.cells, 1) if i > MAX_COLUMNS and cell is not None)
        raise SourceError([grid.error("E972", f"the sheet has more than {MAX_COLUMNS} columns", row, column,
                                      "remove the cells beyond them; a question has at most 26 options (a to z)")])


def _delimiter(lines: list[str]) -> str:
    """The delimiter under which a line of the file's head names the most known columns."""
    best, best_count = ",", 0
    for delimiter in DELIMITERS:
        for line in lines[:_HEADER_SEARCH]:
            names = [column(field) for field in next(csv.reader([line], delimiter=delimiter), [])]
            if "question" in names:
                count = sum(name is not None for name in names)
                if count > best_count:
                    best, best_count = delimiter, count
                break
    return best


def _places(text: str, line: int, delimiter: str) -> list[tuple[int, int]]:
    """Where each field of one record starts, then where the record ends: (line, column).

    Follows the `csv` module's reading: a quote opens a quoted field only as its first
    character, and `""` inside one is a quote."""
    places, column, quoted, starting = [(line, 1)], 1, False, True
    index = 0
    while index < len(text):
        char = text[index]
        if quoted and char == '"':
            if text.startswith('"', index + 1):
                index, column = index + 1, column + 1
            else:
                quoted = False
        elif char == '"' and starting:
            quoted, places[-1] = True, (line, column + 1)  # messages point at the text, not its quote
        elif char == delimiter and not quoted:
            places.append((line, column + 1))
        starting = char == delimiter and not quoted
        line, column = (line + 1, 1) if char == "\n" else (line, column + 1)
        index += 1
    return places + [(line, column)]


def _syntax(grid: Grid, line: int, reason: str, delimiter: str) -> Diagnostic:
    """The csv module's complaint, in words that say which line and what to do."""
    shown = grid.lines[line - 1] if line <= len(grid.lines) else None
    if "end of data" in reason or "new-line character seen in unquoted field" in reason:
        message = f"a quoted cell that starts on line {line} is never closed"
        hint = 'end the cell with a " (a quote inside a quoted cell is written twice: "")'
    elif "expected after" in reason:
        message = "a quoted cell goes on after its closing quote"
        hint = f'put the whole cell in quotes, write a quote inside it twice (""), and end it before the {_name(delimiter)}'
    elif "field larger than field limit" in reason:
        message = f"a cell is longer than {csv.field_size_limit():,} characters (is a quote never closed?)"
        hint = 'check the quotes from here on: each quoted cell ends with a "'
    else:
        message, hint = f"the CSV cannot be read: {reason}", "save it again from your spreadsheet program as CSV UTF-8"
    return Diagnostic("E973", message, SourceSpan(grid.source, line, 1 if shown is not None else 0), hint,
                      source_line=shown)


def _name(delimiter: str) -> str:
    return {",": "comma", ";": "semicolon", "\t": "tab"}.get(delimiter, repr(delimiter))
