"""`lmsexport convert` and `lmsexport.convert()`: one file in, one file out, validated, atomic.

The messages are pinned in tests/cli/convert.md; these tests check what lands on disk."""

from __future__ import annotations

import warnings
import zipfile

import pytest
from click.testing import CliRunner

import lmsexport
from lmsexport.batch.conversion import NotConvertible
from lmsexport.cli import main

from conftest import ROOT

MOODLE = ROOT / "tests" / "fixtures" / "moodle" / "moodle-4-export.xml"
GOOD = "Capitals\n\n1. Which city is the capital of France?\n   *• Paris\n   • Lyon\n"


def test_a_moodle_bank_becomes_a_text_quiz_with_its_images_beside_it(tmp_path):
    log = lmsexport.Log()
    written = lmsexport.convert(MOODLE, "text", tmp_path, log=log)
    assert written == tmp_path / "week-1.txt"
    assert sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*") if p.is_file()) == [
        "flag fr.png", "sub/port.png", "week-1.txt"]
    # The Moodle reader: hints and partly-right feedback left out (W684, W685), and its multiple-answer
    # question costs 100 % per wrong option, read as right minus wrong (W671); the text writer loses nothing.
    assert sorted({d.code for d in log.diagnostics}) == ["W671", "W684", "W685"]
    original = lmsexport.read(MOODLE, log=lmsexport.Log())
    back = lmsexport.read(written)
    assert [q.id for q in back.questions] == [q.id for q in original.questions] == ["capital-fr", "primes"]
    assert back.assets == original.assets


def test_the_text_builds_to_every_format(tmp_path):
    text = lmsexport.convert(MOODLE, "text", tmp_path / "week-1.txt", log=lmsexport.Log())
    (tmp_path / "out").mkdir()
    for flavour, suffix in (("qti", ".qti.zip"), ("scorm12", ".scorm12.zip"), ("scorm2004", ".scorm2004.zip"),
                            ("moodle", ".moodle.xml"), ("json", ".json")):
        written = lmsexport.convert(text, flavour, tmp_path / "out")
        assert written == tmp_path / "out" / f"week-1{suffix}"
        assert lmsexport.validate(written) == []
    with zipfile.ZipFile(tmp_path / "out" / "week-1.qti.zip") as package:
        assert "items/sub/port.png" in package.namelist()


def test_the_default_output_is_the_quiz_id_in_the_current_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "in").mkdir()
    source = tmp_path / "in" / "capitals.txt"
    source.write_text(GOOD, encoding="utf-8")
    assert lmsexport.convert(source, "json") == tmp_path.joinpath("capitals.json").relative_to(tmp_path)
    assert (tmp_path / "capitals.json").is_file()


def test_a_file_is_never_converted_over_itself(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "capitals.txt").write_text(GOOD, encoding="utf-8")
    with pytest.raises(NotConvertible):
        lmsexport.convert("capitals.txt", "text")
    assert (tmp_path / "capitals.txt").read_text(encoding="utf-8") == GOOD


def test_data_and_format_as_for_read(tmp_path):
    written = lmsexport.convert("from-memory.quiz", "json", tmp_path, data=GOOD, format="text")
    assert written == tmp_path / "from-memory.json"


def test_warnings_go_to_the_log_or_are_python_warnings(tmp_path):
    source = ROOT / "tests" / "fixtures" / "qti21" / "kinds.json"
    log = lmsexport.Log()
    lmsexport.convert(source, "text", tmp_path / "a.txt", log=log)
    assert [d.code for d in log.diagnostics] == ["W454"]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        lmsexport.convert(source, "text", tmp_path / "b.txt")
    assert [w.category for w in caught] == [lmsexport.ConversionWarning]
    assert "lmsexport text cannot carry feedback on a gap's answers" in str(caught[0].message)


