"""The vocabulary of the lmsexport text format (docs/format.md), shared by its reader and writer.

The reader classifies each line by these patterns; the writer checks what it writes against
the same patterns, so a text it writes can never be read as something else (a prompt line that
would read as an option, an option that would read as a matching pair, a gap answer holding `=`).
"""

from __future__ import annotations

import functools
import re

LINE_PATTERNS = {
    "comment": re.compile(r"[ \t]*//"),
    "question": re.compile(r"(?P<indent>[ \t]*)(?P<number>\d{1,6})[.)](?:[ \t]+(?P<rest>.*))?\Z"),
    "pool": re.compile(r"[ \t]*pool[ \t]*:[ \t]*(?P<rest>.*)\Z", re.IGNORECASE),
    "pool_end": re.compile(r"[ \t]*end[ \t_-]*pool[ \t]*\Z", re.IGNORECASE),
    "text_block": re.compile(r"[ \t]*text:[ \t]*(?P<rest>.*)\Z", re.IGNORECASE),
    "option": re.compile(
        r"(?P<indent>[ \t]*)(?P<star>\*)?(?:(?P<bullet>[•◦▪‣●○■□–-])|(?P<label>[A-Za-z])[.)])"
        r"(?:[ \t]+(?P<rest>.*))?\Z"
    ),
    "attribute": re.compile(r"[ \t]*@(?P<key>[A-Za-z_]+)[ \t]*:[ \t]*(?P<rest>.*?)[ \t]*\Z"),
    "answer": re.compile(r"(?P<indent>[ \t]*)=(?:(?P<credit>-?\d+(?:\.\d+)?)%)?[ \t]*(?P<rest>.*?)[ \t]*\Z"),
    "essay": re.compile(r"[ \t]*_{3,}[ \t]*\Z"),
    "item_feedback": re.compile(r"[ \t]*>>[ \t]?(?P<rest>.*)\Z"),
    "correct_feedback": re.compile(r"[ \t]*>\+[ \t]?(?P<rest>.*)\Z"),
    "incorrect_feedback": re.compile(r"[ \t]*>-[ \t]?(?P<rest>.*)\Z"),
    "explanation": re.compile(r"[ \t]*>[ \t]?(?P<rest>.*)\Z"),
    "key": re.compile(r"[ \t]*(?:answers?|answer key)[ \t]*:(?P<rest>.*)\Z", re.IGNORECASE),
    "stray_star": re.compile(r"[ \t]*\*[ \t]+\S"),
}
"""Line kind -> pattern, tried in this order; a line none of them matches is `text`."""

_FIRST = {
    "comment": "/", "question": r"\d", "pool": "p", "pool_end": "e", "text_block": "t",
    "option": r"[*•◦▪‣●○■□–A-Za-z-]", "attribute": "@", "answer": "=", "essay": "_", "item_feedback": ">",
    "correct_feedback": ">", "incorrect_feedback": ">", "explanation": ">", "key": "a", "stray_star": r"\*",
}
"""Kind -> the characters a line of it can start with after its spaces and tabs (one character's
pattern, with its line pattern's case folding): `classify` tries only the patterns a line's first
character allows, as every pattern starts with spaces and tabs, then one of these."""

STREAM_BREAKS = re.compile(r"^[ \t]*(?:(?:answers?|answer key)[ \t]*:|pool[ \t]*:|end[ \t_-]*pool[ \t]*$)",
                           re.IGNORECASE | re.MULTILINE)
"""A line that may be the answer key or begin or end a pool, which the drafts before it wait for
(`questions.Builder`): a quiz without one is read streamed."""

PREAMBLE_BREAKS = ("question", "text_block", "pool", "pool_end", "key")

FOREIGN_KEY = re.compile(r"[ \t]*(?P<label>[^\W\d_][^\W\d_ ]*(?: [^\W\d_]+)?)[ \t]*:(?P<rest>(?:[ \t,;]*\d+[.):-]?[A-Za-z]+)+)[ \t,;]*\Z")
"""A line shaped like the answer key (`Odpovědi: 1b 2a`) under another label: told to write `Answers:`."""
"""Line kinds that end the title and description (every other kind is description text there)."""

