"""A large package's files wait on disk past a budget (spool.py), and so does the package itself
until the build writes it (`Package.to_output`); nothing else changes: the same bytes, the same
validation; a temporary folder with no room fails the source (E004)."""

from __future__ import annotations

import pickle
import tempfile
import threading

import pytest
from click.testing import CliRunner

import lmsexport
from lmsexport import package, spool, validation
from lmsexport.cli import main
from lmsexport.formats.moodle import writer as moodle_writer
from lmsexport.package import Package, Spilled
from lmsexport.spool import SpooledFiles


def _quiz_text(questions: int) -> str:
    lines = ["Planets", ""]
    for n in range(1, questions + 1):
        lines += [f"{n}. Which planet is number {n}?", "   • Venus", "   *• Mercury", ""]
    return "\n".join(lines)


def test_spooled_files_are_a_dict_of_bytes_past_the_budget():
    files = SpooledFiles({"b": b"12345"}, budget=8)
    files["a"] = b"678"  # fits: 8 bytes held
    files["c"] = b"x" * 20  # past the budget: on disk
    files["d"] = b""
    assert list(files) == ["b", "a", "c", "d"]
    assert dict(files) == {"b": b"12345", "a": b"678", "c": b"x" * 20, "d": b""}
    assert files.spilled() == 20
    files["c"] = b"y" * 30  # put again: the new bytes, in its new place
    assert files["c"] == b"y" * 30 and list(files) == ["b", "a", "d", "c"]
    del files["b"]
    files["e"] = b"12345"  # room again in memory
    assert files.spilled() == 30 and files == {"a": b"678", "d": b"", "c": b"y" * 30, "e": b"12345"}
    with pytest.raises(KeyError):
        files["b"]


def test_a_file_put_in_chunks_is_held_while_it_fits_and_read_back_in_chunks(monkeypatch):
    files = SpooledFiles(budget=10)
    files.put_chunks("a", iter([b"12", b"34"]))  # fits: held, joined
    files.put_chunks("b", (bytes([n]) * 3 for n in range(5)))  # crosses the budget: all of it on disk
    files.put_chunks("c", iter([]))
    assert dict(files) == {"a": b"1234", "b": b"".join(bytes([n]) * 3 for n in range(5)), "c": b""}
    assert files.spilled() == 15 and [files.size(path) for path in files] == [4, 15, 0]
    monkeypatch.setattr(spool, "CHUNK", 4)
    assert list(files.chunks("b")) == [b"\0\0\0\1", b"\1\1\2\2", b"\2\3\3\3", b"\4\4\4"]
    assert list(files.chunks("a")) == [b"1234"]


