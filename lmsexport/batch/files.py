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
from pathlib import Path

SOURCE_LIMIT = 1 << 30
"""Bytes a source may have (1 GiB: a large Moodle bank is a few hundred MB)."""
ASSET_LIMIT = 64 << 20
"""Bytes an image a quiz refers to may have (64 MiB)."""

_KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a named pipe (FIFO)"), (stat.S_ISCHR, "a device"),
          (stat.S_ISBLK, "a device"), (stat.S_ISSOCK, "a socket"))


def read_regular(path: Path, limit: int) -> bytes:
    """The bytes of the regular file at `path`, or OSError if it is not one or is over `limit`."""
    handle = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    try:
        mode = os.fstat(handle).st_mode
        what = next((name for test, name in _KINDS if test(mode)), None)
        if what is not None or not stat.S_ISREG(mode):
            raise OSError(errno.EINVAL, f"it is {what or 'not a regular file'}, not a file lmsexport can read")
        chunks, size = [], 0
        while chunk := os.read(handle, 1 << 20):
            size += len(chunk)
            if size > limit:
                raise OSError(errno.EFBIG, f"it is larger than the {limit >> 20} MiB lmsexport reads")
            chunks.append(chunk)
        return b"".join(chunks)
    finally:
        os.close(handle)
