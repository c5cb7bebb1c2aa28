"""Shared test plumbing: the golden-file flag and small helpers.

`pytest --update-goldens` rewrites expected files under tests/golden/ from what the
code produces now (review the diff before committing). Without the flag a
mismatch fails and names the file and the command that regenerates it.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "golden"


def pytest_addoption(parser):
    parser.addoption(
        "--update-goldens",
        action="store_true",
        default=False,
        help="rewrite the expected files under tests/golden/ instead of comparing",
    )


class Goldens:
    """Compare text with a golden file, or rewrite it under --update-goldens."""

    def __init__(self, update: bool):
        self.update = update

    def check(self, path: Path, actual: str) -> None:
        if self.update:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(actual, encoding="utf-8", newline="\n")
            return
        if not path.exists():
            pytest.fail(f"missing golden file {path.relative_to(ROOT)}; create it with: pytest --update-goldens")
        expected = path.read_text(encoding="utf-8")
        assert actual == expected, (
            f"{path.relative_to(ROOT)} differs from the output; if the change is intended, "
            "regenerate with: pytest --update-goldens (and review the diff)"
        )

    def check_tree(self, folder: Path, files: dict[str, str]) -> None:
        """Compare a whole folder of goldens; stale files fail too (or are removed on update)."""
        for name, text in files.items():
            self.check(folder / name, text)
        present = {p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()} if folder.exists() else set()
        stale = sorted(present - set(files))
        if stale and self.update:
            for name in stale:
                (folder / name).unlink()
        elif stale:
            pytest.fail(f"stale golden files in {folder.relative_to(ROOT)}: {stale}; run pytest --update-goldens")


@pytest.fixture
def goldens(request) -> Goldens:
    return Goldens(request.config.getoption("--update-goldens"))


@pytest.fixture(scope="session", autouse=True)
def language_model_cache(tmp_path_factory):
    """The language model's cache (rules/langmodel.py) goes to a folder of this run, not the
    user's: the run starts without one and leaves nothing behind. Subprocesses inherit it."""
    before = os.environ.get("LMSEXPORT_CACHE_DIR")
    os.environ["LMSEXPORT_CACHE_DIR"] = str(tmp_path_factory.mktemp("lmsexport-cache"))
    yield
    if before is None:
        del os.environ["LMSEXPORT_CACHE_DIR"]
    else:
        os.environ["LMSEXPORT_CACHE_DIR"] = before
