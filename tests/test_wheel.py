"""The wheel carries the schemas, and an installed lmsexport validates from them, offline."""

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
