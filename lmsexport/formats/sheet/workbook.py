"""An Excel workbook (.xlsx, Office Open XML, ECMA-376: https://ecma-international.org/publications-and-standards/standards/ecma-376/)
to a grid, with openpyxl (https://openpyxl.readthedocs.io/).

The questions are on the first visible worksheet (the leftmost tab): Excel's "Save as CSV"
keeps only one sheet too, so a quiz reads the same from either. Other sheets are the
teacher's; one that looks like questions (a header naming `question`) gets a warning, since
its rows are not read.

Workbooks arrive from anyone, so they are treated as hostile: before openpyxl sees one, its
zip directory is checked (at most `MAX_PARTS` parts, each unpacking to at most `MAX_PART`
bytes; Python's zipfile never unpacks more than a part declares), openpyxl reads in read-only
mode (rows streamed, never the whole sheet in memory) with defusedxml guarding its XML, and
a sheet of more than `grid.MAX_ROWS` rows or `grid.MAX_COLUMNS` columns is refused. Anything openpyxl
raises on a damaged file becomes one located error. Cells are read as their values
(`data_only`): a formula gives the result Excel last calculated and saved with the file.
"""

from __future__ import annotations

import datetime
import io
import math
import re
import unicodedata
import warnings
import zipfile

from ...diagnostics import Diagnostic, Log, SourceError, SourceSpan
from ...model import XML_ILLEGAL
from .columns import column
from .grid import MAX_COLUMNS, MAX_ROWS, Cell, Grid, Row

MAX_PARTS = 2_000
MAX_PART = 16 << 20
"""Bytes one part of a workbook may unpack to: 16 MiB holds the text of 10,000 long questions."""
_FAR_CELLS = 1_000_000
"""Cells beyond the last column a read looks at, all rows together, to tell filled ones from
formatted empty ones; a sheet with more is refused rather than searched."""
OLD_OFFICE = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
"""The start of an OLE compound file: an Excel 97-2003 .xls, or an .xlsx saved with a password."""
_ERROR_VALUES = ("#NULL!", "#DIV/0!", "#VALUE!", "#REF!", "#NAME?", "#NUM!", "#N/A")
_ESCAPE = re.compile(r"_x([0-9A-Fa-f]{4})_")
"""A character escaped in a cell's text (ECMA-376 Part 1, 22.9.2.19 ST_Xstring): Excel writes the
carriage return of a line break as `_x000D_`; openpyxl leaves the escapes as they are."""
_HEADER_ROWS = 50
"""How far down another sheet is searched for a header row."""
_SAVE_AGAIN = "open it in your spreadsheet program and save it again as Excel Workbook (.xlsx), or as CSV UTF-8"


def read_workbook(data: bytes, source: str, log: Log) -> Grid:
    """The first visible worksheet's rows; raises SourceError if the file is no readable workbook."""
    _check_archive(data, source)
    import openpyxl  # here, not at the top: it takes a while to load, and only workbooks need it

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # openpyxl warns about features it skips; none of them hold questions
        try:
            book = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=True)
        except Exception as exc:  # noqa: BLE001 - a damaged file may make any part of openpyxl fail
            raise _broken(source, f"the workbook cannot be opened: {_reason(exc)}") from None
        try:
            return _first_sheet(book, source, log)
        finally:
            book.close()


def _first_sheet(book, source: str, log: Log) -> Grid:
    sheets = [sheet for sheet in book.worksheets if sheet.sheet_state == "visible"]
    if not sheets:
        raise _broken(source, "the workbook has no visible worksheet", "unhide the sheet that holds the questions")
    try:
        grid = _grid(sheets[0], source)
        for other in sheets[1:]:
            _warn_if_questions(other, sheets[0].title, source, log)
    except SourceError:
        raise
    except Exception as exc:  # noqa: BLE001 - as above: damage shows only once a sheet is read
        raise _broken(source, f"the worksheet cannot be read: {_reason(exc)}") from None
    return grid


def _grid(sheet, source: str) -> Grid:
    grid = Grid(source, [], sheet=sheet.title)
    sheet.reset_dimensions()  # a file's <dimension> may be wrong (or lie): read the rows it has
    budget = _FAR_CELLS
    for number, cells in enumerate(sheet.iter_rows(min_row=1), start=1):
        if not cells:
            continue
        budget -= max(0, len(cells) - MAX_COLUMNS)
        far = _far_value(cells) if budget >= 0 else len(cells)
        if far is not None:
            raise SourceError([Diagnostic("E972", f"the sheet has more than {MAX_COLUMNS} columns",
                                          SourceSpan(source, number, far, sheet=sheet.title),
                                          "remove the cells beyond them; a question has at most 26 options (a to z)")])
        if number > MAX_ROWS:
            column = next((i for i, cell in enumerate(cells, start=1) if cell.value is not None), None)
            if column is not None:
                raise SourceError([Diagnostic("E972", f"the sheet has more than {MAX_ROWS:,} rows",
                                              SourceSpan(source, number, column, sheet=sheet.title),
                                              "split the questions into several workbooks")])
            continue
        values = [_cell(cell) for cell in cells[:MAX_COLUMNS]]
        if any(values):
            grid.rows.append(Row(number, values))
    return grid


