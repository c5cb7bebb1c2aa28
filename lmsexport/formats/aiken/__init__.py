"""Aiken: one-line questions, `A)` options and an `ANSWER: B` line (docs/formats/aiken.md).

https://docs.moodle.org/en/Aiken_format; Moodle's importer, question/format/aiken/format.php
(qformat_aiken), is the reference for what a file may hold. `reader` reads it."""

from __future__ import annotations

import re

from ...sniffing import Pattern, head_text

NAME = "aiken"
DESCRIPTION = "Aiken: Moodle's one-line multiple-choice format (ANSWER: B lines)"
EXTENSIONS = (".aiken", ".txt")
FLAVOURS = ()

_ANSWER = Pattern(r"^[ \t]*ANSWER:[ \t]*[A-Z][.)]?[ \t]*$", re.M)
_ANSWER_ANY_CASE = Pattern(r"^[ \t]*answer[ \t]*:[ \t]*[A-Za-z][.)]?[ \t]*$", re.M | re.I)
_OPTION = Pattern(r"^[ \t]*[A-Z][.)]", re.M)
_TEXT_MARKS = Pattern(r"\A\s*---[ \t]*$|^[ \t]*(?:\*?[•◦▪‣●○■□]|@\w+:|>)", re.M)
"""What only an lmsexport text quiz has: a `---` header, round bullets, `@attributes`, `>` feedback."""


def sniff(data: bytes) -> float:
    """`ANSWER: X` lines (X a capital letter) after capital-lettered options; never a text quiz."""
    text = head_text(data).replace("\r\n", "\n").replace("\r", "\n")
    if _TEXT_MARKS.search(text):
        return 0.0
    answers = len(_ANSWER.findall(text))
    options = len(_OPTION.findall(text))
    if answers and options >= 2 * answers:
        return 0.9 if answers >= 2 else 0.7
    if _ANSWER_ANY_CASE.search(text) and options:
        return 0.4
    return 0.0
