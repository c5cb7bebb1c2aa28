"""SCORM in `lmsexport validate`: the manifests of SCORM 1.2 and SCORM 2004 4th edition packages.

SCORM 1.2 manifests use IMS CP 1.1.2's namespace; SCORM 2004's use IMS CP 1.1 with ADL's
adlcp_v1p3 namespace. Each is checked against ADL's schemas (through schemas/wrappers/).
"""

from __future__ import annotations

from ...diagnostics import Diagnostic
from ...schemas import load_schema, schema_findings

_CP12 = "{http://www.imsproject.org/xsd/imscp_rootv1p1p2}manifest"
_CP = "{http://www.imsglobal.org/xsd/imscp_v1p1}manifest"
_ADLCP = "http://www.adlnet.org/xsd/adlcp_v1p3"


def owns(root) -> bool:
    return root.tag == _CP12 or (root.tag == _CP and _ADLCP in root.nsmap.values())


def check(root, content: bytes, *, source: str) -> list[Diagnostic]:
    name = "scorm12_manifest" if root.tag == _CP12 else "scorm2004_manifest"
    return schema_findings(load_schema(name), root, source)
