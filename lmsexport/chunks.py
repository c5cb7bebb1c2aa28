"""A large source's bytes in pieces, which the reader that parses it lets go as it goes.

A 200 MB Moodle XML bank read from one bytes object holds all 200 MB until its last question
is read, on top of the model being built. Cut into pieces (`Chunks.of`), it is read as a file
(`drain()`) whose pieces are dropped once the parser has them, so the read's peak is the model
plus a piece. The build cuts a source only for a reader that says it reads them
(`READS_CHUNKS`), and it cuts the very bytes it fingerprinted.
"""

from __future__ import annotations

from collections.abc import Iterator

from .memory import return_freed_memory

PIECE = 1 << 20
"""Bytes a piece holds."""


class Chunks:
    """The bytes of one source, in order, in pieces."""

    def __init__(self, pieces: list[bytes]):
        self._pieces = pieces[::-1]
        """Still to be read, the next one last (taken with `pop()`)."""

    @classmethod
    def of(cls, data: bytes, size: int = PIECE) -> Chunks:
        return cls([data[at:at + size] for at in range(0, len(data), size)])

    def __len__(self) -> int:
        """The bytes not yet drained."""
        return sum(map(len, self._pieces))

    def view(self) -> _Reading:
        """A file reading the bytes from the start, letting nothing go (for a look at the start)."""
        return _Reading(iter(self._pieces[::-1]))

    def drain(self) -> _Reading:
        """A file reading the bytes from the start, each piece let go once read: the bytes are
        read once, by one reader."""
        return _Reading(self._taken())

    def joined(self) -> bytes:
        """Every byte as one bytes object, the pieces let go (for a small document: a bare question)."""
        return b"".join(self._taken())

    def _taken(self) -> Iterator[bytes]:
        while self._pieces:
            yield self._pieces.pop()
            return_freed_memory()  # the piece read: glibc keeps a freed MiB for the process, not the OS


class _Reading:
    """`read()` over pieces, as lxml's parsers call it (and `io.BytesIO` answers)."""

    def __init__(self, pieces: Iterator[bytes]):
        self._pieces = pieces
        self._piece, self._at = b"", 0

    def read(self, size: int = -1) -> bytes:
        if size is None or size < 0:
            rest = self._piece[self._at:] + b"".join(self._pieces)
            self._piece, self._at = b"", 0
            return rest
        while self._at >= len(self._piece):
            self._piece = b""  # let go before the next is asked for
            self._piece, self._at = next(self._pieces, None), 0
            if self._piece is None:
                self._piece = b""
                return b""
        out = self._piece[self._at:self._at + size]
        self._at += len(out)
        return out
