"""IMS QTI 1.2 packages and files, as Canvas exports and imports them (docs/formats/canvas.md).

IMS QTI ASI 1.2.1: https://www.imsglobal.org/question/qtiv1p2/imsqti_asi_infov1p2.html. Canvas's
flavour adds its own item metadata and `assessment_meta.xml` (canvas-lms `lib/cc/qti/`, read back by
`gems/plugins/qti_exporter`). `names` is the vocabulary the reader, the writer and `validation`
share; `reader/` reads Canvas's quiz and course exports (and QTI 1.2 items of the same structure
from other tools), `writer/` writes a package in a flavour (Canvas's, for now), `validation` holds
the rules no XSD states."""

from __future__ import annotations


from ...package import Flavour
from ...sniffing import Pattern, xml_root, zip_manifest, zip_names

NAME = "qti12"
DESCRIPTION = "IMS QTI 1.2 package or file (Canvas flavour)"
EXTENSIONS = (".zip", ".imscc", ".xml", ".qti")
"""A quiz or course export (`.zip`, Canvas's course export `.imscc`), a bare assessment or
question bank (`.xml`, Canvas's `<id>.xml.qti`, whose suffix is `.qti`)."""
FLAVOURS = (
    Flavour("canvas", "Canvas QTI 1.2 package (.canvas.zip) for Canvas classic quizzes and New Quizzes", "canvas"),
)

_ASSESSMENT = Pattern(rb"""type\s*=\s*["']imsqti_xmlv1p2""")
"""A manifest resource of a QTI 1.2 assessment: Canvas's quiz export (`imsqti_xmlv1p2`) and its
course export (`imsqti_xmlv1p2/imscc_xmlv1p1/assessment`)."""


def sniff(data: bytes) -> float:
    """A zip whose manifest lists QTI 1.2 assessments or that holds Canvas's `assessment_meta.xml`
    or `non_cc_assessments/`; an XML document whose root is `questestinterop`."""
    manifest = zip_manifest(data)
    if manifest is not None and _ASSESSMENT.search(manifest):
        return 1.0
    names = zip_names(data)
    if names is not None:
        canvas = any(name.endswith("/assessment_meta.xml") or name.startswith("non_cc_assessments/") for name in names)
        return 0.9 if canvas else 0.0
    root = xml_root(data)
    return 1.0 if root is not None and root[1] == "questestinterop" else 0.0
