"""A Moodle XML bank read question by question: one `<question>` tree in memory at a time.

Moodle's importer reads `quiz/question` (qformat_xml::readquestions); a 200 MB bank is
several GB as one lxml tree, so the reader takes each `<question>` as libxml2's iterparse
finishes it and drops it once read, as `validation.stream()` does for `validate`. What
refuses the whole file is found here: XML that is not well-formed (E601), a root other than
`<quiz>` (E602; a bare `<question>` is read as a bank of one, its caller warns), entities
declared in a DOCTYPE (E608).
"""

from __future__ import annotations

import io
from collections.abc import Iterator

from lxml import etree

from ...chunks import Chunks
from ...diagnostics import Diagnostic, SourceError, SourceSpan

_HARDENED = {"resolve_entities": False, "no_network": True, "huge_tree": False}
"""xml.parser()'s settings, for iterparse()."""
_EXPORT_HINT = ("lmsexport reads Moodle XML question banks: a <quiz> holding <question> elements, "
                "as Moodle writes them with Question bank > Export > Moodle XML format")
_ENTITY_HINT = "write the text itself: lmsexport never expands entities (they are how XML bombs work)"


def questions(data: bytes | Chunks, source: str) -> Iterator:
    """Each `<question>` of the bank in file order (the root itself for a bare `<question>`);
    each is cleared once the next is asked for. Raises SourceError for what refuses the file.
    A bank in `Chunks` is let go a piece at a time as it is parsed."""
    try:
        root = _root(data.view() if isinstance(data, Chunks) else io.BytesIO(data), source)
        if root.tag == "question":
            yield from _bare(data.joined() if isinstance(data, Chunks) else data, source)
            return
        events = etree.iterparse(data.drain() if isinstance(data, Chunks) else io.BytesIO(data), events=("end",),
                                 tag="question", **_HARDENED)
        for _, node in events:
            parent = node.getparent()
            if parent is None or parent.getparent() is not None:
                continue  # a <question> inside a question is part of it (Moodle reads quiz/question only)
            _no_entities(node, source)
            yield node
            node.clear(keep_tail=False)
            while node.getprevious() is not None:
                del parent[0]  # comments and questions already read
    except etree.XMLSyntaxError as exc:
        line, column = exc.position
        raise SourceError([Diagnostic("E601", f"not well-formed XML: {exc.msg}", SourceSpan(source, line, column),
                                      "Moodle refuses it too; fix the XML, or export the bank again")]) from None


def _root(document, source: str):
    """The root element of the `document` (a file), read without parsing the rest; E602 unless
    `<quiz>` or `<question>`."""
    for _, root in etree.iterparse(document, events=("start",), **_HARDENED):
        if root.tag in ("quiz", "question"):
            return root
        name = root.tag.rpartition("}")[2]  # not etree.QName: a namespace may hold "}" (xmlns="a}b")
        raise SourceError([Diagnostic("E602", f"this XML is not a Moodle question bank: its root element is <{name}>, "
                                      "not <quiz>", SourceSpan(source, root.sourceline or 0), _EXPORT_HINT)])
    raise etree.XMLSyntaxError("Document is empty", None, 1, 1)


def _bare(data: bytes, source: str) -> Iterator:
    """A document that is one `<question>` (a question type's test fragment): parsed whole, it is small."""
    from ...xml import parser

    root = etree.fromstring(data, parser())
    _no_entities(root, source)
    yield root


def _no_entities(node, source: str) -> None:
    """E608 for an entity reference in a question (only a DOCTYPE can declare one)."""
    if not node.getroottree().docinfo.doctype:
        return
    found = next(node.iter(etree.Entity), None)
    if found is not None:
        raise SourceError([Diagnostic("E608", f"the bank uses the entity &{found.name}; declared in its DOCTYPE",
                                      SourceSpan(source, found.sourceline or 0), _ENTITY_HINT)])
