"""XML vocabulary shared by the writers and readers: one namespace table, `qn()`,
a hardened parser, and one serialisation (python-docx's `oxml/ns.py` idea).

XML is always built as lxml elements, never as strings, so every `<`, `&` and
`]]>` in a course designer's text is escaped exactly once, by lxml.
"""

from __future__ import annotations

import functools
import threading
from dataclasses import dataclass

from lxml import etree

from .diagnostics import Diagnostic, SourceError, SourceSpan

NS = {
    "qti": "http://www.imsglobal.org/xsd/imsqti_v2p1",
    "imscp": "http://www.imsglobal.org/xsd/imscp_v1p1",
    "imsmd": "http://www.imsglobal.org/xsd/imsmd_v1p2",
    "imsqti": "http://www.imsglobal.org/xsd/imsqti_metadata_v2p1",
    "imscp12": "http://www.imsproject.org/xsd/imscp_rootv1p1p2",
    "qti12": "http://www.imsglobal.org/xsd/ims_qtiasiv1p2",
    "canvas": "http://canvas.instructure.com/xsd/cccv1p0",
    "adlcp12": "http://www.adlnet.org/xsd/adlcp_rootv1p2",
    "adlcp": "http://www.adlnet.org/xsd/adlcp_v1p3",
    "adlseq": "http://www.adlnet.org/xsd/adlseq_v1p3",
    "adlnav": "http://www.adlnet.org/xsd/adlnav_v1p3",
    "imsss": "http://www.imsglobal.org/xsd/imsss",
    "lom": "http://ltsc.ieee.org/xsd/LOM",
    "m": "http://www.w3.org/1998/Math/MathML",
    "xsi": "http://www.w3.org/2001/XMLSchema-instance",
    "xml": "http://www.w3.org/XML/1998/namespace",
}


@functools.cache
def qn(name: str) -> str:
    """Clark notation for a prefixed name: `qn("qti:choiceInteraction")`.

    Cached: writers ask for the same few dozen names hundreds of thousands of times."""
    prefix, _, local = name.rpartition(":")
    return f"{{{NS[prefix]}}}{local}" if prefix else local


def element(name: str, attrib: dict | None = None, text: str | None = None, nsmap: dict | None = None):
    """A new element; attribute names may be prefixed (`xml:lang`), None values are skipped."""
    node = etree.Element(qn(name), _attributes(attrib), nsmap=nsmap)
    if text is not None:
        node.text = text
    return node


def sub(parent, name: str, attrib: dict | None = None, text: str | None = None):
    """A new child element of `parent` (see `element`)."""
    node = etree.SubElement(parent, qn(name), _attributes(attrib))
    if text is not None:
        node.text = text
    return node


def _attributes(attrib: dict | None) -> dict | None:
    """Clark-named attributes in the given order, without the None ones: one dict handed to
    lxml in a single call instead of a `set()` per attribute."""
    if not attrib:
        return None
    return {qn(key): value for key, value in attrib.items() if value is not None}


def built_once(builder):
    """`builder` for trees that recur in every file (a score's declaration, a standard
    rule): each distinct tree is built once and callers get copies, which lxml makes in C,
    several times faster than building the tree element by element."""
    built = functools.lru_cache(maxsize=256)(builder)

    @functools.wraps(builder)
    def copied(*args, **kwargs):
        return built(*args, **kwargs).__deepcopy__(None)  # lxml's own, without copy.deepcopy's memo

    return copied


def serialize(root, verbatim=frozenset()) -> bytes:
    """UTF-8 bytes with an XML declaration, indented where that cannot change text.

    Elements in `verbatim` (a set of elements: those holding a person's HTML, where space
    between two elements is the text's own) are written exactly as built. A tree with no text
    beside other nodes anywhere, and whose `verbatim` elements hold text only (a manifest, a
    Canvas assessment, an item whose texts are plain), is indented by libxml2 as it writes,
    which leaves the tree alone: adding the indentation to a 10,000-item manifest's tree took
    37 MB, as much as the tree itself."""
    if not any(len(holder) for holder in verbatim) and not _TEXT_BESIDE_NODES(root):
        return etree.tostring(root, xml_declaration=True, encoding="UTF-8", pretty_print=True)
    _indent(root, 0, verbatim)
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8") + b"\n"


def _blank(text: str | None) -> bool:
    return not text or not text.strip()


_TEXT_BESIDE_NODES = etree.XPath("boolean(descendant::text()[../node()[2]])")
"""Whether any element holds text beside other nodes (even blank text): libxml2's own
indentation (`pretty_print`) leaves such an element unindented where `_indent` would indent it."""
_MIXED = etree.XPath("descendant::text()[../node()[2]][normalize-space()]/..")
"""Elements with text beside other nodes, found by libxml2, for which only XML's four
characters are space (Python's `str.strip` also takes a no-break space: `_indent` rechecks)."""


