"""The answer key in the quiz's language: the same 34 languages as the player, from the same
catalog (lmsexport/interface/messages), with the same fallback warning (W610), CLDR plural forms
for what it counts, the quiz's own `messages:` words, and right-to-left pages where the language
runs so."""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner
from lxml import html

import lmsexport
from conftest import ROOT
from lmsexport import Log
from lmsexport.cli import main
from lmsexport.interface import ANSWER_KEY, COUNTED, catalog, languages
from lmsexport.preview.key import SHARED, render

TEMPLATE = ROOT / "lmsexport" / "preview" / "templates" / "key.html.jinja"
ENGLISH = catalog("en")


def _source(lang: str | None, points: float = 1, body: str = "") -> str:
    header = f"---\nlang: {lang}\npoints: {points}\n---\n" if lang else ""
    return f"{header}Quiz\n\n1. A?\n   *• x\n   • y\n{body}"


def _key(lang: str | None, points: float = 1, body: str = "", log: Log | None = None):
    quiz = lmsexport.read("q.txt", _source(lang, points, body).encode())
    return html.fromstring(render(quiz, log))


def _words(node) -> str:
    return " ".join(node.text_content().split())


def test_the_key_uses_only_words_of_the_catalog_and_every_word_of_its_own():
    """Each `m.word` and counted `count("word", ...)` of the template is the key's own (`key_`) or
    one it shares with the player (`SHARED`, the counted `points`); no `key_` word goes unused."""
    template = TEMPLATE.read_text("utf-8")
    used = set(re.findall(r"\bm\.(\w+)", template)) | set(re.findall(r'count\("(\w+)"', template))
    assert used <= {key for key in ENGLISH if key.startswith(ANSWER_KEY)} | set(SHARED) | set(COUNTED)
    own = {key.rsplit("_", 1)[0] if key.rsplit("_", 1)[0] in COUNTED else key
           for key in ENGLISH if key.startswith(ANSWER_KEY)}
    assert own <= used | {"points"}


def test_the_key_speaks_every_language_the_player_speaks():
    assert len(languages()) >= 34
    for lang in languages():
        log = Log()
        page = _key(lang, log=log)
        assert page.get("lang") == lang and not log.diagnostics, lang
        kicker = _words(page.find(".//p[@class='kicker']"))
        assert kicker == catalog(lang)["key_title"], lang
        assert kicker != ENGLISH["key_title"] or lang == "en", lang


def test_the_player_s_pages_carry_none_of_the_key_s_words():
    quiz = lmsexport.read("q.txt", _source("cs").encode())
    page = html.fromstring(lmsexport.write(quiz, "scorm2004").files["index.html"])
    shown = json.loads(page.get_element_by_id("quiz-data").text)["messages"]
    assert "check" in shown and not [key for key in shown if key.startswith(ANSWER_KEY)]


@pytest.mark.parametrize("lang, direction", [("ar", "rtl"), ("fa", "rtl"), ("he", "rtl"), ("ur", "rtl"),
                                             ("az-Arab", "rtl"), ("zh", "ltr"), ("ja", "ltr"), ("yo", "ltr")])
def test_the_page_runs_the_way_its_language_is_written(lang, direction):
    assert _key(lang).get("dir") == direction


@pytest.mark.parametrize("lang, named", [
    ("ha", "Hausa (ha), so it shows its headings and labels in English (en)"),
    ("pt-PT", "Portuguese (Portugal) (pt-PT), so it shows its headings and labels in Portuguese (pt)"),
])
def test_a_language_without_words_of_its_own_is_the_player_s_warning_naming_the_fallback(lang, named):
    log = Log()
    page = _key(lang, log=log)
    (warning,) = log.diagnostics
    assert (warning.code, warning.message) == ("W610", f"the answer key has no interface text in {named}")
    assert "messages:" in warning.hint and "the answer key's words" in warning.hint
    assert page.get("lang") == lang


@pytest.mark.parametrize("lang", ["pt-BR", "en-US", "nb", "zh-CN", "cs", None])
def test_the_quiz_s_own_variety_is_no_warning(lang):
    log = Log()
    _key(lang, log=log)
    assert not log.diagnostics