def test_spooled_files_are_read_from_two_threads_at_once():
    files = SpooledFiles({f"f{n}": bytes([n]) * 10_000 for n in range(50)}, budget=0)
    seen = {}

    def read(name: str) -> None:
        seen[name] = [files[path] == bytes([int(path[1:])]) * 10_000 for path in files]

    threads = [threading.Thread(target=read, args=(name,)) for name in ("one", "two")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert seen == {"one": [True] * 50, "two": [True] * 50}


@pytest.mark.parametrize("format_name", ["qti", "canvas", "scorm12", "scorm2004"])
def test_a_package_whose_files_waited_on_disk_is_the_same_package(tmp_path, monkeypatch, format_name):
    source = tmp_path / "planets.txt"
    source.write_text(_quiz_text(30), encoding="utf-8")
    quiz = lmsexport.read(source)
    held = lmsexport.write(quiz, format_name)
    monkeypatch.setattr(spool, "BUDGET", 0)
    spilled = lmsexport.write(quiz, format_name)
    assert isinstance(spilled.files, SpooledFiles) and spilled.files.spilled() > 0
    assert spilled.to_bytes() == held.to_bytes()
    assert lmsexport.validate(spilled) == []


def test_no_room_for_a_large_package_fails_its_source_and_builds_the_others(tmp_path, monkeypatch):
    folder = tmp_path / "quizzes"
    folder.mkdir()
    (folder / "large.txt").write_text(_quiz_text(30), encoding="utf-8")
    (folder / "small.txt").write_text(_quiz_text(1), encoding="utf-8")
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the temporary folder should be\n", encoding="utf-8")
    monkeypatch.setattr(spool, "BUDGET", 20_000)  # the small quiz's files fit, the large one's do not
    monkeypatch.setattr(tempfile, "tempdir", str(blocker))
    out = tmp_path / "out"
    # --jobs 1: worker processes may be spawned, and would not see the patched budget
    result = CliRunner().invoke(main, ["build", str(folder), "-f", "qti", "-o", str(out), "--no-lint", "--jobs", "1"])
    assert result.exit_code == 1, result.output
    assert "large.txt: error: cannot make the qti package: its files could not be put in a temporary file" \
        in result.output
    assert "set TMPDIR to a folder with room" in result.output
    assert "internal error" not in result.output and "Traceback" not in result.output
    assert sorted(path.name for path in out.iterdir() if not path.name.startswith(".")) == ["small.qti.zip"]


def test_no_room_for_a_converted_package_is_a_located_error(tmp_path, monkeypatch):
    source = tmp_path / "large.txt"
    source.write_text(_quiz_text(30), encoding="utf-8")
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("", encoding="utf-8")
    monkeypatch.setattr(spool, "BUDGET", 0)
    monkeypatch.setattr(tempfile, "tempdir", str(blocker))
    result = CliRunner().invoke(main, ["convert", str(source), "--to", "qti", "-o", str(tmp_path / "large.qti.zip")])
    assert result.exit_code == 1, result.output
    assert "large.txt: error: cannot make the qti package" in result.output
    assert not (tmp_path / "large.qti.zip").exists()


def test_asking_whether_a_file_is_there_reads_nothing_back(monkeypatch):
    """The package rules ask it of every file a manifest lists: Mapping's own `in` read each
    file back from disk (a 330 MB Canvas assessment, twice its size in memory)."""
    files = SpooledFiles({"a": b"x" * 100}, budget=0)
    monkeypatch.setattr(spool.os, "pread", lambda *_: pytest.fail("read back"))
    assert "a" in files and "b" not in files


@pytest.mark.parametrize("spooled", [False, True])
@pytest.mark.parametrize("zipped", [True, False])
def test_a_large_package_is_made_into_a_temporary_file_with_the_same_bytes(monkeypatch, spooled, zipped):
    files = {"imsmanifest.xml": b"<manifest/>", "b.xml": b"<b>" + "ở".encode() * 50 + b"</b>"}
    if not zipped:
        files = {"bank.xml": files["b.xml"]}
    made = Package(SpooledFiles(files, budget=0) if spooled else files, zipped=zipped)
    monkeypatch.setattr(package, "SPILLED", 20)
    output = made.to_output()
    assert isinstance(output, Spilled)
    assert len(output) == len(made.to_bytes()) and b"".join(output) == made.to_bytes()
    again = pickle.loads(pickle.dumps(output))  # from a worker process: spilled again on this side
    assert isinstance(again, Spilled) and b"".join(again) == made.to_bytes()
    monkeypatch.setattr(package, "SPILLED", 64_000_000)
    assert made.to_output() == made.to_bytes()  # a package of a few thousand questions stays in memory


def test_a_build_whose_packages_wait_in_temporary_files_writes_the_same_bytes(tmp_path, monkeypatch):
    source = tmp_path / "quiz.txt"
    source.write_text(_quiz_text(5), encoding="utf-8")
    runner, built = CliRunner(), {}
    for spill in (64_000_000, 0):
        monkeypatch.setattr(package, "SPILLED", spill)
        out = tmp_path / f"out-{spill}"
        # --jobs 1 and one source: no worker process, which would not see the patched size
        result = runner.invoke(main, ["build", str(source), "-f", "qti", "-f", "moodle", "-o", str(out), "--jobs", "1"])
        assert result.exit_code == 0, result.output
        built[spill] = {path.relative_to(out): path.read_bytes() for path in out.rglob("*") if path.is_file()
                        and not path.name.startswith(".")}
        stamps = {path: path.stat().st_mtime_ns for path in out.rglob("*.*")}
        again = runner.invoke(main, ["build", str(source), "-f", "qti", "-f", "moodle", "-o", str(out), "--jobs", "1",
                                     "--force"])
        assert again.exit_code == 0, again.output
        assert {path: path.stat().st_mtime_ns for path in out.rglob("*.*")} == stamps  # compared, left alone
    assert built[0] == built[64_000_000] and len(built[0]) == 2


def test_no_room_for_a_large_package_itself_fails_its_source(tmp_path, monkeypatch):
    source = tmp_path / "quiz.txt"
    source.write_text(_quiz_text(3), encoding="utf-8")
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("", encoding="utf-8")
    monkeypatch.setattr(package, "SPILLED", 0)  # its files fit in memory, its zip goes to a temporary file
    monkeypatch.setattr(tempfile, "tempdir", str(blocker))
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["build", str(source), "-f", "qti", "-f", "moodle", "-o", str(out), "--jobs", "1"])
    assert result.exit_code == 1, result.output
    for name in ("qti", "moodle"):
        assert f"quiz.txt: error: cannot make the {name} package" in result.output
    assert "internal error" not in result.output and "Traceback" not in result.output
    assert not out.exists()


def test_a_moodle_bank_past_the_budget_is_written_and_checked_a_chunk_at_a_time(monkeypatch):
    quiz = lmsexport.read("quiz.txt", _quiz_text(40))
    whole = lmsexport.write(quiz, "moodle")
    monkeypatch.setattr(moodle_writer, "CHUNK", 100)  # a chunk of the document every question or so
    monkeypatch.setattr(spool, "BUDGET", 0)
    pieced = lmsexport.write(quiz, "moodle")
    assert pieced.files.spilled() == len(whole.to_bytes()) and pieced.to_bytes() == whole.to_bytes()
    monkeypatch.setattr(validation, "STREAMED", 0)
    opened = []
    monkeypatch.setattr(SpooledFiles, "open", lambda self, path, opened=opened, real=SpooledFiles.open: (
        opened.append(path) or real(self, path)))
    assert validation.validate_files(pieced.files, source="quiz.moodle.xml") == []
    assert opened  # read from the spool as it was checked, not joined into one bytes object first
    broken = SpooledFiles({"quiz.moodle.xml": whole.to_bytes().replace(b"<name>", b"<nom>", 1)}, budget=0)
    assert [f.render() for f in validation.validate_files(broken, source="quiz.moodle.xml")] \
        == [f.render() for f in validation.validate_xml(broken["quiz.moodle.xml"], source="quiz.moodle.xml")] != []
