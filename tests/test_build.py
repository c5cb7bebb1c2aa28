"""`lmsexport build` end to end: what is written, what is not, and that it is reproducible."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import lmsexport
from conftest import ROOT
from lmsexport.cli import main

FILES = Path(__file__).parent / "cli" / "files"
BAD = sorted(p for p in FILES.glob("*.txt") if p.name != "good.txt")


def _build(*args: str):
    return CliRunner().invoke(main, ["build", *args])


@pytest.mark.parametrize("source", BAD, ids=lambda p: p.stem)
def test_bad_source_exits_1_and_writes_nothing(source, tmp_path):
    result = _build(str(source), "-f", "json", "-o", str(tmp_path / "out"))
    assert result.exit_code == 1
    assert f"{source.as_posix()}" in result.stderr
    assert not (tmp_path / "out").exists()


def test_bundled_quizzes_build_to_three_models(tmp_path):
    result = _build(str(ROOT / "quizzes"), "--format", "json", "--out", str(tmp_path))
    assert result.exit_code == 0, result.stderr
    written = sorted(p.name for p in tmp_path.glob("[!.]*.json"))
    assert written == ["data-parallel-vi.json", "fsdp-yo.json", "zero-id.json"]
    for path in tmp_path.glob("[!.]*.json"):
        quiz = lmsexport.read(path)
        assert len(quiz.questions) == 8
        assert ["".join(c.id for c in q.correct_choices) for q in quiz.questions] == list("abcdabcd")


def test_building_twice_gives_identical_bytes(tmp_path):
    for run in ("one", "two"):
        assert _build(str(ROOT / "quizzes"), "-f", "json", "-o", str(tmp_path / run)).exit_code == 0
    one = {p.name: p.read_bytes() for p in (tmp_path / "one").glob("[!.]*.json")}
    two = {p.name: p.read_bytes() for p in (tmp_path / "two").glob("[!.]*.json")}
    assert one == two and len(one) == 3


def test_a_failed_source_keeps_the_previous_output(tmp_path):
    source = tmp_path / "quiz.txt"
    source.write_text("Quiz\n\n1. A?\n   *• x\n   • y\n", encoding="utf-8")
    assert _build(str(source), "-f", "json", "-o", str(tmp_path / "out")).exit_code == 0
    before = (tmp_path / "out" / "quiz.json").read_bytes()
    source.write_text("Quiz\n\n1. A?\n   • x\n   • y\n", encoding="utf-8")
    assert _build(str(source), "-f", "json", "-o", str(tmp_path / "out")).exit_code == 1
    assert (tmp_path / "out" / "quiz.json").read_bytes() == before
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == [".lmsexport-state", "quiz.json"]


def test_two_sources_with_one_id_are_refused(tmp_path):
    for folder in ("a", "b"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "quiz.txt").write_text("Quiz\n\n1. A?\n   *• x\n   • y\n", encoding="utf-8")
    result = _build(str(tmp_path / "a"), str(tmp_path / "b"), "-f", "json", "-o", str(tmp_path / "out"))
    assert result.exit_code == 1
    assert "quiz.json would be written by" in result.stderr and "[E003]" in result.stderr


def test_folders_are_searched_for_sources_only(tmp_path):
    (tmp_path / "notes.rst").write_text("Not a quiz\n==========", encoding="utf-8")
    (tmp_path / ".hidden").mkdir()
    (tmp_path / ".hidden" / "x.txt").write_text("garbage", encoding="utf-8")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "q.txt").write_text("Quiz\n\n1. A?\n   *• x\n   • y\n", encoding="utf-8")
    result = _build(str(tmp_path), "-f", "json", "-o", str(tmp_path / "out"))
    assert result.exit_code == 0, result.stderr
    assert [p.name for p in (tmp_path / "out").glob("[!.]*.json")] == ["q.json"]


def test_unreadable_source_is_a_located_error(tmp_path):
    folder = tmp_path / "dir.txt"
    folder.mkdir()
    (folder / "inner.txt").write_text("Quiz\n\n1. A?\n   *• x\n   • y\n", encoding="utf-8")
    assert _build(str(folder), "-f", "json", "-o", str(tmp_path / "out")).exit_code == 0


def test_python_dash_m_and_version():
    out = subprocess.run([sys.executable, "-m", "lmsexport", "--version"], capture_output=True, text=True)
    assert out.returncode == 0 and out.stdout.strip() == f"lmsexport, version {lmsexport.__version__}"
    helped = subprocess.run([sys.executable, "-m", "lmsexport", "--help"], capture_output=True, text=True)
    assert "build" in helped.stdout and "validate" in helped.stdout


def test_console_entry_exits_with_the_commands_status_and_all_its_output(tmp_path):
    """`run()` ends the process with os._exit: the status and every line must still come out."""
    bad = tmp_path / "bad.txt"
    bad.write_text("1. No options here\n", encoding="utf-8")
    command = [sys.executable, "-m", "lmsexport"]
    built = subprocess.run([*command, "build", str(ROOT / "quizzes"), "-f", "all", "-o", str(tmp_path / "out")],
                           capture_output=True, text=True)
    assert built.returncode == 0, built.stderr
    assert built.stderr.rstrip().splitlines()[-1].startswith("3 built")
    assert len(list((tmp_path / "out").glob("*/*"))) == 15 and built.stdout.count("built ") == 3
    failed = subprocess.run([*command, "build", str(bad), "-f", "qti", "-o", str(tmp_path / "x")], capture_output=True, text=True)
    assert failed.returncode == 1 and "E202" in failed.stderr
    usage = subprocess.run([*command, "build", "--format", "nope", str(bad)], capture_output=True, text=True)
    assert usage.returncode == 2 and "nope" in usage.stderr
    piped = subprocess.run(f"{sys.executable} -m lmsexport formats | head -1", shell=True, capture_output=True, text=True)
    assert piped.returncode == 0 and piped.stdout.count("\n") == 1 and not piped.stderr


@pytest.mark.parametrize("given, seen", [(None, "1"), ("4", "4")])
def test_the_console_entry_keeps_openblas_to_one_thread_unless_told(monkeypatch, given, seen):
    """numpy's OpenBLAS threads, which lmsexport never uses, spin on every core after numpy is
    imported (L020 imports it for many texts): the console entry asks for one."""
    import gc

    from lmsexport import cli

    if given is None:
        monkeypatch.delenv("OPENBLAS_NUM_THREADS", raising=False)
    else:
        monkeypatch.setenv("OPENBLAS_NUM_THREADS", given)
    found = []
    monkeypatch.setattr(cli, "main", lambda **_: found.append(os.environ.get("OPENBLAS_NUM_THREADS")))
    monkeypatch.setattr(cli.os, "_exit", lambda code: found.append(code))
    threshold = gc.get_threshold()
    try:
        cli.run()
    finally:
        gc.set_threshold(*threshold)
    assert found == [seen, 0]


def test_version_does_not_import_heavy_modules():
    heavy = ('lxml', 'jinja2', 'xmlschema', 'lmsexport.model')
    code = f"import sys; from lmsexport.cli import main; print(sorted(m for m in {heavy!r} if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.stdout.strip() == "[]"


def test_the_api_classes_load_when_first_asked_for():
    code = ("import sys, lmsexport; before = 'lmsexport.model' in sys.modules; "
            "from lmsexport import Quiz, Package, SourceError, Log, Diagnostic, ConversionWarning; "
            "print(before, Quiz.__module__, Package.__module__, 'Quiz' in dir(lmsexport))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.stdout.split() == ["False", "lmsexport.model.quiz", "lmsexport.package", "True"], out.stderr
    missing = subprocess.run([sys.executable, "-c", "import lmsexport; lmsexport.nothing"], capture_output=True, text=True)
    assert "has no attribute 'nothing'" in missing.stderr


def test_unexpected_error_is_one_line_with_a_debug_hint(tmp_path, monkeypatch):
    import lmsexport.batch.reading as reading

    def explode(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(reading, "read_source", explode)
    good = str(FILES / "good.txt")
    result = CliRunner().invoke(main, ["build", good, "-f", "json", "-o", str(tmp_path)])
    assert result.exit_code == 4
    assert "internal error: RuntimeError: boom" in result.stderr and "--debug" in result.stderr
    debug = CliRunner().invoke(main, ["--debug", "build", good, "-f", "json", "-o", str(tmp_path)])
    assert isinstance(debug.exception, RuntimeError)


def test_python_api_build_takes_the_build_options(tmp_path):
    results = lmsexport.build([ROOT / "quizzes"], ["moodle"], tmp_path, bank="course", lint=False)
    assert [r.failed for r in results] == [False] * 3
    assert [p.name for p in tmp_path.glob("*.xml")] == ["course.moodle.xml"]
    assert all(not r.diagnostics for r in results)


def test_a_qti_package_and_an_item_file_build_to_every_format(tmp_path):
    packages = tmp_path / "packages"
    assert _build(str(ROOT / "examples" / "features.txt"), "-f", "qti", "-o", str(packages)).exit_code == 0
    sources = tmp_path / "sources"
    sources.mkdir()
    (sources / "features.qti.zip").write_bytes((packages / "features.qti.zip").read_bytes())
    (sources / "choice.xml").write_bytes((ROOT / "tests" / "golden" / "readers" / "qti21" / "choice.xml").read_bytes())
    result = _build(str(sources), "-f", "all", "-o", str(tmp_path / "out"))
    assert result.exit_code == 0, result.output
    built = sorted(p.relative_to(tmp_path / "out").as_posix() for p in (tmp_path / "out").rglob("[!.]*.*"))
    assert built == sorted(f"{folder}/{quiz}{suffix}" for quiz in ("choice", "features") for folder, suffix in (
        ("qti", ".qti.zip"), ("canvas", ".canvas.zip"), ("moodle", ".moodle.xml"), ("scorm12", ".scorm12.zip"),
        ("scorm2004", ".scorm2004.zip")))
    assert lmsexport.read(tmp_path / "out" / "qti" / "features.qti.zip") == lmsexport.read(packages / "features.qti.zip")


def test_from_reads_a_source_as_the_format_it_names(tmp_path):
    moodle = tmp_path / "bank.txt"
    moodle.write_bytes((ROOT / "tests" / "golden" / "readers" / "moodle" / "match-testquestion.moodle.xml").read_bytes())
    assert _build(str(moodle), "-f", "json", "-o", str(tmp_path / "guessed")).exit_code == 1  # read as a text quiz
    result = _build(str(moodle), "--from", "moodle", "-f", "json", "-o", str(tmp_path / "named"))
    assert result.exit_code == 0, result.output
    assert lmsexport.read(tmp_path / "named" / f"{lmsexport.read(moodle, format='moodle').id}.json").questions


def test_a_second_build_of_a_folder_does_not_read_its_own_output(tmp_path):
    source = tmp_path / "course"
    source.mkdir()
    (source / "quiz.txt").write_bytes((ROOT / "examples" / "features.txt").read_bytes())
    for _ in range(2):
        result = _build(str(source), "-f", "all", "-o", str(source / "dist"))
        assert result.exit_code == 0, result.output
    assert "dist" not in result.output.replace(f"{source.as_posix()}/dist/", "")


def test_output_failing_its_schema_is_exit_3_and_the_other_sources_still_build(tmp_path, monkeypatch):
    """A writer bug (simulated: validation finds fault with one quiz's package) fails that source
    alone, with its findings; it is reported as a bug, whatever --jobs is (the result crosses from
    a worker as data, not as an exception)."""
    from lmsexport import validation
    from lmsexport.schemas import finding

    real = validation.validate_files

    def picky(files, *, source, **checks):
        return [finding("V103", source, "simulated schema error", 1)] if "fsdp-yo" in source else real(files, source=source)

    monkeypatch.setattr(validation, "validate_files", picky)
    result = _build(str(ROOT / "quizzes"), "-f", "qti", "-o", str(tmp_path), "-j", "1")
    assert result.exit_code == 3, result.output
    assert "fsdp-yo.qti.zip:1: error: simulated schema error [V103]" in result.stderr
    assert "fails its own schema; this is a bug" in result.stderr
    assert sorted(p.name for p in tmp_path.glob("*.zip")) == ["data-parallel-vi.qti.zip", "zero-id.qti.zip"]


@pytest.mark.parametrize("format", ["qti", "canvas"])
def test_a_build_checks_the_writers_trees_and_parses_no_file_it_built(tmp_path, monkeypatch, format):
    from lmsexport import validation

    parsed = []
    real = validation._parse
    monkeypatch.setattr(validation, "_parse", lambda content, source: parsed.append(source) or real(content, source))
    result = _build(str(ROOT / "examples" / "all-kinds" / "quiz.txt"), "-f", format, "-o", str(tmp_path), "--no-lint")
    assert result.exit_code == 0, result.output
    assert parsed == []


def test_a_writer_tree_failing_its_schema_is_reported_at_its_line_from_the_bytes(tmp_path, monkeypatch):
    """A writer bug (simulated: an attribute QTI 2.1 does not allow on every item) is found on
    the tree, and the package is validated again from its bytes so the finding has its line."""
    from lmsexport.formats.qti21 import writer
    from lmsexport.xml import qn

    real = writer.serialize

    def broken(root, verbatim=frozenset()):
        if root.tag == qn("qti:assessmentItem"):
            root.find(qn("qti:itemBody")).set("bogus", "1")
        return real(root, verbatim)

    monkeypatch.setattr(writer, "serialize", broken)
    result = _build(str(ROOT / "quizzes" / "fsdp-yo.txt"), "-f", "qti", "-o", str(tmp_path), "--no-lint")
    assert result.exit_code == 3, result.output
    assert "fsdp-yo.qti.zip!items/" in result.stderr and "bogus" in result.stderr
    lines = [line for line in result.stderr.splitlines() if "bogus" in line]
    assert lines and all(".xml:0:" not in line and ".xml: " not in line for line in lines), lines
    assert not list(tmp_path.glob("*.zip"))


def test_qti_advice_to_build_for_canvas_is_left_out_when_the_build_writes_canvas(tmp_path):
    quiz = str(ROOT / "examples" / "all-kinds" / "quiz.txt")
    alone = _build(quiz, "-f", "qti", "-o", str(tmp_path / "a"), "--no-lint")
    both = _build(quiz, "-f", "qti,canvas", "-o", str(tmp_path / "b"), "--no-lint")
    assert alone.exit_code == both.exit_code == 0
    for code in ("W807", "W809", "W810", "W811"):
        assert f"[{code}]" in alone.stderr and f"[{code}]" not in both.stderr
    assert "[W851]" in both.stderr  # what Canvas itself cannot carry is still said


_NO_OP = """
import sys
from lmsexport.cli import main

try:
    main(sys.argv[1:], standalone_mode=False)
finally:
    print(" ".join(name for name in ("lmsexport.model", "lxml.etree", "lmsexport.rules", "lmsexport.forked",
                                     "lmsexport.interface.custom") if name in sys.modules))
"""


def test_a_build_with_nothing_to_rebuild_loads_neither_the_model_nor_lxml_and_shows_its_warnings_again(tmp_path):
    """Start-up is most of a no-op rebuild (benchmarks/README.md, issue 19): it reads the state and
    the sources' bytes, and replays the warnings recorded for them (lint's among them)."""
    source = tmp_path / "quiz.txt"
    source.write_text("---\nlang: ar\n---\nA quiz about the planets of the solar system\n\nWritten for the first "
                      "lesson of the course.\n\n1. أي كوكب هو الأقرب إلى الشمس؟\n   • الزهرة\n   *• عطارد\n",
                      encoding="utf-8")
    command = [sys.executable, "-c", _NO_OP, "build", str(source), "-f", "all", "-o", str(tmp_path / "out")]
    first = subprocess.run(command, capture_output=True, text=True, check=True)
    again = subprocess.run(command, capture_output=True, text=True, check=True)
    assert "1 built" in first.stderr
    assert first.stdout.splitlines()[-1].split()[:4] == ["lmsexport.model", "lxml.etree", "lmsexport.rules",
                                                         "lmsexport.forked"]
    assert "1 up to date" in again.stderr and again.stdout.splitlines()[-1].split() == []
    warnings = [line for line in first.stderr.splitlines() if ": warning:" in line]
    assert any("[L020]" in line for line in warnings)
    assert [line for line in again.stderr.splitlines() if ": warning:" in line] == warnings
