"""What a folder build reads: quizzes, not the notes beside them, never its own output.

The registry's `SNIFF_QUIZ` is the line: a file a folder search finds is read only when a format
that takes its suffix sniffs it at that or more (tests/cli/folders.md pins the messages)."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

import lmsexport
from lmsexport import formats as registry
from lmsexport.cli import main

from conftest import ROOT

QUIZ = "Quiz {n}\n\n1. Which is right?\n   *• right\n   • wrong\n"
NOT_QUIZZES = {
    "README.txt": "Week 3\n\nThese are the quizzes for week 3. Build them with lmsexport build .\n",
    "notes.txt": "- check question 3\n- ask Ana about the key\n",
    "steps.txt": "Setup\n\n1. Install Python\n2. Install lmsexport:\n   - pip install lmsexport\n3. Build\n",
    "package.json": '{"name": "course", "private": true}\n',
    "pom.xml": "<?xml version='1.0'?>\n<project><modelVersion>4.0.0</modelVersion></project>\n",
}
QUIZZES_WITH_MISTAKES = {
    "no-mark.txt": "Quiz\n\n1. Which is right?\n   • right\n   • wrong\n",
    "no-bullets.txt": "Quiz\n\n1. What is the capital of France?\n   Paris\n   Lyon\n",
    "commands.txt": "Quiz\n\n1. Choose the capital of France\n   - Paris\n   - Lyon\n\n"
                    "2. Choose the capital of Italy\n   - Rome\n   - Milan\n",
    "no-numbers.txt": "Quiz\n\nWhich is right?\n*• right\n• wrong\n",
    "bad-key.txt": "Quiz\n\n1. Which?\n   • a\n   • b\n\nAnswers: 1c\n",
    "broken.json": '{"lmsexport-model": 1, "quiz": {"id": "x"}}\n',
    "broken.moodle.xml": "<quiz><question type='multichoice'></question>\n",
}


def _run(*args: str):
    return CliRunner().invoke(main, list(args))


@pytest.mark.parametrize("name", sorted(NOT_QUIZZES))
def test_files_that_are_no_quiz_sniff_below_the_line(name):
    assert registry.detect(name, NOT_QUIZZES[name].encode())[1] < registry.SNIFF_QUIZ


def test_a_quiz_built_before_and_now_no_quiz_is_skipped_and_one_unchanged_is_up_to_date(folder, tmp_path):
    """A source built last time is not sniffed while it is unchanged, and is again once it changes."""
    out = tmp_path / "out"
    assert _run("build", str(folder), "-f", "json", "-o", str(out)).exit_code == 0
    (folder / "quiz2.txt").write_text(NOT_QUIZZES["notes.txt"], encoding="utf-8")
    again = _run("build", str(folder), "-f", "json", "-o", str(out))
    assert again.exit_code == 0, again.output
    assert f"skipped {(folder / 'quiz2.txt').as_posix()}: not a quiz" in again.stdout
    assert "0 built, 1 up to date, 6 not quizzes" in again.stderr


@pytest.mark.parametrize("name", sorted(QUIZZES_WITH_MISTAKES))
def test_quizzes_with_mistakes_sniff_above_it(name):
    assert registry.detect(name, QUIZZES_WITH_MISTAKES[name].encode())[1] >= registry.SNIFF_QUIZ


@pytest.mark.parametrize("path", sorted((ROOT / "quizzes").glob("*.txt")) + [ROOT / "examples" / "features.txt"])
def test_every_bundled_quiz_sniffs_as_sure(path):
    name, score = registry.detect(path, path.read_bytes())
    assert name == "text" and score >= 0.6, (name, score)


@pytest.fixture
def folder(tmp_path):
    course = tmp_path / "course"
    course.mkdir()
    for name, text in NOT_QUIZZES.items():
        (course / name).write_text(text, encoding="utf-8")
    for n in (1, 2):
        (course / f"quiz{n}.txt").write_text(QUIZ.format(n=n), encoding="utf-8")
    return course


def test_a_folder_build_skips_what_is_no_quiz_with_a_note(folder, tmp_path):
    result = _run("build", str(folder), "-f", "json", "-o", str(tmp_path / "out"))
    assert result.exit_code == 0, result.output
    skipped = [line for line in result.stdout.splitlines() if line.startswith("skipped ")]
    assert len(skipped) == len(NOT_QUIZZES)
    assert f"skipped {(folder / 'notes.txt').as_posix()}: not a quiz in any format lmsexport reads" in result.stdout
    assert sorted(p.name for p in (tmp_path / "out").glob("*.json")) == ["quiz1.json", "quiz2.json"]
    assert "2 built, 5 not quizzes: 2 questions, 2 packages written" in result.stderr


@pytest.mark.parametrize("name", sorted(QUIZZES_WITH_MISTAKES))
def test_a_quiz_with_mistakes_in_a_folder_still_gets_its_errors(folder, tmp_path, name):
    (folder / name).write_text(QUIZZES_WITH_MISTAKES[name], encoding="utf-8")
    result = _run("build", str(folder), "-f", "json", "-o", str(tmp_path / "out"))
    assert result.exit_code == 1
    assert f"{(folder / name).as_posix()}:" in result.stderr and ": error: " in result.stderr


def test_a_file_named_on_the_command_line_is_always_read(folder, tmp_path):
    result = _run("build", str(folder / "notes.txt"), str(folder), "-f", "json", "-o", str(tmp_path / "out"))
    assert result.exit_code == 1
    assert "notes.txt:1:1: error: no questions found [E401]" in result.stderr
    assert "notes.txt: not a quiz" not in result.stdout and "README.txt: not a quiz" in result.stdout


def test_a_bank_leaves_out_what_is_no_quiz(folder, tmp_path):
    results = lmsexport.build([folder], ["moodle"], tmp_path / "out", bank="course", lint=False)
    assert sum(result.ignored for result in results) == len(NOT_QUIZZES)
    assert (tmp_path / "out" / "course.moodle.xml").is_file()


def test_lint_skips_what_is_no_quiz(folder):
    result = _run("lint", str(folder))
    assert result.exit_code == 0, result.output
    assert "2 sources checked" in result.stderr and result.stderr.count("skipped ") == len(NOT_QUIZZES)


def test_a_second_build_of_the_current_folder_reads_nothing_from_its_output(folder, monkeypatch):
    """The issue's case: `lmsexport build . -f all` twice read its own dist/moodle/*.xml back (E003)."""
    monkeypatch.chdir(folder)
    first = _run("build", ".", "-f", "all")
    assert first.exit_code == 0, first.output
    (folder / "dist" / "stray.txt").write_text(QUIZ.format(n=9), encoding="utf-8")  # a quiz, but in dist/
    second = _run("build", ".", "-f", "all", "-f", "text")
    assert second.exit_code == 0, second.output
    assert "dist/" not in "".join(line.split(" -> ")[0] for line in second.stdout.splitlines())
    assert "E003" not in second.output and "stray" not in second.output
    assert (folder / "dist" / "text" / "quiz1.txt").is_file()
    third = _run("build", ".", "-f", "all", "-f", "text")
    assert third.stdout.count("up to date ") == 2 and "E003" not in third.output