def _indent(node, level: int, verbatim=frozenset()) -> None:
    """Indent element-only content; mixed content (`<p>a <b>b</b></p>`) is left exactly as built.

    lxml's `etree.indent` does the work in C (a 2,000-question package has 100,000 elements),
    but it would also re-indent the space between elements in mixed content: the content of
    mixed and `verbatim` elements is taken out while it runs and put back after. Text that
    is blank to Python but not to libxml2 (a no-break space between elements) leaves the
    tree to the Python walk, which keeps the rule exact."""
    if not len(node) or node in verbatim:
        return
    mixed = _MIXED(node)
    if not all(map(_mixed, mixed)):
        return _walk(node, level, verbatim)
    if mixed and mixed[0] is node:
        return
    kept = [(holder, list(holder)) for holder in (*mixed, *verbatim) if len(holder)]
    for holder, _ in kept:
        del holder[:]
    etree.indent(node, level=level)
    for holder, children in kept:
        holder.extend(children)


def _mixed(node) -> bool:
    return not _blank(node.text) or not all(_blank(child.tail) for child in node)


def _walk(node, level: int, verbatim) -> None:
    """`_indent` in Python, element by element."""
    if not len(node) or node in verbatim or _mixed(node):
        return
    children = list(node)
    inner = _newline(level + 1)
    node.text = inner
    for child in children:
        child.tail = inner
        if len(child):
            _walk(child, level + 1, verbatim)
    children[-1].tail = _newline(level)


@functools.cache
def _newline(level: int) -> str:
    return "\n" + "  " * level


def unindent(node) -> None:
    """Undo `serialize()`'s indentation below `node`, for readers of what it wrote: whitespace
    in element-only content is layout, not text (mixed content is left as it is)."""
    children = list(node)
    if not children or not _blank(node.text) or not all(_blank(child.tail) for child in children):
        return
    node.text = None
    for child in children:
        child.tail = None
        unindent(child)


def parser():
    """A parser for documents we did not write: no entities, no network, no huge trees.

    One per thread (lxml's parsers are not thread-safe), made once: making one took a
    fifth as long as parsing a package's item with it."""
    made = getattr(_parsers, "parser", None)
    if made is None:
        made = _parsers.parser = etree.XMLParser(
            resolve_entities=False, no_network=True, huge_tree=False, remove_blank_text=False
        )
    return made


def html_parser():
    """A parser for HTML fragments (a model text's HTML): no network, comments and processing
    instructions left out; one per thread, as parser() is. A character reference HTML forbids
    (`&#1;`) becomes U+FFFD, as in a browser. Without a size limit: a model text is lmsexport's
    own, sanitised when it was read, and libxml2 would drop a text past 10,000,000 bytes without
    a word (a writer then could not tell it is too long: `too_long`)."""
    made = getattr(_parsers, "html", None)
    if made is None:
        made = _parsers.html = etree.HTMLParser(no_network=True, remove_comments=True, remove_pis=True,
                                                huge_tree=True)
    return made


def html_fragment(value: str):
    """A model text's HTML as `lxml.html` elements under one new `div`, for the writers that
    rebuild it (QTI's XHTML, Canvas's material, the SCORM player's math and images): parsed with
    no size limit, as html_parser() is, so that a text too long for an LMS reaches `too_long`
    instead of vanishing."""
    from lxml import html

    made = getattr(_parsers, "fragment", None)
    if made is None:
        made = _parsers.fragment = html.HTMLParser(huge_tree=True)
    return html.fragment_fromstring(value, create_parent="div", parser=made)


_parsers = threading.local()


def local_name(node) -> str:
    """An element's name without its namespace ('' for comments and processing instructions)."""
    return node.tag.rpartition("}")[2] if isinstance(node.tag, str) else ""


def replace_with_text(node, text: str = "") -> None:
    """Put `text` where `node` is, in its place: the text and `node`'s tail join the text before
    it (its previous sibling's tail, or its parent's text), and `node` is taken out."""
    parent, previous = node.getparent(), node.getprevious()
    text += node.tail or ""
    if previous is not None:
        previous.tail = (previous.tail or "") + text
    else:
        parent.text = (parent.text or "") + text
    parent.remove(node)


def entity_reference(root) -> tuple[str, int] | None:
    """The name of the first entity reference (`&name;`) left in a tree `parser()` built, and its line.

    The parser never expands entities (they are how XML bombs and file-reading attacks work),
    so a document that uses them would lose that text, and the schema validator fails on the
    nodes they leave. Only a document with a DOCTYPE can hold them, so others cost nothing."""
    if not root.getroottree().docinfo.doctype:
        return None
    found = next(root.iter(etree.Entity), None)
    return None if found is None else (found.name, found.sourceline or 0)


