"""The shipped schemas: where they are, how their imports resolve offline, compiled once.

The lowest validation layer, below the formats. Schemas come from the `schemas/` folder
shipped inside the package (the repository's top-level folder in a development checkout).
Remote `schemaLocation`s inside the official files are mapped to local copies through
`schemas/catalog.json`; anything unmapped is refused, never fetched. Each schema is compiled
once per process with lxml (the fast validator: ~100x xmlschema) and cached. A failed import
is an error, not the silently smaller schema libxml2 would otherwise build. `finding()` is
the one way a validation finding is made, so every one reads the same.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path

from lxml import etree

from .diagnostics import Diagnostic, SourceSpan

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


def finding(code: str, source: str, message: str, line: int | None = 0, column: int | None = 0,
            hint: str = "") -> Diagnostic:
    """A validation finding at `source` (`package.zip!items/q3.xml`), line and column if known."""
    return Diagnostic(code, message, SourceSpan(source, line or 0, column or 0), hint)


_SCHEMA_HINT = "the file does not follow its official schema there: correct it, or the tool that wrote it"


def schema_findings(schema, root, source: str) -> list[Diagnostic]:
    """What `schema` finds wrong in the tree under `root`: a V103 finding per error."""
    if schema.validate(root):
        return []
    return [finding("V103", source, entry.message, entry.line, entry.column, _SCHEMA_HINT) for entry in schema.error_log]
