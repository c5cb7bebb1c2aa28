"""The incremental state file and the `--report`: written as they are encoded; the state
rewritten only when it changes.

A build records each source's warnings in `<out>/.lmsexport-state` (batch/state.py), so that a
rebuild that skips the source shows them again. A bank with hundreds of thousands of warnings
has a state of tens of MB: it is written a piece at a time, each warning a dict only as it is
encoded, and compared with the state on disk without encoding either of them whole.
"""

from __future__ import annotations

import json

from click.testing import CliRunner

from lmsexport import jsonout
from lmsexport.batch.state import STATE_FILE
from lmsexport.cli import main

# Numbered 1, 3, 5, ...: a W201 warning for every question but the first.
QUIZ = "---\nlang: vi\n---\nBài kiểm tra\n\n" + "".join(
    f"{2 * n - 1}. Câu hỏi số {n} là gì?\n   *• đúng {n}\n   • sai {n}\n\n" for n in range(1, 41))


def _build(*args: str):
    return CliRunner().invoke(main, ["build", *args])


def _quiz(tmp_path):
    source = tmp_path / "quiz.txt"
    source.write_text(QUIZ, encoding="utf-8")
    return source


def test_the_state_is_json_as_it_always_was_in_ascii_with_every_warning(tmp_path, monkeypatch):
    monkeypatch.setattr(jsonout, "CHUNK", 7)  # many pieces: each is cut where the encoder cut it
    source, out = _quiz(tmp_path), tmp_path / "out"
    result = _build(str(source), "-f", "json", "-o", str(out), "--no-lint")
    assert result.exit_code == 0, result.output
    written = (out / STATE_FILE).read_bytes()
    document = json.loads(written)
    assert written == (json.dumps(document, indent=1) + "\n").encode("ascii")
    (entry,) = document["sources"].values()
    assert [w["code"] for w in entry["warnings"]] == ["W201"] * 39
    assert entry["warnings"][0]["message"] == "question 2 is numbered 3"
    assert entry["warnings"][0]["line"] == 10 and entry["warnings"][0]["column"] == 1


def test_a_rebuild_that_changes_nothing_leaves_the_state_file_alone(tmp_path):
    source, out = _quiz(tmp_path), tmp_path / "out"
    _build(str(source), "-f", "json", "-o", str(out), "--no-lint")
    before = (out / STATE_FILE).stat()
    again = _build(str(source), "-f", "json", "-o", str(out), "--no-lint", "--force")
    assert again.exit_code == 0 and "1 built" in again.stderr and "39 warnings" in again.stderr
    after = (out / STATE_FILE).stat()
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)


def test_a_state_whose_warnings_differ_or_are_damaged_is_written_again(tmp_path):
    source, out = _quiz(tmp_path), tmp_path / "out"
    _build(str(source), "-f", "json", "-o", str(out), "--no-lint")
    path = out / STATE_FILE
    good = json.loads(path.read_text(encoding="ascii"))
    (entry,) = good["sources"].values()
    for damage in ({**entry["warnings"][5], "message": "another"}, "not a warning"):
        document = json.loads(json.dumps(good))
        (changed,) = document["sources"].values()
        changed["warnings"][5] = damage
        path.write_text(json.dumps(document), encoding="ascii")
        _build(str(source), "-f", "json", "-o", str(out), "--no-lint", "--force")
        assert json.loads(path.read_text(encoding="ascii")) == good
    document = json.loads(json.dumps(good))
    (changed,) = document["sources"].values()
    changed["warnings"] = "damaged"
    path.write_text(json.dumps(document), encoding="ascii")
    assert _build(str(source), "-f", "json", "-o", str(out), "--no-lint", "--force").exit_code == 0
    assert json.loads(path.read_text(encoding="ascii")) == good


def test_a_damaged_entry_is_rebuilt_not_a_crash(tmp_path):
    source, out = _quiz(tmp_path), tmp_path / "out"
    _build(str(source), "-f", "json", "-o", str(out), "--no-lint")
    path = out / STATE_FILE
    good = json.loads(path.read_text(encoding="ascii"))
    (name,) = good["sources"]
    for damage in ({"warnings": ["not a warning"]}, {"warnings": [{"code": "W201"}]}, {"outputs": []}, {"stamps": 3}):
        document = json.loads(json.dumps(good))
        document["sources"][name].update(damage)
        path.write_text(json.dumps(document), encoding="ascii")
        again = _build(str(source), "-f", "json", "-o", str(out), "--no-lint")
        assert again.exit_code == 0 and "1 built" in again.stderr, (damage, again.output)
        assert json.loads(path.read_text(encoding="ascii")) == good
    again = _build(str(source), "-f", "json", "-o", str(out), "--no-lint")
    assert "0 built, 1 up to date" in again.stderr and "39 warnings" in again.stderr
    assert again.stderr.count("[W201]") == 39


def test_the_report_is_json_as_it_always_was_with_every_warning(tmp_path, monkeypatch):
    monkeypatch.setattr(jsonout, "CHUNK", 5)
    source, out, report = _quiz(tmp_path).rename(tmp_path / "bài.txt"), tmp_path / "out", tmp_path / "report.json"
    result = _build(str(source), "-f", "json", "-o", str(out), "--no-lint", "--report", str(report))
    assert result.exit_code == 0, result.output
    written = report.read_bytes()
    document = json.loads(written)
    assert written == (json.dumps(document, ensure_ascii=False, indent=2) + "\n").encode("utf-8")
    assert "bài.txt".encode() in written  # UTF-8, not \\u escapes
    (entry,) = document["sources"]
    assert entry["quiz"] == "bai" and entry["errors"] == []
    assert len(entry["warnings"]) == 39 and entry["warnings"][-1]["message"] == "question 40 is numbered 79"


def test_a_state_that_is_not_lmsexports_json_rebuilds_everything(tmp_path):
    source, out = _quiz(tmp_path), tmp_path / "out"
    _build(str(source), "-f", "json", "-o", str(out), "--no-lint")
    for damage in ("[" * 100_000, "\xff\xfe not json", '{"version": 1, "sources": []}'):
        (out / STATE_FILE).write_text(damage, encoding="latin-1")
        again = _build(str(source), "-f", "json", "-o", str(out), "--no-lint")
        assert again.exit_code == 0 and "1 built" in again.stderr, again.output
        assert json.loads((out / STATE_FILE).read_text(encoding="ascii"))["version"] == 1
