"""GIFT's first pass: a file's questions, their comments, and their characters with escapes resolved.

Moodle's importer (moodle/moodle `question/format/gift/format.php`, qformat_gift;
https://docs.moodle.org/en/GIFT_format) reads a file in this order, and so does this module:

- `qformat_default::readquestions()`: every line is trimmed; a blank line ends a question;
- `readquestion()`: a line starting with `//` is a comment, not text (Moodle 3.6 and later
  read `[id:...]` and `[tag:...]` from a question's comments);
- `escapedchar_pre()`: `\\\\` is a backslash, `\\~ \\= \\# \\{ \\} \\:` the character itself, and
  `\\n` a new line; any other backslash stays as written.

Each character keeps its offset in the file and whether it was escaped (`Chars`), so the
later passes split only at unescaped marks and every message points at its line and column.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterator
from dataclasses import dataclass

from ...diagnostics import SourceSpan

TRIMMED = " \t\n\r\0\x0b"
"""What PHP's trim() removes (no-break spaces stay, as in Moodle)."""
_ESCAPES = {":": ":", "#": "#", "=": "=", "{": "{", "}": "}", "~": "~", "n": "\n", "\\": "\\"}


@dataclass(frozen=True, slots=True)
class Chars:
    """A piece of a question: its characters, each one's offset in the file, and which were escaped."""

    text: str
    offsets: tuple[int, ...]
    escaped: bytes
    """1 where the character was written with a backslash: it is never a GIFT mark."""
    anchor: int
    """The offset of the first character, or of the place an empty piece stands."""

    def __len__(self) -> int:
        return len(self.text)

    def __getitem__(self, key: slice) -> Chars:
        start, stop, _ = key.indices(len(self.text))
        stop = max(start, stop)
        return Chars(self.text[start:stop], self.offsets[start:stop], self.escaped[start:stop], self.offset(start))

    def offset(self, index: int) -> int:
        """The offset in the file of character `index` (the end of the piece past its last one)."""
        if index < len(self.offsets):
            return self.offsets[index]
        return self.offsets[-1] + 1 if self.offsets else self.anchor

    def _plain(self, index: int, mark: str) -> bool:
        return not any(self.escaped[index:index + len(mark)])

    def find(self, mark: str, start: int = 0) -> int:
        """The index of the first unescaped `mark` from `start`, or -1."""
        index = self.text.find(mark, start)
        while index >= 0 and not self._plain(index, mark):
            index = self.text.find(mark, index + 1)
        return index

    def rfind(self, mark: str) -> int:
        """The index of the last unescaped `mark`, or -1."""
        index = self.text.rfind(mark)
        while index >= 0 and not self._plain(index, mark):
            index = self.text.rfind(mark, 0, index + len(mark) - 1)
        return index

    def split(self, mark: str, limit: int = 0) -> list[Chars]:
        """The pieces between unescaped `mark`s, at most `limit` of them when it is given (PHP's explode())."""
        pieces, start = [], 0
        while (not limit or len(pieces) < limit - 1) and (index := self.find(mark, start)) >= 0:
            pieces.append(self[start:index])
            start = index + len(mark)
        return [*pieces, self[start:]]

    def startswith(self, mark: str) -> bool:
        return self.text.startswith(mark) and self._plain(0, mark)

    def strip(self) -> Chars:
        """Without the whitespace around it (PHP's trim(), which Moodle applies after each split)."""
        start = len(self.text) - len(self.text.lstrip(TRIMMED))
        return self[start:len(self.text.rstrip(TRIMMED))]

    def __add__(self, other: Chars) -> Chars:
        return Chars(self.text + other.text, self.offsets + other.offsets, self.escaped + other.escaped, self.anchor)


@dataclass(frozen=True, slots=True)
class Block:
    """One question as Moodle's readquestion() receives it: the lines between blank lines."""

    chars: Chars
    """Its text: comment lines out, lines joined by new lines, escapes resolved, trimmed."""
    comments: tuple[str, ...]
    """Its `//` lines, without the `//`."""
    line: int
    """The line it starts on (its first line, comment or not)."""


class Locator:
    """Offsets in a decoded file as lines and columns, and the text of each line."""

    def __init__(self, text: str, source: str):
        self.text, self.source = text, source
        self.starts = [0] + [index + 1 for index, char in enumerate(text) if char == "\n"]

    def line_of(self, offset: int) -> int:
        return bisect.bisect_right(self.starts, offset)

    def span(self, offset: int, length: int = 1) -> SourceSpan:
        line = self.line_of(offset)
        return SourceSpan(self.source, line, offset - self.starts[line - 1] + 1, max(1, length))

    def line_text(self, line: int) -> str:
        end = self.starts[line] - 1 if line < len(self.starts) else len(self.text)
        return self.text[self.starts[line - 1]:end]


def blocks(text: str) -> Iterator[Block]:
    """The questions of a decoded file, in order (blocks of comments only included, with no text)."""
    lines: list[tuple[int, str]] = []
    comments: list[str] = []
    offset, first = 0, 0
    for number, line in enumerate(text.split("\n"), 1):
        trimmed = line.strip(TRIMMED)
        if trimmed.startswith("//"):
            comments.append(trimmed[2:])
        elif trimmed:
            lines.append((offset + len(line) - len(line.lstrip(TRIMMED)), trimmed))
        if trimmed:
            first = first or number
        elif first:
            yield Block(_joined(lines, offset), tuple(comments), first)
            lines, comments, first = [], [], 0
        offset += len(line) + 1
    if first:
        yield Block(_joined(lines, offset), tuple(comments), first)


def _joined(lines: list[tuple[int, str]], end: int) -> Chars:
    """The lines of a block joined by new lines, escapes resolved (escapedchar_pre())."""
    text: list[str] = []
    offsets: list[int] = []
    escaped = bytearray()
    for position, (start, line) in enumerate(lines):
        if position:
            text.append("\n")
            offsets.append(start - 1)
            escaped.append(0)
        if "\\" not in line:
            text.append(line)
            offsets.extend(range(start, start + len(line)))
            escaped.extend(bytes(len(line)))
            continue
        index = 0
        while index < len(line):
            char, follower = line[index], line[index + 1:index + 2]
            if char == "\\" and follower in _ESCAPES:
                text.append(_ESCAPES[follower])
                escaped.append(follower != "\\")
                offsets.append(start + index)
                index += 2
                continue
            text.append(char)
            escaped.append(0)
            offsets.append(start + index)
            index += 1
    anchor = lines[0][0] if lines else end
    return Chars("".join(text), tuple(offsets), bytes(escaped), anchor)
