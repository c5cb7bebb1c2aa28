"""Offline validation against the official schemas, plus the package rules they cannot say.

The entry points for bytes (a zip, an XML document, a model JSON) and for a package in
memory. Each XML document goes to the format that owns it: every format may have a
`validation` module (`owns(root)`, `check(root, content, source=)`, and optionally
`stream(content, source=)` for documents checked without one whole tree, `head(root)` for
what its package rules keep of a document, `package_rules(files, source, documents)`,
`manifest_rules(files, source, documents)` for rules told the manifest's resources one at a
time (`Listing` has the same two methods, `resource()` and `findings()`), and
`streaming(root)`, `streamed(node, source)`, `settled(node, path, documents)`,
`streamed_document(head, source)` for a package's large documents, below),
found through the registry; the IMS CP rules every content package shares live here.
Schemas load through `schemas.py`.

A package's document past `STREAMED` bytes (a pieced manifest or assessment of a large bank,
`pieces.py`) is checked as it is read, a chunk at a time, after the package's other
documents: the schema as libxml2 parses (`XMLPullParser(schema=)`), the format's rules on
each part as it ends (`streamed()`), which then drops what the package rules do not read.
A part the package rules have checked already is let go: a manifest's resources and
dependencies (`Listing` and `manifest_rules` take each as it ends, and keep facts, not
elements), a test's item references that name their items (`settled()`). What is left is
kept as `thin.Thin` elements, over which the document's own rules run
(`streamed_document()`). That path only tells a clean document: anything it finds sends the
document to the whole-tree check, whose findings name their lines exactly as before.

Findings are Diagnostics whose source reads `package.zip!items/q3.xml`, so a
message points into the archive the way a course designer can follow.
"""

from __future__ import annotations

import codecs
import functools
import io
import itertools
import posixpath
import re
from collections.abc import Callable, Mapping
from typing import BinaryIO

from lxml import etree

from .archive import read_zip
from .diagnostics import Diagnostic
from .memory import return_freed_memory
from .package import MANIFEST
from .schemas import finding, load_schema
from .thin import Remaining, Thinning
from .xml import entity_reference, parser

_XML_NS = "http://www.w3.org/XML/1998/namespace"
STREAMED = 8_000_000
"""Bytes past which a package's document is checked as it is read (a 10,000-item QTI manifest
is 12 MB, whose tree took 40 MB)."""
_FED = 1 << 16
"""Bytes given the parser at a time (`_streamed`)."""
_XML = (".xml", ".qti")
"""The XML documents of a package: `.xml`, and Canvas's `non_cc_assessments/<id>.xml.qti`."""

def _validators() -> list:
    from .formats import validators

    return validators()


def _owner(root):
    """The validation module of the format whose document `root` is, or None."""
    return next((module for module in _validators() if module.owns(root)), None)


def validate_xml(content: bytes | Callable[[], BinaryIO], *, source: str) -> list[Diagnostic]:
    """Check one XML document against the schema of the format that owns it: its bytes, or a
    function opening them as a file (a spooled bank, which is then never held whole).

    A format that can check its documents without building one tree (a Moodle bank, question
    by question) is asked first; anything else is parsed whole."""
    opener = content if callable(content) else functools.partial(io.BytesIO, content)
    for module in _validators():
        streamed = module.stream(opener, source=source) if hasattr(module, "stream") else None
        if streamed is not None:
            return streamed
    if callable(content):
        with content() as handle:
            content = handle.read()
    root, findings = _parse(content, source)
    return findings if root is None else _validate_root(root, _owner(root), content, source)


def _parse(content: bytes, source: str):
    """The document's root and no findings, or None and why it cannot be checked."""
    try:
        root = etree.fromstring(content, parser())
    except etree.XMLSyntaxError as exc:
        line, column = exc.position
        return None, [finding("V101", source, f"not well-formed XML: {exc.msg}", line, column,
                              hint="the file is damaged: export it again, or fix the XML at that place")]
    entity = entity_reference(root)
    if entity is not None:
        return None, [finding("V107", source, f"the document uses the entity &{entity[0]}; declared in its DOCTYPE, "
                              "which lmsexport never expands", entity[1],
                              hint="write the text itself instead of the entity; importers that expand entities "
                              "are open to XML bombs")]
    return root, []


