"""`lmsexport lint` on the command line: exit codes, switches, output files, start-up cost."""

from __future__ import annotations

import gc
import json
import subprocess
import sys
import weakref
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import ROOT
from lmsexport.cli import main

FILES = Path(__file__).parent / "fixtures" / "lint" / "files"
CLEAN, WARNING, SWITCHED_OFF = (str(FILES / f"{name}.txt") for name in ("clean", "warning", "switched-off"))
QUIZZES = str(ROOT / "quizzes")
NO_KEY = str(Path(__file__).parent / "cli" / "files" / "no-key.txt")


def _lint(*args: str):
    return CliRunner().invoke(main, ["lint", *args])


@pytest.mark.parametrize(
    "args, status",
    [
        ((CLEAN,), 0),
        ((CLEAN, "--strict"), 0),
        ((WARNING,), 0),
        ((WARNING, "--strict"), 1),
        ((WARNING, "--strict", "--ignore", "L013"), 0),
        ((SWITCHED_OFF,), 0),
        ((QUIZZES,), 1),
        ((QUIZZES, "--ignore", "L010"), 0),
        ((QUIZZES, "--ignore", "L010", "--strict"), 1),
        ((NO_KEY, CLEAN), 1),
    ],
    ids=["clean", "clean-strict", "warning", "warning-strict", "warning-strict-ignored", "switched-off-in-header",
         "seeds-error", "seeds-error-ignored", "seeds-warnings-strict", "unreadable-source"],
)
def test_exit_status(args, status):
    assert _lint(*args).exit_code == status


def test_findings_go_to_stdout_and_the_summary_to_stderr():
    result = _lint(WARNING)
    location = f"{Path(WARNING).as_posix()}:6:1"
    assert result.stdout.startswith(f"{location}: warning: the prompt of question 1 has an unclosed '('")
    assert result.stderr == "1 source checked: 0 errors, 1 warning\n"


def test_ignore_takes_lists_and_repeats():
    result = _lint(QUIZZES, "--ignore", "l010,L020", "--ignore", "L030", "-f", "json")
    codes = {finding["code"] for finding in json.loads(result.stdout)["findings"]}
    assert codes == {"L032"} and result.exit_code == 0


def test_unknown_ignore_code_is_a_usage_error():
    result = _lint(CLEAN, "--ignore", "L012,L099")
    assert result.exit_code == 2
    assert "no lint rule L099; the rules are L001, L002" in result.stderr


def test_missing_path_is_a_usage_error():
    result = _lint("no-such-quiz.txt")
    assert result.exit_code == 2 and "no-such-quiz.txt: no such file or folder" in result.stderr


def test_unreadable_source_is_reported_and_the_others_are_linted():
    result = _lint(NO_KEY, WARNING, "-f", "json")
    findings = json.loads(result.stdout)["findings"]
    assert [(f["code"], Path(f["source"]).name) for f in findings] == [
        ("E201", "no-key.txt"), ("E201", "no-key.txt"), ("L013", "warning.txt"),
    ]
    assert result.stderr == "2 sources checked: 2 errors, 1 warning\n"


def test_output_file_holds_the_report(tmp_path):
    target = tmp_path / "lint.sarif"
    result = _lint(QUIZZES, "-f", "sarif", "-o", str(target))
    assert result.stdout == "" and result.exit_code == 1
    assert len(json.loads(target.read_text(encoding="utf-8"))["runs"][0]["results"]) == 11


def test_sarif_on_stdout_is_pure_json():
    result = _lint(QUIZZES, "--format", "sarif")
    assert json.loads(result.stdout)["version"] == "2.1.0"


def test_cli_import_does_not_load_the_language_model():
    code = "import sys; import lmsexport.cli; print(sorted(m for m in ('numpy', 'py3langid') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.stdout.strip() == "[]"


def test_lint_reads_and_checks_without_the_collector_and_turns_it_back_on(monkeypatch):
    """Lint's objects live to its end and make no cycles: the collector is off while it reads
    and checks (memory.uncollected)."""
    from lmsexport.rules import runner

    seen = []
    check = runner.check
    monkeypatch.setattr(runner, "check", lambda *args, **kwargs: seen.append(gc.isenabled()) or check(*args, **kwargs))
    assert gc.isenabled()
    assert _lint(QUIZZES, "--ignore", "L010").exit_code == 0
    assert seen == [False] and gc.isenabled()


def test_what_is_made_without_the_collector_goes_to_the_oldest_generation_and_is_still_collected():
    from lmsexport.memory import uncollected

    gc.collect()
    with uncollected():
        assert not gc.isenabled()
        kept = [[] for _ in range(5_000)]
        cycle = []
        cycle.append(cycle)
        alive = weakref.ref(_Cyclic(cycle))
        del cycle
    young = gc.get_count()[0]
    assert gc.isenabled()
    assert young < 100 and any(item is kept[0] for item in gc.get_objects(generation=2))
    gc.collect()
    assert alive() is None
    with pytest.raises(ValueError), uncollected():
        raise ValueError
    assert gc.isenabled()


class _Cyclic:
    def __init__(self, other):
        self.other = other
        other.append(self)
