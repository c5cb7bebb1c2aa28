"""Spreadsheets of questions, CSV and Excel (.xlsx): one row per question (docs/formats/sheet.md).

A reader only: `reader` (with `csvfile`, `workbook`, `grid`, `columns`, `settings`, `rows`,
`kinds`, `gaps`, `texts`). CSV is RFC 4180 (https://www.rfc-editor.org/rfc/rfc4180); .xlsx
is Office Open XML (ECMA-376), read with openpyxl, which loads only when a workbook is read."""

from __future__ import annotations

import re

from ...sniffing import Pattern, head_text, zip_manifest

NAME = "sheet"
DESCRIPTION = "spreadsheets (CSV, Excel .xlsx): one question per row under a header row (docs/formats/sheet.md)"
EXTENSIONS = (".csv", ".xlsx")
FLAVOURS = ()

_QUESTION_CELL = Pattern(r'(?:^|[,;\t])[ \t]*"?[ \t]*(?:question|prompt)[ \t]*"?[ \t]*(?:[,;\t]|$)', re.I | re.M)


def sniff(data: bytes) -> float:
    """A workbook (a zip with `xl/workbook.xml`), or a CSV text with a header cell naming `question`."""
    if data.startswith(b"PK"):
        return 1.0 if zip_manifest(data, "xl/workbook.xml") is not None else 0.0
    if b"\x00" in data[:1024] and not data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return 0.0
    return 0.9 if _QUESTION_CELL.search(head_text(data)) else 0.2