def _validate_root(root, owner, content: bytes, source: str) -> list[Diagnostic]:
    """Check a parsed document as the format that owns it (`owner`, see `_owner`) does."""
    if owner is None:
        return [finding("V102", source, f"unknown kind of XML document (root element {root.tag})",
                        root.sourceline, hint="lmsexport validates QTI 2.1 and QTI 1.2 in their namespaces, IMS CP / SCORM manifests "
                        "and Moodle XML")]
    return owner.check(root, content, source=source)


class TreeChecks:
    """The XML files a writer built that pass their schema, checked on the writer's own trees
    (`WriteOptions.on_document`) as it finishes each: parsing the bytes again cost a
    2,000-question QTI build 50 ms. Keeps what the package rules read of each (`head()`), to
    which `validate_files()` adds the package's other documents."""

    def __init__(self):
        self.heads: dict[str, object] = {}

    def take(self, path: str, root, content: bytes) -> None:
        owner = _owner(root)
        if path.endswith(_XML) and owner is not None and not owner.check(root, content, source=path):
            self.heads[path] = owner.head(root) if hasattr(owner, "head") else root


def validate_files(files: dict[str, bytes], *, source: str, checked: TreeChecks | None = None,
                   stream: bool = True) -> list[Diagnostic]:
    """Validate every XML file of a package and the content-package rules between them.

    A content package's XML files are parsed once: the schema check and the package rules
    share the tree, of which a format keeps only what its rules read (its `head()`, e.g. a QTI
    item's root element) to bound memory; files the writer's trees passed (`checked`) are not
    parsed at all. A built tree knows no line numbers, so a package with any finding is
    validated again from its bytes, for findings that point at their lines, and so is one with
    a document checked as it was read (`_streamed`), for findings worded as the whole check
    words them. The large documents come last, the manifest the very last, so that the rules
    across documents check each of their parts against the others as it is read. A file on its
    own, such as a Moodle bank, is checked as validate_xml() checks it."""
    found: dict[str, list[Diagnostic]] = {}
    documents: dict = checked.heads if checked is not None and MANIFEST in files else {}  # no copy: 5 MB
    large, streamed = [], set()
    for path in sorted(files):
        where = f"{source}!{path}" if len(files) > 1 or path == MANIFEST else source
        if path in documents:
            continue
        if path.endswith(_XML) and MANIFEST not in files:
            spooled = hasattr(files, "open") and files.size(path) > STREAMED
            found[path] = validate_xml(functools.partial(files.open, path) if spooled else files[path], source=where)
        elif path.endswith(_XML) and stream and _size(files, path) > STREAMED:
            large.append(path)
        elif path.endswith(_XML):
            found[path], documents[path] = _whole(files, path, where)
        elif path.endswith(".json"):
            found[path] = _validate_model_json(files[path], where)
    for path in sorted(large, key=lambda path: path == MANIFEST):
        head = _streamed(files, path, source, documents)
        return_freed_memory()  # a large test's parser grew 20 MB, which the manifest's rules need not stack on
        if head is None:
            found[path], documents[path] = _whole(files, path, f"{source}!{path}")
        else:
            documents[path] = head
            streamed.add(path)
    findings = [diagnostic for path in sorted(found) for diagnostic in found[path]]
    if MANIFEST in files and not any(f.code == "V101" for f in findings):
        if MANIFEST not in streamed:  # else its rules ran as it was read
            findings += _manifest_rules(documents[MANIFEST], files, source, documents)
        for module in _validators():
            if hasattr(module, "package_rules"):
                findings += module.package_rules(files, source, documents)
    if findings and (checked is not None and checked.heads or streamed):
        return validate_files(files, source=source, stream=False)
    return findings


