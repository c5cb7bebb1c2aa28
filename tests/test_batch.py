"""Batch builds: parallel, incremental, reported, configured by lmsexport.toml."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from lmsexport.cli import main
from lmsexport.batch.state import STATE_FILE

GOOD = "---\nlang: {lang}\n---\nQuiz {n}\n\n1. Question {n}?\n   *• right {n}\n   • wrong {n}\n"
BAD = "Broken\n\n1. No answer marked?\n   • one\n   • two\n"


def _run(*args: str):
    return CliRunner().invoke(main, list(args))


@pytest.fixture
def course(tmp_path) -> Path:
    folder = tmp_path / "course"
    (folder / "week1").mkdir(parents=True)
    for n in range(1, 6):
        (folder / "week1" / f"quiz{n}.txt").write_text(GOOD.format(n=n, lang="en"), encoding="utf-8")
    return folder


def _packages(out: Path) -> dict[str, bytes]:
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("[!.]*")) if p.is_file()}


def test_output_is_identical_whatever_the_jobs(course, tmp_path):
    for jobs in ("1", "2"):
        result = _run("build", str(course), "-f", "json", "-o", str(tmp_path / jobs), "--jobs", jobs)
        assert result.exit_code == 0, result.stderr
    assert _packages(tmp_path / "1") == _packages(tmp_path / "2")
    assert len(_packages(tmp_path / "1")) == 5


def test_one_bad_file_fails_the_run_but_not_the_others(course, tmp_path):
    (course / "week1" / "bad.txt").write_text(BAD, encoding="utf-8")
    result = _run("build", str(course), "-f", "json", "-o", str(tmp_path / "out"), "--jobs", "2")
    assert result.exit_code == 1
    assert "bad.txt:3:1: error: question 1 has no correct answer marked" in result.stderr
    assert len(_packages(tmp_path / "out")) == 5
    assert "5 built, 1 failed: 5 questions, 5 packages written" in result.stderr


def test_fail_fast_stops_at_the_first_failure(course, tmp_path):
    (course / "week1" / "a-bad.txt").write_text(BAD, encoding="utf-8")
    result = _run("build", str(course), "-f", "json", "-o", str(tmp_path / "out"), "--jobs", "1", "--fail-fast")
    assert result.exit_code == 1
    assert not (tmp_path / "out").exists()
    assert "0 built, 1 failed" in result.stderr


def test_unchanged_sources_are_not_rebuilt(course, tmp_path):
    out = tmp_path / "out"
    assert _run("build", str(course), "-f", "json", "-o", str(out)).exit_code == 0
    first = {p: p.stat().st_mtime_ns for p in out.glob("[!.]*")}
    again = _run("build", str(course), "-f", "json", "-o", str(out))
    assert again.exit_code == 0
    assert "0 built, 5 up to date" in again.stderr
    assert {p: p.stat().st_mtime_ns for p in out.glob("[!.]*")} == first


def test_a_changed_source_or_format_or_damaged_output_is_rebuilt(course, tmp_path):
    out = tmp_path / "out"
    assert _run("build", str(course), "-f", "json", "-o", str(out)).exit_code == 0
    (course / "week1" / "quiz2.txt").write_text(GOOD.format(n=22, lang="en"), encoding="utf-8")
    (out / "quiz3.json").write_text("tampered", encoding="utf-8")
    (out / "quiz4.json").unlink()
    result = _run("build", str(course), "-f", "json", "-o", str(out))
    assert "3 built, 2 up to date" in result.stderr
    assert json.loads((out / "quiz3.json").read_text(encoding="utf-8"))["quiz"]["id"] == "quiz3"
    assert "Question 22?" in (out / "quiz2.json").read_text(encoding="utf-8")


def test_an_output_is_read_again_only_when_its_size_or_time_changed(course, tmp_path):
    """Freshness trusts a package's recorded size and time; a package edited in place with
    the same size (its time changes) is hashed and rebuilt, one only touched is kept."""
    import os

    out = tmp_path / "out"
    assert _run("build", str(course), "-f", "json", "-o", str(out)).exit_code == 0
    edited, touched = out / "quiz1.json", out / "quiz2.json"
    original = edited.read_bytes()
    edited.write_bytes(original.replace(b"quiz1", b"quizX"))
    stamp = touched.stat()
    os.utime(touched, ns=(stamp.st_atime_ns, stamp.st_mtime_ns + 1_000_000_000))
    result = _run("build", str(course), "-f", "json", "-o", str(out))
    assert "1 built, 4 up to date" in result.stderr
    assert edited.read_bytes() == original


def test_force_rebuilds_everything(course, tmp_path):
    out = tmp_path / "out"
    assert _run("build", str(course), "-f", "json", "-o", str(out)).exit_code == 0
    assert "5 built" in _run("build", str(course), "-f", "json", "-o", str(out), "--force").stderr


def test_report_accounts_for_every_source(course, tmp_path):
    (course / "week1" / "bad.txt").write_text(BAD, encoding="utf-8")
    report = tmp_path / "report.json"
    _run("build", str(course), "-f", "json", "-o", str(tmp_path / "out"), "--report", str(report))
    data = json.loads(report.read_text(encoding="utf-8"))
    assert data["formats"] == ["json"]
    assert data["summary"] | {"seconds": 0} == {
        "sources": 6, "ignored": 0, "built": 5, "skipped": 0, "failed": 1, "questions": 5, "packages": 5,
        "warnings": 0, "seconds": 0,
    }
    bad = next(s for s in data["sources"] if s["source"].endswith("bad.txt"))
    assert bad["status"] == "failed" and bad["errors"][0]["code"] == "E201" and bad["errors"][0]["line"] == 3
    good = next(s for s in data["sources"] if s["source"].endswith("quiz1.txt"))
    assert good["status"] == "built" and good["outputs"][0]["path"].endswith("quiz1.json")
    assert len(good["outputs"][0]["hash"]) == 32 and good["seconds"] >= 0


def test_plain_lines_when_not_on_a_terminal_and_quiet(course, tmp_path):
    result = _run("build", str(course / "week1" / "quiz1.txt"), "-f", "json", "-o", str(tmp_path / "o"))
    assert result.stdout == f"built {(course / 'week1' / 'quiz1.txt').as_posix()} -> {(tmp_path / 'o' / 'quiz1.json').as_posix()}\n"
    quiet = _run("build", str(course), "-f", "json", "-o", str(tmp_path / "q"), "-q")
    assert quiet.stdout == "" and quiet.stderr == ""


def test_several_formats_go_to_one_folder_each(course, tmp_path):
    result = _run("build", str(course / "week1" / "quiz1.txt"), "-f", "json", "-f", "json", "-o", str(tmp_path / "o"))
    assert result.exit_code == 0 and (tmp_path / "o" / "quiz1.json").exists()


def test_lmsexport_toml_gives_formats_out_and_defaults(course, tmp_path, monkeypatch):
    (course / "lmsexport.toml").write_text('formats = ["json"]\nout = "built"\n[defaults]\nlang = "yo"\npass = 70\n', encoding="utf-8")
    (course / "week1" / "own.txt").write_text("---\nlang: vi\n---\nOwn\n\n1. Q?\n   *• a\n   • b\n", encoding="utf-8")
    monkeypatch.chdir(course)
    result = CliRunner().invoke(main, ["build", "week1"])
    assert result.exit_code == 0, result.stderr
    quiz = json.loads((course / "built" / "quiz1.json").read_text(encoding="utf-8"))["quiz"]
    assert quiz["lang"] == "en" and quiz["settings"]["pass_mark"] == 70.0  # the header wins over defaults
    own = json.loads((course / "built" / "own.json").read_text(encoding="utf-8"))["quiz"]
    assert own["lang"] == "vi"
    (course / "week1" / "plain.txt").write_text("Plain\n\n1. Q?\n   *• a\n   • b\n", encoding="utf-8")
    CliRunner().invoke(main, ["build", "week1", "-o", "elsewhere"])  # the command line wins over the file
    plain = json.loads((course / "elsewhere" / "plain.json").read_text(encoding="utf-8"))["quiz"]
    assert plain["lang"] == "yo"


def test_a_changed_default_rebuilds(course, tmp_path, monkeypatch):
    out = tmp_path / "out"
    assert _run("build", str(course), "-f", "json", "-o", str(out)).exit_code == 0
    (course / "lmsexport.toml").write_text("[defaults]\nshuffle = true\n", encoding="utf-8")
    assert "5 built" in _run("build", str(course), "-f", "json", "-o", str(out)).stderr


def test_bad_lmsexport_toml_is_a_located_error(course, monkeypatch):
    (course / "lmsexport.toml").write_text('formats = "json"\nfromats = 1\n[defaults]\nshufle = true\n', encoding="utf-8")
    monkeypatch.chdir(course)
    result = CliRunner().invoke(main, ["build", "week1"])
    assert result.exit_code == 1
    assert "lmsexport.toml: error: unknown key 'fromats'" in result.stderr and "did you mean formats?" in result.stderr
    assert "unknown key 'shufle'" in result.stderr


def test_interrupted_run_keeps_earlier_packages(course, tmp_path, monkeypatch):
    out = tmp_path / "out"
    assert _run("build", str(course), "-f", "json", "-o", str(out), "-j", "1").exit_code == 0
    before = _packages(out)
    for n in range(1, 6):
        (course / "week1" / f"quiz{n}.txt").write_text(GOOD.format(n=n * 10, lang="en"), encoding="utf-8")
    import lmsexport.batch.pipeline as pipeline

    calls = []
    real = pipeline.write_atomic

    def interrupted(path, data):
        if calls:
            raise KeyboardInterrupt
        calls.append(path)
        real(path, data)

    monkeypatch.setattr(pipeline, "write_atomic", interrupted)
    result = _run("build", str(course), "-f", "json", "-o", str(out), "-j", "1")
    assert isinstance(result.exception, (KeyboardInterrupt, SystemExit))
    after = _packages(out)
    assert sorted(after) == sorted(before)  # every package is complete: old or new, none half-written
    changed = [name for name in after if after[name] != before[name]]
    assert changed == ["quiz1.json"]
    assert not list(out.glob(".*.part"))


def test_validate_takes_folders_and_jobs(course, tmp_path):
    out = tmp_path / "out"
    assert _run("build", str(course), "-f", "json", "-o", str(out)).exit_code == 0
    (out / "broken.json").write_text("{", encoding="utf-8")
    result = _run("validate", str(out), "--jobs", "2")
    assert result.exit_code == 1
    assert result.stdout.count("valid: ") == 6 and "invalid: " in result.stdout
    assert STATE_FILE not in result.stdout


def test_a_bad_folder_config_fails_only_its_sources(course, tmp_path):
    (course / "week2").mkdir()
    (course / "week2" / "q.txt").write_text(GOOD.format(n=9, lang="en"), encoding="utf-8")
    (course / "week2" / "lmsexport.toml").write_text("[defaults]\nlang = 'not a tag'\n", encoding="utf-8")
    result = _run("build", str(course), "-f", "json", "-o", str(tmp_path / "out"))
    assert result.exit_code == 1
    assert "week2/lmsexport.toml: error: bad value 'not a tag' for defaults.lang" in result.stderr
    assert "5 built, 1 failed" in result.stderr


def test_config_option_applies_its_defaults_to_sources_without_their_own(course, tmp_path):
    settings = tmp_path / "settings.toml"
    settings.write_text('formats = ["json"]\n[defaults]\npass = 55\n', encoding="utf-8")
    result = _run("build", str(course), "-o", str(tmp_path / "out"), "--config", str(settings))
    assert result.exit_code == 0, result.stderr
    quiz = json.loads((tmp_path / "out" / "quiz1.json").read_text(encoding="utf-8"))["quiz"]
    assert quiz["settings"]["pass_mark"] == 55.0


def test_lint_takes_folders_and_jobs(course, tmp_path):
    (course / "week1" / "bad.txt").write_text(BAD, encoding="utf-8")
    result = _run("lint", str(course), "--jobs", "2", "--format", "json")
    assert result.exit_code == 1  # the unreadable source is an error
    assert "6 sources checked" in result.stderr and '"E201"' in result.stdout


@pytest.mark.parametrize(("options", "alive"), [(("-f", "qti,moodle", "--no-lint"), [True, False]),
                                                (("-f", "qti,moodle"), [True, True])])
def test_the_command_line_lets_a_quiz_go_before_its_last_package_is_checked(tmp_path, monkeypatch, options, alive):
    """The check reads only the package, so the quiz (100,000 questions' model is ~290 MB) goes
    once its last package is written, unless lint, which runs after, reads it; the report still
    names it."""
    import gc

    from lmsexport import validation
    from lmsexport.model import Quiz

    source = tmp_path / "let-go.txt"
    source.write_text("---\nid: let-go\n---\nQuiz\n\n1. Which?\n   *• right\n   • wrong\n", encoding="utf-8")
    seen, check = [], validation.validate_files

    def spy(files, **kwargs):
        seen.append(any(isinstance(item, Quiz) and item.id == "let-go" for item in gc.get_objects()))
        return check(files, **kwargs)

    monkeypatch.setattr(validation, "validate_files", spy)
    report = tmp_path / "report.json"
    result = _run("build", str(source), *options, "-o", str(tmp_path / "out"), "--jobs", "1", "--report", str(report))
    assert result.exit_code == 0, result.stderr
    assert seen == alive
    assert json.loads(report.read_text(encoding="utf-8"))["sources"][0]["quiz"] == "let-go"