def _far_value(cells) -> int | None:
    """The column of a filled cell beyond `MAX_COLUMNS`, if any (a row is as wide as its last cell)."""
    for index in range(len(cells) - 1, MAX_COLUMNS - 1, -1):
        if cells[index].value is not None:
            return index + 1
    return None


def _cell(cell) -> Cell | None:
    """A workbook cell as text (numbers as Excel shows them in General format), or None if empty."""
    value = getattr(cell, "value", None)
    if value is None:
        return None
    if isinstance(value, bool):
        return Cell("TRUE" if value else "FALSE")
    if isinstance(value, (int, float)):
        return _number(cell, value)
    if isinstance(value, (datetime.date, datetime.time, datetime.timedelta)):
        return Cell(str(value), problem=f"Excel stored this cell as a date or time ({value})")
    text = _ESCAPE.sub(_unescape, str(value))
    text = unicodedata.normalize("NFC", text.replace("\r\n", "\n").replace("\r", "\n")).strip()
    if not text:
        return None
    if getattr(cell, "data_type", "s") == "e" or text in _ERROR_VALUES:
        return Cell(text, problem=f"the cell shows Excel's error value {text}")
    illegal = XML_ILLEGAL.search(text)
    if illegal:
        name = unicodedata.name(illegal.group(), "a control character")
        return Cell(XML_ILLEGAL.sub("\ufffd", text),
                    problem=f"the cell holds character U+{ord(illegal.group()):04X} ({name}), which XML cannot carry")
    return Cell(text)


def _unescape(match: re.Match) -> str:
    """`_x000D_` -> a carriage return (`_x005F_` is `_`); a surrogate's number stays as written."""
    code = int(match[1], 16)
    return match[0] if 0xD800 <= code <= 0xDFFF else chr(code)


def _number(cell, value: int | float) -> Cell:
    if not math.isfinite(value):
        return Cell(str(value), problem="the cell holds a number that is not finite")
    try:
        percent = "%" in cell.number_format
    except (AttributeError, IndexError, KeyError, TypeError):  # a style table that does not hold the cell's style
        percent = False
    if percent:  # shown as 5%, stored as 0.05: read what the teacher sees
        return Cell(f"{value * 100:.15g}%")
    text = str(value) if isinstance(value, int) else f"{value:.15g}"
    return Cell(text, number=float(value))


def _warn_if_questions(sheet, first: str, source: str, log: Log) -> None:
    rows = sheet.iter_rows(min_row=1, max_row=_HEADER_ROWS, max_col=MAX_COLUMNS, values_only=True)
    for number, values in enumerate(rows, start=1):
        for index, value in enumerate(values, start=1):
            if isinstance(value, str) and column(value) == "question":
                log.warn("W971", f"sheet {sheet.title!r} has a header row naming question, but only the first "
                         f"sheet ({first!r}) is read", SourceSpan(source, number, index, sheet=sheet.title),
                         "move its rows to the first sheet, or save it as a workbook of its own")
                return


def _check_archive(data: bytes, source: str) -> None:
    """Refuse what is no workbook, or one too big to read, before openpyxl unpacks anything."""
    if data.startswith(OLD_OFFICE):
        raise _broken(source, "this is an Excel 97-2003 workbook (.xls) or a workbook saved with a password",
                      "open it in Excel or LibreOffice and save it as Excel Workbook (.xlsx) without a password")
    if not data.startswith(b"PK"):
        lock = source.replace("\\", "/").rsplit("/", 1)[-1].startswith("~$")
        raise _broken(source, "this is not an Excel workbook (.xlsx): it is not a zip archive",
                      "this is the lock file Excel keeps while the workbook is open; close Excel and leave it out"
                      if lock else _SAVE_AGAIN)
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            parts = archive.infolist()
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, ValueError, EOFError, RuntimeError) as exc:
        raise _broken(source, f"the workbook is damaged: {_reason(exc)}") from None
    names = {part.filename for part in parts}
    if "[Content_Types].xml" not in names:
        what = "an OpenDocument spreadsheet (.ods)" if "content.xml" in names else "a zip archive"
        raise _broken(source, f"this is {what}, not an Excel workbook (.xlsx)", _SAVE_AGAIN)
    if any(part.flag_bits & 0x1 for part in parts):
        raise _broken(source, "parts of the workbook are encrypted", "save it again without a password")
    big = next((part for part in parts if part.file_size > MAX_PART), None)
    if len(parts) > MAX_PARTS or big is not None:
        what = f"{len(parts):,} parts" if big is None else f"a part ({big.filename}) of {big.file_size:,} bytes"
        raise SourceError([Diagnostic("E972", f"the workbook is too big to read: {what}", SourceSpan(source),
                                      f"lmsexport reads workbooks of up to {MAX_PARTS:,} parts of up to "
                                      f"{MAX_PART >> 20} MiB each; split the questions into several workbooks")])


def _broken(source: str, message: str, hint: str = _SAVE_AGAIN) -> SourceError:
    return SourceError([Diagnostic("E971", message, SourceSpan(source), hint)])


def _reason(exc: Exception) -> str:
    """An exception as a short reason: its message, else its type's name."""
    text = " ".join(str(exc).split())
    return (text[:200] + "...") if len(text) > 200 else text or type(exc).__name__