def _size(files: Mapping[str, bytes], path: str) -> int:
    return files.size(path) if hasattr(files, "size") else len(files[path])


def _whole(files: Mapping[str, bytes], path: str, where: str):
    """The findings of a document checked whole, and what the package rules keep of it."""
    root, problems = _parse(files[path], where)
    owner = _owner(root) if root is not None else None
    findings = problems if root is None else _validate_root(root, owner, files[path], where)
    return findings, owner.head(root) if hasattr(owner, "head") else root


def _streamed(files: Mapping[str, bytes], path: str, source: str, documents: dict):
    """What the package rules keep of a large document (see the module's doc) that passes its
    schema, its format's rules and (a manifest) the package rules as it is read; None for any
    other document. `documents`: the package's other documents, each read already."""
    where = f"{source}!{path}"
    chunks = _unless_ids(files.chunks(path) if hasattr(files, "chunks") else iter((files[path],)))
    # Fed to the parser a slice at a time: a chunk held in memory is the whole file, which it
    # would build before the parts that ended are dropped (and refuse past 10 MB at once).
    chunks = (chunk[at:at + _FED] for chunk in chunks for at in range(0, len(chunk), _FED))
    read: list[bytes] = []
    root = _opening(chunks, read)
    if root is None or root.getroottree().docinfo.doctype or not _utf8(read[0]):
        return None  # a DOCTYPE's entities, or bytes `_unless_ids` cannot read: the whole check
    ways = ((module, module.streaming(root)) for module in _validators() if hasattr(module, "streaming"))
    owner, how = next(((module, how) for module, how in ways if how is not None), (None, None))
    if owner is None:
        return None
    schema, tags = how
    parser = etree.XMLPullParser(events=("end",), tag=tags, schema=load_schema(schema), resolve_entities=False,
                                 no_network=True)
    rules = _Folding(files, source, documents) if path == MANIFEST else None
    thinning = Thinning()
    try:
        for chunk in itertools.chain(read, chunks):
            parser.feed(chunk)
            for _, node in parser.read_events():
                if not owner.streamed(node, where):
                    return None
                if rules is not None:
                    thinning.take(node, keep=rules.take(node))
                else:
                    thinning.take(node, keep=not (hasattr(owner, "settled") and owner.settled(node, path, documents)))
        head = thinning.root(parser.close())
    except (etree.XMLSyntaxError, _HoldsIds):  # not well-formed, not what the schema says, or ids
        return None
    if hasattr(owner, "streamed_document") and not owner.streamed_document(head, where):
        return None
    if rules is not None and not rules.passed(head):
        return None
    owner = _owner(head)  # of a manifest, known from its resources (read to the end)
    return None if owner is None else owner.head(head) if hasattr(owner, "head") else head


class _Folding:
    """The package rules over a large manifest as it is read: each resource as it ends goes to
    `Listing` and each format's `manifest_rules`, then is let go unless a rule read later
    (`package_rules`) still needs it."""

    def __init__(self, files: Mapping[str, bytes], source: str, documents: dict):
        self._listing = Listing(files, source, streamed=True)
        self._formats = [module.manifest_rules(files, source, documents) for module in _validators()
                         if hasattr(module, "manifest_rules")]

    def take(self, node) -> bool:
        """Take a resource or a dependency that ended (the dependencies of one resource are as
        many as its test's items); whether to keep it (no format's rules took it whole)."""
        if node.tag.rpartition("}")[2] == "dependency":
            self._listing.dependency(node)
            return False
        for element in _IDENTIFIED(node):
            self._listing.identified(element)
        self._listing.resource(node)
        return not any([rules.resource(node) for rules in self._formats])

    def passed(self, head) -> bool:
        """Whether the manifest (`head`: its elements but the resources let go) has no finding."""
        for element in _outside_resources(head):
            if element.get("identifier") is not None:
                self._listing.identified(element)
        return not any(rules.findings() for rules in (self._listing, *self._formats))


