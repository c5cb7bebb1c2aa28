"""The lmsexport text format: numbered questions with marked options (docs/format.md).

Reader and writer of the format people type: `reader` (with `header`, `questions`, `choices`),
`writer` (with `writer_kinds`, `writer_lines`), sharing the format's vocabulary in `syntax`."""

from __future__ import annotations

import re

from ...package import Flavour
from ...sniffing import Pattern, head_text

NAME = "text"
DESCRIPTION = "lmsexport text: numbered questions, marked options, an optional --- header (docs/format.md)"
EXTENSIONS = (".txt", ".quiz")
FLAVOURS = (Flavour("text", "the lmsexport text format (.txt), to edit any quiz", in_all=False),)

_HEADER = Pattern(r"\A\s*---[ \t]*\r?\n(?:[ \t]*[\w -]+:.*\r?\n)+?---[ \t]*\r?$", re.M)
_QUESTION = Pattern(r"^[ \t]*\d{1,6}[.)][ \t]+(?P<text>\S.*?)[ \t]*\r?$", re.M)
_BULLET = r"(?:[•◦▪‣●○■□–-]|[A-Za-z][.)])"
_OPTION = Pattern(rf"^[ \t]*\*?{_BULLET}[ \t]+\S", re.M)
_BLOCK = Pattern(rf"^[ \t]*\d{{1,6}}[.)][ \t]+\S.*\r?\n(?:[ \t]*\r?\n)*(?:[ \t]*\*?{_BULLET}[ \t]+\S.*\r?\n?){{2,}}", re.M)
_MARK = Pattern(
    rf"^[ \t]*(?:\*{_BULLET}[ \t]+\S"  # *• a correct option
    rf"|{_BULLET}[ \t]+\[[ xX]\][ \t]+\S"  # • [x] checkboxes
    r"|=(?:-?\d+(?:\.\d+)?%)?[ \t]+\S"  # = an accepted answer
    r"|_{3,}[ \t]*\r?$"  # ___ an essay's box
    r"|>[>+-][ \t]*\S"  # >> >+ >- feedback
    r"|@(?:id|points|title|lang|tags|case|lines)[ \t]*:"  # @attributes
    r"|(?:answers?|answer key)[ \t]*:[ \t]*\d+[ \t.):-]*[A-Za-z])",  # Answers: 1a 2b
    re.M | re.I,
)
_ASKED = ("?", "？", "؟", ";", "՞")
"""How a question ends in the scripts quizzes are written in (`;` is the Greek question mark)."""


def sniff(data: bytes) -> float:
    """How much a file looks like a quiz in this format, even one with mistakes.

    A `---` header, or numbered questions with marks only this format makes (`*•`, `[x]`, `= `,
    `>>`, `@points:`, `Answers: 1a`) are sure; questions asked with `?` and followed by options
    nearly so. Numbered lines asked with `?`, several numbered blocks of options, or the marks
    without numbers are a quiz with mistakes (read, to report them). Prose, notes and numbered
    steps are not (`SNIFF_QUIZ` in the registry)."""
    text = head_text(data)
    if _HEADER.match(text):
        return 0.9
    questions = [match["text"] for match in _QUESTION.finditer(text)]
    marked = bool(_MARK.search(text))
    asked = any(question.endswith(_ASKED) for question in questions)
    if questions and (marked or (asked and _OPTION.search(text))):
        return 0.6
    if asked or marked or len(_BLOCK.findall(text)) >= 2:
        return 0.4
    return 0.1 if questions else 0.0
