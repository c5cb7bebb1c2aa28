"""Offline validation against the official schemas, plus the package rules they cannot say.

Schemas come from the `schemas/` folder shipped inside the package (the repository's
top-level folder in a development checkout). Remote `schemaLocation`s inside the
official files are mapped to local copies through `schemas/catalog.json`; anything
unmapped is refused, never fetched. Each schema is compiled once per process with
lxml (the fast validator: ~100x xmlschema) and cached. A failed import is an error,
not the silently smaller schema libxml2 would otherwise build.

Findings are Diagnostics whose source reads `package.zip!items/q3.xml`, so a
message points into the archive the way a course designer can follow.
"""

from __future__ import annotations

import functools
import importlib
import io
import json
import posixpath
import zipfile
from pathlib import Path

from lxml import etree

from .diagnostics import Diagnostic, SourceSpan
from .package import MANIFEST
from .xml import parser

NS_QTI = "http://www.imsglobal.org/xsd/imsqti_v2p1"
NS_CP = "http://www.imsglobal.org/xsd/imscp_v1p1"
NS_CP12 = "http://www.imsproject.org/xsd/imscp_rootv1p1p2"
NS_ADLCP13 = "http://www.adlnet.org/xsd/adlcp_v1p3"
_XML_NS = "http://www.w3.org/XML/1998/namespace"

SCHEMA_FILES = {
    "qti21": "qti21/imsqti_v2p1.xsd",
    "qti21_nomath": "qti21/imsqti_v2p1.xsd",
    "qti21_manifest": "wrappers/qti21_package.xsd",
    "scorm12_manifest": "wrappers/scorm12_manifest.xsd",
    "scorm2004_manifest": "wrappers/scorm2004_manifest.xsd",
    "moodle": "moodle/moodle-xml.xsd",
    "qti12": "qti12/domainProfile_4/ims_qtiasiv1p2.xsd",
}
"""Schema name -> file under schemas/; the wrappers import several official files."""

_STAND_INS = {"qti21_nomath": {"http://www.w3.org/Math/XMLSchema/mathml2/": "wrappers/mathml_stub.xsd"}}
"""Per schema name: remote URL prefixes mapped to a stand-in instead of the catalog's file.
QTI documents with no MathML element validate the same against a stub MathML schema, and
compiling it instead of MathML 2 (most of the QTI schema's 0.35 s) keeps builds fast."""
MATHML = b"http://www.w3.org/1998/Math/MathML"


class SchemaError(RuntimeError):
    """A shipped schema could not be loaded completely: a broken installation."""


def schema_dir() -> Path:
    """Where the schemas are: inside the installed package, or the checkout's top level."""
    here = Path(__file__).resolve().parent
    installed = here / "schemas"
    return installed if installed.is_dir() else here.parent / "schemas"


def _resolver_class():
    root = schema_dir()
    catalog = json.loads((root / "catalog.json").read_text(encoding="utf-8"))

    class CatalogResolver(etree.Resolver):
        """Remote schema URLs -> shipped files; any other remote URL is refused."""

        def __init__(self, stand_ins: dict[str, str]):
            super().__init__()
            self.stand_ins = stand_ins

        def resolve(self, url, pubid, context):
            target = next((file for prefix, file in self.stand_ins.items() if url.startswith(prefix)), None)
            target = target or catalog["files"].get(url)
            for prefix, folder in catalog["prefixes"].items():
                if target is None and url.startswith(prefix):
                    target = f"{folder}/{url[len(prefix):]}"
            if target:
                return self.resolve_filename(str(root / target), context)
            if url.startswith(("http:", "https:", "ftp:")):
                raise SchemaError(f"a schema asks for {url}, which is not shipped; refusing the network")
            return None

    return CatalogResolver


