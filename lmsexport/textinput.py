"""Turn the bytes of a text source into checked, NFC-normalised text.

Shared by every reader of plain-text formats. Course designers' files come from
Word, Notepad, Google Docs and machine translation: a BOM, CRLF line ends, NFD
diacritics (macOS) and UTF-16 are all normal; bytes that are not UTF-8, control
characters XML cannot carry and binary files are reported with their position.
"""

from __future__ import annotations

import codecs
import re
import shlex
import unicodedata
from array import array
from bisect import bisect_right
from collections.abc import Iterator, Sequence

from .diagnostics import Diagnostic, SourceError, SourceSpan
from .vocabulary import XML_ILLEGAL

_MAX_REPORTED = 10
_ESCAPED = re.compile("[\udc80-\udcff]")
"""A byte that is not UTF-8, as the `surrogateescape` error handler decodes it."""
_UTF8_LETTER = re.compile("[^\x00-\x7f\udc80-\udcff]")
_SAMPLE = 1 << 16
_BLOCK = 1 << 16
"""Characters (or bytes) split into lines at a time when a `TextLines` is iterated."""
_BINARY_MAGIC = {
    b"PK\x03\x04": "a ZIP archive (a .docx, .odt or a package?)",
    b"%PDF": "a PDF document",
    b"\xd0\xcf\x11\xe0": "an old Office document (.doc)",
    b"{\\rtf": "an RTF document",
}
_SAVE_AS_TEXT = "open it in its program and save it as plain text (UTF-8), then build that file"


def _error(code: str, message: str, span: SourceSpan, hint: str, line: str | None = None):
    return Diagnostic(code, message, span, hint, source_line=line)


def _check_binary(data: bytes, source: str) -> None:
    for magic, what in _BINARY_MAGIC.items():
        if data.startswith(magic):
            raise SourceError(
                [_error("E102", f"this is {what}, not a quiz text", SourceSpan(source), _SAVE_AS_TEXT)]
            )
    if b"\x00" in data[:8192]:
        offset = data.index(b"\x00")
        raise SourceError(
            [
                _error(
                    "E102",
                    f"this looks like a binary file, not a quiz text (a NUL byte at byte offset {offset})",
                    SourceSpan(source),
                    _SAVE_AS_TEXT,
                )
            ]
        )


def _not_utf8(data: bytes, source: str) -> Diagnostic:
    """One E101 for a file that is not UTF-8, at its first byte that is not, naming the lines
    with such bytes and the encoding the file most likely is: a Windows-1252 file has dozens
    of such bytes, and one message per byte buried the one thing to do (re-save it)."""
    # Each byte that is not UTF-8 becomes one lone surrogate (U+DC80-U+DCFF): one linear pass.
    text = data.decode("utf-8", "surrogateescape")
    count = len(_ESCAPED.findall(text))
    lines = [number for number, line in enumerate(text.split("\n"), 1) if _ESCAPED.search(line)]
    # As many characters that are UTF-8 as bytes that are not: two encodings in one file (a
    # paragraph pasted from elsewhere), which no single encoding reads; a file in one other
    # encoding makes a UTF-8 character only by chance (Ukrainian `Кі` in Windows-1251).
    mixed = len(_UTF8_LETTER.findall(text)) >= count
    encoding = None if mixed else _likely_encoding(data)
    line = text.split("\n", lines[0])[lines[0] - 1]
    first = _ESCAPED.search(line)
    raw = line.encode("utf-8", "surrogateescape")
    column = len(line[: first.start()].encode("utf-8", "surrogateescape").decode(encoding or "utf-8", "replace")) + 1
    where = (f"{count} byte{'s' if count > 1 else ''} on {_lines(lines)} {'are' if count > 1 else 'is'} not "
             f"UTF-8 (the first, 0x{ord(first.group()) - 0xDC00:02X}, is here)")
    message, hint = _advice(where, source, encoding, mixed)
    return _error("E101", message, SourceSpan(source, lines[0], column), hint,
                  raw.decode(encoding or "utf-8", "replace"))


def _advice(where: str, source: str, encoding: str | None, mixed: bool) -> tuple[str, str]:
    """The message and hint of E101: what the file is, and how to make it UTF-8."""
    if mixed:
        return (f"the file is UTF-8, but {where}: part of it was written in another encoding",
                "retype the characters at those places (an editor shows them as �), then save the file as UTF-8")
    if encoding is None:
        return (f"the file is not UTF-8, and its encoding cannot be told: {where}",
                "open it in the program that wrote it and save it as plain text, UTF-8")
    name = _encoding_name(encoding)
    return (f"the file is not UTF-8; it is most likely {name}: {where}",
            f"re-save it as UTF-8: in VS Code, 'Reopen with Encoding' {name}, then 'Save with Encoding' UTF-8; "
            f"in Notepad, 'Save as' with Encoding UTF-8; or convert it with iconv -f {name} -t UTF-8 "
            f"{shlex.quote(source)} > {shlex.quote(_utf8_name(source))}")


