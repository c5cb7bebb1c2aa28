"""What a format cannot hold at all fails the source, at its line (exit 1), instead of a package
that fails its own schema (exit 3): texts past what XML parsers read (E005), images past what
one Moodle `<file>` carries (E006), time limits past SCORM 1.2's (E007). Each limit is tested
on both sides of its bound."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

import lmsexport
from lmsexport.cli import main
from lmsexport.formats.moodle.limits import FILE_LIMIT
from lmsexport.formats.scorm.limits import TIME_LIMIT_12
from lmsexport.model import TIME_LIMIT_MAX, Asset, Choice, MultipleChoice, Quiz, Settings, Text
from lmsexport.xml import TEXT_LIMIT

QUESTION = "1. Which?\n   *• x\n   • y\n"


def _quiz(prompt: str = "Which?", *, assets=(), settings=Settings(), title="T", description=None,
          html: bool = False) -> Quiz:
    question = MultipleChoice(id="q1", prompt=Text(prompt, "html" if assets or html else "plain"), choices=(
        Choice(id="a", text=Text("x"), correct=True), Choice(id="b", text=Text("y"))))
    return Quiz(id="limits", title=title, questions=(question,), assets=assets, settings=settings,
                description=description)


def _png(size: int) -> bytes:
    """A file of `size` bytes that starts as a PNG does (images are judged by their first bytes)."""
    return b"\x89PNG\r\n\x1a\n" + bytes(size - 8)


def _build(tmp_path, *args):
    """Build `tmp_path` (a folder, or a file and more files among `args`) into its folder's out/."""
    folder = tmp_path if tmp_path.is_dir() else tmp_path.parent
    named = [str(arg) for arg in args]
    result = CliRunner().invoke(main, ["build", str(tmp_path), *named, "-o", str(folder / "out"), "--no-lint"])
    return result, folder.as_posix()


