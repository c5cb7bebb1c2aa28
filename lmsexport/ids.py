"""Stable identifiers that every output format accepts.

Identifiers must be XML NCNames (QTI, IMS CP, SCORM) and survive LMSs that are
picky about punctuation, so they are ASCII letters, digits, `-`, `_` and `.`, and
start with a letter. They come from names people chose or from content, never
from counters across runs, clocks or random numbers, so rebuilding gives the same ids.

Names in other scripts are transliterated by anyascii (ISC licence; a table for every
Unicode character, kept up with each Unicode version), so `Викторина.txt` gets the id
`viktorina` and `地理测验.txt` `de-li-ce-yan` instead of every such file the fallback `quiz`.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata

ID_LIMIT = 100
"""Characters a quiz id holds at most. It names the files a build writes (`<id>.scorm2004.zip`,
and `.<name>.<random>.part` while writing), which most filesystems cap at 255 bytes, and
Moodle's idnumber columns hold 100."""

_NOT_ID = re.compile(r"[^a-z0-9]+")


def slug(name: str, *, fallback: str = "quiz") -> str:
    """A readable identifier from a file stem or title: `Ni kikun!` -> `ni-kikun`; one longer than
    `ID_LIMIT` keeps its start and ends in a digest of the rest, so two long names stay apart."""
    ascii_name = _transliterated(name)
    result = _NOT_ID.sub("-", ascii_name.lower()).strip("-")
    if not result:
        return fallback
    result = result if result[0].isalpha() else f"{fallback}-{result}"
    if len(result) <= ID_LIMIT:
        return result
    digest = hashlib.blake2b(result.encode("ascii"), digest_size=4).hexdigest()
    return f"{result[: ID_LIMIT - len(digest) - 1].rstrip('-')}-{digest}"


_NOT_ASCII = re.compile(r"([^\x00-\x7f]+)")
_SYLLABLES = re.compile(r"(?<=[a-z])(?=[A-Z])")
"""Where anyascii runs syllables together: it capitalises each Han or Hangul one (`DeLiCeYan`)."""


def _transliterated(name: str) -> str:
    """`name` in ASCII: each run of other characters transliterated, its syllables parted.

    NFC first: a macOS file name arrives decomposed (NFD), and anyascii reads a decomposed
    kana or Hangul syllable differently. ASCII runs are kept as they are, so a Latin name
    (`MyQuiz`) keeps the id it always had."""
    text = unicodedata.normalize("NFC", name)
    out = []
    for index, part in enumerate(_NOT_ASCII.split(text)):
        if index % 2:
            from anyascii import anyascii

            part = anyascii(part)
            part = _SYLLABLES.sub("-", part)
            if out and out[-1][-1:].islower() and part[:1].isupper():
                part = "-" + part
        out.append(part)
    return "".join(out)


_ALPHABET = "abcdefghijklmnopqrstuvwxyz"


def letters(index: int) -> str:
    """Spreadsheet-style letters for a 0-based position: a, b, ..., z, aa, ab, ..."""
    if 0 <= index < 26:
        return _ALPHABET[index]
    out = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        out = chr(ord("a") + rest) + out
    return out


def file_stem(source: str) -> str:
    """The file name in a source's name (`week 3/quiz.txt`, either slash) without its last suffix:
    what a quiz's id (through `slug`) and title come from when its source gives none."""
    return source.replace("\\", "/").rsplit("/", 1)[-1].rsplit(".", 1)[0]
