"""A package's files while it is made: in memory up to a budget, past it in a temporary file.

A writer's files wait in memory until every one is checked and zipped: the item files of a
100,000-question QTI package are 370 MB, which made the bank's size the build's peak memory.
Past `BUDGET` bytes, files go to an anonymous temporary file (in `TMPDIR`, removed by the
operating system even if the build is killed) and are read back when asked for. Reads use
`os.pread`, which moves no shared file position, so the zip thread and validation read at once.
A quiz of a few thousand questions never reaches the budget and never touches the disk.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator, MutableMapping

BUDGET = 64_000_000
"""Bytes held in memory before files go to disk: a 10,000-question QTI package's items are 37 MB."""


class SpooledFiles(MutableMapping):
    """Archive paths to bytes, in the order they were put, as a dict; past `budget` bytes held,
    the bytes wait on disk. OSError when the temporary file cannot be written (a full disk)."""

    def __init__(self, files: dict[str, bytes] | None = None, *, budget: int | None = None):
        self._budget = BUDGET if budget is None else budget
        self._held = 0
        self._entries: dict[str, bytes | tuple[int, int]] = {}
        """A path's bytes, or where they are in the temporary file: (offset, length)."""
        self._file = None
        self._end = 0
        self.update(files or {})

    def __setitem__(self, path: str, data: bytes) -> None:
        self.pop(path, None)
        if self._held + len(data) <= self._budget:
            self._entries[path] = data
            self._held += len(data)
            return
        if self._file is None:
            self._file = tempfile.TemporaryFile(prefix="lmsexport-", buffering=0)
        view, offset = memoryview(data), self._end
        while view:  # a write to a regular file may take fewer bytes than asked
            view = view[os.pwrite(self._file.fileno(), view, self._end):]
            self._end = offset + len(data) - len(view)
        self._entries[path] = (offset, len(data))

    def __getitem__(self, path: str) -> bytes:
        entry = self._entries[path]
        if isinstance(entry, bytes):
            return entry
        offset, length = entry
        parts = []
        while length:
            part = os.pread(self._file.fileno(), length, offset)
            if not part:
                raise OSError(f"the temporary file of {path} ended early")
            parts.append(part)
            offset, length = offset + len(part), length - len(part)
        return b"".join(parts)

    def __delitem__(self, path: str) -> None:
        entry = self._entries.pop(path)
        if isinstance(entry, bytes):
            self._held -= len(entry)

    def __iter__(self) -> Iterator[str]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)

    def spilled(self) -> int:
        """How many bytes wait on disk (tests, benchmarks)."""
        return sum(entry[1] for entry in self._entries.values() if not isinstance(entry, bytes))

    def __repr__(self) -> str:
        return f"SpooledFiles({len(self)} files, {self._held:,} bytes in memory, {self.spilled():,} on disk)"
