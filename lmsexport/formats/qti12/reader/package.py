"""Where the QTI 1.2 documents of a package are: Canvas's quiz export, its course export, others.

IMS CP 1.1.4 (https://www.imsglobal.org/content/packaging/) as Canvas writes it (canvas-lms
`lib/cc/qti/qti_manifest.rb`, `lib/cc/cc_exporter.rb`). Part of the QTI 1.2 reader:

- a quiz export lists each quiz as an `imsqti_xmlv1p2` resource (`<id>/<id>.xml`), its settings
  `<id>/assessment_meta.xml` as a dependency;
- a course export (`.imscc`) lists `imsqti_xmlv1p2/imscc_xmlv1p1/assessment` resources
  (`<id>/assessment_qti.xml`, the Common Cartridge profile of QTI, which drops what the profile
  lacks) and keeps Canvas's own QTI beside them in `non_cc_assessments/<id>.xml.qti`, read
  instead; the question banks are `non_cc_assessments/<id>.xml.qti` files holding an `objectbank`;
- a zip without a manifest is read for every QTI 1.2 document in it.
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass

from .. import names
from ....diagnostics import Diagnostic, SourceError, SourceSpan
from ....package import MANIFEST
from ....xml import local_name

NON_CC = "non_cc_assessments/"


@dataclass
class Document:
    """One QTI 1.2 document: its path in the package ('' for a file on its own), its root, and the
    root of its Canvas settings (assessment_meta.xml) if it has any."""

    path: str
    root: object
    meta: object = None

    def holders(self, tag: str) -> list:
        return [node for node in self.root if local_name(node) == tag]


def parse(content: bytes, source: str):
    """A document from the package as an lxml tree, with the hardened parser; SourceError if it
    is not well-formed or uses entities (which lmsexport never expands)."""
    from ....xml import untrusted_document

    return untrusted_document(content, source, ("E821", "E822"), "export the quiz again; the file is damaged")


def documents(files: dict[str, bytes], source: str) -> tuple[list[Document], list[Document]]:
    """The package's assessments (in the manifest's order) and question banks."""
    assessments = []
    if MANIFEST in files:
        assessments = _listed(parse(files[MANIFEST], f"{source}!{MANIFEST}"), files, source)
    if not assessments:
        assessments = [Document(path, root, _beside(path, files, source)) for path, root in _all_qti(files, source)]
    used = {document.path for document in assessments}
    banks = [Document(path, root) for path, root in _all_qti(files, source, NON_CC) if path not in used]
    banks = [document for document in banks if document.holders("objectbank")]
    assessments = [document for document in assessments if document.holders("assessment")] or [
        document for document in assessments if document.holders("objectbank")]
    if not assessments and not banks:
        raise SourceError([Diagnostic("E824", "the package holds no QTI 1.2 assessment or question bank",
                                      SourceSpan(f"{source}!{MANIFEST}" if MANIFEST in files else source),
                                      "export the quiz from Canvas (Settings > Export Course Content > Quiz) and "
                                      "read that zip")])
    return assessments, banks


def _listed(manifest, files: dict[str, bytes], source: str) -> list[Document]:
    """The manifest's QTI 1.2 assessments, each with its settings; a missing file is an error."""
    resources = {node.get("identifier", ""): node for node in manifest.iter("{*}resource")}
    found, problems = [], []
    for ident, resource in resources.items():
        if not resource.get("type", "").startswith(names.ASSESSMENT_RESOURCE):
            continue
        path = _href(resource)
        full = f"{NON_CC}{ident}.xml.qti"
        path = full if full in files else path
        if path is None or path not in files:
            problems.append(Diagnostic("E825", f"the assessment {path or ident!r} is listed in the manifest but not "
                                       "in the package", SourceSpan(f"{source}!{MANIFEST}", resource.sourceline or 0),
                                       "export the quiz again: the zip is incomplete"))
            continue
        meta = _meta(resource, resources, files, path)
        found.append(Document(path, parse(files[path], f"{source}!{path}"),
                              None if meta is None else parse(files[meta], f"{source}!{meta}")))
    if problems:
        raise SourceError(problems)
    return found


def _href(resource) -> str | None:
    file = next((node for node in resource.iter("{*}file") if node.get("href")), None)
    href = file.get("href") if file is not None else resource.get("href")
    return posixpath.normpath(href) if href else None


def _meta(resource, resources: dict, files: dict[str, bytes], path: str) -> str | None:
    """The settings of an assessment: the assessment_meta.xml its dependencies list, else beside it."""
    for dependency in resource.iter("{*}dependency"):
        listed = resources.get(dependency.get("identifierref", ""))
        for node in [] if listed is None else listed.iter("{*}file"):
            href = posixpath.normpath(node.get("href", "."))
            if href.endswith(names.META_FILE) and href in files:
                return href
    beside = posixpath.join(posixpath.dirname(path), names.META_FILE)
    folder = f"{resource.get('identifier', '')}/{names.META_FILE}"
    return next((candidate for candidate in (beside, folder) if candidate in files), None)


def _beside(path: str, files: dict[str, bytes], source: str):
    """The settings beside an assessment found without a manifest, if there are any."""
    beside = posixpath.join(posixpath.dirname(path), names.META_FILE)
    return parse(files[beside], f"{source}!{beside}") if beside in files and beside != path else None


def _all_qti(files: dict[str, bytes], source: str, folder: str = "") -> list[tuple[str, object]]:
    """Every QTI 1.2 document (`questestinterop`) of the package under `folder`, by path."""
    found = []
    for path in sorted(files):
        if path.startswith(folder) and path.endswith((".xml", ".qti")) and b"questestinterop" in files[path][:4096]:
            root = parse(files[path], f"{source}!{path}")
            if local_name(root) == "questestinterop":
                found.append((path, root))
    return found
