"""Zip packages for the QTI 1.2 tests from folders of fixture files: the same bytes every time.

A Canvas export is a zip; the tests keep its files unzipped (tests/fixtures/qti12/, readable in a
diff) and build the zip here with fixed entry order, dates and modes (as lmsexport's own packages
are built), so the reader goldens under tests/golden/readers/qti12/ are these folders zipped.
"""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

from conftest import GOLDEN, ROOT

FIXTURES = ROOT / "tests" / "fixtures" / "qti12"
PACKAGES = {
    GOLDEN / "readers" / "qti12" / "test_qti_1.2_canvas.zip": FIXTURES / "canvas-export",
    GOLDEN / "readers" / "qti12" / "canvas-course.imscc": FIXTURES / "course-export",
}
"""Each zipped reader golden and the fixture folder it is made of."""


def zipped(folder: Path) -> bytes:
    """The files under `folder` as a zip: sorted names, 1980-01-01 dates, mode 0644, deflated."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        for path in sorted(p for p in folder.rglob("*") if p.is_file()):
            info = zipfile.ZipInfo(path.relative_to(folder).as_posix(), (1980, 1, 1, 0, 0, 0))
            info.compress_type, info.external_attr = zipfile.ZIP_DEFLATED, 0o644 << 16
            archive.writestr(info, path.read_bytes())
    return out.getvalue()


def files(folder: Path) -> dict[str, bytes]:
    """The files under `folder` as a package's files, by their path in it."""
    return {path.relative_to(folder).as_posix(): path.read_bytes() for path in folder.rglob("*") if path.is_file()}