def untrusted_document(content: bytes, source: str, codes: tuple[str, str], hint: str):
    """The root of an XML document from anywhere, parsed with `parser()`, or a SourceError that
    says where it fails: `codes[0]` (with `hint`) for XML that is not well-formed, `codes[1]`
    for an entity its DOCTYPE declares (a reader's own codes: E802/E806 for QTI 2.1 ...)."""
    try:
        root = etree.fromstring(content, parser())
    except etree.XMLSyntaxError as exc:
        line, column = exc.position
        raise SourceError([Diagnostic(codes[0], f"not well-formed XML: {exc.msg}", SourceSpan(source, line, column),
                                      hint)]) from None
    entity = entity_reference(root)
    if entity is not None:
        raise SourceError([Diagnostic(codes[1], f"the document uses the entity &{entity[0]}; declared in its DOCTYPE",
                                      SourceSpan(source, entity[1]), "write the text itself: lmsexport never expands "
                                      "entities (they are how XML bombs work)")])
    return root


TEXT_LIMIT = 10_000_000
"""Bytes (UTF-8) one text node may hold: libxml2's XML_MAX_TEXT_LENGTH, refused past it unless
a parser asks for XML_PARSE_HUGE. Moodle's importer (PHP's xml_parse), Canvas's (Nokogiri) and
lmsexport's own validation all parse without it, so no writer may produce a longer text."""
ATTRIBUTE_LIMIT = 9_990_000
"""Bytes one attribute value may take as written (escapes included): libxml2 counts those against
the same 10,000,000, and stops a few bytes short of it (2.14: 9,999,991); 10 kB to spare."""

_LONG_TEXTS = etree.XPath(f"descendant-or-self::text()[string-length() > {TEXT_LIMIT // 4}]")
_LONG_VALUES = etree.XPath(f"descendant-or-self::*/@*[string-length() > {ATTRIBUTE_LIMIT // 6}]")
"""Candidates, found in C: a character takes 1-4 bytes in UTF-8 and at most 6 as an escape."""
_SHORTEST_CANDIDATE = min(TEXT_LIMIT // 4, ATTRIBUTE_LIMIT // 6)


@dataclass(frozen=True)
class TooLong:
    """A text or attribute value that parsers refuse for its length (see `too_long`)."""

    element: object
    """The element holding it."""
    attribute: str | None
    """Its attribute's name, or None for text."""
    size: int
    """Its bytes, counted as parsers count them."""
    where: str
    """Its place below the root, for messages: `questiontext/text`, `itemBody/div/p`, `@title`."""

    def refusal(self, code: str, subject: str, format: str, span: SourceSpan) -> Diagnostic:
        """The error of a writer that cannot write `subject` (`question 3`, `the quiz`) in `format`."""
        return Diagnostic(
            code, f"{subject} holds a text of {self.size:,} bytes ({self.where}); {format} cannot carry a "
            f"text over {TEXT_LIMIT:,} bytes: XML parsers, those of LMSs among them, refuse it", span,
            "shorten the text, or split it across questions; a long document belongs in a file the quiz links to")


def too_long(root, written: int | None = None) -> TooLong | None:
    """The first text or attribute value in the tree under `root` that XML parsers refuse for its
    length (`TEXT_LIMIT`, `ATTRIBUTE_LIMIT`), if any: writers refuse such a quiz instead of
    writing a file that no LMS can read.

    `written` is the size of the tree as serialized, when the caller has it: a document that
    holds no more characters than the shortest candidate holds no candidate, which spares
    the search (most of a QTI item's write time it was)."""
    if written is not None and written <= _SHORTEST_CANDIDATE:
        return None
    for text in _LONG_TEXTS(root):
        size = len(text.encode("utf-8"))
        if size > TEXT_LIMIT:
            holder = text.getparent()
            holder = holder.getparent() if text.is_tail else holder
            return TooLong(holder, None, size, _place(root, holder))
    for value in _LONG_VALUES(root):
        holder = value.getparent()
        size = len(etree.tostring(etree.Element("a", v=value), encoding="UTF-8")) - len(b'<a v=""/>')
        if size > ATTRIBUTE_LIMIT:
            name = etree.QName(value.attrname).localname
            return TooLong(holder, name, size, "/".join(filter(None, (_place(root, holder), f"@{name}"))))
    return None


def _place(root, node) -> str:
    """`node`'s path below `root` in local names."""
    names = []
    while node is not None and node is not root:
        names.append(etree.QName(node).localname)
        node = node.getparent()
    return "/".join(reversed(names))
