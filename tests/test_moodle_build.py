"""`lmsexport build --format moodle [--bank NAME]` end to end (tests/cli/moodle.md pins the messages)."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

import lmsexport
from lmsexport import formats as registry
from conftest import ROOT
from lmsexport.cli import main
from lmsexport import build

QUIZZES = ROOT / "quizzes"
GOOD = "Quiz {n}\n\n1. A?\n   *• x\n   • y\n"


def _build(*args: str):
    return CliRunner().invoke(main, ["build", *args])


def test_building_twice_gives_identical_banks(tmp_path):
    for run in ("one", "two"):
        result = _build(str(QUIZZES), "-f", "moodle", "--bank", "course", "-o", str(tmp_path / run))
        assert result.exit_code == 0, result.stderr
    assert (tmp_path / "one" / "course.moodle.xml").read_bytes() == (tmp_path / "two" / "course.moodle.xml").read_bytes()
    assert [p.name for p in (tmp_path / "one").iterdir()] == ["course.moodle.xml"]


def test_a_bank_validates_and_reads_back(tmp_path):
    assert _build(str(QUIZZES), "-f", "moodle", "--bank", "course", "-o", str(tmp_path)).exit_code == 0
    bank = tmp_path / "course.moodle.xml"
    assert lmsexport.validate(bank) == []
    assert len(lmsexport.read(bank).questions) == 24


def test_quizzes_with_one_id_make_no_bank(tmp_path):
    for folder in ("a", "b"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "quiz.txt").write_text(GOOD.format(n=folder), encoding="utf-8")
    result = _build(str(tmp_path / "a"), str(tmp_path / "b"), "-f", "moodle", "--bank", "x", "-o", str(tmp_path / "out"))
    assert result.exit_code == 1
    assert "quiz id 'quiz' is also the id of" in result.stderr and "[E003]" in result.stderr
    assert not (tmp_path / "out").exists()


def test_a_failed_source_keeps_the_previous_bank(tmp_path):
    source = tmp_path / "quiz.txt"
    source.write_text(GOOD.format(n=1), encoding="utf-8")
    out = tmp_path / "out"
    assert _build(str(source), "-f", "moodle", "--bank", "b", "-o", str(out)).exit_code == 0
    before = (out / "b.moodle.xml").read_bytes()
    (tmp_path / "broken.txt").write_text("Quiz\n\n1. A?\n   • x\n   • y\n", encoding="utf-8")
    assert _build(str(tmp_path), "-f", "moodle", "--bank", "b", "-o", str(out)).exit_code == 1
    assert (out / "b.moodle.xml").read_bytes() == before


def test_bank_warnings_go_to_the_source_they_are_about(tmp_path):
    (tmp_path / "a.txt").write_text(GOOD.format(n="a"), encoding="utf-8")
    options = "".join(f"   - [x] right {i}\n" for i in range(11)) + "   - [ ] wrong\n"
    (tmp_path / "b.txt").write_text(f"Quiz b\n\n1. Pick?\n{options}", encoding="utf-8")
    results = build([tmp_path], ["moodle"], tmp_path / "out", bank="bank", lint=False)
    assert [[d.code for d in r.diagnostics] for r in results] == [[], ["W651"]]
    assert results[1].diagnostics[0].span.source == (tmp_path / "b.txt").as_posix()
    assert results[-1].written == [tmp_path / "out" / "bank.moodle.xml"]


def test_the_moodle_format_is_listed():
    result = CliRunner().invoke(main, ["formats"])
    assert "moodle     Moodle XML question bank (.moodle.xml) for Question bank > Import" in result.stdout
    assert re.search(r"\n  moodle     \.xml +Moodle XML question bank\n", result.stdout)


def test_build_help_explains_bank():
    assert "--bank NAME" in CliRunner().invoke(main, ["build", "--help"]).stdout


def test_the_bank_mode_is_declared_by_the_format_and_reached_through_the_registry():
    """The batch layer asks the registry for a bank writer; only a flavour that says `bank=True` has one."""
    assert registry.banks() == ["moodle"]
    write_bank, options = registry.bank_writer("moodle")
    package = write_bank([lmsexport.read("a.txt", GOOD.format(n=n)) for n in (1, 2)], "both", options)
    assert list(package.files) == ["both.moodle.xml"] and lmsexport.validate(package) == []
    with pytest.raises(registry.UnknownFormat, match="not a bank of many; a bank is written by moodle"):
        registry.bank_writer("qti")


def test_a_bank_in_a_format_that_cannot_write_one_is_refused(tmp_path):
    (tmp_path / "a.txt").write_text(GOOD.format(n=1), encoding="utf-8")
    with pytest.raises(registry.UnknownFormat):
        lmsexport.build([tmp_path / "a.txt"], ["qti"], tmp_path / "out", bank="b")
    assert not (tmp_path / "out").exists()


def test_a_large_bank_is_built_from_pieces_as_from_its_bytes(tmp_path, monkeypatch):
    """Past `CUT_FROM` bytes, a bank is read from pieces let go as they are parsed (chunks.py):
    every package and every message is the one the bank's bytes give, a broken bank's errors too."""
    from lmsexport import chunks
    from lmsexport.batch import pipeline

    banks = tmp_path / "banks"
    banks.mkdir()
    for name in ("moodle-4-export.xml", "broken_cloze_questions.xml"):
        (banks / name).write_bytes((ROOT / "tests" / "fixtures" / "moodle" / name).read_bytes())
    (banks / "cut.xml").write_bytes((banks / "moodle-4-export.xml").read_bytes()[:-200])
    drained, drain = [], chunks.Chunks.drain

    def spy(self):
        drained.append(len(self))
        return drain(self)

    monkeypatch.setattr(chunks.Chunks, "drain", spy)
    runs = []
    for cut_from in (pipeline.CUT_FROM, 0):
        monkeypatch.setattr(pipeline, "CUT_FROM", cut_from)
        out = tmp_path / str(cut_from)
        result = _build(str(banks), "-f", "qti,moodle", "--no-lint", "--jobs", "1", "-o", str(out))
        packages = {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("[!.]*")) if p.is_file()}
        runs.append((result.exit_code, re.sub(r" in [0-9.]+ s$", "", result.stderr.replace(str(out), "OUT")), packages))
    whole, cut = runs
    assert cut == whole and whole[0] == 1 and len(whole[2]) == 2 and "[E601]" in whole[1] and "[E607]" in whole[1]
    assert len(drained) == 3
