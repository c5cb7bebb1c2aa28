"""A document that grows with the bank, written a batch of its repeated parts at a time.

QTI 2.1's manifest and test and Canvas's assessment hold an element (or several) per question:
at 100,000 questions their trees took 480 MB, 145 MB and 2.5 GB. A writer builds such a
document as a scaffold (everything but the repeated parts) and marks the places (`region`)
where an iterable's elements go; `serialize()` then builds, writes and drops them a batch at a
time (`BATCH`, or a share of it). Each batch is written inside the scaffold itself, so namespaces are declared where the
whole document declares them and indentation is what it would be, and its bytes are cut out
between two marker comments: the result is byte for byte `xml.serialize()` of the whole tree.

A document whose regions hold `BATCH` elements or fewer (its writer says how many each will
hold) is built and written whole, as before, and its tree is kept (`whole`) for the build to
validate in hand; a pieced one leaves no tree, and validation reads its bytes back a piece at
a time (validation.py).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator

from lxml import etree

from .xml import serialize

BATCH = 2_000
"""Region elements written at a time, and the most a document is written whole with: a
2,000-question quiz is still one tree, checked in hand (parsing it again would cost a fresh
build time), and a batch of manifest resources ~8 MB."""
_MARK = "lmsexport-piece-{}"


class Pieces:
    """The scaffold `root` of a document and the regions its repeated parts go into."""

    def __init__(self, root, verbatim=frozenset(), share: float = 1.0):
        self.root = root
        self.verbatim = verbatim
        """As `xml.serialize()`'s: the scaffold's elements holding a person's HTML."""
        self.whole_up_to = BATCH
        self.batch = max(1, round(BATCH * share))
        """Elements a batch of a pieced document has: a `share` of `BATCH`, for a document whose
        elements are large (a Canvas item is ~50 elements, a manifest resource ~13)."""
        self.whole = None
        """After `serialize()`: the document's tree when it was written whole, else None."""
        self._regions: list[tuple[object, Iterator, int]] = []

    def region(self, parent, elements: Iterable, count: int) -> None:
        """Put `elements` (`count` of them, made as they are asked for) after what `parent`
        holds now, before anything added to it later."""
        marker = etree.Comment(_MARK.format(len(self._regions)))
        parent.append(marker)
        self._regions.append((marker, iter(elements), count))

    def serialize(self, check: Callable[[object, int, list], None]) -> Iterator[bytes]:
        """The document's bytes, in pieces. `check(tree, size, elements)` is told of every tree
        written (the whole document, or the scaffold with one batch: `elements`, its size as
        written), for what a writer verifies on what it built (texts too long for parsers)."""
        if all(count <= self.whole_up_to for _, _, count in self._regions):
            yield self._whole(check)
            return
        regions = []
        for marker, elements, count in self._regions:
            if count:
                regions.append((marker, elements))
            else:  # as if it were not there: an element left empty is written `<a/>`
                marker.getparent().remove(marker)
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

    def _whole(self, check) -> bytes:
        made = []
        for marker, elements, _ in self._regions:
            for element in elements:
                marker.addprevious(element)
                made.append(element)
            marker.getparent().remove(marker)
        data = serialize(self.root, self.verbatim)
        check(self.root, len(data), made)
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
