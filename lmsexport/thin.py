"""What the package rules keep of a document checked as it was read (validation.py): its
elements as small Python objects, made part by part while the parser goes on.

The rules across a package's documents read an element's tag, attributes, line, text and
descendants, nothing else, and a large manifest's lxml tree, even pruned to the resources,
their files and dependencies, takes 2 kB an item (200 MB at 100,000 questions). A `Thin`
element answers those questions (`get`, `iter`, `findall`, `sourceline`, `text`, `nsmap`) in
a third of that. `Thinning` turns each part the parser finished into one and lets the parser
drop it, then makes the document's root, with every part in its parent.

A Thin element knows no line: validation sends a streamed document with any finding to the
whole check, whose findings name their lines, so the streamed rules only tell whether there is
one (a line past 256 was one more object: 13 MB of a 100,000-item manifest). An attribute's
value equal to the one last read under its name is that same string: every resource's `type`,
and a resource's `href` and its file's (another 14 MB there).

What the rules keep instead of a part they have checked is facts, and the facts that shrink as
the document is read (the files not yet listed) are `Remaining`.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator

_NO_NAMESPACES: dict = {}


class Thin:
    """An element, read only: tag (Clark notation), attributes, text, children."""

    __slots__ = ("tag", "_attributes", "text", "_children")
    sourceline = None
    """Not kept (see the module's doc): what lxml gives an element whose line it does not know."""
    nsmap = _NO_NAMESPACES
    """The namespaces declared on the document's root (`validation` tells a manifest by them); {} below it."""

    def __init__(self, node, attributes: tuple, children: list[Thin]):
        self.tag = sys.intern(node.tag)
        self._attributes = attributes
        text = node.text
        self.text = text if text and not text.isspace() else None
        self._children = tuple(children)

    def get(self, key: str, default=None):
        pairs = self._attributes
        for at in range(0, len(pairs), 2):
            if pairs[at] == key:
                return pairs[at + 1]
        return default

    def iter(self, *tags: str) -> Iterator[Thin]:
        """This element and its descendants in document order (lxml's `iter`, `{*}name` too)."""
        if not tags or any(_matches(self.tag, tag) for tag in tags):
            yield self
        for child in self._children:
            yield from child.iter(*tags)

    def __iter__(self) -> Iterator[Thin]:
        """The children, as lxml iterates an element."""
        return iter(self._children)

    def findall(self, tag: str) -> list[Thin]:
        """The children named `tag` (a Clark name, as the rules ask for them)."""
        return [child for child in self._children if child.tag == tag]


class _Root(Thin):
    """The document's root, the one element with namespaces of its own (a slot the others go without)."""

    __slots__ = ("nsmap",)

    def __init__(self, node, attributes: tuple, children: list[Thin], nsmap: dict):
        super().__init__(node, attributes, children)
        self.nsmap = nsmap


def _matches(tag: str, wanted: str) -> bool:
    if wanted.startswith("{*}"):
        return tag.rpartition("}")[2] == wanted[3:]
    return tag == wanted


class Thinning:
    """The parts of one document a parser has finished, made `Thin` and dropped from its tree."""

    def __init__(self):
        self._values: dict[str, str] = {}
        """Attribute name -> the value last read under it (see the module's doc)."""
        self._parts: dict[object, list[Thin]] = {}
        """lxml element -> its children already made Thin (the element itself still open)."""
        self._last: dict[object, object] = {}
        """lxml element -> its child last taken: emptied, removed once the parser is past it."""

    def take(self, node, keep: bool = True) -> None:
        """Make `node` (complete: at its end event) Thin, unless not to `keep`, and empty it;
        its emptied previous sibling, which the parser is past now (tail included), leaves the tree."""
        parent = node.getparent()
        if keep:
            self._parts.setdefault(parent, []).append(self._made(node))
        node.clear()
        previous = self._last.get(parent)
        if previous is not None and previous.getnext() is node:
            parent.remove(previous)
        self._last[parent] = node

    def root(self, root) -> Thin:
        """The whole document (its parser closed): what is left of the tree, with every part taken."""
        taken = frozenset(self._last.values())
        return _Root(root, self._attributes(root), self._children(root, taken), dict(root.nsmap))

    def _made(self, node, taken: frozenset = frozenset()) -> Thin:
        """`node` and its children (but those emptied, `taken`) as Thin, with the parts taken from it."""
        return Thin(node, self._attributes(node), self._children(node, taken))

    def _children(self, node, taken: frozenset) -> list[Thin]:
        made = [self._made(child, taken) for child in node if isinstance(child.tag, str) and child not in taken]
        return made + self._parts.pop(node, [])

    def _attributes(self, node) -> tuple:
        """`node`'s attributes as (name, value, name, value, ...), names interned, values shared
        with the last of their name when equal."""
        pairs, last = [], self._values
        for name, value in node.items():
            name = sys.intern(name)
            if last.get(name) == value:
                value = last[name]
            else:
                last[name] = value
            pairs += (name, value)
        return tuple(pairs)


class Remaining:
    """Values a rule has yet to meet (the files no resource has listed yet), as a set that gives
    back its table as it empties: a set keeps its largest one, 4 MB for 100,000 paths, while
    what the rules keep of each resource read grows."""

    def __init__(self, values=()):
        self._values = set(values)
        self._most = len(self._values)

    def add(self, value) -> None:
        self._values.add(value)
        self._most = max(self._most, len(self._values))

    def discard(self, value) -> None:
        values = self._values
        values.discard(value)
        if len(values) * 4 < self._most:  # a quarter left: a table that size (amortised: each value copied twice)
            self._values, self._most = set(values), len(values)

    def __contains__(self, value) -> bool:
        return value in self._values

    def __iter__(self):
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)
