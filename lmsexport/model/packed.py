"""A large quiz's questions held packed: pickled and compressed in blocks, unpacked as they are read.

As objects, a question of a bank costs ~2.7 kB (its texts, choices and source positions), so the
questions of 100,000 made most of a build's peak (~270 MB) whatever the format, while every
writer reads them one after another, once or twice. A reader of a large source hands its
questions to a `Packer` as it builds them; the quiz then holds `Packed`, a sequence that reads
like the tuple it stands for and unpacks one block of `BLOCK` questions at a time (the
generated Vietnamese bank: ~80 B a question; the 55 questions of the test fixtures' Moodle
banks, quizzes and seeds, in one block: 180 B). A read costs ~20 us a question, so only a
quiz past `PACK_FROM`, read for a caller that asks for it, is packed.

A reader that can tell how far through its source it is (`share`) lets its packer start at
`EARLY` questions when the source's rest holds enough of them to reach `PACK_FROM`: waiting for
`PACK_FROM` held 20,000 questions as objects at once (54 MB), the peak of a 100,000-question
read, which was half again a 10,000-question build's peak.
"""

from __future__ import annotations

import dataclasses
import itertools
import pickle
import zlib
from collections.abc import Callable, Iterator, Sequence

BLOCK = 256
"""Questions pickled and compressed together (the larger, the better they compress, and the more
a look at one question unpacks)."""
PACK_FROM = 20_000
"""Questions a quiz has before they are packed: 10,000 as objects are ~27 MB."""
EARLY = 4_096
"""Questions after which a packer forecasts its quiz's size from the share of the source read."""


class Packed(Sequence):
    """Questions, in order, as compressed blocks; equal to a tuple of the same questions.

    Each read unpacks afresh, so two reads of a question give equal objects, not the same one."""

    __slots__ = ("_blocks", "_length", "_last")

    def __init__(self, blocks: tuple[bytes, ...], length: int):
        self._blocks = blocks
        self._length = length
        self._last: tuple[int, tuple] = (-1, ())
        """The block last read, unpacked, for a run of reads of one block (the first question, asked
        for by every message about the quiz as a whole: `Quiz.where`)."""

    def __len__(self) -> int:
        return self._length

    def __iter__(self) -> Iterator:
        for number in range(len(self._blocks)):
            yield from self._block(number)

    def __getitem__(self, index):
        if isinstance(index, slice):  # a run of indexes unpacks each block it spans once
            return tuple(self[i] for i in range(self._length)[index])
        if index < 0:
            index += self._length
        if not 0 <= index < self._length:
            raise IndexError("question index out of range")
        number, offset = divmod(index, BLOCK)
        return self._block(number)[offset]

    def _block(self, number: int) -> tuple:
        if self._last[0] != number:
            self._last = (number, _unpack(self._blocks[number]))
        return self._last[1]

    def __eq__(self, other) -> bool:
        if not isinstance(other, (tuple, Packed)):
            return NotImplemented
        return len(other) == self._length and all(mine == theirs for mine, theirs in zip(self, other))

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"Packed({self._length} questions in {len(self._blocks)} blocks)"

    def __reduce__(self):
        return Packed, (self._blocks, self._length)


class Packer:
    """Takes a reader's questions one at a time: past `PACK_FROM` of them, packs each `BLOCK`.

    `share`, if given, is the share of the source read so far (0 to 1], asked for once, at
    `EARLY` questions: a source on course for `PACK_FROM` is packed from then on. A forecast that
    falls short is undone at the end: a quiz is packed only if it has `PACK_FROM` questions."""

    def __init__(self, pack_from: int | None = None, *, share: Callable[[], float] | None = None) -> None:
        self._pack_from = PACK_FROM if pack_from is None else pack_from
        self._share = share
        self._blocks: list[bytes] = []
        self._pending: list = []
        self._length = 0
        self._packing = False

    def add(self, question) -> None:
        self._pending.append(question)
        self._length += 1
        if not self._packing:
            self._packing = self._length >= self._pack_from or (self._length == EARLY and self._forecast())
        if self._packing and len(self._pending) >= BLOCK:
            self._pack(BLOCK)  # the first time: every question held so far

    def _forecast(self) -> bool:
        """Whether the source read so far holds its share of `PACK_FROM` questions."""
        share, self._share = self._share, None  # asked once: a reader's own method keeps the reader (and its source)
        return share is not None and EARLY >= self._pack_from * share()

    def __len__(self) -> int:
        """The questions taken so far."""
        return self._length

    def result(self) -> tuple | Packed:
        """The questions: a tuple, or `Packed` once there were `PACK_FROM` of them."""
        self._share = None  # a quiz shorter than `EARLY` never asked
        if self._length < self._pack_from:
            return (*itertools.chain.from_iterable(map(_unpack, self._blocks)), *self._pending)
        self._pack(1)
        return Packed(tuple(self._blocks), self._length)

    def _pack(self, least: int) -> None:
        """Pack the questions held, a block at a time, while `least` (1 or more) are left."""
        pending = self._pending
        while len(pending) >= least:
            self._blocks.append(zlib.compress(pickle.dumps(tuple(pending[:BLOCK]), pickle.HIGHEST_PROTOCOL), 1))
            del pending[:BLOCK]


def held(quiz):
    """`quiz` with its questions as a tuple of objects, for a reader of them that goes over them
    many times (lint's rules: a dozen passes, each ~20 us a question packed)."""
    if isinstance(quiz.questions, tuple):
        return quiz
    return dataclasses.replace(quiz, questions=tuple(quiz.questions))


def _unpack(block: bytes) -> tuple:
    return pickle.loads(zlib.decompress(block))