def test_a_bad_source_raises_and_writes_nothing(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("Quiz\n\n1. No mark?\n   • a\n   • b\n", encoding="utf-8")
    with pytest.raises(lmsexport.SourceError) as caught:
        lmsexport.convert(bad, "qti", tmp_path / "out")
    assert [d.code for d in caught.value.diagnostics] == ["E201"]
    assert not (tmp_path / "out").exists()


def test_an_unreadable_source_is_a_located_error(tmp_path):
    with pytest.raises(lmsexport.SourceError) as caught:
        lmsexport.convert(tmp_path / "missing.txt", "json", tmp_path)
    assert [d.code for d in caught.value.diagnostics] == ["E001"]


def test_images_cannot_go_to_standard_output_and_a_line_says_so():
    result = CliRunner().invoke(main, ["convert", str(MOODLE), "--to", "text", "-o", "-"])
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith("---\nid: week-1\nmarkup: html\n")
    assert "flag fr.png, sub/port.png not written (standard output takes one file)" in result.stderr


def test_standard_input_to_a_file(tmp_path):
    out = tmp_path / "out.qti.zip"
    result = CliRunner().invoke(main, ["convert", "-", "--to", "qti", "-o", str(out)], input=GOOD)
    assert result.exit_code == 0, result.stderr
    assert lmsexport.validate(out) == []
    assert result.stderr == f"converted <stdin> -> {out.as_posix()}\n"


PICTURE = "---\nmarkup: markdown\n---\nQuiz {n}\n\n1. What does ![a dot](img/dot.png) show?\n   *• a dot\n   • a line\n"
PNG = b"\x89PNG\r\n\x1a\n"


def _course(tmp_path, folders: dict[str, bytes]):
    for n, (folder, image) in enumerate(folders.items(), 1):
        (tmp_path / folder / "img").mkdir(parents=True, exist_ok=True)
        (tmp_path / folder / "img" / "dot.png").write_bytes(image)
        (tmp_path / folder / f"quiz{n}.txt").write_text(PICTURE.format(n=n), encoding="utf-8")


def test_build_to_text_writes_the_images_beside_the_quizzes_once(tmp_path):
    _course(tmp_path, {"course": PNG})
    (tmp_path / "course" / "quiz2.txt").write_text(PICTURE.format(n=2), encoding="utf-8")
    out = tmp_path / "out"
    first = CliRunner().invoke(main, ["build", str(tmp_path / "course"), "-f", "text", "-o", str(out)])
    assert first.exit_code == 0, first.output
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("[!.]*") if p.is_file()) == [
        "img/dot.png", "quiz1.txt", "quiz2.txt"]
    assert "2 built: 2 questions, 2 packages written" in first.stderr
    assert lmsexport.read(out / "quiz1.txt").assets[0].data == PNG
    again = CliRunner().invoke(main, ["build", str(tmp_path / "course"), "-f", "text", "-o", str(out)])
    assert again.stdout.count("up to date") == 2 and "E003" not in again.output


def test_two_images_of_one_name_cannot_share_an_output_folder(tmp_path):
    _course(tmp_path, {"week1": PNG, "week2": PNG + b"other"})
    result = CliRunner().invoke(main, ["build", str(tmp_path / "week1"), str(tmp_path / "week2"), "-f", "text",
                                       "-o", str(tmp_path / "out")])
    assert result.exit_code == 1
    assert "img/dot.png would be written by" in result.stderr and "with other content [E003]" in result.stderr


def test_convert_never_writes_an_image_over_another_file_of_that_name(tmp_path):
    """As a build refuses two images of one name (E003): the file there is kept, nothing is written."""
    _course(tmp_path, {"week1": PNG})
    out = tmp_path / "out"
    (out / "img").mkdir(parents=True)
    (out / "img" / "dot.png").write_bytes(PNG + b"other")
    result = CliRunner().invoke(main, ["convert", str(tmp_path / "week1" / "quiz1.txt"), "--to", "text",
                                       "-o", str(out)])
    assert result.exit_code == 1
    source = (tmp_path / "week1" / "quiz1.txt").as_posix()
    assert result.stderr.startswith(f"{source}:6:") and "error:" in result.stderr
    assert f"{(out / 'img' / 'dot.png').as_posix()} is already there with other content" in result.stderr
    assert "[E003]" in result.stderr and "hint: move or rename that file" in result.stderr
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()) == ["img/dot.png"]
    assert (out / "img" / "dot.png").read_bytes() == PNG + b"other"
    with pytest.raises(lmsexport.SourceError) as caught:
        lmsexport.convert(tmp_path / "week1" / "quiz1.txt", "text", out)
    assert [d.code for d in caught.value.diagnostics] == ["E003"]


def test_convert_leaves_an_identical_image_alone(tmp_path):
    _course(tmp_path, {"week1": PNG})
    out = tmp_path / "out"
    (out / "img").mkdir(parents=True)
    (out / "img" / "dot.png").write_bytes(PNG)
    before = (out / "img" / "dot.png").stat()
    written = lmsexport.convert(tmp_path / "week1" / "quiz1.txt", "text", out)
    assert lmsexport.read(written).assets[0].data == PNG
    after = (out / "img" / "dot.png").stat()
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)


def test_standard_input_of_any_format_is_told_by_its_content():
    result = CliRunner().invoke(main, ["convert", "-", "--to", "text", "-o", "-"], input=MOODLE.read_bytes())
    assert result.exit_code == 0, result.stderr
    assert "@id: capital-fr" in result.stdout