@pytest.mark.parametrize("flavour", ["qti", "moodle"])
def test_a_text_at_the_limit_is_written_and_one_byte_more_is_refused(flavour):
    assert lmsexport.validate(lmsexport.write(_quiz("é" * (TEXT_LIMIT // 2)), flavour)) == []
    with pytest.raises(lmsexport.SourceError) as refused:
        lmsexport.write(_quiz("é" * (TEXT_LIMIT // 2) + "a"), flavour)
    (error,) = refused.value.diagnostics
    assert error.code == "E005" and f"holds a text of {TEXT_LIMIT + 1:,} bytes" in error.message


@pytest.mark.parametrize("flavour", ["qti", "canvas", "moodle"])
def test_an_html_text_past_the_limit_is_refused_not_dropped(flavour):
    """libxml2's HTML parser drops a text past the limit without a word: the QTI and Canvas writers,
    which rebuild HTML, wrote an empty prompt (xml.html_fragment parses the model's HTML whole)."""
    with pytest.raises(lmsexport.SourceError) as refused:
        lmsexport.write(_quiz("<p>" + "w" * (TEXT_LIMIT + 1) + "</p>", html=True), flavour)
    (error,) = refused.value.diagnostics
    assert error.code == "E005" and error.message.startswith("question 1 holds a text of 10,000,0")


def test_a_long_title_and_description_are_refused_where_they_land():
    """Attributes count as written (escapes included), a little short of the text limit."""
    with pytest.raises(lmsexport.SourceError) as refused:
        lmsexport.write(_quiz(title='"' * 2_000_000), "qti")
    assert [(d.code, d.message.split(";")[0]) for d in refused.value.diagnostics] == [
        ("E005", "the quiz holds a text of 12,000,000 bytes (@title)")]
    with pytest.raises(lmsexport.SourceError) as refused:
        lmsexport.write(_quiz(description=Text("d" * (TEXT_LIMIT + 1))), "scorm2004")
    assert "the quiz holds a text of 10,000,001 bytes (metadata/lom/general/description/string)" in str(refused.value)


def test_a_source_with_too_long_a_text_fails_at_its_line_and_the_others_build(tmp_path):
    (tmp_path / "long.txt").write_text(f"Long\n\nSome words.\n\n1. {'a' * TEXT_LIMIT}?\n   *• x\n   • y\n")
    (tmp_path / "good.txt").write_text(f"Good\n\n{QUESTION}")
    # Named: a folder search judges a file by its first 8 kB (sniffing.HEAD), where this question is not yet asked.
    result, folder = _build(tmp_path / "long.txt", tmp_path / "good.txt", "-f", "qti,moodle,scorm2004", "-j", "1")
    assert result.exit_code == 1, result.output
    assert f"{folder}/long.txt:5:1: error: question 1 holds a text of 10,000,001 bytes (itemBody/div); a QTI 2.1 " \
           "file cannot carry a text over 10,000,000 bytes" in result.stderr
    assert f"{folder}/long.txt:5:1: error: question 1 holds a text of 10,000,001 bytes (questiontext/text); a " \
           "Moodle XML file cannot" in result.stderr
    written = sorted(p.name for p in (tmp_path / "out").rglob("*") if p.is_file() and not p.name.startswith("."))
    assert written == ["good.moodle.xml", "good.qti.zip", "good.scorm2004.zip"]


def test_moodle_carries_an_image_at_its_limit():
    image = Asset(path="big.png", media_type="image/png", data=_png(FILE_LIMIT))
    package = lmsexport.write(_quiz('<img src="big.png" alt="big">', assets=(image,)), "moodle")
    assert lmsexport.validate(package) == []


def test_a_larger_image_fails_a_moodle_build_at_its_question_but_not_a_qti_one(tmp_path):
    (tmp_path / "big.png").write_bytes(_png(FILE_LIMIT + 1))
    (tmp_path / "pics.txt").write_text("---\nmarkup: markdown\n---\nPics\n\n1. Is this\n   ![x](big.png) big?\n"
                                       "   *• yes\n   • no\n")
    result, folder = _build(tmp_path, "-f", "moodle")
    assert result.exit_code == 1, result.output
    assert f"{folder}/pics.txt:7:9: error: question 1 shows the image 'big.png' of 7,500,001 bytes; a Moodle XML " \
           "file carries an image of 7,500,000 bytes at most" in result.stderr
    assert not (tmp_path / "out").exists()
    result, _ = _build(tmp_path, "-f", "qti")
    assert result.exit_code == 0, result.output


def test_a_bank_is_not_written_when_a_quiz_is_more_than_moodle_holds(tmp_path):
    (tmp_path / "big.png").write_bytes(_png(FILE_LIMIT + 1))
    (tmp_path / "pics.txt").write_text("---\nmarkup: markdown\n---\nPics\n\n1. ![x](big.png)\n   *• a\n   • b\n")
    (tmp_path / "good.txt").write_text(f"Good\n\n{QUESTION}")
    result, folder = _build(tmp_path, "-f", "moodle", "--bank", "all")
    assert result.exit_code == 1, result.output
    assert f"{folder}/pics.txt:6:9: error: question 1 shows the image 'big.png'" in result.stderr
    assert not (tmp_path / "out").exists()


def test_scorm12_says_its_longest_time_limit():
    package = lmsexport.write(_quiz(settings=Settings(time_limit=TIME_LIMIT_12)), "scorm12")
    assert lmsexport.validate(package) == []
    assert b"<adlcp:maxtimeallowed>9999:59:59</adlcp:maxtimeallowed>" in package.files["imsmanifest.xml"]


def test_a_longer_time_limit_fails_scorm12_at_the_header_line_and_scorm2004_takes_it(tmp_path):
    (tmp_path / "slow.txt").write_text(f"---\nid: slow\ntime: 10000000 h\n---\nSlow\n\n{QUESTION}")
    result, folder = _build(tmp_path, "-f", "scorm12,scorm2004")
    assert result.exit_code == 1, result.output
    assert f"{folder}/slow.txt:3:7: error: the time limit of 10,000,000 h 0 min 0 s is more than SCORM 1.2 can say" \
           in result.stderr
    assert not (tmp_path / "out").exists()
    result, _ = _build(tmp_path, "-f", "scorm2004")
    assert result.exit_code == 0, result.output


def test_the_api_raises_what_a_writer_refuses():
    with pytest.raises(lmsexport.SourceError, match=r"E007"):
        lmsexport.write(_quiz(settings=Settings(time_limit=TIME_LIMIT_12 + 1)), "scorm12")


@pytest.mark.parametrize("name, content, message", [
    ("header.txt", f"---\ntime: {2 ** 53 // 3600 + 1} h\n---\nT\n\n{QUESTION}",
     "header.txt:2:7: error: bad value '2501999792984 h' for time"),
    ("model.json", json.dumps({"lmsexport-model": 1, "quiz": {
        "id": "m", "title": "t", "settings": {"time_limit": 2 ** 53 + 1},
        "questions": [{"kind": "essay", "id": "q1", "prompt": {"value": "x"}}]}}),
     "model.json: error: the model is not valid: a time limit must be a second or more, and 9007199254740992 seconds"),
])
def test_a_time_limit_no_format_can_count_is_a_reader_error(tmp_path, name, content, message):
    assert TIME_LIMIT_MAX == 2 ** 53
    (tmp_path / name).write_text(content)
    result, folder = _build(tmp_path, "-f", "json")
    assert result.exit_code == 1, result.output
    assert f"{folder}/{message}" in result.stderr


def test_a_qti_time_limit_scorm12_cannot_say_is_refused_at_its_timelimits_line():
    package = lmsexport.write(_quiz(settings=Settings(time_limit=TIME_LIMIT_12 + 1)), "qti")
    quiz = lmsexport.read("quiz.zip", package.to_bytes())
    with pytest.raises(lmsexport.SourceError) as refused:
        lmsexport.write(quiz, "scorm12")
    (error,) = refused.value.diagnostics
    line = next(number for number, text in enumerate(package.files["test.xml"].decode().splitlines(), 1)
                if "timeLimits" in text)
    assert (error.code, str(error.span)) == ("E007", f"quiz.zip!test.xml:{line}")


@pytest.mark.parametrize("max_time", ["1e999", "nan", "0", "-5", "1e300"])
def test_a_qti_time_limit_out_of_range_is_a_reader_error(max_time):
    package = lmsexport.write(_quiz(settings=Settings(time_limit=60)), "qti")
    files = {**package.files, "test.xml": package.files["test.xml"].replace(b'maxTime="60"', f'maxTime="{max_time}"'.encode())}
    data = lmsexport.Package(files).to_bytes()
    with pytest.raises(lmsexport.SourceError) as refused:
        lmsexport.read("quiz.zip", data)
    (error,) = refused.value.diagnostics
    assert (error.code, error.span.source) == ("E804", "quiz.zip!test.xml") and error.span.line > 0
    assert f"the time limit maxTime={max_time!r} is not from 1 to 9007199254740992 seconds" in error.message
    assert error.hint.startswith("set maxTime to the time limit in seconds")


def test_moodle_s_image_limit_is_xml_s_text_limit_in_base64():
    assert FILE_LIMIT == TEXT_LIMIT // 4 * 3
