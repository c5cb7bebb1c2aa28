"""Offline schema loading and the content-package rules, independent of any writer."""

from __future__ import annotations

import socket

import pytest

from lmsexport import schemas
from lmsexport.package import MANIFEST, zip_bytes
from lmsexport.schemas import SCHEMA_FILES, load_schema, schema_dir
from lmsexport.validation import validate_bytes

CP = "http://www.imsglobal.org/xsd/imscp_v1p1"


@pytest.fixture
def no_network(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("validation tried to open a network connection")

    monkeypatch.setattr(socket, "socket", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)


@pytest.mark.parametrize("name", sorted(SCHEMA_FILES))
def test_every_shipped_schema_loads_offline(name, no_network):
    if not (schema_dir() / SCHEMA_FILES[name]).exists():
        pytest.fail(f"schema {SCHEMA_FILES[name]} is missing from schemas/")
    load_schema.cache_clear()
    assert load_schema(name) is load_schema(name)  # compiled once, then cached


def test_unmapped_remote_import_is_refused(tmp_path, monkeypatch):
    (tmp_path / "catalog.json").write_text('{"files": {}, "prefixes": {}}', encoding="utf-8")
    (tmp_path / "remote.xsd").write_text(
        '<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">'
        '<xs:import namespace="urn:x" schemaLocation="http://example.org/x.xsd"/></xs:schema>',
        encoding="utf-8",
    )
    monkeypatch.setattr(schemas, "schema_dir", lambda: tmp_path)
    monkeypatch.setitem(SCHEMA_FILES, "remote", "remote.xsd")
    load_schema.cache_clear()
    with pytest.raises(schemas.SchemaError):
        load_schema("remote")
    load_schema.cache_clear()


def _manifest(resources: str) -> bytes:
    return (
        f'<manifest xmlns="{CP}" identifier="M"><organizations/><resources>{resources}</resources></manifest>'
    ).encode()


def test_manifest_rules_find_missing_unlisted_and_duplicate(tmp_path):
    manifest = _manifest(
        '<resource identifier="R1" type="webcontent" href="a.html"><file href="a.html"/></resource>'
        '<resource identifier="R1" type="webcontent"><file href="gone.html"/><dependency identifierref="R9"/></resource>'
    )
    data = zip_bytes({MANIFEST: manifest, "a.html": b"<p/>", "extra.js": b""})
    findings = validate_bytes(data, source="p.zip")
    assert {"V201", "V202", "V203", "V204"} <= {f.code for f in findings}
    messages = "\n".join(f.render() for f in findings)
    assert "identifier 'R1' is used twice" in messages
    assert "p.zip!imsmanifest.xml:1: error: 'gone.html' is listed in the manifest but not in the package" in messages


@pytest.mark.parametrize(
    "data, code",
    [
        (b"PK\x03\x04 not really", "A102"),
        (zip_bytes({"a.xml": b"<a/>"}), "V105"),
        (b"<quiz><unclosed></quiz>", "V101"),
        (b"<svg/>", "V102"),
        (b"plain words", "V106"),
    ],
)
def test_foreign_files_get_a_located_verdict(data, code):
    assert [f.code for f in validate_bytes(data, source="x")] == [code]


QTI_ITEM = (
    '<assessmentItem xmlns="http://www.imsglobal.org/xsd/imsqti_v2p1" identifier="i" title="t" '
    'adaptive="false" timeDependent="false"><itemBody><p>{body}</p></itemBody></assessmentItem>'
)


@pytest.mark.parametrize(
    "body, valid",
    [
        ("no math", True),
        ('<m:math xmlns:m="http://www.w3.org/1998/Math/MathML"><m:mi>x</m:mi></m:math>', True),
        ('<m:math xmlns:m="http://www.w3.org/1998/Math/MathML"><m:bogus/></m:math>', False),
        ("<unknown/>", False),
    ],
)
def test_qti_items_with_math_get_the_full_mathml_schema(body, valid):
    findings = validate_bytes(QTI_ITEM.format(body=body).encode(), source="item.xml")
    assert (findings == []) is valid, findings


def test_the_mathml_stand_in_gives_the_same_verdicts_on_documents_without_math():
    broken = QTI_ITEM.format(body="<unknown/>").encode()
    from lxml import etree

    root = etree.fromstring(broken)
    full, stub = load_schema("qti21"), load_schema("qti21_nomath")
    assert full.validate(root) == stub.validate(root) is False
    assert [e.message for e in full.error_log] == [e.message for e in stub.error_log]
