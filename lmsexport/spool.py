"""A package's files while it is made: in memory up to a budget, past it in a temporary file.

A writer's files wait in memory until every one is checked and zipped: the item files of a
100,000-question QTI package are 370 MB, which made the bank's size the build's peak memory.
Past `BUDGET` bytes, files go to an anonymous temporary file (in `TMPDIR`, removed by the
operating system even if the build is killed) and are read back when asked for. Reads use
`os.pread`, which moves no shared file position, so the zip thread and validation read at once.
A quiz of a few thousand questions never reaches the budget and never touches the disk.
A document written in pieces (`pieces.Pieces`) is put a chunk at a time (`put_chunks`) and read
back the same way (`chunks`), so neither its writer, its validation nor the zip holds it whole.
"""

from __future__ import annotations

import io
import os
import tempfile
from collections.abc import Iterable, Iterator, MutableMapping
from typing import BinaryIO

BUDGET = 16_000_000
"""Bytes held in memory before files go to disk: a 4,000-question QTI package's items (10,000
questions' are 37 MB: held, their build peaked at 158 MB, past this budget at 137 MB, for no
CPU time that a run could tell from its noise; the page cache holds what was just written)."""
CHUNK = 1 << 20
"""Bytes `chunks()` reads from the temporary file at a time."""
_SPAN = 1 << 40
"""Where a file waits on disk is one int, `offset * _SPAN + length`: 100,000 (offset, length)
tuples of a large QTI package took 13 MB, their ints a third of that."""


class SpooledFiles(MutableMapping):
    """Archive paths to bytes, in the order they were put, as a dict; past `budget` bytes held,
    the bytes wait on disk. OSError when the temporary file cannot be written (a full disk)."""

    def __init__(self, files: dict[str, bytes] | None = None, *, budget: int | None = None):
        self._budget = BUDGET if budget is None else budget
        self._held = 0
        self._entries: dict[str, bytes | int] = {}
        """A path's bytes, or where they are in the temporary file (`_SPAN`)."""
        self._file = None
        self._end = 0
        self.update(files or {})

    def __setitem__(self, path: str, data: bytes) -> None:
        self.put_chunks(path, (data,))

    def put_chunks(self, path: str, chunks: Iterable[bytes]) -> None:
        """Put the file whose bytes are `chunks`, joined: held while they fit the budget, else
        written to the temporary file as they come."""
        self.pop(path, None)
        held, size = [], 0
        chunks = iter(chunks)
        for chunk in chunks:
            held.append(chunk)
            size += len(chunk)
            if self._held + size > self._budget:
                break
        else:
            self._entries[path] = held[0] if len(held) == 1 else b"".join(held)
            self._held += size
            return
        offset = self._end
        for chunk in held:
            self._write(chunk)
        del held[:]
        for chunk in chunks:
            self._write(chunk)
        self._entries[path] = offset * _SPAN + self._end - offset

    def _write(self, data: bytes) -> None:
        if self._file is None:
            self._file = tempfile.TemporaryFile(prefix="lmsexport-", buffering=0)
        view = memoryview(data)
        while view:  # a write to a regular file may take fewer bytes than asked
            written = os.pwrite(self._file.fileno(), view, self._end)
            view, self._end = view[written:], self._end + written

    def __getitem__(self, path: str) -> bytes:
        entry = self._entries[path]
        return entry if isinstance(entry, bytes) else b"".join(self.chunks(path))

    def chunks(self, path: str) -> Iterator[bytes]:
        """The file's bytes in pieces of at most `CHUNK` (the bytes themselves when held)."""
        entry = self._entries[path]
        if isinstance(entry, bytes):
            yield entry
            return
        yield from read_back(self._file, *divmod(entry, _SPAN), path)

    def open(self, path: str) -> BinaryIO:
        """The file's bytes as a file to read (a parser reads a spooled 200 MB bank through it,
        a chunk in memory at a time)."""
        return io.BufferedReader(_ChunkReader(self.chunks(path)), CHUNK)

    def size(self, path: str) -> int:
        entry = self._entries[path]
        return len(entry) if isinstance(entry, bytes) else entry % _SPAN

    def __delitem__(self, path: str) -> None:
        entry = self._entries.pop(path)
        if isinstance(entry, bytes):
            self._held -= len(entry)

    def __contains__(self, path: object) -> bool:
        return path in self._entries  # the Mapping default reads the file's bytes back to tell

    def __iter__(self) -> Iterator[str]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)

    def spilled(self) -> int:
        """How many bytes wait on disk (tests, benchmarks)."""
        return sum(entry % _SPAN for entry in self._entries.values() if not isinstance(entry, bytes))

    def __repr__(self) -> str:
        return f"SpooledFiles({len(self)} files, {self._held:,} bytes in memory, {self.spilled():,} on disk)"


def read_back(handle, offset: int, length: int, what: str) -> Iterator[bytes]:
    """`length` bytes of the temporary file `handle` from `offset`, `CHUNK` at a time, with
    `os.pread` (no shared position: threads read at once); OSError if it ends before."""
    while length:
        part = os.pread(handle.fileno(), min(length, CHUNK), offset)
        if not part:
            raise OSError(f"the temporary file of {what} ended early")
        yield part
        offset, length = offset + len(part), length - len(part)


class _ChunkReader(io.RawIOBase):
    """A raw file whose bytes are `chunks`, in order: each is read from where the last read ended."""

    def __init__(self, chunks: Iterator[bytes]):
        self._chunks = chunks
        self._chunk = memoryview(b"")

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        while not self._chunk:
            chunk = next(self._chunks, None)
            if chunk is None:
                return 0
            self._chunk = memoryview(chunk)
        size = min(len(buffer), len(self._chunk))
        buffer[:size], self._chunk = self._chunk[:size], self._chunk[size:]
        return size
