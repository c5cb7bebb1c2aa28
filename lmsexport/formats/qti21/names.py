"""IMS QTI 2.1 content packages: the names the writer, the reader and `validate` agree on,
and the package rules the XSDs cannot state.

QTI 2.1 final: https://www.imsglobal.org/question/qtiv2p1/imsqti_infov2p1.html
Packaging (IMS CP 1.1.4 profile): https://www.imsglobal.org/question/qtiv2p1/imsqti_intgv2p1.html

The rules follow what importers rely on (see docs/formats/qti21.md): Canvas imports
the items its manifest lists and attaches them to the quiz by `assessmentItem/@identifier`
(canvas-lms `gems/plugins/qti_exporter/lib/qti/assessment_test_converter.rb`,
`app/models/importers/quiz_importer.rb`), so a duplicate or mismatched identifier
silently drops or overwrites a question there.
"""

from __future__ import annotations

import posixpath
import re
from typing import NamedTuple

from ...diagnostics import Diagnostic, SourceSpan
from ...package import MANIFEST
from ...xml import NS, parser

ITEM_RESOURCE = "imsqti_item_xmlv2p1"
TEST_RESOURCE = "imsqti_test_xmlv2p1"
TEST_RESOURCES = (TEST_RESOURCE, "imsqti_assessment_xmlv2p1")
"""Test resource types; the second is the older name Canvas also accepts."""
PACKAGE_SCHEMA = "QTIv2.1 Package"
"""The manifest's `<schema>`: the text that makes Canvas take its QTI 2 path (converter.rb `is_qti_2`)."""

TEMPLATES = {
    "match_correct": "http://www.imsglobal.org/question/qti_v2p1/rptemplates/match_correct",
    "map_response": "http://www.imsglobal.org/question/qti_v2p1/rptemplates/map_response",
}
"""Standard response-processing templates (QTI 2.1 info model, 5.2); exact URIs, no `.xml`."""

RESPONSE = "RESPONSE"
SCORE = "SCORE"
MAXSCORE = "MAXSCORE"
FEEDBACK = "FEEDBACK"
PASS = "PASS"
GAPS = "GAPS"
"""A fill-in item's gap credits added up (1 per gap right), before they become SCORE."""
WEIGHT = "W"
GENERAL_FEEDBACK = "general_fb"
"""Canvas files a modalFeedback whose identifier matches `general_` as neutral comments."""
CORRECT_FEEDBACK = "correct_fb"
INCORRECT_FEEDBACK = "incorrect_fb"
"""Canvas files these as the question's correct / incorrect comments (their names contain `correct`)."""
TRUE, FALSE = "true", "false"
"""The simpleChoice identifiers of a true/false item: what tells it from a two-option choice."""
MEDIA_FOLDER = "items/"
"""Images go beside the items (`items/<asset path>`), so an item refers to them by the quiz's own
path, and Canvas, which matches `src` against the end of a file's path, finds them."""
TEST_PATH = "test.xml"
TEST_PART = "part"
SECTION = "section"
"""testPart and section identifiers: without a `-`, so no `<quiz>-<question>` item id equals them."""


def item_identifier(quiz_id: str, question_id: str) -> str:
    """Unique across the quizzes of a course: Canvas keys questions on it (its migration_id)."""
    return f"{quiz_id}-{question_id}"


def item_path(question_id: str) -> str:
    return f"items/{question_id}.xml"


def response_identifier(gap_id: str) -> str:
    """The response variable of a fill-in gap."""
    return f"{RESPONSE}_{gap_id}"


def gap_choice_identifier(gap_id: str, choice_id: str) -> str:
    """A drop-down gap's choice: unique in the item, as Canvas needs (its choice ids are per gap)."""
    return f"{gap_id}_{choice_id}"


def gap_feedback_identifier(gap_id: str, position: int) -> str:
    return f"FB_{gap_id}_{position + 1}"


def choice_feedback_identifier(position: int) -> str:
    """`FB1`, `FB2`, ... by option position: never ends in `_C`/`_IC` nor contains `correct`,
    which Canvas would take for right/wrong feedback (assessment_item_converter.rb `get_feedback`)."""
    return f"FB{position + 1}"


