"""The lmsexport text format: numbered questions with marked options (docs/format.md).

Reader and writer of the format people type: `reader` (with `header`, `questions`, `choices`),
`writer` (with `writer_kinds`, `writer_lines`), sharing the format's vocabulary in `syntax`."""

from __future__ import annotations

import re

from ...package import Flavour
from ...sniffing import head_text

NAME = "text"
DESCRIPTION = "lmsexport text: numbered questions, marked options, an optional --- header (docs/format.md)"
EXTENSIONS = (".txt", ".quiz")
FLAVOURS = (Flavour("text", "the lmsexport text format (.txt), to edit any quiz", in_all=False),)

_HEADER = re.compile(r"\A\s*---[ \t]*\r?\n(?:[ \t]*[\w -]+:.*\r?\n)+?---[ \t]*\r?$", re.M)
_QUESTION = re.compile(r"^[ \t]*\d+[.)][ \t]+\S", re.M)
_OPTION = re.compile(r"^[ \t]*(?:\*?[•◦▪‣-]|\*?[A-Za-z][.)]|=|>|_{3,})[ \t]*\S*", re.M)


def sniff(data: bytes) -> float:
    """A `---` header, or numbered questions followed by options or `=` answers."""
    text = head_text(data)
    if _HEADER.match(text):
        return 0.9
    if _QUESTION.search(text) and _OPTION.search(text):
        return 0.6
    return 0.1 if _QUESTION.search(text) else 0.0
