"""IMS QTI 2.1 in `lmsexport validate`: which documents are QTI's, their schema, and the
package rules the XSDs cannot state.

The rules follow what importers rely on (see docs/formats/qti21.md): Canvas imports
the items its manifest lists and attaches them to the quiz by `assessmentItem/@identifier`
(canvas-lms `gems/plugins/qti_exporter/lib/qti/assessment_test_converter.rb`,
`app/models/importers/quiz_importer.rb`), so a duplicate or mismatched identifier
silently drops or overwrites a question there.
"""

from __future__ import annotations

import posixpath
from collections.abc import Mapping
from typing import NamedTuple

from ...diagnostics import Diagnostic
from ...package import MANIFEST
from ...schemas import finding, load_schema, schema_findings
from ...thin import Remaining
from ...xml import NS, parser
from .names import ITEM_RESOURCE, TEST_RESOURCES, is_qti

_CP = "{http://www.imsglobal.org/xsd/imscp_v1p1}manifest"
_ADLCP = "http://www.adlnet.org/xsd/adlcp_v1p3"
_MATHML = b"http://www.w3.org/1998/Math/MathML"


def owns(root) -> bool:
    """A QTI 2.1 document, or an IMS CP 1.1 manifest that is not SCORM's nor QTI 1.2's."""
    if isinstance(root.tag, str) and root.tag.startswith(f"{{{NS['qti']}}}"):
        return True
    if root.tag != _CP or _ADLCP in root.nsmap.values():
        return False
    return not any(node.get("type", "").startswith("imsqti_xmlv1p") for node in root.iter("{*}resource"))


def check(root, content: bytes, *, source: str) -> list[Diagnostic]:
    """The document against QTI 2.1 (MathML 2 compiled only for documents that hold MathML) or,
    for a manifest, the QTI package profile of IMS CP."""
    if root.tag == _CP:
        name = "qti21_manifest"
    else:
        name = "qti21" if _MATHML in content else "qti21_nomath"
    return schema_findings(load_schema(name), root, source)


def streaming(root):
    """For a large test or manifest (`root` as it starts: validation.py): the schema it is read
    with, and the elements `streamed()` is told of as they end. A manifest without SCORM's
    namespace may turn out to be Canvas's (QTI 1.2 resources), whose check is the same schema.
    A document with MathML is checked whole (validation.py), so the stub stands for it here."""
    if is_qti(root.tag, "assessmentTest"):
        return "qti21_nomath", (f"{{{NS['qti']}}}assessmentItemRef",)
    if root.tag == _CP and _ADLCP not in root.nsmap.values():
        return "qti21_manifest", ("{*}resource", "{*}dependency")
    return None


def streamed(node, source: str) -> bool:
    """QTI 2.1 states no rule past its schema in one document; what the package rules do not
    read is dropped as each part ends: an item reference's weight, a resource's metadata."""
    for child in list(node):
        if child.tag in _UNREAD:
            node.remove(child)
    return True


def settled(node, path: str, documents: dict) -> bool:
    """Whether the package rules have nothing left to check in a part of a large test (`node`,
    at `path`) the package's items (in `documents`, each read already) answer: an item
    reference that names its item by href and identifier is let go; any other is kept for the
    rules (`_reference_rules`)."""
    if not is_qti(node.tag, "assessmentItemRef"):
        return False
    item = documents.get(_resolve(path, node.get("href", "")))
    return _is_item(item) and item.get("identifier") == node.get("identifier")


_UNREAD = (f"{{{NS['qti']}}}weight", "{http://www.imsglobal.org/xsd/imscp_v1p1}metadata")


def _parse(content: bytes):
    from lxml import etree

    try:
        return etree.fromstring(content, parser())
    except etree.XMLSyntaxError:
        return None  # reported by the schema check (V101)


def _resolve(base_path: str, href: str) -> str:
    """A package path for `href` written in the file at `base_path` (relative URLs, RFC 3986)."""
    return posixpath.normpath(posixpath.join(posixpath.dirname(base_path), href.split("#")[0]))


class DocumentHead(NamedTuple):
    """An item's root element reduced to what the package rules read (tag, identifier,
    line), so that validating a 10,000-item package does not keep 10,000 trees alive (nor
    each item's title and schema location: 0.5 kB an item)."""

    tag: str
    identifier: str | None
    sourceline: int | None

    def get(self, key: str, default=None):
        return self.identifier if key == "identifier" and self.identifier is not None else default


def head(root):
    """What the package rules keep of a parsed document: an item's head, any other whole."""
    if root is not None and is_qti(root.tag, "assessmentItem"):
        return DocumentHead(_ITEM, root.get("identifier"), root.sourceline)
    return root


_ITEM = f"{{{NS['qti']}}}assessmentItem"


