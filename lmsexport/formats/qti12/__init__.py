"""IMS QTI 1.2 packages, as Canvas exports and imports them (docs/formats/canvas.md).

IMS QTI ASI 1.2.1: https://www.imsglobal.org/question/qtiv1p2/imsqti_asi_infov1p2.html. Canvas's
flavour adds its own item metadata and `assessment_meta.xml` (canvas-lms `lib/cc/qti/`, read back by
`gems/plugins/qti_exporter`). `names` is the vocabulary the writer, `validation` and a reader share;
`writer/` writes a package in a flavour (Canvas's, for now); `validation` holds the rules no XSD states.
There is no reader yet, so the format takes no files."""

from __future__ import annotations

from ...package import Flavour

NAME = "qti12"
DESCRIPTION = "IMS QTI 1.2 package (Canvas flavour)"
EXTENSIONS = ()
FLAVOURS = (
    Flavour("canvas", "Canvas QTI 1.2 package (.canvas.zip) for Canvas classic quizzes and New Quizzes", "canvas"),
)


def sniff(data: bytes) -> float:
    """Never, until the reader exists: QTI 1.2 packages are written, not read."""
    return 0.0
