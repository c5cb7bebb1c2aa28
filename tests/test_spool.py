"""A large package's files wait on disk past a budget (spool.py), and nothing else changes:
the same bytes, the same validation; a temporary folder with no room fails the source (E004)."""

from __future__ import annotations

import tempfile
import threading

import pytest
from click.testing import CliRunner

import lmsexport
from lmsexport import spool
from lmsexport.cli import main
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
