"""The SCORM player's interface in right-to-left and CJK languages, in Chromium: every page of a
quiz with every kind of question, on a phone's screen and a desktop's, fits its boxes.

A translation longer than the English (Persian's and Urdu's buttons), a script without spaces
to break at (Japanese, Chinese), or a right-to-left page whose layout mirrors wrongly would push
a button's words out of it or the page out of the screen. Each page is measured (element boxes
against the viewport, each control's text against its own box) and kept as a screenshot in
tests/artifacts/ (ignored by git).
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

import lmsexport

from .lms import Run, package
from .test_scorm_kinds import ALL_KINDS, Learner

MESSAGES = Path(__file__).resolve().parents[2] / "lmsexport" / "interface" / "messages"
LANGUAGES = {"ar": "rtl", "he": "rtl", "fa": "rtl", "ur": "rtl", "ja": "ltr", "zh": "ltr", "ko": "ltr"}
SCREENS = {"phone": {"width": 360, "height": 740}, "desktop": {"width": 900, "height": 800}}

OVERFLOW = """() => {
  const root = document.documentElement;
  const width = root.clientWidth;
  const problems = [];
  if (root.scrollWidth > width + 1) problems.push(`the page scrolls sideways: ${root.scrollWidth} > ${width}`);
  const name = (e) => `<${e.tagName.toLowerCase()}${e.id ? "#" + e.id : ""}${e.className ? "." + e.className : ""}>`
    + ` "${(e.innerText || e.value || "").slice(0, 40)}"`;
  for (const e of document.querySelectorAll("#main *")) {
    const box = e.getBoundingClientRect();
    if (!box.width || !box.height || e.closest(".visually-hidden")) continue;
    if (box.left < -1 || box.right > width + 1) problems.push(`${name(e)} leaves the page: ${box.left}..${box.right}`);
    const control = ["BUTTON", "LABEL", "H1", "H2", "H3", "H4", "P", "LI", "SPAN"].includes(e.tagName);
    if (control && e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).display !== "inline") {
      problems.push(`${name(e)} is wider than its box: ${e.scrollWidth} > ${e.clientWidth}`);
    }
  }
  return problems;
}"""


def _quiz(lang: str):
    quiz = lmsexport.read(ALL_KINDS)
    return dataclasses.replace(quiz, lang=lang, settings=dataclasses.replace(quiz.settings, feedback="immediate"))


def _fits(run: Run, where: str) -> None:
    assert run.frame.locator("html").evaluate(f"() => ({OVERFLOW})()") == [], where


@pytest.mark.parametrize("screen", SCREENS)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_right_to_left_and_cjk_interfaces_fit_every_page(page, site, artifacts, lang, screen):
    words = json.loads((MESSAGES / f"{lang}.json").read_text("utf-8"))
    page.set_viewport_size(SCREENS[screen])
    run = Run(page, site, "2004", package(_quiz(lang), "2004"))
    document = run.frame.locator("html")
    assert (document.get_attribute("lang"), document.get_attribute("dir")) == (lang, LANGUAGES[lang])
    assert document.evaluate("e => getComputedStyle(e).direction") == LANGUAGES[lang]
    learner = Learner(run)
    for number, question in enumerate(run.data()["questions"]):
        where = f"{lang}, {screen}, page {number + 1} ({question['kind']})"
        _fits(run, where)
        if question["kind"] != "description":
            assert run.button.inner_text() == words["submit" if question["kind"] == "essay" else "check"], where
            learner.answer(question, right=False)
            run.button.click()
            run.frame.locator("#feedback").wait_for()
            _fits(run, f"{where}, answered")
        page.screenshot(path=artifacts / f"scorm-{lang}-{screen}-{number + 1:02}-{question['kind']}.png",
                        full_page=True)
        run.button.click()
    run.finished()
    assert run.text("#results-heading") == words["results"]
    _fits(run, f"{lang}, {screen}, results")
    page.screenshot(path=artifacts / f"scorm-{lang}-{screen}-results.png", full_page=True)
    run.check_clean()


def test_the_measure_finds_words_pushed_out_of_a_button(page, site):
    """The check above can fail: a label that cannot wrap, wider than a phone, is caught."""
    page.set_viewport_size(SCREENS["phone"])
    run = Run(page, site, "2004", package(_quiz("fa"), "2004"))
    _fits(run, "fa before")
    run.button.evaluate("b => { b.style.whiteSpace = 'nowrap'; b.style.overflowWrap = 'normal'; "
                        "b.textContent = b.textContent.repeat(8); }")
    problems = run.frame.locator("html").evaluate(f"() => ({OVERFLOW})()")
    assert any("<button" in problem for problem in problems), problems
