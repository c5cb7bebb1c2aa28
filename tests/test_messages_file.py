"""`messages:`: a quiz's own words for the SCORM player, from its header or lmsexport.toml,
checked against the player's keys with every problem located in the file."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from lxml import html

import lmsexport
from lmsexport import SourceError
from lmsexport.cli import main

QUIZ = """---
lang: {lang}
messages: {file}
points: 2
---
Kvíz

1. Kolik je 2 + 2?
   *• 4
   • 5
"""
CZECH_POINTS = {"points_one": "{points} bod", "points_few": "{points} body", "points_many": "{points} bodu",
                "points_other": "{points} bodů"}


def _quiz(tmp_path, words, lang="cs", file="words.json", text=QUIZ):
    (tmp_path / file).write_text(words if isinstance(words, str) else json.dumps(words, ensure_ascii=False, indent=1),
                                 encoding="utf-8")
    path = tmp_path / "quiz.txt"
    path.write_text(text.format(lang=lang, file=file), encoding="utf-8")
    return path


def _page(quiz) -> dict:
    files = lmsexport.write(quiz, "scorm2004").files
    return json.loads(html.fromstring(files["index.html"]).get_element_by_id("quiz-data").text)


def _problems(path) -> list[tuple[str, int, int, str]]:
    with pytest.raises(SourceError) as caught:
        lmsexport.read(path)
    return [(d.code, d.span.line, d.span.column, d.span.source.rsplit("/", 1)[-1]) for d in caught.value.diagnostics]


def test_the_files_words_replace_the_players_and_count_by_the_quizs_language(tmp_path):
    quiz = lmsexport.read(_quiz(tmp_path, {"check": "Ověřit", **CZECH_POINTS, "points_few": "{points} bodíky"}))
    assert dict(quiz.settings.messages)["check"] == "Ověřit"
    data = _page(quiz)
    assert data["messages"]["check"] == "Ověřit"
    assert data["messages"]["next"] == "Další otázka"            # the rest: the player's Czech
    assert data["questions"][0]["pointsText"] == "2 bodíky"


def test_words_for_a_language_the_player_does_not_speak_follow_its_plural_rules(tmp_path):
    """Hausa counts in one and other (CLDR); the file's forms are picked by Hausa's rules."""
    quiz = lmsexport.read(_quiz(tmp_path, {"check": "Duba amsa", "points_one": "maki {points}",
                                           "points_other": "maki {points}"}, lang="ha"))
    data = _page(quiz)
    assert (data["messages"]["check"], data["questions"][0]["pointsText"]) == ("Duba amsa", "maki 2")


def test_a_partial_file_still_warns_and_a_full_one_does_not(tmp_path):
    english = _page(lmsexport.read("e.txt", "Quiz\n\n1. A?\n   *• x\n   • y\n".encode()))["messages"]
    full = {**{key: f"({text})" for key, text in english.items()},
            "points_one": "{points} maki", "points_other": "{points} maki"}
    partial = lmsexport.read(_quiz(tmp_path, {"check": "Duba amsa"}, lang="ha"))
    assert [d.code for d in lmsexport.write(partial, "scorm12").warnings] == ["W610"]
    whole = lmsexport.read(_quiz(tmp_path, full, lang="ha"))
    assert [d.code for d in lmsexport.write(whole, "scorm12").warnings] == []


def test_every_problem_of_the_file_is_located_at_its_key(tmp_path):
    words = """{
  "check": "Ověřit",
  "chek": "x",
  "finish": "Hotovo {total}",
  "question": "Otázka",
  "points_one": "{points} bod",
  "points_two": "{points} body",
  "next": 3,
  "check": "Znovu"
}
"""
    assert _problems(_quiz(tmp_path, words)) == [
        ("E123", 3, 3, "words.json"), ("E124", 4, 3, "words.json"), ("E124", 5, 3, "words.json"),
        ("E124", 6, 3, "words.json"), ("E123", 7, 3, "words.json"), ("E122", 8, 3, "words.json"),
        ("E122", 9, 3, "words.json"),
    ]


def test_the_hints_say_what_to_write(tmp_path):
    path = _quiz(tmp_path, {"chek": "x", "question": "Otázka", "points_one": "{points} bod"})
    with pytest.raises(SourceError) as caught:
        lmsexport.read(path)
    messages = {d.message: d.hint for d in caught.value.diagnostics}
    assert messages["unknown message key 'chek'"].startswith("did you mean 'check'?")
    assert messages["the text of 'question' lacks {number}"] == (
        "the player's own text has {number}: 'Question {number}'")
    assert messages["points is given in 1 of the 4 plural forms of Czech (cs)"] == (
        "give points_few, points_many, points_other too (CLDR's categories: one, few, many, other)")


@pytest.mark.parametrize("words, code, line, column", [
    ('{"check": "x",}', "E122", 1, 15),
    ('["check"]', "E122", 1, 1),
    ('{"check": ""}', "E122", 1, 2),
    (b'{"check": "Ov\xec\xf8it"}', "E101", 1, 14),
])
def test_a_file_that_is_no_object_of_texts_is_an_error_where_it_breaks(tmp_path, words, code, line, column):
    path = _quiz(tmp_path, "")
    (tmp_path / "words.json").write_bytes(words if isinstance(words, bytes) else words.encode())
    assert _problems(path) == [(code, line, column, "words.json")]


def test_a_missing_file_is_an_error_at_the_header_line(tmp_path):
    path = _quiz(tmp_path, {}, file="words.json")
    (tmp_path / "words.json").unlink()
    assert _problems(path) == [("E121", 3, 1, "quiz.txt")]


@pytest.mark.parametrize("value", ["/etc/words.json", "../words.json", "words.txt"])
def test_the_setting_names_a_json_file_beside_the_quiz(tmp_path, value):
    path = tmp_path / "quiz.txt"
    path.write_text(QUIZ.format(lang="cs", file=value), encoding="utf-8")
    assert _problems(path) == [("E112", 3, 11, "quiz.txt")]


def test_lmsexport_toml_defaults_name_a_file_beside_it(tmp_path):
    (tmp_path / "course" / "week1").mkdir(parents=True)
    (tmp_path / "course" / "lmsexport.toml").write_text('[defaults]\nlang = "cs"\nmessages = "cs.json"\n', "utf-8")
    (tmp_path / "course" / "cs.json").write_text('{"check": "Ověřit"}', encoding="utf-8")
    (tmp_path / "course" / "week1" / "quiz.txt").write_text("Kvíz\n\n1. A?\n   *• x\n   • y\n", encoding="utf-8")
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["build", str(tmp_path / "course"), "-f", "json", "-o", str(out)])
    assert result.exit_code == 0, result.stderr
    model = json.loads((out / "quiz.json").read_text("utf-8"))
    assert model["quiz"]["settings"]["messages"] == [["check", "Ověřit"]]


def test_a_bad_file_named_by_lmsexport_toml_is_reported_for_the_quiz(tmp_path):
    (tmp_path / "lmsexport.toml").write_text('[defaults]\nmessages = "cs.json"\n', "utf-8")
    (tmp_path / "cs.json").write_text('{\n  "chek": "Ověřit"\n}', encoding="utf-8")
    (tmp_path / "quiz.txt").write_text("Kvíz\n\n1. A?\n   *• x\n   • y\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["build", str(tmp_path), "-f", "json", "-o", str(tmp_path / "out")])
    assert result.exit_code == 1
    assert f"{(tmp_path / 'cs.json').as_posix()}:2:3: error: unknown message key 'chek' [E123]" in result.stderr


def test_a_missing_file_named_by_lmsexport_toml_is_an_error_of_the_toml(tmp_path):
    (tmp_path / "lmsexport.toml").write_text('[defaults]\nmessages = "cs.json"\n', "utf-8")
    (tmp_path / "quiz.txt").write_text("Kvíz\n\n1. A?\n   *• x\n   • y\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["build", str(tmp_path), "-f", "json", "-o", str(tmp_path / "out")])
    assert result.exit_code == 1 and "defaults.messages: cannot read" in result.stderr and "[E701]" in result.stderr


def test_a_changed_file_rebuilds_the_quiz(tmp_path):
    path = _quiz(tmp_path, {"check": "Ověřit"})
    out = tmp_path / "out"
    build = ["build", str(path), "-f", "scorm2004", "-o", str(out)]
    assert CliRunner().invoke(main, build).exit_code == 0
    assert "up to date" in CliRunner().invoke(main, build).stderr
    (tmp_path / "words.json").write_text('{"check": "Zkontrolovat"}', encoding="utf-8")
    again = CliRunner().invoke(main, build)
    assert again.exit_code == 0 and "up to date" not in again.stderr, again.stderr


def test_converting_to_text_writes_the_words_beside_it_and_reads_back_the_same(tmp_path):
    quiz = lmsexport.read(_quiz(tmp_path, {"check": "Ověřit", **CZECH_POINTS}))
    (tmp_path / "text").mkdir()
    written = lmsexport.convert(tmp_path / "quiz.txt", "text", tmp_path / "text")
    assert "messages: quiz.messages.json" in written.read_text("utf-8")
    assert lmsexport.read(written).settings.messages == quiz.settings.messages


def test_the_model_json_carries_the_words(tmp_path):
    quiz = lmsexport.read(_quiz(tmp_path, {"check": "Ověřit"}))
    package = lmsexport.write(quiz, "json")
    (name, data), = package.files.items()
    assert lmsexport.read(name, data).settings.messages == (("check", "Ověřit"),)