def test_the_command_prints_the_warning_and_still_writes_the_key(tmp_path):
    (tmp_path / "ha.txt").write_text(_source("ha"), encoding="utf-8")
    result = CliRunner().invoke(main, ["key", str(tmp_path / "ha.txt"), "-o", str(tmp_path / "out")])
    assert result.exit_code == 0
    assert "warning: the answer key has no interface text in Hausa (ha)" in result.stderr and "[W610]" in result.stderr
    assert (tmp_path / "out" / "ha.key.html").exists()


POOL = """
Pool: Opakování
@draw: {draw}
@points: {points}

2. B?
   *• x
   • y

3. C?
   *• x
   • y
{more}
End pool
"""
MORE = "".join(f"\n{n}. Q{n}?\n   *• x\n   • y\n" for n in range(4, 7))


@pytest.mark.parametrize("lang, points, more, shown", [
    ("cs", 2, "", ["Opakování: každý pokus vybere 1 z těchto 2 otázek 2 body za každou", "Každý pokus: 2 otázky"]),
    ("cs", 1.5, MORE, ["Opakování: každý pokus vybere 1 z těchto 5 otázek 1,5 bodu za každou",
                       "Každý pokus: 2 otázky"]),
    ("ru", 5, MORE, ["Opakování: в каждой попытке 1 из этих 5 вопросов 5 баллов за каждый",
                     "В каждой попытке: 2 вопроса"]),
    ("ar", 2, "", ["Opakování: تسحب كل محاولة 1 من 2 سؤالين 2 نقطتان لكل سؤال", "كل محاولة: 2 سؤالان"]),
    ("en", 1, "", ["Opakování: each attempt draws 1 of these 2 questions 1 point each", "Each attempt: 2 questions"]),
])
def test_what_the_key_counts_takes_the_plural_form_of_the_language(lang, points, more, shown):
    body = POOL.format(draw=1, points=points, more=more)
    page = _key(lang, points, body)
    pool_heading = _words(page.find(".//h2[@class='pool-heading']"))
    facts = [_words(item) for item in page.xpath("//ul[@class='facts']/li")]
    assert [pool_heading, facts[1]] == shown


@pytest.mark.parametrize("lang, points, shown", [("cs", 1, "1 bod"), ("cs", 3, "3 body"), ("cs", 5, "5 bodů"),
                                                 ("pl", 22, "22 punkty"), ("de", 1000, "1.000 Punkte")])
def test_points_are_counted_and_written_as_the_language_does(lang, points, shown):
    page = _key(lang, points)
    assert _words(page.find(".//section//h2/span[@class='points']")) == shown


def test_the_quiz_s_messages_file_changes_the_key_too(tmp_path):
    (tmp_path / "words.json").write_text(json.dumps({"key_title": "Řešení", "true": "Ano"}), encoding="utf-8")
    source = "---\nlang: cs\nmessages: words.json\n---\nKvíz\n\n1. Je 2 + 2 = 4?\n   = true\n"
    (tmp_path / "quiz.txt").write_text(source, encoding="utf-8")
    page = html.fromstring(render(lmsexport.read(tmp_path / "quiz.txt")))
    assert _words(page.find(".//p[@class='kicker']")) == "Řešení"
    assert _words(page.find(".//p[@class='answer']")) == "Správná odpověď: Ano"


def test_labels_end_the_way_the_language_writes_them():
    """French sets a no-break space before the colon, Chinese a full-width colon."""
    body = "   > Because.\n"
    assert _key("fr", body=body).find(".//div[@class='explanation']/span").text == "Explication\u00a0:"
    assert _key("zh", body=body).find(".//div[@class='explanation']/span").text == "解析："


def test_a_messages_file_is_checked_against_the_key_s_words_too(tmp_path):
    words = {"key_total": "Celkem", "key_pool_draws_one": "{title}: {draw} z {count}"}
    (tmp_path / "words.json").write_text(json.dumps(words), encoding="utf-8")
    source = "---\nlang: cs\nmessages: words.json\n---\nKvíz\n\n1. A?\n   *• x\n   • y\n"
    (tmp_path / "quiz.txt").write_text(source, encoding="utf-8")
    with pytest.raises(lmsexport.SourceError) as caught:
        lmsexport.read(tmp_path / "quiz.txt")
    found = {d.message: d.hint for d in caught.value.diagnostics}
    assert found["the text of 'key_total' lacks {points}"] == (
        "the answer key's own text has {points}: 'Total: {points}'")
    assert "key_pool_draws is given in 1 of the 4 plural forms of Czech (cs)" in found