@functools.cache
def load_schema(name: str):
    """The compiled lxml schema `name` (see SCHEMA_FILES), built once per process."""
    path = schema_dir() / SCHEMA_FILES[name]
    parser = etree.XMLParser(no_network=True, resolve_entities=False)
    parser.resolvers.add(_resolver_class()(_STAND_INS.get(name, {})))
    try:
        schema = etree.XMLSchema(etree.parse(str(path), parser))
    except (OSError, etree.XMLSchemaParseError, etree.XMLSyntaxError) as exc:
        raise SchemaError(f"cannot load schema {path}: {exc}") from exc
    for entry in schema.error_log:
        # Importing the xml: namespace a second time is skipped harmlessly (two official
        # files import two revisions of xml.xsd); any other problem means a partial schema.
        if not (entry.type_name == "SCHEMAP_WARN_SKIP_SCHEMA" and _XML_NS in entry.message):
            raise SchemaError(f"schema {path} loaded incompletely: {entry.message}")
    return schema


def _format_rules(name: str):
    """The rules module of a format (`formats/<name>/validation.py`), found at run time by name,
    so that this shared layer names no format's module."""
    return importlib.import_module(f"{__package__}.formats.{name}.validation")


def _schema_for(root) -> str | None:
    """Which schema a document's root element asks for."""
    tag = root.tag if isinstance(root.tag, str) else ""
    namespace, _, local = tag[1:].partition("}") if tag.startswith("{") else ("", "", tag)
    if namespace == NS_QTI:
        return "qti21"
    if namespace == NS_CP and local == "manifest":
        uses_adlcp = any(NS_ADLCP13 == ns for ns in root.nsmap.values())
        return "scorm2004_manifest" if uses_adlcp else "qti21_manifest"
    if namespace == NS_CP12 and local == "manifest":
        return "scorm12_manifest"
    if namespace == "" and local in ("quiz", "question"):
        return "moodle"  # a bare <question> is a Moodle fragment: moodlerules says why it fails
    return None


def _finding(source: str, message: str, code: str, line: int = 0, column: int = 0, hint: str = ""):
    return Diagnostic(code, message, SourceSpan(source, line, column), hint)


def validate_xml(content: bytes, *, source: str) -> list[Diagnostic]:
    """Check one XML document against the schema its root element names.

    A Moodle bank is checked question by question (moodlevalidation), so that a large one
    never becomes one tree; anything else, or a bank of unusual shape, is parsed whole."""
    from .formats.moodle.validate import validate_stream

    findings = validate_stream(content, source=source)
    if findings is not None:
        return findings
    root, findings = _parse(content, source)
    return findings if root is None else _validate_root(root, content, source)


def _parse(content: bytes, source: str):
    """The document's root and no findings, or None and why it is not well-formed."""
    try:
        return etree.fromstring(content, parser()), []
    except etree.XMLSyntaxError as exc:
        line, column = exc.position
        return None, [_finding(source, f"not well-formed XML: {exc.msg}", "V101", line, column)]


def _validate_root(root, content: bytes, source: str) -> list[Diagnostic]:
    """Check a parsed document against the schema its root element names."""
    name = _schema_for(root)
    if name is None and _format_rules("qti12").knows(root):
        return _format_rules("qti12").check(root, source=source)
    if name is None:
        return [
            _finding(
                source,
                f"unknown kind of XML document (root element {root.tag})",
                "V102",
                root.sourceline or 0,
                hint="lmsexport validates QTI 2.1, QTI 1.2 (Canvas), IMS CP / SCORM manifests and Moodle XML",
            )
        ]
    if name == "moodle":
        from .formats.moodle.validate import validate as validate_moodle

        return validate_moodle(root, source=source)
    if name == "qti21" and MATHML not in content:
        name = "qti21_nomath"
    return schema_findings(load_schema(name), root, source)


def schema_findings(schema, root, source: str) -> list[Diagnostic]:
    """What `schema` finds wrong in the tree under `root`: a V103 finding per error."""
    if schema.validate(root):
        return []
    return [_finding(source, entry.message, "V103", entry.line, entry.column) for entry in schema.error_log]