def _likely_encoding(data: bytes) -> str | None:
    """The encoding charset-normalizer finds most coherent (a Python codec name), or None.

    Imported here: only a file that is not UTF-8 needs it."""
    from charset_normalizer import from_bytes

    # The first 64 KiB, cut at a line end (0x0A is never part of a character in the encodings
    # charset-normalizer knows but UTF-16/32, which have a BOM here): enough to tell, and a
    # huge file is not read through once per candidate encoding.
    sample = data if len(data) <= _SAMPLE else data[: data.rfind(b"\n", 0, _SAMPLE) + 1 or _SAMPLE]
    best = from_bytes(sample).best()
    return None if best is None else codecs.lookup(best.encoding).name


def _encoding_name(codec: str) -> str:
    """A codec as editors and iconv name it: `cp1252` -> `Windows-1252`, `iso8859-2` -> `ISO-8859-2`."""
    if re.fullmatch(r"cp125\d", codec):
        return f"Windows-{codec[2:]}"
    return re.sub(r"^iso8859", "ISO-8859", codec).replace("_", "-").upper()


def _lines(lines: list[int]) -> str:
    """`line 4`, `lines 1 and 4`, `lines 1, 4, 9, 12, 15 and 6 more`."""
    if len(lines) == 1:
        return f"line {lines[0]}"
    if len(lines) > 6:
        return f"lines {', '.join(map(str, lines[:5]))} and {len(lines) - 5} more"
    return f"lines {', '.join(map(str, lines[:-1]))} and {lines[-1]}"


def _utf8_name(source: str) -> str:
    stem, dot, suffix = source.rpartition(".")
    return f"{stem}.utf8.{suffix}" if dot and "/" not in suffix else f"{source}.utf8"


def _utf16(data: bytes, source: str) -> str:
    """A UTF-16 text (it has a BOM), or a located E101 where it stops being UTF-16: a lone
    surrogate, or an odd number of bytes (a file cut short)."""
    try:
        return data.decode("utf-16")
    except UnicodeDecodeError as exc:
        good = data[:exc.start - exc.start % 2].decode("utf-16", "replace")
        line = good.count("\n") + 1
        column = len(good) - good.rfind("\n")
        problem = "the file ends in half a character" if exc.reason == "truncated data" else (
            f"bytes {exc.object[exc.start:exc.end].hex(' ')} at byte offset {exc.start} are not UTF-16")
        raise SourceError([_error(
            "E101", f"{problem} (the file starts as UTF-16)", SourceSpan(source, line, column),
            "the file is damaged or was cut short; re-save it from its editor as UTF-8")]) from None


def decode(data: str | bytes, source: str, *, nfc: bool = True) -> str:
    """Text of a source: BOM dropped, line ends as LF, NFC (unless `nfc` is False: a JSON text,
    whose escapes NFC could change, `\\n` and U+0300 making `\\ǹ`); raises SourceError."""
    if isinstance(data, bytes):
        if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
            data = _utf16(data, source)
        else:
            _check_binary(data, source)
            try:
                data = data.decode("utf-8-sig")
            except UnicodeDecodeError:
                raise SourceError([_not_utf8(data, source)]) from None
    # Each step returns its input when it changes nothing (no CR, already NFC): no copies of a large text.
    text = data.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    text = unicodedata.normalize("NFC", text) if nfc else text
    if not text or text.isspace():
        raise SourceError(
            [
                _error(
                    "E103",
                    "the file is empty",
                    SourceSpan(source),
                    "a quiz starts with its title, then numbered questions (1. ...) "
                    "with their options (• ...); see docs/format.md",
                )
            ]
        )
    _check_characters(text, source)
    return text


def _check_characters(text: str, source: str) -> None:
    if XML_ILLEGAL.search(text) is None:
        return  # the common case, without a list of the text's lines
    problems = []
    for number, line in enumerate(text.split("\n"), start=1):
        for match in XML_ILLEGAL.finditer(line):
            problems.append(
                _error(
                    "E104",
                    f"character U+{ord(match.group()):04X} ({unicodedata.name(match.group(), 'control character')}) "
                    "cannot be carried by XML",
                    SourceSpan(source, number, match.start() + 1),
                    "delete it; it is invisible in most editors (often pasted from a PDF or a terminal)",
                    XML_ILLEGAL.sub("\ufffd", line),
                )
            )
            if len(problems) >= _MAX_REPORTED:
                raise SourceError(problems)
    if problems:
        raise SourceError(problems)


