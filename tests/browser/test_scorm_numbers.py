"""Typed numbers in the SCORM player, in Chromium against scorm-again: as the quiz's language writes them.

A Czech learner types `78,9` (and `78.9`, `1 000`, the unit or not), an Arabic learner Arabic-Indic
digits with the Arabic decimal separator; each answer is right, and the LMS records the number.
The player's reading (kinds-text.js `readNumber`, from the signs lmsexport/numbers.py gives it)
is then checked against the readers' own (lmsexport/quantities.py) on a table of texts in many
languages, so that what a teacher writes as an answer and what a learner types mean the same.
"""

from __future__ import annotations

import dataclasses

import pytest

import lmsexport
from lmsexport.model import Settings
from lmsexport.numbers import player_numbers
from lmsexport.quantities import QuantityError, read_answer

from .lms import VERSIONS, Run, interactions, package
from .test_scorm_kinds import ROOT

EXAMPLES = ROOT / "examples" / "numbers"


def _play(page, site, version: str, source: str, typed: list[str]) -> list[tuple]:
    """Answer every question of an example quiz (feedback at the end), return what the LMS recorded."""
    quiz = lmsexport.read(EXAMPLES / source)
    quiz = dataclasses.replace(quiz, settings=Settings(feedback="end"))
    run = Run(page, site, version, package(quiz, version))
    for text in typed:
        run.frame.locator("#answer-input").fill(text)
        run.button.click()
    snapshot = run.finished()["final"]
    run.check_clean()
    return [(i["type"], i["response"], i["result"]) for i in interactions(version, snapshot)]


@pytest.mark.parametrize("version", VERSIONS)
def test_a_czech_learner_types_a_decimal_comma(page, site, version):
    typed = ["78,9", "9,81 m/s²", "71", "1 000", "2.2", "3,5 Kč"]
    recorded = _play(page, site, version, "cs.txt", typed)
    assert recorded == [("numeric", number, "correct") for number in ("78.9", "9.81", "71", "1000", "2.2", "3.5")]


def test_the_unit_is_shown_beside_the_answer_box(page, site):
    quiz = lmsexport.read(EXAMPLES / "cs.txt")
    run = Run(page, site, "2004", package(quiz, "2004"))
    run.frame.locator("#answer-input").fill("78,9")
    run.button.click()
    run.button.click()
    assert run.text(".number-entry .unit") == "m/s²"
    assert run.frame.locator("#answer-input").get_attribute("aria-describedby") == "hint error answer-unit"


def test_an_arabic_learner_types_arabic_indic_digits(page, site):
    typed = ["٣٫١٤", "9.81", "٧١٪", "١٬٠٠٠ م", "٢"]
    recorded = _play(page, site, "2004", "ar.txt", typed)
    assert recorded == [("numeric", number, "correct") for number in ("3.14", "9.81", "71", "1000", "2")]


def test_a_number_that_is_no_number_is_asked_again(page, site):
    quiz = lmsexport.read(EXAMPLES / "cs.txt")
    run = Run(page, site, "2004", package(quiz, "2004"))
    run.frame.locator("#answer-input").fill("78,9 km")
    run.button.click()
    assert run.frame.locator("#error").is_visible()


TEXTS = {
    "cs": ["78,9", "78.9", "1 000,5", "1\u00a0000", "1.000", "2,718", "1.234,5", "-3,5", "\u22123,5", "6,02e23", ",5",
           "1,,5", "12 34", "abc", "1 000 000"],
    "en": ["1,000", "1,5", "1,000,000", "0,125", "1.234,5", "1,234.5", "12,34", ".5", "5.", "1e3", "1 000"],
    "de": ["1.000", "1.5", "1,5", "1.234,5", "1,234.5"],
    "fr": ["1\u202f000,25", "78,9", "78.9"],
    "de-CH": ["1'000.5", "1\u2019000.5"],
    "hi": ["1,00,000", "100,000", "1,000", "७८.९", "3.14"],
    "ar": ["٧٨٫٩", "3.14", "١٬٠٠٠", "٣,١٤", "\u200e-5", "٣8"],
    "fa": ["۳٫۱۴", "3.14"],
    "id": ["1.000.000", "78,9"],
    "vi": ["1.000", "78,9"],
    "yo": ["12.5", "1,000"],
    "ja": ["3.14", "1,000"],
}
"""Texts in each language, read by the readers and by the player alike."""


def _reader(text: str, lang: str) -> float | None:
    try:
        quantity = read_answer(text, lang)
    except QuantityError:
        return None
    return None if quantity is None or quantity.unit else quantity.value


def test_the_player_reads_numbers_as_the_readers_do(page, site):
    quiz = lmsexport.read(EXAMPLES / "cs.txt")
    run = Run(page, site, "2004", package(quiz, "2004"))
    body = run.frame.locator("body")
    cases = [(lang, text) for lang, texts in TEXTS.items() for text in texts]
    questions = {lang: {"numbers": player_numbers(lang)} for lang in TEXTS}
    read = body.evaluate("(body, [questions, cases]) => cases.map(([lang, text]) => "
                         "window.lmsexport.readNumber(questions[lang], text))", [questions, cases])
    expected = [_reader(text, lang) for lang, text in cases]
    mismatched = [(lang, text, js, py) for (lang, text), js, py in zip(cases, read, expected)
                  if not (js == py or (js is not None and py is not None and abs(js - py) <= 1e-9 * abs(py)))]
    assert mismatched == []
    assert expected.count(None) >= 4  # the table holds texts that are no number, too
