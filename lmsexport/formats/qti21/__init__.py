"""IMS QTI 2.1: content packages of items and a test (docs/formats/qti21.md).

https://www.imsglobal.org/question/qtiv2p1/imsqti_infov2p1.html. `names` is the vocabulary
the reader, the writer and `validate` share; `reader/` reads packages and single item files,
`writer/` writes a package, `validate` holds the package rules no XSD states."""

from __future__ import annotations

from ...package import Flavour
from ...sniffing import xml_root, zip_manifest

NAME = "qti21"
DESCRIPTION = "IMS QTI 2.1 content package or single assessmentItem file"
EXTENSIONS = (".zip", ".xml")
FLAVOURS = (Flavour("qti", "IMS QTI 2.1 content package (.qti.zip) for Canvas, Blackboard, QTI engines"),)

_NAMESPACE = "http://www.imsglobal.org/xsd/imsqti_v2p1"


def sniff(data: bytes) -> float:
    """An item or test in the QTI 2.1 namespace, or a zip whose manifest lists QTI 2.1 resources."""
    manifest = zip_manifest(data)
    if manifest is not None:
        return 1.0 if b"imsqti_item_xmlv2p1" in manifest or b"imsqti_test_xmlv2p1" in manifest else 0.0
    root = xml_root(data)
    return 1.0 if root is not None and root[0] == _NAMESPACE else 0.0
