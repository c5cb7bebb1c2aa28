"""`validate` on QTI 2.1 packages: broken ones are rejected with located messages.

The broken packages are made from a good one (examples/features.txt) and kept under
tests/fixtures/qti21/broken/ for the CLI transcripts (tests/cli/qti.md); `pytest
--update-goldens` rewrites them. Packages other tools wrote are in the transcripts too.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

import lmsexport
from conftest import ROOT
from lmsexport.package import zip_bytes
from lmsexport.validation import validate_bytes

FIXTURES = Path(__file__).parent / "fixtures" / "qti21"


def _good() -> dict[str, bytes]:
    return lmsexport.write(lmsexport.read(ROOT / "examples" / "features.txt"), 'qti').files


def _changed(path: str, old: bytes, new: bytes) -> dict[str, bytes]:
    files = dict(_good())
    assert old in files[path]
    files[path] = files[path].replace(old, new, 1)
    return files


def _without(path: str) -> dict[str, bytes]:
    return {name: content for name, content in _good().items() if name != path}


def _with_unlisted_item() -> dict[str, bytes]:
    files = dict(_good())
    files["items/extra.xml"] = files["items/q1.xml"].replace(b'"features-q1"', b'"features-extra"')
    return files


BROKEN = {
    "missing-file": _without("items/q3.xml"),
    "broken-xml": _changed("items/q3.xml", b"</choiceInteraction>", b""),
    "schema-violation": _changed("items/q3.xml", b'maxChoices="0"', b'maxChoices="any"'),
    "duplicate-identifier": _changed("items/q3.xml", b'identifier="features-q3"', b'identifier="features-q2"'),
    "unlisted-item": _with_unlisted_item(),
}
EXPECTED = {
    "missing-file": [
        ("V202", "bad.zip!imsmanifest.xml:71", "'items/q3.xml' is listed in the manifest but not in the package"),
        ("V202", "bad.zip!imsmanifest.xml:87", "'items/q3.xml' is listed in the manifest but not in the package"),
        ("V404", "bad.zip!test.xml:22",
         "assessmentItemRef 'features-q3' points at 'items/q3.xml', which is not in the package"),
    ],
    "broken-xml": [
        ("V101", "bad.zip!items/q3.xml:34:14",
         "not well-formed XML: Opening and ending tag mismatch: choiceInteraction line 28 and itemBody, "
         "line 34, column 14"),
    ],
    "schema-violation": [
        ("V103", "bad.zip!items/q3.xml:28",
         "Element '{http://www.imsglobal.org/xsd/imsqti_v2p1}choiceInteraction', attribute 'maxChoices': "
         "'any' is not a valid value of the atomic type 'xs:int'."),
    ],
    "duplicate-identifier": [
        ("V403", "bad.zip!items/q3.xml:2", "item identifier 'features-q2' is also the identifier of items/q2.xml"),
        ("V405", "bad.zip!test.xml:22",
         "assessmentItemRef 'features-q3' points at 'items/q3.xml', whose item identifier is 'features-q2'"),
    ],
    "unlisted-item": [
        ("V204", "bad.zip!imsmanifest.xml", "'items/extra.xml' is in the package but not listed in the manifest"),
        ("V401", "bad.zip!items/extra.xml:2",
         "the item 'features-extra' is not an imsqti_item_xmlv2p1 resource of the manifest"),
    ],
}


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_broken_package_is_rejected_with_located_messages(name):
    findings = validate_bytes(zip_bytes(BROKEN[name]), source="bad.zip")
    assert [(f.code, str(f.span), f.message) for f in findings] == EXPECTED[name]
    assert all(f.hint for f in findings)


@pytest.mark.parametrize("name", [*sorted(BROKEN), "valid"])
def test_package_fixture_is_current(name, request):
    """The zips the CLI transcripts validate are exactly what the code makes now."""
    expected = zip_bytes(BROKEN[name] if name in BROKEN else _good())
    path = FIXTURES / ("broken" if name in BROKEN else "") / f"{name}.qti.zip"
    if request.config.getoption("--update-goldens"):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(expected)
    assert path.read_bytes() == expected, f"{path.name} is stale; regenerate with: pytest --update-goldens"


def test_a_manifest_without_qti_resources_gets_no_qti_rules():
    files = _good()
    files = {**files, "imsmanifest.xml": files["imsmanifest.xml"].replace(b"imsqti_", b"webcontent_")}
    assert validate_bytes(zip_bytes(files), source="p.zip") == []


def test_a_resource_whose_file_is_not_what_its_type_says():
    test = b'type="imsqti_test_xmlv2p1" href="test.xml"'
    files = _changed("imsmanifest.xml", test, test.replace(b'"test.xml"', b'"items/q1.xml"'))
    findings = [(f.code, f.message) for f in validate_bytes(zip_bytes(files), source="p.zip")]
    assert ("V402", "the imsqti_test_xmlv2p1 resource 'items/q1.xml' is not a QTI assessmentTest") in findings


def test_validation_is_fast():
    """Schemas compile once per process; then a package of six items validates in a blink."""
    validate_bytes(zip_bytes(_good()), source="warm.zip")
    started = time.perf_counter()
    for _ in range(5):
        assert validate_bytes(zip_bytes(_good()), source="p.zip") == []
    assert (time.perf_counter() - started) / 5 < 0.5
