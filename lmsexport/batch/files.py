"""Reading the files a build is given: regular files only, and no more than a bound.

A path can name a FIFO (reading it waits for a writer that never comes), a device
(`/dev/zero` never ends) or a huge file; reading any of them whole would hang or exhaust
memory. So a file is opened without blocking, checked to be a regular file, and read up to
a limit (docs/limits.md); anything else is an OSError whose message says what it is.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Iterator
from pathlib import Path

SOURCE_LIMIT = 1 << 30
"""Bytes a source may have (1 GiB: a large Moodle bank is a few hundred MB)."""
ASSET_LIMIT = 64 << 20
"""Bytes an image a quiz refers to may have (64 MiB)."""

_KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a named pipe (FIFO)"), (stat.S_ISCHR, "a device"),
          (stat.S_ISBLK, "a device"), (stat.S_ISSOCK, "a socket"))


def source_name(path: Path) -> str:
    r"""`path` as messages, quiz ids, the state file and reports name it: its bytes read as UTF-8,
    whatever the locale. Python decodes file names with the locale's encoding, so under
    `LC_ALL=C` (with UTF-8 mode off) `café.txt` arrives as `caf\udcc3\udca9.txt`, from which the
    quiz id would lose its `e` and which no UTF-8 file or terminal can take. Bytes that are not
    UTF-8 (a Latin-1 name) become U+FFFD, as `ls` shows `caf?.txt`: the name is always text that
    any UTF-8 file or terminal takes."""
    return os.fsencode(path).decode("utf-8", "replace").replace(os.sep, "/")


def text_name(path: Path) -> str:
    """`path` as text the same in every locale, losing nothing: its bytes read as UTF-8, bytes
    that are not UTF-8 as surrogate escapes (what the state file keeps; `disk_name` undoes it)."""
    return os.fsencode(path).decode("utf-8", "surrogateescape")


def disk_name(name: str) -> str:
    """The path Python opens for a file named in text (an image a quiz shows, a file the state
    recorded): the one whose name is that text in UTF-8, whatever the locale; under `LC_ALL=C`
    Python could not even spell `ảnh.png` as a path."""
    return os.fsdecode(name.encode("utf-8", "surrogateescape"))


def read_regular(path: Path | str, limit: int) -> bytes:
    """The bytes of the regular file at `path`, or OSError if it is not one or is over `limit`."""
    return b"".join(read_chunks(path, limit))


def read_chunks(path: Path | str, limit: int) -> Iterator[bytes]:
    """`read_regular()` a MiB at a time, for a file that need not be held whole (a package
    compared with the one a build made)."""
    handle = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    try:
        mode = os.fstat(handle).st_mode
        what = next((name for test, name in _KINDS if test(mode)), None)
        if what is not None or not stat.S_ISREG(mode):
            raise OSError(errno.EINVAL, f"it is {what or 'not a regular file'}, not a file lmsexport can read")
        size = 0
        while chunk := os.read(handle, 1 << 20):
            size += len(chunk)
            if size > limit:
                raise OSError(errno.EFBIG, f"it is larger than the {limit >> 20} MiB lmsexport reads")
            yield chunk
    finally:
        os.close(handle)