_QTI_RESOURCES = ("imsqti_item_xmlv2p", "imsqti_test_xmlv2p", "imsqti_assessment_xmlv2p")


def manifest_rules(files: Mapping[str, bytes], source: str, documents: dict) -> Resources:
    """The QTI rules over a package, told the manifest's resources one at a time (validation.py)."""
    return Resources(files, source, documents)


class Resources:
    """The QTI rules over a package, from its manifest's resources: every item is an item
    resource, every QTI resource the document its type says, item identifiers unique, and
    every test's references right; no finding when the manifest lists no QTI resource.

    `documents` maps each XML path but the manifest's to its root (or its `head()`, None when
    not well-formed): every one is read before the manifest's resources come, so that each is
    checked as it comes, and a large manifest's can be let go (`resource()` says which)."""

    def __init__(self, files: Mapping[str, bytes], source: str, documents: dict):
        self._files, self._source = files, source
        self._documents = documents
        self._unlisted = Remaining(path for path, root in documents.items() if _is_item(root))
        self._unique = _unique_items(documents, source)
        """V403, found before the manifest's resources come: its 100,000 identifiers do not stack on theirs."""
        """Items no item resource has named yet (V401)."""
        self._kinds: list[Diagnostic] = []
        """V402, in the order of the resources."""
        self._tests: list[str] = []
        self._qti = False

    def resource(self, node) -> bool:
        """Check a resource of the manifest; whether it is QTI 2.1's, which no other rule reads."""
        kind, href = node.get("type", ""), node.get("href")
        if not kind.startswith(_QTI_RESOURCES) or not href:
            return False
        self._qti = True
        path = _resolve(MANIFEST, href)
        if kind.startswith("imsqti_item_xmlv2p"):
            self._unlisted.discard(path)
        root = self._documents.get(path) if path != MANIFEST else None
        expected = "assessmentItem" if kind.startswith("imsqti_item") else "assessmentTest"
        if root is not None and not is_qti(root.tag, expected):
            self._kinds.append(finding(
                "V402", f"{self._source}!{MANIFEST}", f"the {kind} resource {path!r} is not a QTI {expected}",
                node.sourceline or 0, hint=f"list it with the type of what it is, or point the resource at a QTI 2.1 "
                f"{expected}"))
        elif kind in TEST_RESOURCES and root is not None:
            self._tests.append(path)
        return True

    def findings(self) -> list[Diagnostic]:
        if not self._qti:
            return []
        documents = self._documents
        findings = [finding(
            "V401", f"{self._source}!{path}", f"the item {documents[path].get('identifier')!r} is not an "
            f"{ITEM_RESOURCE} resource of the manifest", documents[path].sourceline,
            hint="Canvas imports only the items the manifest lists as item resources: add a <resource> for it",
        ) for path in sorted(self._unlisted)]
        findings += self._kinds
        findings += self._unique
        for path in self._tests:
            findings += _reference_rules(path, documents[path], documents, self._files, self._source)
        return findings


def _is_item(root) -> bool:
    return root is not None and is_qti(root.tag, "assessmentItem")


def _unique_items(documents: dict, source: str) -> list[Diagnostic]:
    findings, first = [], {}
    for path in sorted(path for path, root in documents.items() if _is_item(root)):
        root = documents[path]
        identifier = root.get("identifier")
        if identifier in first:
            findings.append(finding(
                "V403", f"{source}!{path}", f"item identifier {identifier!r} is also the identifier of "
                f"{first[identifier]}", root.sourceline,
                hint="give every item its own identifier: importers such as Canvas keep only one of them",
            ))
        first.setdefault(identifier, path)
    return findings


def _reference_rules(test_path: str, test, documents: dict, present: Mapping, source: str) -> list[Diagnostic]:
    """Every assessmentItemRef names an item of the package, by href and by identifier."""
    findings = []
    where = f"{source}!{test_path}"
    for ref in test.iter(f"{{{NS['qti']}}}assessmentItemRef"):
        identifier, href = ref.get("identifier"), ref.get("href", "")
        path = _resolve(test_path, href)
        item = documents.get(path)
        if not _is_item(item):
            problem = "is not an assessmentItem" if path in present else "is not in the package"
            findings.append(finding("V404", where, f"assessmentItemRef {identifier!r} points at {href!r}, which "
                                     f"{problem}", ref.sourceline,
                                    hint="point the href at the item's file in the package (relative to the test)"))
        elif item.get("identifier") != identifier:
            findings.append(finding(
                "V405", where, f"assessmentItemRef {identifier!r} points at {href!r}, whose item identifier is "
                f"{item.get('identifier')!r}", ref.sourceline,
                hint="use the item's own identifier: Canvas attaches items to the quiz by identifier and drops the others",
            ))
    return findings

