"""One answer per text question in every format: visible words, titles, shortening, direction.

Each test writes the same quiz in several formats through `lmsexport.write` and compares what
they made of it; `lmsexport.text` is asked directly only for its data-driven answers.
"""

from __future__ import annotations

import json
import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st
from lxml import etree, html

import lmsexport
from lmsexport import text
from lmsexport.model import Choice, MultipleChoice, Quiz, Text

TWO_PARAGRAPHS = "<p>First paragraph.</p><p>Second one?</p>"


def _quiz(prompt: Text, *, lang: str | None = None, title: str = "Quiz") -> Quiz:
    choices = (Choice(id="a", text=Text("yes"), correct=True), Choice(id="b", text=Text("no")))
    question = MultipleChoice(id="q1", prompt=prompt, choices=choices, lang=lang)
    return Quiz(id="quiz", title=title, lang="en", questions=(question,))


def _qti_title(quiz: Quiz) -> str:
    return etree.fromstring(lmsexport.write(quiz, "qti").files["items/q1.xml"]).get("title")


def _moodle(quiz: Quiz):
    (content,) = lmsexport.write(quiz, "moodle").files.values()
    return etree.fromstring(content)


def _moodle_name(quiz: Quiz) -> str:
    return _moodle(quiz).findtext("question[@type='multichoice']/name/text")


def _player_data(quiz: Quiz, flavour: str = "scorm2004") -> dict:
    page = html.fromstring(lmsexport.write(quiz, flavour).files["index.html"])
    return json.loads(page.get_element_by_id("quiz-data").text)


def test_a_prompt_gets_one_title_in_every_format():
    quiz = _quiz(Text(TWO_PARAGRAPHS, "html"))
    assert _qti_title(quiz) == _moodle_name(quiz) == "First paragraph. Second one?"
    assert _player_data(quiz)["questions"][0]["description"] == "First paragraph. Second one?"


def test_a_long_prompt_is_shortened_alike_in_every_format():
    quiz = _quiz(Text("Which of these " + "very " * 30 + "long words is the right one?"))
    title = _qti_title(quiz)
    assert title == _moodle_name(quiz) == text.shorten(text.words(quiz.questions[0].prompt), text.TITLE_LENGTH)
    assert len(title) <= text.TITLE_LENGTH and title.endswith("very…")


def test_a_long_scorm_12_title_is_cut_at_a_word():
    quiz = _quiz(Text("Well?"), title="An introduction " + "to parallelism " * 20)
    package = lmsexport.write(quiz, "scorm12")
    manifest = etree.fromstring(package.files["imsmanifest.xml"])
    (cut,) = {node.text for node in manifest.iter("{*}title")}
    assert len(cut) <= 200 and cut.endswith("…") and quiz.title.startswith(cut[:-1] + " ")
    assert [warning.code for warning in package.warnings] == ["W601"]


def test_visible_words_drop_markup_keep_alt_texts_and_separate_blocks():
    assert text.html_words("<b>wo</b>rd<br>next<img src='a.png' alt='a map'>&amp; <!-- note -->end") == \
        "word next a map & end"
    assert text.html_words("<p>a</p><script>x()</script><p>b</p>") == "a b"
    assert text.html_words('bold<img src="x">link') == "boldlink"  # an image without alt shows no words
    assert text.html_words("use <code>%s</code> here", code=False) == "use here"
    assert text.html_words("&#1;e&#769;") == "é"  # no character XML cannot hold; NFC


@pytest.mark.parametrize("tag, direction", [
    ("ar", "rtl"), ("he", "rtl"), ("fa-IR", "rtl"), ("ur", "rtl"), ("arc", "rtl"), ("syr", "rtl"), ("dv", "rtl"),
    ("ckb", "rtl"), ("ps", "rtl"), ("sd", "rtl"), ("ug", "rtl"), ("yi", "rtl"), ("nqo", "rtl"), ("ks", "rtl"),
    ("IW", "rtl"), ("pa-PK", "rtl"), ("zh-yue-HK", "ltr"), ("ar-aeb", "rtl"),
    ("az-Arab", "rtl"), ("ar-Latn", "ltr"), ("sd-Deva", "ltr"), ("ff-Adlm", "rtl"), ("rhg-Rohg", "rtl"),
    ("en-Syrc", "rtl"), ("en-Thaa", "rtl"), ("en-Hebr", "rtl"), ("sam-Samr", "rtl"), ("ar-Qaaa", "rtl"),
    ("pa", "ltr"), ("ku", "ltr"), ("yo", "ltr"), ("en", "ltr"), ("zh-Hans", "ltr"), ("en-x-arab", "ltr"),
    ("qaa", "ltr"), (None, "ltr"),
])
def test_direction(tag, direction):
    assert text.direction(tag) == direction


def test_direction_agrees_with_every_cldr_locale():
    """Babel's CLDR locales each say which way they are written; the script-based answer
    (CLDR likely subtags, then Unicode's bidi classes) must give the same for every one."""
    from babel import Locale, localedata

    wrong = []
    for identifier in localedata.locale_identifiers():
        expected = "rtl" if Locale.parse(identifier).character_order == "right-to-left" else "ltr"
        if text.direction(identifier.replace("_", "-")) != expected:
            wrong.append(identifier)
    assert not wrong


def test_aramaic_runs_right_to_left_in_moodle_and_in_the_scorm_player():
    quiz = _quiz(Text("ܫܠܡܐ؟"), lang="arc")
    questiontext = _moodle(quiz).findtext("question[@type='multichoice']/questiontext/text")
    assert questiontext.startswith('<div lang="arc" dir="rtl">')
    assert _player_data(quiz)["questions"][0]["dir"] == "rtl"


@given(st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=80), st.integers(1, 60))
def test_shorten_keeps_within_the_limit_and_never_parts_a_letter_from_its_marks(value, limit):
    short = text.shorten(value, limit)
    assert len(short) <= limit
    if short != value:
        kept = short.removesuffix("…")
        assert short.endswith("…") and value.startswith(kept) and not kept.endswith("\u200d")
        assert not kept or not unicodedata.category(value[len(kept)]).startswith("M")
