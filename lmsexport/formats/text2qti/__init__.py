"""text2qti: Markdown-based plain-text quizzes for Canvas (docs/formats/text2qti.md).

https://github.com/gpoore/text2qti, version 0.8: its README and `text2qti/quiz.py` are the
reference. `reader` reads it (with `lines`, `drafts`, `questions`, `texts`)."""

from __future__ import annotations

import re

from ...sniffing import Pattern, head_text

NAME = "text2qti"
DESCRIPTION = "text2qti: Markdown quizzes for Canvas (Quiz title:, *a) choices, ... feedback)"
EXTENSIONS = (".md", ".txt")
FLAVOURS = ()

_MARKS = Pattern(
    r"^(?:[Qq]uiz (?:[Tt]itle|description):[ \t]+\S|[Tt]ext [Tt]itle:[ \t]+\S|\.\.\.[ \t]+\S"
    r"|\[(?:\*| ?)\][ \t]+\S|\^{3,}[ \t]*$|(?:END_)?GROUP[ \t]*$|[Pp]ick:[ \t]+\d|=[ \t]+\[[^\]]*,[^\]]*\][ \t]*$"
    r"|![ \t]+\S|```+[ \t]*\{[ \t]*\.[\w.-]+[ \t]+\.run\b"
    r"|(?:[Ss]huffle answers|[Ss]how correct answers|[Oo]ne question at a time|[Cc]an't go back):[ \t]+"
    r"(?:[Tt]rue|[Ff]alse)[ \t]*$)",
    re.M,
)
"""Lines only text2qti has: quiz title and options, text titles, `...` feedback, `[*]` choices,
`^^^^`, GROUP, `= [low, high]` (lmsexport text writes `low..high`), `!` solutions, runnable code."""
_WEAK_MARKS = Pattern(r"^(?:\*[ \t]+\S|[Pp]oints:[ \t]+\d|[Tt]itle:[ \t]+\S)", re.M)
"""Lines text2qti has that a Markdown list or a title line may have too: `*` answers, `Points:`, `Title:`."""
_QUESTION = Pattern(r"^\d+\.[ \t]+\S", re.M)
_TEXT_MARKS = Pattern(r"\A\s*---[ \t]*$|^[ \t]*(?:\*?[•◦▪‣●○■□]|\*-|@\w+[ \t]*:|>|answers?[ \t]*:)",
                         re.M | re.I)
"""What only an lmsexport text quiz has: a `---` header, round bullets, `*-`, `@attributes`, `>`
feedback, an `Answers:` key. Any of them, and the file is not text2qti's."""


def sniff(data: bytes) -> float:
    """text2qti's own marks (or numbered questions), and none of lmsexport text's."""
    text = head_text(data).replace("\r\n", "\n").replace("\r", "\n")
    if _TEXT_MARKS.search(text):
        return 0.0
    marks, weak = len(_MARKS.findall(text)), len(_WEAK_MARKS.findall(text))
    if marks:
        return 0.9 if marks + weak >= 2 else 0.7
    if not _QUESTION.search(text):
        return 0.0
    # Numbered questions alone are lmsexport text's too, whose sniff says 0.1 for them: text wins.
    return 0.3 if weak else 0.05
