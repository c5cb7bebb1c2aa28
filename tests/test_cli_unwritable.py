"""A file the command line names that cannot be written is one line and exit status 1.

`lint -o`, `build --report`, `key -o` and `convert -o` write where the user says; a path
under a regular file (or a folder without permission) is the user's to fix, as an output
folder that cannot be written is for `build` (E004), never an internal error (exit 4).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from lmsexport.cli import main

QUIZ = """A quiz

1. Which planet is closest to the Sun?
   • Venus
   *• Mercury
"""


@pytest.fixture
def setting(tmp_path) -> tuple[Path, Path]:
    """A quiz, and a regular file that a path to write goes through (so no folder can be made there)."""
    source = tmp_path / "planets.txt"
    source.write_text(QUIZ, encoding="utf-8")
    blocker = tmp_path / "blocker"
    blocker.write_text("a file, not a folder\n", encoding="utf-8")
    return source, blocker


@pytest.mark.parametrize(
    "command, written",
    [
        (lambda source, blocked: ["lint", source, "-o", blocked], "report.txt"),
        (lambda source, blocked: ["build", source, "-f", "json", "-o", str(Path(blocked).parent.parent / "dist"),
                                  "--report", blocked], "report.txt"),
        (lambda source, blocked: ["key", source, "-o", str(Path(blocked).parent)], "planets.key.html"),
        (lambda source, blocked: ["convert", source, "--to", "json", "-o", blocked], "report.txt"),
    ],
    ids=["lint-output", "build-report", "key-out", "convert-output"],
)
def test_a_file_that_cannot_be_written_is_reported_with_status_1(setting, command, written):
    source, blocker = setting
    blocked = blocker / "sub" / "report.txt"
    result = CliRunner().invoke(main, command(str(source), str(blocked)))
    assert result.exit_code == 1, result.output
    assert "internal error" not in result.output
    assert "lmsexport: cannot write " in result.output
    assert written in result.output
