"""Turn the bytes of a text source into checked, NFC-normalised text.

Shared by every reader of plain-text formats. Course designers' files come from
Word, Notepad, Google Docs and machine translation: a BOM, CRLF line ends, NFD
diacritics (macOS) and UTF-16 are all normal; bytes that are not UTF-8, control
characters XML cannot carry and binary files are reported with their position.
"""

from __future__ import annotations

import codecs
import unicodedata

from .diagnostics import Diagnostic, SourceError, SourceSpan
from .model import XML_ILLEGAL

_MAX_REPORTED = 10
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


def _bad_utf8(data: bytes, source: str) -> list[Diagnostic]:
    problems = []
    decoder = codecs.getincrementaldecoder("utf-8")()
    start = 0
    while start < len(data) and len(problems) < _MAX_REPORTED:
        try:
            decoder.decode(data[start:], final=True)
            break
        except UnicodeDecodeError as exc:
            offset = start + exc.start
            line = data.count(b"\n", 0, offset) + 1
            line_start = data.rfind(b"\n", 0, offset) + 1
            line_end = data.find(b"\n", offset)
            shown = data[line_start : None if line_end < 0 else line_end].decode("utf-8", "replace")
            problems.append(
                _error(
                    "E101",
                    f"byte 0x{data[offset]:02X} at byte offset {offset} is not UTF-8",
                    SourceSpan(source, line, len(data[line_start:offset].decode("utf-8", "replace")) + 1),
                    "the file is in another encoding (Windows-1252, Latin-1, ...); "
                    "re-save it as UTF-8 in your editor ('Save as' > Encoding: UTF-8)",
                    shown,
                )
            )
            start = offset + max(1, exc.end - exc.start)
            decoder.reset()
    return problems


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


def decode(data: str | bytes, source: str) -> str:
    """Text of a source: BOM dropped, line ends as LF, NFC; raises SourceError."""
    if isinstance(data, bytes):
        if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
            data = _utf16(data, source)
        else:
            _check_binary(data, source)
            problems = _bad_utf8(data, source)
            if problems:
                raise SourceError(problems)
            data = data.decode("utf-8-sig")
    text = data.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    text = unicodedata.normalize("NFC", text)
    if not text.strip():
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
