"""Quiz ids and file names: bounded, and the same in every locale.

A quiz id names the files a build writes, so it is at most `ids.ID_LIMIT` characters (a
230-character `id:` used to end in exit 4, `File name too long`). A file name is read as its
bytes in UTF-8 whatever the locale: under `LC_ALL=C` with Python's UTF-8 mode off, a non-ASCII
name used to give another quiz id, then exit 4 in the state file after writing. These run the
CLI in subprocesses, since the locale is fixed when Python starts.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from click.testing import CliRunner

import lmsexport
from conftest import ROOT
from lmsexport.cli import main
from lmsexport.ids import ID_LIMIT, slug

QUIZ = "Quiz\n\n1. Which?\n   *• {}\n   • other\n"
LOCALES = {
    "utf-8": {"LANG": "C.UTF-8"},
    "ascii (UTF-8 mode off)": {"LC_ALL": "C", "PYTHONUTF8": "0"},
    "LC_ALL=C": {"LC_ALL": "C"},
    "LANG=C": {"LANG": "C"},
}
"""Environments to run in; PYTHONIOENCODING is unset in each."""


def _lmsexport(locale: dict, *args: str) -> subprocess.CompletedProcess:
    env = {key: value for key, value in os.environ.items()
           if not key.startswith(("LC_", "LANG", "PYTHONIOENCODING", "PYTHONUTF8"))}
    env.update(locale, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "lmsexport", *args], capture_output=True, env=env, timeout=120)


@pytest.fixture
def sources(tmp_path):
    """Three sources with non-ASCII names, one of them not even UTF-8, and a non-ASCII image."""
    folder = tmp_path / "nguồn"
    folder.mkdir()
    (folder / "Bài kiểm tra.txt").write_text(QUIZ.format("một"), encoding="utf-8")
    (folder / "ảnh.png").write_bytes((ROOT / "examples" / "all-kinds" / "img" / "throughput.png").read_bytes())
    (folder / "café.gift").write_text('::Q:: [html]Look <img src="ảnh.png" alt="a graph"> {=yes ~no}\n', encoding="utf-8")
    try:
        (folder / os.fsdecode(b"latin \xe9t\xe9.txt")).write_text(QUIZ.format("two"), encoding="utf-8")
    except OSError:
        pytest.skip("this filesystem takes only UTF-8 file names")
    return folder


EXPECTED = {"bai-kiem-tra.qti.zip", "cafe.qti.zip", "latin-t.qti.zip"}


@pytest.mark.parametrize("locale", LOCALES.values(), ids=LOCALES)
def test_non_ascii_file_names_give_the_same_ids_and_state_in_any_locale(sources, locale):
    out, report = sources.parent / "đầu ra", sources.parent / "report.json"
    built = _lmsexport(locale, "build", str(sources), "-f", "qti", "-o", str(out), "--report", str(report), "-j", "1")
    assert built.returncode == 0, built.stderr.decode("utf-8", "replace")
    assert {path.name for path in out.iterdir() if not path.name.startswith(".")} == EXPECTED
    names = {os.path.basename(entry["source"]) for entry in json.loads(report.read_text("utf-8"))["sources"]}
    assert names == {"Bài kiểm tra.txt", "café.gift", "latin \ufffdt\ufffd.txt"}
    assert json.loads((out / ".lmsexport-state").read_bytes().decode("ascii"))["sources"]
    again = _lmsexport(locale, "build", str(sources), "-f", "qti", "-o", str(out), "-j", "1")
    assert again.returncode == 0 and again.stdout.count(b"up to date") == 3, again.stderr.decode("utf-8", "replace")


def test_a_state_written_in_one_locale_is_read_in_another(sources):
    out = sources.parent / "đầu ra"
    first = _lmsexport(LOCALES["utf-8"], "build", str(sources), "-f", "qti", "-o", str(out))
    assert first.returncode == 0, first.stderr.decode("utf-8", "replace")
    second = _lmsexport(LOCALES["ascii (UTF-8 mode off)"], "build", str(sources), "-f", "qti", "-o", str(out))
    assert second.returncode == 0 and second.stdout.count(b"up to date") == 3, second.stderr.decode("utf-8", "replace")


def test_validate_and_lint_name_undecodable_files_in_an_ascii_locale(sources):
    (sources / os.fsdecode(b"paquet \xe9.xml")).write_bytes(b"<nothing/>")
    checked = _lmsexport(LOCALES["ascii (UTF-8 mode off)"], "validate", str(sources))
    assert checked.returncode == 1 and "paquet \ufffd.xml" in checked.stdout.decode("utf-8")
    (sources / os.fsdecode(b"faut\xe9.txt")).write_text("Quiz\n\n1. Which?\n   *• same\n   • same\n", encoding="utf-8")
    linted = _lmsexport(LOCALES["ascii (UTF-8 mode off)"], "lint", str(sources), "-f", "json")
    assert linted.returncode == 1 and "4 sources checked: 1 error" in linted.stderr.decode("utf-8")
    (error,) = json.loads(linted.stdout)["findings"]
    assert error["code"] == "E204" and error["source"].endswith("/nguồn/faut\ufffd.txt")


def test_a_header_id_longer_than_the_limit_is_a_located_error(tmp_path):
    (tmp_path / "long.txt").write_text(f"---\nid: {'a' * 230}\n---\n" + QUIZ.format("x"), encoding="utf-8")
    result = CliRunner().invoke(main, ["build", str(tmp_path), "-f", "all", "-o", str(tmp_path / "out")])
    assert result.exit_code == 1, result.output
    assert f"long.txt:2:5: error: bad value '{'a' * 230}' for id" in result.stderr
    assert f"hint: an id is {ID_LIMIT} characters at most (it names the files a build writes); this one has 230" \
        in result.stderr
    assert not (tmp_path / "out").exists()


def test_an_id_made_from_a_long_file_name_is_shortened_with_a_digest(tmp_path):
    for name in ("a" * 240, "a" * 239 + "b"):
        (tmp_path / f"{name}.txt").write_text(QUIZ.format("x"), encoding="utf-8")
    result = CliRunner().invoke(main, ["build", str(tmp_path), "-f", "all", "-o", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    ids = {slug("a" * 240), slug("a" * 239 + "b")}
    assert len(ids) == 2 and all(len(quiz_id) == ID_LIMIT and quiz_id.startswith("a" * 90) for quiz_id in ids)
    assert {path.name for path in (tmp_path / "out" / "qti").iterdir()} == {f"{i}.qti.zip" for i in ids}


def test_other_readers_bound_ids_too(tmp_path):
    model = {"lmsexport-model": 1, "quiz": {"id": "m" * (ID_LIMIT + 1), "title": "t",
                                            "questions": [{"kind": "essay", "id": "q1", "prompt": {"value": "x"}}]}}
    with pytest.raises(lmsexport.SourceError, match="bad quiz id"):
        lmsexport.read("m.json", json.dumps(model))
    package = lmsexport.write(lmsexport.read("q.txt", QUIZ.format("x")), "qti")
    files = {**package.files, "test.xml": package.files["test.xml"].replace(b'identifier="q"', b'identifier="Q' + b"x" * 200 + b'"', 1)}
    assert len(lmsexport.read("q.zip", lmsexport.Package(files).to_bytes()).id) == ID_LIMIT


def test_a_bank_name_longer_than_the_limit_is_a_usage_error(tmp_path):
    (tmp_path / "q.txt").write_text(QUIZ.format("x"), encoding="utf-8")
    result = CliRunner().invoke(main, ["build", str(tmp_path), "-f", "moodle", "--bank", "b" * 101, "-o", str(tmp_path)])
    assert result.exit_code == 2 and f"use at most {ID_LIMIT} ASCII letters" in result.stderr
