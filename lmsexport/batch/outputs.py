"""The output folder while a build writes into it: locked, cleaned of what a killed build left.

Two builds into one folder at once would each keep a state file of their own sources and drop
the other's. So the write phase (packages, then the state file) holds an exclusive lock on the
folder itself (flock on its descriptor; on Windows, which cannot lock a folder, on a
`.lmsexport-lock` file in it): an OS lock, released when the process ends, however it ends, and
nothing left behind in the folder. The other build waits for it, up to `WAIT` seconds, then fails with a message instead of waiting
forever. Under the lock the state is read again and this run's changes merged into it, so
both builds' sources stay recorded. A build killed while writing leaves `.<name>.<random>.part`
files (package.write_atomic's temporary names): the next build that holds the lock removes them.
"""

from __future__ import annotations

import os
import re
import time
from pathlib import Path

LOCK_FILE = ".lmsexport-lock"
"""What is locked where a folder cannot be (Windows)."""
WAIT = 120.0
"""Seconds a build waits for another build writing into the same folder."""
_POLL = 0.1


class Busy(OSError):
    """Another build held the output folder's lock for longer than WAIT."""


class OutputLock:
    """`with OutputLock(out_dir):` the folder is this process's to write until the block ends."""

    def __init__(self, folder: Path, wait: float = WAIT):
        self.folder = folder
        self.wait = wait
        self._handle: int | None = None

    def __enter__(self) -> OutputLock:
        self.folder.mkdir(parents=True, exist_ok=True)
        self._handle = _open(self.folder)
        deadline = time.monotonic() + self.wait
        while not _try_lock(self._handle):
            if time.monotonic() > deadline:
                os.close(self._handle)
                self._handle = None
                raise Busy(f"another lmsexport build has been writing into {self.folder.as_posix()} for over "
                           f"{self.wait:.0f} s")
            time.sleep(_POLL)
        return self

    def __exit__(self, *exc_info) -> None:
        if self._handle is not None:
            _unlock(self._handle)
            os.close(self._handle)
            self._handle = None


_PART = re.compile(r"\..+\.\w{8}\.part\Z")
"""write_atomic's temporary names: `.` + the file's name + `.` + mkstemp's 8 characters + `.part`."""


def remove_stale_parts(folder: Path) -> list[Path]:
    """Delete the temporary files of writes that never finished, in the folder and its format
    folders (where packages go); call it holding the lock, when no write can be under way."""
    removed = []
    for path in sorted([*folder.glob(".*.part"), *folder.glob("*/.*.part")]):
        if _PART.match(path.name) and path.is_file():
            path.unlink(missing_ok=True)
            removed.append(path)
    return removed


try:
    import fcntl

    def _open(folder: Path) -> int:
        return os.open(folder, os.O_RDONLY)

    def _try_lock(handle: int) -> bool:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True

    def _unlock(handle: int) -> None:
        fcntl.flock(handle, fcntl.LOCK_UN)

except ModuleNotFoundError:  # Windows
    import msvcrt

    def _open(folder: Path) -> int:
        return os.open(folder / LOCK_FILE, os.O_RDWR | os.O_CREAT, 0o644)

    def _try_lock(handle: int) -> bool:
        try:
            msvcrt.locking(handle, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True

    def _unlock(handle: int) -> None:
        msvcrt.locking(handle, msvcrt.LK_UNLCK, 1)
