"""The interface text of the SCORM player and the answer key: every language complete, picked for
the quiz's language with CLDR's fallbacks (and a warning when it is another variety), counted
words by CLDR's plural rules, numbers by the language's signs."""

from __future__ import annotations

import json
import unicodedata

import pytest
from lxml import html

import lmsexport
from conftest import ROOT
from lmsexport import Log
from lmsexport.interface import COUNTED, PLACEHOLDER, counted_key, plural_categories

MESSAGES = ROOT / "lmsexport" / "interface" / "messages"
CATALOGS = {path.stem: json.loads(path.read_text("utf-8")) for path in sorted(MESSAGES.glob("*.json"))}
ENGLISH = CATALOGS["en"]
REQUIRED = ("ar bn cs da de el en es fa fi fr he hi hu id it ja ko ms nl no pl pt ro ru sv sw th tr uk ur vi yo "
            "zh").split()


def _plain_keys(catalog: dict) -> list[str]:
    return [key for key in catalog if not counted_key(key)]


def test_the_player_speaks_the_languages_of_instruction_and_of_the_bundled_quizzes():
    bundled = {line.split(":", 1)[1].strip() for path in (*ROOT.glob("quizzes/*.txt"), *ROOT.glob("examples/**/*.txt"))
               for line in path.read_text("utf-8").splitlines() if line.startswith("lang:")}
    assert len(CATALOGS) >= 30
    assert set(REQUIRED) | bundled <= set(CATALOGS)


@pytest.mark.parametrize("lang", sorted(CATALOGS))
def test_every_language_has_every_key_with_the_same_placeholders(lang):
    catalog = CATALOGS[lang]
    assert _plain_keys(catalog) == _plain_keys(ENGLISH), lang
    for key in _plain_keys(catalog):
        text = catalog[key]
        assert sorted(PLACEHOLDER.findall(text)) == sorted(PLACEHOLDER.findall(ENGLISH[key])), (lang, key)
        assert text and text.strip() == text and unicodedata.is_normalized("NFC", text), (lang, key)


@pytest.mark.parametrize("lang", sorted(CATALOGS))
@pytest.mark.parametrize("stem", sorted(COUNTED))
def test_counted_words_have_a_form_for_each_cldr_plural_category(lang, stem):
    forms = [key.removeprefix(f"{stem}_") for key in CATALOGS[lang] if counted_key(key) == stem]
    assert forms == list(plural_categories(lang)), lang
    wanted = sorted(PLACEHOLDER.findall(ENGLISH[f"{stem}_other"]))
    assert COUNTED[stem] in wanted
    for form in forms:
        text = CATALOGS[lang][f"{stem}_{form}"]
        assert sorted(PLACEHOLDER.findall(text)) == wanted, (lang, stem, form)
        assert text.strip() == text and unicodedata.is_normalized("NFC", text), (lang, stem, form)


@pytest.mark.parametrize("lang", sorted(set(CATALOGS) - {"en"}))
def test_every_language_is_translated(lang):
    """A few words are the same in English and some languages ("Information", "Score")."""
    same = [key for key in _plain_keys(ENGLISH) if CATALOGS[lang][key] == ENGLISH[key]]
    assert len(same) <= 3, (lang, same)


def _page(lang: str | None, points: float = 1, log: Log | None = None) -> dict:
    header = f"---\nlang: {lang}\npoints: {points}\n---\n" if lang else ""
    quiz = lmsexport.read("q.txt", f"{header}Quiz\n\n1. A?\n   *• x\n   • y\n".encode())
    files = lmsexport.write(quiz, "scorm2004").files if log is None else _write(quiz, log)
    document = html.fromstring(files["index.html"])
    return json.loads(document.get_element_by_id("quiz-data").text)


def _write(quiz, log: Log) -> dict:
    package = lmsexport.write(quiz, "scorm2004")
    log.diagnostics.extend(package.warnings)
    return package.files


@pytest.mark.parametrize("tag, check", [
    ("cs", "Zkontrolovat odpověď"), ("yo", "Ṣàyẹ̀wò ìdáhùn"), ("pt-BR", "Verificar resposta"),
    ("FR-ca", "Vérifier la réponse"), ("nb", "Sjekk svaret"), ("no", "Sjekk svaret"), ("sw", "Kagua jibu"),
    ("zh-Hans", "检查答案"), ("zh-Hant-TW", "检查答案"), ("ha", "Check answer"), (None, "Check answer"),
])
def test_the_interface_is_in_the_quizs_language_or_its_nearest(tag, check):
    assert _page(tag)["messages"]["check"] == check


@pytest.mark.parametrize("tag, named", [
    ("ha", "Hausa (ha), so it shows its buttons and messages in English (en)"),
    ("pt-PT", "Portuguese (Portugal) (pt-PT), so it shows its buttons and messages in Portuguese (pt)"),
    ("zh-Hant", "Chinese (Traditional) (zh-Hant), so it shows its buttons and messages in Chinese (zh)"),
])
def test_a_language_without_words_of_its_own_is_a_warning_naming_the_fallback(tag, named):
    log = Log()
    _page(tag, log=log)
    (warning,) = [d for d in log.diagnostics if d.code == "W610"]
    assert warning.message == f"the player has no interface text in {named}"
    assert "messages:" in warning.hint


@pytest.mark.parametrize("tag", ["cs", "pt-BR", "en-US", "nb", "zh-CN", "yo", None])
def test_the_quizs_own_variety_is_no_warning(tag):
    log = Log()
    _page(tag, log=log)
    assert not [d for d in log.diagnostics if d.code == "W610"]


@pytest.mark.parametrize("lang, points, shown", [
    ("cs", 1, "1 bod"), ("cs", 3, "3 body"), ("cs", 1.5, "1,5 bodu"), ("cs", 5, "5 bodů"),
    ("pl", 2, "2 punkty"), ("pl", 5, "5 punktów"), ("pl", 22, "22 punkty"), ("pl", 2.5, "2,5 punktu"),
    ("ru", 1, "1 балл"), ("ru", 21, "21 балл"), ("ru", 4, "4 балла"), ("ru", 11, "11 баллов"),
    ("ar", 2, "2 نقطتان"), ("ar", 5, "5 نقاط"), ("ar", 11, "11 نقطة"),
    ("en", 1, "1 point"), ("en", 2.5, "2.5 points"), ("fr", 1.5, "1,5 point"), ("ja", 2, "2点"),
    ("hi", 150000, "1,50,000 अंक"), ("de", 1000, "1.000 Punkte"),
])
def test_points_take_the_plural_form_and_number_signs_of_the_language(lang, points, shown):
    (question,) = _page(lang, points)["questions"]
    assert question["pointsText"] == shown


def test_a_fallback_language_counts_by_the_rules_of_the_words_shown():
    """Hausa has no words of its own: the English forms are chosen by English rules."""
    (question,) = _page("ha", 2)["questions"]
    assert question["pointsText"] == "2 points"


@pytest.mark.parametrize("lang, signs", [
    ("cs", {"decimal": ",", "group": "\xa0", "grouping": [3, 3], "percent": ["", "\xa0%"]}),
    ("tr", {"decimal": ",", "group": ".", "grouping": [3, 3], "percent": ["%", ""]}),
    ("hi", {"decimal": ".", "group": ",", "grouping": [3, 2], "percent": ["", "%"]}),
    ("yo", {"decimal": ".", "group": ",", "grouping": [3, 3], "percent": ["", "%"]}),
])
def test_the_page_gets_the_number_signs_of_the_language(lang, signs):
    data = _page(lang)["numberFormat"]
    assert {key: data[key] for key in signs} == signs
