"""Offline schema loading and the content-package rules, independent of any writer."""

from __future__ import annotations

import socket
import sys

import pytest
from click.testing import CliRunner

import lmsexport
from conftest import ROOT
from lmsexport import schemas
from lmsexport.cli import main
from lmsexport.package import MANIFEST, zip_bytes
from lmsexport.schemas import SCHEMA_FILES, load_schema, schema_dir
from lmsexport.thin import Remaining
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


def test_what_a_rule_has_yet_to_meet_gives_back_its_table_as_it_empties():
    """A large manifest's rules keep the files not yet listed and the dependencies not yet
    resolved (thin.Remaining): a set keeps its largest table, which would stack on the
    identifiers they keep as the same resources are read."""
    remaining = Remaining(f"items/q{n}.xml" for n in range(10_000))
    full = sys.getsizeof(remaining._values)
    for n in range(9_500):
        remaining.discard(f"items/q{n}.xml")
    assert set(remaining) == {f"items/q{n}.xml" for n in range(9_500, 10_000)}
    assert sys.getsizeof(remaining._values) < full / 8
    remaining.add("test.xml")
    assert "test.xml" in remaining and len(remaining) == 501


def test_manifest_rules_find_missing_unlisted_and_duplicate(tmp_path):
    manifest = _manifest(
        '<resource identifier="R1" type="webcontent" href="a.html"><file href="a.html"/></resource>'
        '<resource identifier="R1" type="webcontent"><file href="gone.html"/><dependency identifierref="R9"/></resource>'
    )
    data = zip_bytes({MANIFEST: manifest, "a.html": b"<p/>", "extra.js": b""})
    findings = validate_bytes(data, source="p.zip")
    assert {"V201", "V202", "V203", "V204"} <= {f.code for f in findings}
    assert all(f.hint for f in findings)
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


ENTITY = b"""<?xml version="1.0"?>
<!DOCTYPE quiz [<!ENTITY x "hello">]>
<quiz><question type="essay"><name><text>&x;</text></name></question></quiz>
"""


def test_an_entity_declared_in_a_doctype_is_a_finding_not_a_crash(tmp_path):
    path = tmp_path / "bank.xml"
    path.write_bytes(ENTITY)
    result = CliRunner().invoke(main, ["validate", str(path)])
    assert result.exit_code == 1
    assert f"{path.as_posix()}:3: error: the document uses the entity &x; declared in its DOCTYPE" in result.output


@pytest.mark.parametrize("name, data, code", [
    ("bank.xml", ENTITY, "E608"),
    ("item.xml", ENTITY.replace(b"quiz", b"assessmentItem").replace(
        b"<assessmentItem>", b'<assessmentItem xmlns="http://www.imsglobal.org/xsd/imsqti_v2p1">'), "E806"),
])
def test_a_source_that_uses_an_entity_is_refused_with_its_line(tmp_path, name, data, code):
    path = tmp_path / name
    path.write_bytes(data)
    result = CliRunner().invoke(main, ["build", str(path), "-f", "json", "-o", str(tmp_path / "out")])
    assert result.exit_code == 1 and f"{path.as_posix()}:3: error: " in result.output and f"[{code}]" in result.output


def test_a_utf16_moodle_bank_is_validated_as_xml(tmp_path):
    path = tmp_path / "bank.xml"
    text = (ROOT / "tests" / "golden" / "readers" / "moodle" / "match-testquestion.moodle.xml").read_text("utf-8")
    path.write_bytes(text.encode("utf-16"))
    assert lmsexport.validate(path) == []
