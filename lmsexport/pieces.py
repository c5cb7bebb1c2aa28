"""A document that grows with the bank, written a batch of its repeated parts at a time.

QTI 2.1's manifest and test and Canvas's assessment hold an element (or several) per question:
at 100,000 questions their trees took 480 MB, 145 MB and 2.5 GB. A writer builds such a
document as a scaffold (everything but the repeated parts) and marks the places (`region`)
where an iterable's elements go; `serialize()` then builds, writes and drops them `BATCH` at a
time. Each batch is written inside the scaffold itself, so namespaces are declared where the
whole document declares them and indentation is what it would be, and its bytes are cut out
between two marker comments: the result is byte for byte `xml.serialize()` of the whole tree.

A document whose regions fit in one batch is built and written whole, as before, and its tree
is kept (`whole`) for the build to validate in hand; a pieced one leaves no tree, and
validation reads its bytes back a piece at a time (validation.py).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator

from lxml import etree

from .xml import serialize

BATCH = 2_000
"""Region elements written at a time: a 2,000-question quiz is still one tree, checked in hand
(parsing it again would cost a fresh build time), and a batch of manifest resources ~8 MB."""
_MARK = "lmsexport-piece-{}"


class Pieces:
    """The scaffold `root` of a document and the regions its repeated parts go into."""

    def __init__(self, root, verbatim=frozenset()):
        self.root = root
        self.verbatim = verbatim
        """As `xml.serialize()`'s: the scaffold's elements holding a person's HTML."""
        self.batch = BATCH
        self.whole = None
        """After `serialize()`: the document's tree when it was written whole, else None."""
        self._regions: list[tuple[object, Iterable]] = []

    def region(self, parent, elements: Iterable) -> None:
        """Put `elements` (made as they are asked for) after what `parent` holds now, before
        anything added to it later."""
        marker = etree.Comment(_MARK.format(len(self._regions)))
        parent.append(marker)
        self._regions.append((marker, iter(elements)))

    def serialize(self, check: Callable[[object, int, list], None]) -> Iterator[bytes]:
        """The document's bytes, in pieces. `check(tree, size, elements)` is told of every tree
        written (the whole document, or the scaffold with one batch: `elements`, its size as
        written), for what a writer verifies on what it built (texts too long for parsers)."""
        firsts = [list(itertools.islice(elements, self.batch + 1)) for _, elements in self._regions]
        if all(len(first) <= self.batch for first in firsts):
            yield self._whole(firsts, check)
            return
        regions = []
        for (marker, elements), first in zip(self._regions, firsts):
            if first:
                regions.append((marker, itertools.chain(first, elements)))
            else:  # as if it were not there: an element left empty is written `<a/>`
                marker.getparent().remove(marker)
        del firsts
        scaffold = serialize(self.root, self.verbatim)
        check(self.root, len(scaffold), [])
        start = 0
        for marker, elements in regions:
            cut = _line(scaffold, marker.text)
            yield scaffold[start:cut.start]
            start = cut.stop
            while batch := list(itertools.islice(elements, self.batch)):
                yield self._piece(marker, batch, check)
        yield scaffold[start:]

    def _whole(self, firsts: list[list], check) -> bytes:
        for (marker, _), elements in zip(self._regions, firsts):
            for element in elements:
                marker.addprevious(element)
            marker.getparent().remove(marker)
        data = serialize(self.root, self.verbatim)
        check(self.root, len(data), [element for elements in firsts for element in elements])
        self.whole = self.root
        return data

    def _piece(self, marker, batch: list, check) -> bytes:
        """The bytes of `batch` as they stand in the whole document, written in the scaffold."""
        opening = etree.Comment(marker.text + "-start")
        marker.addprevious(opening)
        for element in batch:
            marker.addprevious(element)
        data = serialize(self.root, self.verbatim)
        check(self.root, len(data), batch)
        parent = marker.getparent()
        parent.remove(opening)
        for element in batch:
            parent.remove(element)
        return data[_line(data, opening.text).stop:_line(data, marker.text).start]


def _line(data: bytes, comment: str) -> slice:
    """The line of `data` the comment `comment` stands on, with its indentation and newline:
    every element of a region's parent is on a line of its own (`xml.serialize()`)."""
    at = data.index(f"<!--{comment}-->".encode())
    return slice(data.rindex(b"\n", 0, at) + 1, data.index(b"\n", at) + 1)
