"""Cheap looks at a file's first bytes, for the formats' `sniff()` functions.

Sniffing decides between readers that share a suffix (`.xml`: Moodle or QTI; `.zip`: a
content package of some kind), so it must be fast, never parse a whole file and never
fail: a file it cannot make sense of is simply "not mine" (0.0). No lxml here: listing
the formats loads their declarations, and this module, only.
"""

from __future__ import annotations

import codecs
import io
import re
import zipfile
import zlib

HEAD = 8192
"""How many leading bytes a sniff looks at."""

_MANIFEST_LIMIT = 1 << 20
"""The most of an archive's imsmanifest.xml a sniff reads (a manifest names its schemas early)."""



class Pattern:
    """A regular expression compiled the first time it is used. Every command imports the
    formats' declarations (a no-op build too), and their sniffs' ~25 expressions took 5 ms of
    its start to compile; a sniff needs a few of them, only for a file it has to look at."""

    __slots__ = ("_source", "_compiled")

    def __init__(self, pattern: str | bytes, flags: int = 0):
        self._source = pattern, flags
        self._compiled = None

    def __getattr__(self, name: str):
        """`search`, `match`, `findall`, ...: those of the compiled `re.Pattern`."""
        if self._compiled is None:
            self._compiled = re.compile(*self._source)
        return getattr(self._compiled, name)


_BOMS = ((codecs.BOM_UTF8, "utf-8"), (codecs.BOM_UTF16_LE, "utf-16-le"), (codecs.BOM_UTF16_BE, "utf-16-be"))
_SKIP = Pattern(r"\s*(?:<\?.*?\?>|<!--.*?-->|<!DOCTYPE[^>\[]*(?:\[.*?\])?\s*>)", re.S)
_START = Pattern(r"\s*<([A-Za-z_][\w.-]*:)?([A-Za-z_][\w.-]*)([^>]*)>?")
_XMLNS = Pattern(r"""\bxmlns(?::([\w.-]+))?\s*=\s*["']([^"']*)["']""")


def head_text(data: bytes) -> str:
    """The first bytes as text: a BOM decides UTF-8 or UTF-16, else UTF-8 (bad bytes replaced)."""
    start = data[:HEAD]
    for bom, encoding in _BOMS:
        if start.startswith(bom):
            return start[len(bom):].decode(encoding, "replace")
    return start.decode("utf-8", "replace")


def xml_root(data: bytes) -> tuple[str, str] | None:
    """(namespace, local name) of the root element of an XML document, or None if not XML."""
    text = head_text(data)
    position = 0
    while match := _SKIP.match(text, position):
        if match.end() == position:
            break
        position = match.end()
    root = _START.match(text, position)
    if root is None:
        return None
    prefix = (root.group(1) or "")[:-1]
    namespaces = {name or "": uri for name, uri in _XMLNS.findall(root.group(3))}
    return namespaces.get(prefix, ""), root.group(2)


def zip_names(data: bytes) -> list[str] | None:
    """The member names of a zip archive (its central directory only), or None if it is none."""
    if not data.startswith(b"PK"):
        return None
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            return archive.namelist()
    except (zipfile.BadZipFile, OSError, RuntimeError, ValueError, NotImplementedError, EOFError):
        return None


def zip_manifest(data: bytes, name: str = "imsmanifest.xml") -> bytes | None:
    """The start of a member of a zip archive (the manifest), or None if there is none."""
    if not data.startswith(b"PK"):
        return None
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            with archive.open(name) as member:
                return member.read(_MANIFEST_LIMIT)
    except (zipfile.BadZipFile, KeyError, OSError, RuntimeError, ValueError, NotImplementedError, EOFError,
            zlib.error):
        return None