def has_wildcard(answer: str) -> bool:
    """Whether a typed answer holds Moodle's wildcard: a `*` not escaped as `\\*`."""
    return "*" in answer.replace("\\*", "")


def literal(answer: str) -> str:
    """A typed answer without wildcard as the learner types it (`\\*` is a plain `*`)."""
    return answer.replace("\\*", "*")


def from_literal(text: str) -> str:
    """The model's answer for a literal string (a `*` in it escaped)."""
    return text.replace("*", "\\*")


_PATTERN_ESCAPES = set("\\|.?*+(){}-[]^")
"""Characters XML Schema regular expressions escape (XML Schema 2, F.1.1 SingleCharEsc)."""


def wildcard_pattern(answer: str, case_sensitive: bool) -> str:
    """A typed answer with wildcards as a `patternMatch` pattern (an XML Schema regular
    expression, which matches the whole response): `*` = `.*`, letters as `[aA]` when case
    does not matter. `from_pattern` reads it back."""
    out, position = [], 0
    while position < len(answer):
        char = answer[position]
        if answer.startswith("\\*", position):
            out.append("\\*")
            position += 2
            continue
        if char == "*":
            out.append(".*")
        elif not case_sensitive and char.lower() != char.upper() and len(char.upper()) == 1:
            out.append(f"[{char}{char.swapcase()}]")
        elif char == "$":
            out.append("[$]")  # a plain character in XML Schema, the end of the text in JavaScript
        else:
            out.append("\\" + char if char in _PATTERN_ESCAPES else char)
        position += 1
    return "".join(out)


_PATTERN_PART = re.compile(r"\\\*|\.\*|\[\$\]|\[(.)(.)\]|\\(.)|(.)", re.DOTALL)


def from_pattern(pattern: str) -> str | None:
    """The answer `wildcard_pattern` made `pattern` from, or None for any other pattern."""
    out = []
    for match in _PATTERN_PART.finditer(pattern):
        whole, first, second, escaped, char = match.group(0, 1, 2, 3, 4)
        if whole in ("\\*", ".*", "[$]"):
            out.append({".*": "*", "[$]": "$"}.get(whole, whole))
        elif first is not None and first.swapcase() == second:
            out.append(first)
        elif escaped is not None and escaped in _PATTERN_ESCAPES:
            out.append(escaped)
        elif char is not None and char not in _PATTERN_ESCAPES:
            out.append(char)
        else:
            return None
    return "".join(out)


def is_qti(tag: object, local: str) -> bool:
    """True for the QTI 2.1 element `local` (`is_qti(root.tag, "assessmentItem")`)."""
    return tag == f"{{{NS['qti']}}}{local}"


def _finding(code: str, source: str, message: str, line: int | None = 0, hint: str = "") -> Diagnostic:
    return Diagnostic(code, message, SourceSpan(source, line or 0), hint)


def _parse(content: bytes):
    from lxml import etree

    try:
        return etree.fromstring(content, parser())
    except etree.XMLSyntaxError:
        return None  # reported by the schema check (V101)


def _resolve(base_path: str, href: str) -> str:
    """A package path for `href` written in the file at `base_path` (relative URLs, RFC 3986)."""
    return posixpath.normpath(posixpath.join(posixpath.dirname(base_path), href.split("#")[0]))


class _Resource(NamedTuple):
    """A QTI resource of the manifest: the file it names, its type, its line in the manifest."""

    path: str
    kind: str
    line: int


class DocumentHead(NamedTuple):
    """An item's root element reduced to what the package rules read (tag, identifier,
    line), so that validating a 10,000-item package does not keep 10,000 trees alive."""

    tag: str
    attrib: dict
    sourceline: int | None

    def get(self, key: str, default=None):
        return self.attrib.get(key, default)


def document_head(root):
    """What the package rules keep of a parsed document: an item's head, any other whole."""
    if root is not None and is_qti(root.tag, "assessmentItem"):
        return DocumentHead(root.tag, dict(root.attrib), root.sourceline)
    return root


