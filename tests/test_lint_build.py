"""`build` runs lint: findings are warnings, --strict makes any warning fail its source."""

from __future__ import annotations

import os

import pytest
from click.testing import CliRunner

from conftest import ROOT
from lmsexport.cli import main

QUIZZES = str(ROOT / "quizzes")


def _build(*args):
    return CliRunner().invoke(main, ["build", *args])


def test_build_reports_lint_findings_as_warnings_and_still_writes(tmp_path):
    result = _build(QUIZZES, "-f", "json", "-o", str(tmp_path))
    assert result.exit_code == 0, result.stderr
    assert "fsdp-yo.txt:25:4: warning: option a of question 4 holds '_AIU_PROTECTED_11__'" in result.stderr
    assert "[L020]" in result.stderr and "11 warnings" in result.stderr
    assert len(list(tmp_path.glob("*.json"))) == 3


def test_strict_fails_sources_with_warnings_and_writes_nothing_for_them(tmp_path):
    result = _build(QUIZZES, "-f", "json", "-o", str(tmp_path / "out"), "--strict")
    assert result.exit_code == 1
    assert "error: option a of question 4 holds '_AIU_PROTECTED_11__'" in result.stderr
    assert "0 built, 3 failed" in result.stderr
    assert not (tmp_path / "out").exists()


def test_strict_passes_once_the_findings_are_switched_off(tmp_path):
    result = _build(QUIZZES, "-f", "json", "-o", str(tmp_path), "--strict", "--ignore", "L010,L020,L030,L032")
    assert result.exit_code == 0, result.stderr
    assert "warning" not in result.stderr


def test_no_lint_skips_the_checks(tmp_path):
    result = _build(QUIZZES, "-f", "json", "-o", str(tmp_path), "--no-lint")
    assert result.exit_code == 0 and "[L0" not in result.stderr


def test_unknown_rule_in_ignore_is_a_usage_error(tmp_path):
    result = _build(QUIZZES, "-f", "json", "-o", str(tmp_path), "--ignore", "L999")
    assert result.exit_code == 2 and "no lint rule L999" in result.stderr


def test_skipped_sources_show_their_warnings_again(tmp_path):
    _build(QUIZZES, "-f", "json", "-o", str(tmp_path))
    again = _build(QUIZZES, "-f", "json", "-o", str(tmp_path))
    assert "0 built, 3 up to date" in again.stderr and "11 warnings" in again.stderr
    assert "[L010]" in again.stderr


def test_a_single_source_linted_in_a_child_process_gives_the_same_findings(tmp_path, monkeypatch):
    """A fresh, single-threaded process lints one source in a forked child (forked.py);
    the findings must be those of linting in process."""
    import subprocess
    import sys

    import lmsexport.forked as forked

    source = str(ROOT / "quizzes" / "fsdp-yo.txt")
    in_child = subprocess.run([sys.executable, "-m", "lmsexport", "build", source, "-f", "json", "-o",
                               str(tmp_path / "a")], capture_output=True, text=True)
    monkeypatch.setattr(forked, "available", lambda: False)
    in_process = _build(source, "-f", "json", "-o", str(tmp_path / "b"))
    assert in_child.returncode == in_process.exit_code == 0
    findings = [line for line in in_child.stderr.splitlines() if "[L0" in line]
    assert findings and findings == [line for line in in_process.stderr.splitlines() if "[L0" in line]


@pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="needs CPU affinity (Linux)")
def test_on_one_core_a_build_lints_in_process_with_the_same_findings(tmp_path):
    """Forking the lint pays only with a second core to run it on (forked.available)."""
    import subprocess
    import sys

    source = str(ROOT / "quizzes" / "fsdp-yo.txt")
    one_core = {"preexec_fn": lambda: os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})}
    probe = subprocess.run([sys.executable, "-c", "from lmsexport import forked; print(forked.available())"],
                           capture_output=True, text=True, **one_core)
    assert probe.stdout.strip() == "False"
    runs = [subprocess.run([sys.executable, "-m", "lmsexport", "build", source, "-f", "json", "-o", str(tmp_path / name)],
                           capture_output=True, text=True, **options) for name, options in (("a", one_core), ("b", {}))]
    assert [run.returncode for run in runs] == [0, 0]
    findings = [[line for line in run.stderr.splitlines() if "[L0" in line] for run in runs]
    assert findings[0] and findings[0] == findings[1]


def test_skipped_sources_do_not_show_findings_switched_off_now(tmp_path):
    _build(QUIZZES, "-f", "json", "-o", str(tmp_path))
    ignored = _build(QUIZZES, "-f", "json", "-o", str(tmp_path), "--ignore", "L020")
    assert "0 built, 3 up to date" in ignored.stderr and "[L020]" not in ignored.stderr and "[L010]" in ignored.stderr
    assert "[L0" not in _build(QUIZZES, "-f", "json", "-o", str(tmp_path), "--no-lint").stderr
