"""Quiz ids from file names in any script: transliterated (anyascii), NCName-safe, stable."""

from __future__ import annotations

import unicodedata

import pytest
from click.testing import CliRunner
from hypothesis import given, strategies as st

import lmsexport
from lmsexport.cli import main
from lmsexport.model import is_identifier

QUIZ = "Quiz\n\n1. A?\n   *• x\n   • y\n"

NAMES = {
    "Cyrillic": ("Викторина по географии", "viktorina-po-geografii"),
    "Greek": ("Κουίζ γεωγραφίας", "koyiz-geografias"),
    "Arabic": ("اختبار الجغرافيا", "khtbr-ljghrfy"),
    "Hebrew": ("מבחן בגאוגרפיה", "mvhn-vg-vgrfyh"),
    "Devanagari": ("भूगोल प्रश्नोत्तरी", "bhugol-prsnottri"),
    "Thai": ("แบบทดสอบภูมิศาสตร์", "aebbthdsobphumisastr"),
    # Han and Hangul syllables are parted, as pinyin and romanised Korean are read.
    "Han": ("地理测验", "de-li-ce-yan"),
    "Hangul": ("지리 퀴즈", "ji-li-kwi-jeu"),
    "Yoruba": ("Ìdánwò Ẹ̀kọ́ Ilẹ̀ Ayé", "idanwo-eko-ile-aye"),
    "Vietnamese": ("Bài kiểm tra Tiếng Việt", "bai-kiem-tra-tieng-viet"),
}


def _id(stem: str, suffix: str = ".txt") -> str:
    return lmsexport.read(f"quizzes/{stem}{suffix}", QUIZ.encode()).id


@pytest.mark.parametrize("script", NAMES)
def test_a_file_name_in_any_script_gives_a_readable_id(script):
    name, expected = NAMES[script]
    assert _id(name) == expected


@pytest.mark.parametrize("script", NAMES)
def test_a_decomposed_file_name_gives_the_same_id(script):
    """macOS hands out file names decomposed (NFD)."""
    name, expected = NAMES[script]
    assert _id(unicodedata.normalize("NFD", name)) == expected


def test_latin_names_keep_the_ids_they_had():
    assert _id("Week 3: Ölçüm") == "week-3-olcum"
    assert _id("MyQuiz") == "myquiz"
    assert _id("000_abc") == "quiz-000-abc"
    assert _id("Quiz地理") == "quiz-de-li"


def test_every_reader_of_named_files_uses_it():
    gift = "::q1:: Столица?{=Москва ~Казань}\n"
    aiken = "Столица?\nA. Москва\nB. Казань\nANSWER: A\n"
    assert lmsexport.read("Викторина.gift", gift.encode()).id == "viktorina"
    assert lmsexport.read("Викторина.aiken", aiken.encode()).id == "viktorina"


def test_quizzes_named_in_other_scripts_no_longer_collide(tmp_path):
    for script in NAMES:
        (tmp_path / f"{NAMES[script][0]}.txt").write_text(QUIZ, encoding="utf-8")
    result = CliRunner().invoke(main, ["build", str(tmp_path), "-f", "json", "-o", str(tmp_path / "out")])
    assert result.exit_code == 0, result.stderr
    assert sorted(p.stem for p in (tmp_path / "out").glob("*.json")) == sorted(v[1] for v in NAMES.values())


@given(st.text(min_size=1, max_size=80))
def test_any_name_gives_an_ncname_and_the_same_one_each_time(name):
    stem = name.replace("/", "").replace("\\", "").replace(".", "") or "x"
    first = _id(stem)
    assert is_identifier(first) and first == _id(stem)
