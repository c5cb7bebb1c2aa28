"""The output folder under faults (docs/build.md, "Writing, and builds that overlap"): a write
that fails, a build killed while writing, two builds into one folder."""

from __future__ import annotations

import errno
import os
import subprocess
import sys
import time

from click.testing import CliRunner

from conftest import ROOT
from lmsexport.batch.outputs import OutputLock
from lmsexport.cli import main

QUIZZES = ROOT / "quizzes"


def _build(*args: str):
    return CliRunner().invoke(main, ["build", *args])


def test_a_full_disk_fails_the_source_it_hits_and_keeps_what_was_written(tmp_path, monkeypatch):
    real = os.replace

    def full(src, dst):
        if "zero-id" in str(dst):
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(src, dst)

    monkeypatch.setattr("lmsexport.package.os.replace", full)
    result = _build(str(QUIZZES), "-f", "qti", "-o", str(tmp_path), "-j", "1")
    assert result.exit_code == 1
    assert f"cannot write {tmp_path.as_posix()}/zero-id.qti.zip: No space left on device [E004]" in result.stderr
    assert sorted(p.name for p in tmp_path.iterdir() if not p.name.startswith(".")) == [
        "data-parallel-vi.qti.zip", "fsdp-yo.qti.zip"]
    assert not list(tmp_path.glob(".*.part"))
    monkeypatch.setattr("lmsexport.package.os.replace", real)
    again = _build(str(QUIZZES), "-f", "qti", "-o", str(tmp_path), "-j", "1")
    assert again.exit_code == 0
    assert again.stdout.count("up to date") == 2 and "built" in again.stdout and "zero-id.qti.zip" in again.stdout


def test_an_output_folder_that_cannot_be_made_is_a_located_error(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    result = _build(str(QUIZZES / "zero-id.txt"), "-f", "qti", "-o", str(blocker / "dist"))
    assert result.exit_code == 1
    assert f"quizzes/zero-id.txt: error: cannot write {(blocker / 'dist').as_posix()}:" in result.stderr
    assert "[E004]" in result.stderr and "Traceback" not in result.output


def test_a_build_killed_while_writing_leaves_nothing_behind_after_the_next(tmp_path):
    stale = tmp_path / "qti" / ".zero-id.qti.zip.k3j9x_2a.part"
    stale.parent.mkdir(parents=True)
    stale.write_bytes(b"half a package")
    assert _build(str(QUIZZES), "-f", "qti,moodle", "-o", str(tmp_path)).exit_code == 0
    assert not stale.exists()


def test_two_builds_into_one_folder_take_turns_and_both_are_recorded(tmp_path):
    sources = {name: tmp_path / name for name in ("a", "b")}
    for name, folder in sources.items():
        folder.mkdir()
        (folder / f"{name}.txt").write_bytes((QUIZZES / "zero-id.txt").read_bytes().replace(b"zero-id", name.encode()))
    out = tmp_path / "dist"
    command = [sys.executable, "-m", "lmsexport", "build", "-f", "json", "-o", str(out), "--no-lint"]
    with OutputLock(out):  # both builds read the (empty) state, then wait for the folder
        running = [subprocess.Popen([*command, str(folder)], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
                   for folder in sources.values()]
        time.sleep(1.0)
        assert all(process.poll() is None for process in running)
    for process in running:
        assert process.wait(timeout=60) == 0, process.stderr.read()
    again = _build(*(str(folder) for folder in sources.values()), "-f", "json", "-o", str(out), "--no-lint")
    assert again.exit_code == 0 and again.stdout.count("up to date") == 2, again.stdout


def test_a_fifo_or_a_device_is_refused_not_waited_on(tmp_path):
    fifo = tmp_path / "pipe.txt"
    os.mkfifo(fifo)
    image_quiz = tmp_path / "q.txt"
    image_quiz.write_text("---\nmarkup: markdown\n---\nT\n\n1. ![x](img.png)\n   *• a\n   • b\n", encoding="utf-8")
    os.mkfifo(tmp_path / "img.png")
    for args in ([str(fifo)], ["/dev/zero", "--from", "text"], [str(image_quiz)]):
        result = _build(*args, "-f", "json", "-o", str(tmp_path / "out"))
        assert result.exit_code == 1, args
    assert "pipe.txt: error: cannot read the file: it is a named pipe (FIFO)" in _build(
        str(fifo), "-f", "json", "-o", str(tmp_path / "out")).stderr
    assert "/dev/zero: error: cannot read the file: it is a device" in _build(
        "/dev/zero", "--from", "text", "-f", "json", "-o", str(tmp_path / "out")).stderr
    assert "q.txt:6:9: error: image 'img.png' cannot be read: it is a named pipe (FIFO)" in result.stderr
    validated = CliRunner().invoke(main, ["validate", str(fifo)])
    assert validated.exit_code == 1 and "it is a named pipe (FIFO)" in validated.output


def test_lint_of_a_folder_with_a_fifo_refuses_it_and_lints_the_rest(tmp_path):
    folder = tmp_path / "course"
    folder.mkdir()
    os.mkfifo(folder / "pipe.txt")
    (folder / "quiz.txt").write_text("Quiz\n\n1. Which?\n   *• right\n   • wrong\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "lmsexport", "lint", str(folder)], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 1
    assert "pipe.txt: error: cannot read the file: it is a named pipe (FIFO)" in done.stderr + done.stdout