def _outside_resources(element):
    """`element` (a `thin.Thin`) and its descendants, but its resources' (each taken as it ended)."""
    if element.tag.rpartition("}")[2] == "resource":
        return
    yield element
    for child in element:
        yield from _outside_resources(child)


def _opening(chunks, read: list[bytes]):
    """The document's root element as it starts (tag, namespaces, attributes), read from as
    many of `chunks` as it takes (kept in `read`); None when the document does not start so."""
    opening = etree.XMLPullParser(events=("start",), resolve_entities=False, no_network=True)
    try:
        while (root := next((node for _, node in opening.read_events()), None)) is None:
            read.append(next(chunks))
            opening.feed(read[-1])
    except (StopIteration, etree.XMLSyntaxError, _HoldsIds):
        return None
    return root


_DECLARED = re.compile(rb"<\?xml[^>]*?encoding\s*=\s*[\"']([A-Za-z0-9._-]+)")


def _utf8(start: bytes) -> bool:
    """Whether a document that starts with `start` is UTF-8 (or ASCII), in which `_unless_ids`
    can find the names it looks for: not UTF-16, nor a declared encoding of another kind."""
    start = start.removeprefix(codecs.BOM_UTF8)
    if not start.startswith(b"<"):
        return False
    declared = _DECLARED.match(start[:200])
    return declared is None or declared.group(1).lower() in (b"utf-8", b"utf8", b"us-ascii", b"ascii")


class _HoldsIds(Exception):
    """The document may hold attributes of type xs:ID (`xml:id`, MathML's `id`, APIP's
    `identifier`), which libxml2 checks for uniqueness only in a whole tree. (IMS CP's
    `identifier`s, the other ones, are the package rule V201's.)"""


_IDS = (b"xml:id=", b"http://www.w3.org/1998/Math/MathML", b"/xsd/apip/")


def _unless_ids(chunks):
    """`chunks`, or _HoldsIds when they spell an xs:ID attribute or MathML (across two chunks too)."""
    tail = b""
    for chunk in chunks:
        if any(marker in tail + chunk[:64] or marker in chunk for marker in _IDS):
            raise _HoldsIds
        tail = chunk[-64:]
        yield chunk


_IDENTIFIED = etree.XPath("descendant-or-self::*[@identifier]")


