"""Sources that used to crash (issue: hostile and broken input): each is a located error, exit 1,
and the other sources of the same build are still built."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from conftest import ROOT
from lmsexport.cli import main


def _model(points: str) -> str:
    quiz = {"id": "q", "title": "t", "questions": [{"kind": "essay", "id": "q1", "points": 0, "prompt": {"value": "x"}}]}
    return json.dumps({"lmsexport-model": 1, "quiz": quiz}).replace('"points": 0', f'"points": {points}')


CASES = [
    ("lone-surrogate.txt", b"\xff\xfe1\x00.\x00 \x00\x00\xd8", "lone-surrogate.txt:1:4: error: bytes 00 d8 at byte offset 8"),
    ("odd-length.txt", b"\xff\xfe1\x00.\x00 ", "odd-length.txt:1:3: error: the file ends in half a character"),
    ("huge.json", _model("1" + "0" * 400).encode(), "huge.json: error: the model is not valid: a number is too large"),
    ("digits.json", _model("9" * 5000).encode(), "digits.json: error: a number in it has too many digits"),
    ("nested.json", b'{"lmsexport-model": 1, "quiz": ' + b"[" * 100_000 + b"]" * 100_000 + b"}",
     "nested.json: error: the JSON is nested too deeply"),
    ("overflow.txt", "Quiz\n\n1. How many?\n   = 1e309\n".encode(), "overflow.txt:4:6: error: the number 1e309"),
]


@pytest.mark.parametrize("name, data, message", CASES, ids=[case[0] for case in CASES])
def test_is_a_located_error_and_the_others_still_build(tmp_path, name, data, message):
    (tmp_path / name).write_bytes(data)
    (tmp_path / "good.txt").write_bytes((ROOT / "examples" / "features.txt").read_bytes())
    result = CliRunner().invoke(main, ["build", str(tmp_path / name), str(tmp_path / "good.txt"), "-f", "json",
                                       "-o", str(tmp_path / "out"), "-j", "1"])
    assert result.exit_code == 1, result.output
    assert f"{tmp_path.as_posix()}/{message}" in result.stderr
    assert "  hint: " in result.stderr
    assert (tmp_path / "out" / "features.json").is_file()


@pytest.mark.parametrize("name, content, reason", [
    ("evil.svg", b'<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>', "holds a <script> element"),
    ("handler.svg", b'<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>', "has an event handler (onload=)"),
    ("page.png", b"<html><script>alert(1)</script></html>", "its content is not an image but text or markup"),
    ("empty.png", b"", "the file is empty"),
    ("archive.png", b"PK\x03\x04rest", "its content is not an image but a ZIP archive"),
])
def test_an_image_that_is_not_what_its_name_says_is_refused_at_its_line(tmp_path, name, content, reason):
    (tmp_path / name).write_bytes(content)
    source = tmp_path / "q.txt"
    source.write_text(f"---\nmarkup: markdown\n---\nT\n\n1. ![x]({name})\n   *• a\n   • b\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["build", str(source), "-f", "all", "-o", str(tmp_path / "out")])
    assert result.exit_code == 1
    assert f"q.txt:6:9: error: image '{name}' cannot be carried: " in result.stderr and reason in result.stderr
    assert not (tmp_path / "out").exists()


def test_a_safe_svg_and_a_gif_named_jpg_are_carried(tmp_path):
    (tmp_path / "ok.svg").write_bytes(b'<svg xmlns="http://www.w3.org/2000/svg"><circle r="4"/></svg>')
    (tmp_path / "photo.jpg").write_bytes(b"GIF89a" + bytes(20))
    source = tmp_path / "q.txt"
    source.write_text("---\nmarkup: markdown\n---\nT\n\n1. ![x](ok.svg) ![y](photo.jpg)\n   *• a\n   • b\n", "utf-8")
    result = CliRunner().invoke(main, ["build", str(source), "-f", "all", "-o", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
