"""Write quiz.xlsx, the starter sheet as an Excel workbook, from quiz.csv beside it.

    python examples/sheet/make_workbook.py

The workbook holds what the CSV holds, with the cells Excel would make of it: numbers as
number cells, true/false as logical cells, the header row in bold and frozen, and a second
sheet of notes (not read: only the first sheet holds questions). tests/test_sheet.py checks
that both files read as the same quiz.
"""

from __future__ import annotations

import csv
import re
import sys
from pathlib import Path

import openpyxl
from openpyxl.styles import Alignment, Font

HERE = Path(__file__).parent
NUMBER = re.compile(r"-?\d+(?:\.\d+)?\Z")
WIDTHS = {"type": 18, "question": 60, "explanation": 40, "correct": 16}


def cell_value(text: str):
    """A cell as Excel stores what was typed in it: a number, a logical value or text."""
    if NUMBER.match(text):
        return float(text) if "." in text else int(text)
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    return text or None


def make(csv_path: Path, xlsx_path: Path) -> None:
    rows = list(csv.reader(csv_path.read_text(encoding="utf-8").splitlines()))
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Questions"
    for row in rows:
        sheet.append([cell_value(text) for text in row])
    header = next(number for number, row in enumerate(rows, 1) if "question" in row)
    for cell in sheet[header]:
        cell.font = Font(bold=True)
        sheet.column_dimensions[cell.column_letter].width = WIDTHS.get(cell.value, 14)
    for row in sheet.iter_rows(min_row=header + 1):
        for cell in row:
            cell.alignment = Alignment(wrap_text=True, vertical="top")
    sheet.freeze_panes = sheet.cell(header + 1, 1)
    notes = book.create_sheet("Notes")
    notes.append(["Only the first sheet is read. The columns are described in docs/formats/sheet.md."])
    book.save(xlsx_path)


if __name__ == "__main__":
    make(HERE / "quiz.csv", Path(sys.argv[1]) if len(sys.argv) > 1 else HERE / "quiz.xlsx")