class TextLines(Sequence):
    """The lines of a decoded text, as `text.split("\\n")` gives them, without a string kept for
    each: a 100,000-question file has 700,000 lines, whose list takes nearly twice the memory of
    the text. Iterating splits one block at a time; indexing and `locate` find the starts of the
    lines they need, once. Made by `read_lines`, it may hold the source's UTF-8 bytes instead of
    the text they decode to, when decoding changes nothing but the characters' width: each line
    is decoded as it is read (a Vietnamese file of 43 MB is 65 MB of text)."""

    __slots__ = ("_buffer", "_utf8", "_newline", "_count", "_starts")

    def __init__(self, text: str | bytes, start: int = 0):
        """The lines of `text`, or of UTF-8 bytes that `decode` leaves unchanged from byte `start` on."""
        self._buffer = text
        self._utf8 = isinstance(text, bytes)
        self._newline = b"\n" if self._utf8 else "\n"
        self._count = text.count(self._newline, start) + 1
        self._starts = array("q", [start])
        """Where each line found so far starts; once every line is found, one past the text's end."""

    def __len__(self) -> int:
        return self._count

    def __iter__(self) -> Iterator[str]:
        for block in _blocks(self._buffer, self._newline, self._starts[0]):
            yield from self._decoded(block).split("\n")

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self._count))]
        if index < 0:
            index += self._count
        if not 0 <= index < self._count:
            raise IndexError("line index out of range")
        starts = self._starts
        while len(starts) <= index + 1:
            self._find_next()
        return self._decoded(self._buffer[starts[index]:starts[index + 1] - 1])

    def locate(self, part: str, line: int = 1) -> tuple[int, int] | None:
        """The 1-based line and column where `part` (one line's text) is first written, from
        line `line` on; None if no line holds it."""
        if "\n" in part:
            return None
        starts = self._starts
        while len(starts) < line:
            self._find_next()
        # UTF-8 is self-synchronising: the bytes of `part` are found only where its characters are.
        offset = self._buffer.find(part.encode("utf-8") if self._utf8 else part, starts[line - 1])
        if offset < 0:
            return None
        while starts[-1] <= offset:
            self._find_next()
        index = bisect_right(starts, offset) - 1
        before = len(self._decoded(self._buffer[starts[index]:offset])) if self._utf8 else offset - starts[index]
        return index + 1, before + 1

    def search(self, pattern: re.Pattern[str]) -> bool:
        """True if `pattern` (an expression over whole lines, `re.MULTILINE`) matches some line."""
        return any(pattern.search(self._decoded(block)) for block in _blocks(self._buffer, self._newline, self._starts[0]))

    def _decoded(self, piece: str | bytes) -> str:
        return piece.decode("utf-8") if self._utf8 else piece

    def _find_next(self) -> None:
        """The start of the next line not yet found (past the last line: one past the text's end)."""
        end = self._buffer.find(self._newline, self._starts[-1])
        self._starts.append(len(self._buffer) + 1 if end < 0 else end + 1)


def _blocks(buffer, newline, start: int):
    """`buffer[start:]` in pieces of about `_BLOCK`, each cut just before a line end."""
    while True:
        end = buffer.find(newline, start + _BLOCK)
        if end < 0:
            yield buffer[start:]
            return
        yield buffer[start:end]
        start = end + 1


def read_lines(data: str | bytes, source: str) -> TextLines:
    """The lines of `decode(data, source)`, raising as `decode` does.

    UTF-8 bytes that decoding leaves as they are (no BOM but one, no CR, NFC, no character XML
    cannot carry: the common case) are kept as the lines' source instead of a decoded copy."""
    if isinstance(data, bytes):
        start = _unchanged_from(data)
        if start is not None:
            return TextLines(data, start)
    return TextLines(decode(data, source))


def _unchanged_from(data: bytes) -> int | None:
    """Where the text of `data` starts (past a UTF-8 BOM) if `decode` would return exactly the
    rest decoded, without raising; None if it might change it or refuse it (decode then tells)."""
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE, *_BINARY_MAGIC)) or b"\r" in data:
        return None
    start = len(codecs.BOM_UTF8) if data.startswith(codecs.BOM_UTF8) else 0
    if data.startswith(codecs.BOM_UTF8, start) or b"\x00" in data[:8192]:
        return None  # a second BOM is dropped too; a NUL is a binary file
    blank = True
    # Split where a line ends: 0x0A is never part of a UTF-8 character, and NFC never joins
    # characters across a line end, so each block decodes and normalises as it would in the whole.
    for block in _blocks(data, b"\n", start):
        try:
            text = block.decode("utf-8")
        except UnicodeDecodeError:
            return None
        if not unicodedata.is_normalized("NFC", text) or XML_ILLEGAL.search(text):
            return None
        blank = blank and (not text or text.isspace())
    return None if blank else start