def validate_files(files: dict[str, bytes], *, source: str) -> list[Diagnostic]:
    """Validate every XML file of a package and the content-package rules between them.

    A content package's XML files are parsed once: the schema check and the package rules
    share the tree, of which only an item's head is kept (see qti21.document_head) to bound
    memory. A file on its own, such as a Moodle bank, is checked as validate_xml() checks it."""
    from .formats.qti21.names import document_head, package_rules

    findings: list[Diagnostic] = []
    documents: dict = {}
    for path in sorted(files):
        where = f"{source}!{path}" if len(files) > 1 or path == MANIFEST else source
        if path.endswith(".xml") and MANIFEST not in files:
            findings += validate_xml(files[path], source=where)
        elif path.endswith(".xml"):
            root, problems = _parse(files[path], where)
            findings += problems if root is None else _validate_root(root, files[path], where)
            documents[path] = document_head(root)
        elif path.endswith(".json"):
            findings += _validate_model_json(files[path], where)
    if MANIFEST in files and not any(f.code == "V101" for f in findings):
        findings += _manifest_rules(documents[MANIFEST], files, source)
        findings += package_rules(files, source, documents)
        findings += _format_rules("qti12").package_rules(files, source, documents)
    return findings


_IDENTIFIED = etree.XPath("descendant-or-self::*[@identifier]")


def _manifest_rules(root, files: dict[str, bytes], source: str) -> list[Diagnostic]:
    """IMS CP rules no XSD states: hrefs exist, nothing unlisted, identifiers unique."""
    where = f"{source}!{MANIFEST}"
    findings = []
    seen: dict[str, int] = {}
    for element in _IDENTIFIED(root):  # found by libxml2: a manifest has ~30 elements per item
        identifier = element.get("identifier")
        if identifier in seen:
            findings.append(
                _finding(where, f"identifier {identifier!r} is used twice (first on line {seen[identifier]})",
                         "V201", element.sourceline)
            )
        seen.setdefault(identifier, element.sourceline)
    listed = set()
    for resource in root.iter("{*}resource"):
        base = resource.get(f"{{{_XML_NS}}}base", "")
        for element in (resource, *resource.iter("{*}file")):
            href = element.get("href")
            if not href:
                continue
            path = posixpath.normpath(posixpath.join(base, href.split("#")[0].split("?")[0]))
            listed.add(path)
            if path not in files:
                findings.append(_finding(where, f"{href!r} is listed in the manifest but not in the package",
                                         "V202", element.sourceline))
    for element in root.iter("{*}dependency"):
        ref = element.get("identifierref")
        if ref not in seen:
            findings.append(_finding(where, f"dependency {ref!r} names no resource", "V203", element.sourceline))
    for path in sorted(set(files) - listed - {MANIFEST}):
        if not path.endswith("/") and not path.endswith(".xsd"):
            findings.append(_finding(where, f"{path!r} is in the package but not listed in the manifest",
                                     "V204", hint="list it in a resource's <file> entries, or leave it out"))
    return findings


def validate_bytes(data: bytes, *, source: str) -> list[Diagnostic]:
    """Validate a file some tool wrote: a zip package, an XML document or a model JSON."""
    if data.startswith(b"PK"):
        try:
            with zipfile.ZipFile(io.BytesIO(data)) as archive:
                files = {name: archive.read(name) for name in archive.namelist() if not name.endswith("/")}
        except (zipfile.BadZipFile, OSError) as exc:
            return [_finding(source, f"not a readable zip file: {exc}", "V104")]
        if MANIFEST not in files:
            return [_finding(source, f"the package has no {MANIFEST} at its root", "V105",
                             hint="a content package (QTI, SCORM) must have imsmanifest.xml at the top of the zip")]
        return validate_files(files, source=source)
    start = data.lstrip(b"\xef\xbb\xbf \t\r\n")
    if start.startswith(b"{"):
        return _validate_model_json(data, source)
    if not start.startswith(b"<"):
        return [
            _finding(
                source,
                "not a package (.zip), an XML document or an lmsexport model (.json)",
                "V106",
                hint="quiz sources are checked by lmsexport build (and lint); validate checks what they produce",
            )
        ]
    return validate_xml(data, source=source)


def _validate_model_json(data: bytes, source: str) -> list[Diagnostic]:
    from .diagnostics import SourceError
    from .formats.json import reader as json_reader

    try:
        json_reader.read(data, source=source)
    except SourceError as exc:
        return exc.diagnostics
    return []
