"""Hostile zip archives (docs/limits.md): `validate` and the package readers report them, bounded.

Every archive is made here, small: the bomb declares what it would inflate to, and is caught
before any of it is inflated.
"""

from __future__ import annotations

import io
import struct
import zipfile

import pytest
from click.testing import CliRunner

import lmsexport
from conftest import ROOT
from lmsexport.cli import main


@pytest.fixture(scope="module")
def package() -> bytes:
    """A valid QTI package to spoil."""
    return lmsexport.write(lmsexport.read(ROOT / "examples" / "features.txt"), "qti").to_bytes()


def _with(package: bytes, add) -> bytes:
    """`package` with members added by `add(zip)`, written after the good ones."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(package)) as source, zipfile.ZipFile(out, "w") as target:
        for info in source.infolist():
            target.writestr(info, source.read(info))
        add(target)
    return out.getvalue()


def _codes(data: bytes, tmp_path) -> list[tuple[str, str]]:
    path = tmp_path / "p.zip"
    path.write_bytes(data)
    return [(d.code, d.span.source) for d in lmsexport.validate(path)]


def test_a_zip_bomb_is_a_finding_and_is_not_inflated(package, tmp_path):
    bomb = _with(package, lambda z: z.writestr("bomb.xml", bytes(64 << 20), zipfile.ZIP_DEFLATED))
    assert len(bomb) < len(package) + (1 << 20)
    assert ("A110", f"{tmp_path / 'p.zip'}!bomb.xml") in _codes(bomb, tmp_path)


@pytest.mark.parametrize("name", ["../../evil.html", "/tmp/x", "..\\..\\evil.html", "C:/Windows/x.html"])
def test_a_member_name_that_leaves_the_archive_is_a_finding(package, tmp_path, name):
    codes = _codes(_with(package, lambda z: z.writestr(name, b"<p>x</p>")), tmp_path)
    assert ("A103", f"{tmp_path / 'p.zip'}!{name}") in codes


def test_a_symbolic_link_is_a_finding(package, tmp_path):
    def link(archive):
        info = zipfile.ZipInfo("media/passwd")
        info.external_attr = 0o120777 << 16
        archive.writestr(info, b"/etc/passwd")
    assert ("A105", f"{tmp_path / 'p.zip'}!media/passwd") in _codes(_with(package, link), tmp_path)


def test_a_duplicate_member_is_a_finding(package, tmp_path):
    def twice(archive):
        archive.writestr("imsmanifest.xml", b"<manifest/>")
    with pytest.warns(UserWarning, match="Duplicate name"):
        data = _with(package, twice)
    assert ("A104", f"{tmp_path / 'p.zip'}!imsmanifest.xml") in _codes(data, tmp_path)


def _patch_header(data: bytes, name: bytes, flag: int | None = None, method: int | None = None) -> bytes:
    """Set a member's flag bits or compression method in both its local and central headers."""
    out = bytearray(data)
    for signature, flag_at, method_at, name_at in ((b"PK\x03\x04", 6, 8, 30), (b"PK\x01\x02", 8, 10, 46)):
        start = 0
        while (start := out.find(signature, start)) >= 0:
            length = struct.unpack_from("<H", out, start + name_at - (4 if signature == b"PK\x03\x04" else 18))[0]
            if out[start + name_at:start + name_at + length] == name:
                if flag is not None:
                    struct.pack_into("<H", out, start + flag_at, struct.unpack_from("<H", out, start + flag_at)[0] | flag)
                if method is not None:
                    struct.pack_into("<H", out, start + method_at, method)
            start += 4
    return bytes(out)


def test_encrypted_and_unreadable_members_are_findings_and_the_rest_is_still_checked(package, tmp_path):
    data = _with(package, lambda z: (z.writestr("secret.xml", b"<x/>"), z.writestr("odd.xml", b"<x/>")))
    data = _patch_header(_patch_header(data, b"secret.xml", flag=0x1), b"odd.xml", method=99)
    codes = _codes(data, tmp_path)
    assert ("A106", f"{tmp_path / 'p.zip'}!secret.xml") in codes
    assert ("A109", f"{tmp_path / 'p.zip'}!odd.xml") in codes
    assert [code for code, _ in codes].count("V204") == 0  # only the readable members are judged


def test_corrupt_deflate_data_is_a_finding(package, tmp_path):
    data = bytearray(_with(package, lambda z: z.writestr("broken.xml", b"<x>" * 500, zipfile.ZIP_DEFLATED)))
    start = data.find(b"PK\x03\x04", data.find(b"broken.xml") - 30)
    body = start + 30 + len(b"broken.xml")
    data[body:body + 8] = b"\xff" * 8
    assert ("A108", f"{tmp_path / 'p.zip'}!broken.xml") in _codes(bytes(data), tmp_path)


def test_validate_names_each_hostile_member_and_exits_1(package, tmp_path):
    path = tmp_path / "evil.zip"
    path.write_bytes(_with(package, lambda z: z.writestr("../../evil.html", b"x")))
    result = CliRunner().invoke(main, ["validate", str(path)])
    assert result.exit_code == 1
    assert "evil.zip!../../evil.html: error: the member name '../../evil.html' is unsafe" in result.output


def test_a_hostile_package_is_refused_as_a_source(package, tmp_path):
    path = tmp_path / "evil.qti.zip"
    path.write_bytes(_with(package, lambda z: z.writestr("/tmp/x", b"x")))
    result = CliRunner().invoke(main, ["build", str(path), "-f", "json", "-o", str(tmp_path / "out")])
    assert result.exit_code == 1 and "[A103]" in result.output
    assert not (tmp_path / "out").exists()


def test_a_member_name_that_is_not_the_utf8_it_claims_is_a_finding(package, tmp_path):
    data = _with(package, lambda z: z.writestr("é.xml", b"<x/>")).replace("é".encode(), b"\xff\xfe")
    assert [code for code, _ in _codes(data, tmp_path)] == ["A102"]