CHECKBOX = re.compile(r"\[(?P<mark>[ xX])\][ \t]*")
"""`[x]` / `[ ]` at the start of an option's text: multiple response."""
POSITION = re.compile(r"\[(?P<position>\d{1,3})\][ \t]*")
"""`[2]` at the start of an option's text: an ordering item's correct position."""
MATCH = re.compile(r"(?P<left>.*?)[ \t]*(?:->|→)[ \t]*(?P<right>.*)\Z")
"""An option `left -> right` (matching); the first arrow splits it."""

GAP = re.compile(r"\{(?P<body>[=~](?:\\.|[^{}\\])*)\}", re.DOTALL)
"""A gap in a prompt: `{=answer =other}` typed, `{=right ~wrong}` a drop-down."""
GAP_TOKEN = re.compile(r"(?P<sign>[=~])(?P<text>(?:\\.|[^=~\\])*)", re.DOTALL)
_GAP_ESCAPE = re.compile(r"\\([=~{}\\])")
_GAP_SPECIAL = re.compile(r"([=~{}\\])")
CREDIT = re.compile(r"(?P<credit>-?\d+(?:\.\d+)?)%[ \t]+(?P<text>\S.*)\Z")
"""Partial credit in a typed gap: `{=Paris =50% paris}`."""

TRUE, FALSE = frozenset({"true", "t"}), frozenset({"false", "f"})
"""A single `=` answer that makes a true/false question."""

ATTRIBUTES = ("id", "points", "title", "lang", "tags", "case", "lines", "scoring", "unit")
"""The `@name: value` attributes of a question."""
ESSAY_LINES = 10
"""The size of an essay's answer box when `@lines` does not say."""
MATH = re.compile(r"\\\(.+?\\\)|\\\[.+?\\\]", re.DOTALL)
"""TeX between `\\(` `\\)` or `\\[` `\\]`: what makes a `markup: html` text HTML even without a tag."""

_BLANK_LINES = re.compile(r"\n{3,}")


def fold(option: str) -> str:
    """An option as written, as the reader compares options (E204): case and runs of spaces do not count."""
    return " ".join(option.casefold().split())


def outside_folder(src: str) -> bool:
    """Whether an image's `src` names no file in the quiz's folder (a URL, an absolute path,
    `../`): the reader refuses such an image (E162), so the writer writes it as a link."""
    return "://" in src or src.startswith(("data:", "/", "\\", ".."))


def classify(line: str) -> tuple[str, re.Match | None]:
    """The kind of a line (`blank`, `text` or a key of LINE_PATTERNS) and its match."""
    if not line or line.isspace():
        return "blank", None
    for kind, pattern in _patterns_for(line.lstrip(" \t")[0]):
        match = pattern.match(line)
        if match:
            return kind, match
    return "text", None


@functools.lru_cache(maxsize=1024)  # a file of any script starts its lines with a few hundred characters
def _patterns_for(first: str) -> tuple[tuple[str, re.Pattern], ...]:
    """The (kind, pattern) pairs of LINE_PATTERNS, in order, that a line starting with `first` may match."""
    return tuple((kind, pattern) for kind, pattern in LINE_PATTERNS.items()
                 if re.match(_FIRST[kind], first, pattern.flags & re.IGNORECASE))


def join_lines(lines: list[str]) -> str:
    """Lines to text: each stripped, surrounding blank lines dropped, runs of blank lines kept as one."""
    text = "\n".join(line.strip() for line in lines).strip("\n")
    return _BLANK_LINES.sub("\n\n", text) if "\n\n\n" in text else text


def unquote(answer: str) -> str:
    """A typed answer without the one pair of double quotes that keeps `"42"` or `" a "` text."""
    if len(answer) >= 2 and answer[0] == answer[-1] == '"':
        return answer[1:-1]
    return answer


def unescape_gap(token: str) -> str:
    """A gap token's text with `\\=` `\\~` `\\{` `\\}` `\\\\` read as the characters themselves."""
    return _GAP_ESCAPE.sub(r"\1", token)


def escape_gap(text: str) -> str:
    """The inverse of unescape_gap: a text that stands in a gap as one token."""
    return _GAP_SPECIAL.sub(r"\\\1", text)