def package_rules(files: dict[str, bytes], source: str, documents: dict | None = None) -> list[Diagnostic]:
    """The QTI rules over a whole package; [] when the manifest lists no QTI resource.

    `documents` maps each XML path to its parsed root (or `document_head()`, None when
    not well-formed), when the caller has parsed them already; else they are parsed here."""
    if documents is None:
        documents = {path: _parse(files[path]) for path in files if path.endswith(".xml")}
    manifest = documents.get(MANIFEST)
    if manifest is None:
        return []
    resources = [
        _Resource(_resolve(MANIFEST, node.get("href")), node.get("type", ""), node.sourceline or 0)
        for node in manifest.iter("{*}resource")
        if node.get("type", "").startswith(("imsqti_item_xmlv2p", "imsqti_test_xmlv2p", "imsqti_assessment_xmlv2p"))
        and node.get("href")
    ]
    if not resources:
        return []
    documents = {path: documents[path] for path in sorted(documents) if path != MANIFEST}
    items = {path: root for path, root in documents.items() if root is not None and is_qti(root.tag, "assessmentItem")}
    findings = _listing_rules(items, documents, resources, source)
    findings += _unique_items(items, source)
    for resource in resources:
        test = documents.get(resource.path)
        if resource.kind in TEST_RESOURCES and test is not None and is_qti(test.tag, "assessmentTest"):
            findings += _reference_rules(resource.path, test, items, set(files), source)
    return findings


def _listing_rules(items: dict, documents: dict, resources: list[_Resource], source: str) -> list[Diagnostic]:
    """Every item is an item resource, and every QTI resource is the document its type says."""
    findings = []
    listed = {resource.path for resource in resources if resource.kind.startswith("imsqti_item_xmlv2p")}
    for path in sorted(set(items) - listed):
        findings.append(_finding(
            "V401", f"{source}!{path}", f"the item {items[path].get('identifier')!r} is not an "
            f"{ITEM_RESOURCE} resource of the manifest", items[path].sourceline,
            "Canvas imports only the items the manifest lists as item resources: add a <resource> for it",
        ))
    for resource in resources:
        root = documents.get(resource.path)
        expected = "assessmentItem" if resource.kind.startswith("imsqti_item") else "assessmentTest"
        if root is not None and not is_qti(root.tag, expected):
            findings.append(_finding(
                "V402", f"{source}!{MANIFEST}", f"the {resource.kind} resource {resource.path!r} is not a QTI "
                f"{expected}", resource.line,
            ))
    return findings


def _unique_items(items: dict, source: str) -> list[Diagnostic]:
    findings, first = [], {}
    for path, root in sorted(items.items()):
        identifier = root.get("identifier")
        if identifier in first:
            findings.append(_finding(
                "V403", f"{source}!{path}", f"item identifier {identifier!r} is also the identifier of "
                f"{first[identifier]}", root.sourceline,
                "give every item its own identifier: importers such as Canvas keep only one of them",
            ))
        first.setdefault(identifier, path)
    return findings


def _reference_rules(test_path: str, test, items: dict, present: set[str], source: str) -> list[Diagnostic]:
    """Every assessmentItemRef names an item of the package, by href and by identifier."""
    findings = []
    where = f"{source}!{test_path}"
    for ref in test.iter(f"{{{NS['qti']}}}assessmentItemRef"):
        identifier, href = ref.get("identifier"), ref.get("href", "")
        path = _resolve(test_path, href)
        if path not in items:
            problem = "is not an assessmentItem" if path in present else "is not in the package"
            findings.append(_finding("V404", where, f"assessmentItemRef {identifier!r} points at {href!r}, which "
                                     f"{problem}", ref.sourceline))
        elif items[path].get("identifier") != identifier:
            findings.append(_finding(
                "V405", where, f"assessmentItemRef {identifier!r} points at {href!r}, whose item identifier is "
                f"{items[path].get('identifier')!r}", ref.sourceline,
                "use the item's own identifier: Canvas attaches items to the quiz by identifier and drops the others",
            ))
    return findings

