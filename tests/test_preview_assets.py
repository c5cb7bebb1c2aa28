"""The files the preview serves: scorm-again exactly as pinned, with its licence, and nothing unlisted."""

from __future__ import annotations

import hashlib
import json
from importlib import resources

import pytest

from conftest import ROOT
from lmsexport.preview import assets

BROWSER = ROOT / "tests" / "browser"
STATIC = resources.files("lmsexport.preview") / "static"


def _shipped(name: str) -> bytes:
    return assets.static_file(name)


def test_scorm_again_is_the_file_whose_checksum_was_recorded():
    assert hashlib.sha256(_shipped(assets.SCORM_AGAIN)).hexdigest() == assets.SCORM_AGAIN_SHA256


def test_scorm_again_is_the_version_the_lockfile_pins():
    lock = json.loads((BROWSER / "package-lock.json").read_text(encoding="utf-8"))
    assert lock["packages"]["node_modules/scorm-again"]["version"] == assets.SCORM_AGAIN_VERSION
    assert json.loads((BROWSER / "package.json").read_text(encoding="utf-8"))["dependencies"]["scorm-again"] == \
        assets.SCORM_AGAIN_VERSION
    readme = _shipped("scorm-again/README.md").decode("utf-8")
    assert assets.SCORM_AGAIN_VERSION in readme


def test_scorm_again_is_byte_for_byte_what_npm_installed_from_the_lockfile():
    installed = BROWSER / "node_modules" / "scorm-again"
    if not installed.is_dir():
        pytest.skip("tests/browser/node_modules is not installed (cd tests/browser && npm ci)")
    assert json.loads((installed / "package.json").read_text(encoding="utf-8"))["version"] == assets.SCORM_AGAIN_VERSION
    assert (installed / "dist" / "scorm-again.min.js").read_bytes() == _shipped(assets.SCORM_AGAIN)
    assert (installed / "LICENSE").read_bytes() == _shipped("scorm-again/LICENSE")


def test_its_licence_travels_with_it():
    licence = _shipped("scorm-again/LICENSE").decode("utf-8")
    assert licence.startswith("MIT License") and "Jonathan Putney" in licence


def _files(node, prefix=""):
    for child in node.iterdir():
        if child.is_dir():
            yield from _files(child, f"{prefix}{child.name}/")
        else:
            yield f"{prefix}{child.name}"


def test_every_static_file_is_listed_with_its_media_type_and_every_listed_one_exists():
    assert sorted(_files(STATIC)) == sorted(assets.MEDIA_TYPES)
    for name in assets.MEDIA_TYPES:
        assert _shipped(name)


def test_only_listed_files_are_handed_out():
    with pytest.raises(KeyError):
        assets.static_file("../assets.py")