class Listing:
    """The IMS CP rules no XSD states, over a manifest a resource at a time: hrefs exist,
    nothing unlisted, identifiers unique, dependencies resolved. A whole tree gives every
    element with an identifier first, in document order, then its resources; a large manifest
    checked as it is read (`_streamed`, `streamed=True`) gives each resource and dependency
    as it ends, and the rest once read, and then keeps what the rules still need (the identifiers, the
    dependencies not yet resolved, the files not yet listed), not the elements."""

    def __init__(self, files: Mapping[str, bytes], source: str, *, streamed: bool = False):
        self._files = files
        self._where = f"{source}!{MANIFEST}"
        self._streamed = streamed
        self._seen: dict[str, int | None] = {}
        """Identifier -> the line of its first element."""
        self._pending = Remaining()
        """Streamed: the identifierrefs of dependencies that no identifier read so far is."""
        self._unlisted = Remaining(path for path in files if path != MANIFEST)
        self._findings: dict[str, list[Diagnostic]] = {"V201": [], "V202": [], "V203": []}

    def identified(self, element) -> None:
        """An element with an identifier (V201)."""
        identifier = element.get("identifier")
        # Lines kept streamed were 3 MB of 100,000 resources: a finding sends it to the whole check.
        line = None if self._streamed else element.sourceline
        if identifier in self._seen:
            first = self._seen[identifier]
            self._findings["V201"].append(finding(
                "V201", self._where, f"identifier {identifier!r} is used twice (first on line {first})", line,
                hint="give each element of the manifest an identifier of its own"))
            return
        self._seen[identifier] = line
        self._pending.discard(identifier)

    def resource(self, resource) -> None:
        """A resource: its files (V202, V204) and (a whole tree's) dependencies (V203)."""
        base = resource.get(f"{{{_XML_NS}}}base", "")
        for element in (resource, *resource.iter("{*}file")):
            href = element.get("href")
            if not href:
                continue
            path = posixpath.normpath(posixpath.join(base, href.split("#")[0].split("?")[0]))
            self._unlisted.discard(path)
            if path not in self._files:
                self._findings["V202"].append(finding(
                    "V202", self._where, f"{href!r} is listed in the manifest but not in the package",
                    element.sourceline, hint="put the file into the package, or take it out of the manifest"))
        if not self._streamed:  # else each dependency came as it ended
            for element in resource.iter("{*}dependency"):
                self.dependency(element)

    def dependency(self, element) -> None:
        """A resource's dependency (V203), which a large manifest gives as it ends."""
        ref = element.get("identifierref")
        if ref in self._seen:
            return
        if self._streamed:
            self._pending.add(ref)
        else:
            self._unresolved(ref, element.sourceline)

    def _unresolved(self, ref: str, line: int | None) -> None:
        self._findings["V203"].append(finding("V203", self._where, f"dependency {ref!r} names no resource", line,
                                              hint="make identifierref the identifier of a resource of the manifest"))

    def findings(self) -> list[Diagnostic]:
        """Every finding, rule by rule, each rule's in the order of the manifest; asked once, as
        it lets go of what it kept (before the formats' rules make their own at the end)."""
        for ref in self._pending:
            self._unresolved(ref, None)
        unlisted = [finding("V204", self._where, f"{path!r} is in the package but not listed in the manifest",
                            hint="list it in a resource's <file> entries, or leave it out")
                    for path in sorted(self._unlisted) if not path.endswith("/") and not path.endswith(".xsd")]
        self._seen, self._pending, self._unlisted = {}, Remaining(), Remaining()
        return [found for rule in self._findings.values() for found in rule] + unlisted


def _manifest_rules(root, files: Mapping[str, bytes], source: str, documents: dict) -> list[Diagnostic]:
    """The rules over a manifest's whole tree (`Listing`), then the formats' (`manifest_rules`)."""
    listing = Listing(files, source)
    for element in _IDENTIFIED(root):  # found by libxml2: a manifest has ~30 elements per item
        listing.identified(element)
    rules = [listing, *(module.manifest_rules(files, source, documents) for module in _validators()
                        if hasattr(module, "manifest_rules"))]
    for resource in root.iter("{*}resource"):
        for rule in rules:
            rule.resource(resource)
    return [found for rule in rules for found in rule.findings()]


def validate_bytes(data: bytes, *, source: str) -> list[Diagnostic]:
    """Validate a file some tool wrote: a zip package, an XML document or a model JSON."""
    if data.startswith(b"PK"):
        archive = read_zip(data, source)
        if MANIFEST not in archive.files:
            return archive.problems or [finding(
                "V105", source, f"the package has no {MANIFEST} at its root",
                hint="a content package (QTI, SCORM) must have imsmanifest.xml at the top of the zip")]
        return archive.problems + validate_files(archive.files, source=source)
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return validate_xml(data, source=source)  # the parser reads the BOM
    start = data.lstrip(b"\xef\xbb\xbf \t\r\n")
    if start.startswith(b"{"):
        return _validate_model_json(data, source)
    if not start.startswith(b"<"):
        return [
            finding("V106", source, "not a package (.zip), an XML document or an lmsexport model (.json)",
                    hint="quiz sources are checked by lmsexport build (and lint); validate checks what they produce")
        ]
    return validate_xml(data, source=source)


def _validate_model_json(data: bytes, source: str) -> list[Diagnostic]:
    from .diagnostics import SourceError
    from .formats import reader

    try:
        reader("json").read(data, source=source)
    except SourceError as exc:
        return exc.diagnostics
    return []
