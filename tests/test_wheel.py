"""The wheel carries the schemas and the preview's files; an installed lmsexport uses them, offline."""

from __future__ import annotations

import subprocess
import sys
import zipfile

import pytest

from conftest import ROOT
from lmsexport.schemas import SCHEMA_FILES

hatchling_wheel = pytest.importorskip("hatchling.builders.wheel")


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    out = tmp_path_factory.mktemp("wheel")
    builder = hatchling_wheel.WheelBuilder(str(ROOT))
    return next(iter(builder.build(directory=str(out), versions=["standard"])))


def test_wheel_ships_every_schema(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    for relative in [*SCHEMA_FILES.values(), "catalog.json", "README.md"]:
        assert f"lmsexport/schemas/{relative}" in names, relative


def test_installed_package_validates_from_its_own_schemas(wheel, tmp_path):
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    code = (
        "import lmsexport.schemas as v; "
        "[v.load_schema(n) for n in v.SCHEMA_FILES]; "
        "print(v.schema_dir())"
    )
    out = subprocess.run(
        [sys.executable, "-I", "-c", f"import sys; sys.path.insert(0, {str(site)!r}); {code}"],
        capture_output=True, text=True, cwd=tmp_path,
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == str(site / "lmsexport" / "schemas")


def test_wheel_ships_the_preview_files_and_scorm_again(wheel):
    from lmsexport.preview.assets import MEDIA_TYPES

    names = set(zipfile.ZipFile(wheel).namelist())
    for name in MEDIA_TYPES:
        assert f"lmsexport/preview/static/{name}" in names, name
    for name in ("index.html.jinja", "quiz.html.jinja", "key.html.jinja", "key.css"):
        assert f"lmsexport/preview/templates/{name}" in names, name
    assert "lmsexport/interface/messages/yo.json" in names  # the key's words and the player's


def test_installed_package_serves_scorm_again_and_renders_a_key(wheel, tmp_path):
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    code = (
        "import hashlib, lmsexport, lmsexport.preview.assets as a, lmsexport.preview.key as k; "
        "assert hashlib.sha256(a.static_file(a.SCORM_AGAIN)).hexdigest() == a.SCORM_AGAIN_SHA256; "
        f"print(k.render(lmsexport.read({str(ROOT / 'quizzes' / 'zero-id.txt')!r}))[:45]); print(k.__file__)"
    )
    out = subprocess.run(
        [sys.executable, "-I", "-c", f"import sys; sys.path.insert(0, {str(site)!r}); {code}"],
        capture_output=True, text=True, cwd=tmp_path,
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith('<!DOCTYPE html>\n<html lang="id" dir="ltr">')
    assert out.stdout.strip().endswith(str(site / "lmsexport" / "preview" / "key.py"))
