"""The SCORM player in Chromium, against scorm-again: what the LMS records, what a learner meets.

Each test builds a package with the real writer, unzips it into the test LMS (host.html)
and plays it as a learner would, with clicks or the keyboard. The LMS side is read from
scorm-again's CMI model; every API call is recorded with its error code, and none may fail.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

import lmsexport
from lmsexport.model import Choice, MultipleChoice, Quiz, Settings, Text
from lmsexport.package import Package

from .lms import (
    DELIMITER,
    LATENCY,
    VERSIONS,
    WHEN,
    WRONG_RESULT,
    Run,
    assert_result,
    focused,
    interactions,
    outcome,
    package,
)

ROOT = Path(__file__).resolve().parents[2]
KEY = ["a", "b", "c", "d", "a", "b", "c", "d"]
"""The answer key of the three quizzes in quizzes/."""
WRONG = ["b", "c", "d", "a", "b", "c", "d", "a"]


# ---- Building packages and quizzes ----

def seed(name: str, **settings) -> Quiz:
    quiz = lmsexport.read(ROOT / "quizzes" / f"{name}.txt")
    return dataclasses.replace(quiz, settings=dataclasses.replace(quiz.settings, **settings))


def question(qid: str, prompt: str, options: list[str], correct: str, *, lang=None, fmt="plain",
             explanation=None) -> MultipleChoice:
    """A choice question; `correct` lists the letters of its correct options."""
    choices = tuple(Choice(id=chr(97 + i), text=Text(text, fmt), correct=chr(97 + i) in correct)
                    for i, text in enumerate(options))
    return MultipleChoice(id=qid, prompt=Text(prompt, fmt), choices=choices, multiple_response=len(correct) > 1,
                          lang=lang, explanation=Text(explanation) if explanation else None)


def small_quiz(lang="en", **settings) -> Quiz:
    return Quiz(id="small", title="Small quiz", lang=lang, settings=Settings(**settings), questions=(
        question("q1", "Which planet is closest to the Sun?", ["Venus", "Mercury", "Mars"], "b",
                 explanation="Mercury orbits at about 0.39 AU."),
        question("q2", "Which of these are prime?", ["2", "4", "5"], "ac"),
    ))


# ---- Taking whole quizzes ----

@pytest.mark.parametrize("version", VERSIONS)
def test_all_correct_passes_with_full_score_in_yoruba(page, site, artifacts, version, expect):
    quiz = seed("fsdp-yo", pass_mark=60)
    run = Run(page, site, version, package(quiz, version))
    assert page.frame_locator("#sco").locator("html").get_attribute("lang") == "yo"
    assert run.text("h2") == "Ìbéèrè 1 nínú 8" and run.button.inner_text() == "Ṣàyẹ̀wò ìdáhùn"
    for number, letter in enumerate(KEY, start=1):
        run.choose(letter)
        run.button.click()
        if number == 1:
            page.screenshot(path=artifacts / f"scorm{version.replace('.', '')}-fsdp-yo-question.png")
        assert run.text(".feedback .verdict") == "Ó tọ̀nà"
        expect(run.frame.locator("#announcer")).to_contain_text("Ó tọ̀nà")
        assert run.button.inner_text() == ("Wo èsì" if number == 8 else "Ìbéèrè tó kàn")
        # One interaction, then a commit, per answer.
        assert len(interactions(version, run.record()["commits"][-1])) == number
        run.button.click()
    snapshot = run.finished()["final"]
    assert_result(version, snapshot, status="passed", percent="100", earned="8", total="8")
    recorded = interactions(version, snapshot)
    for number, (item, letter) in enumerate(zip(recorded, KEY), start=1):
        assert item["id"] == (f"q{number}" if version == "1.2" else f"urn:lmsexport:fsdp-yo:q{number}")
        assert (item["type"], item["response"], item["pattern"], item["result"]) == ("choice", letter, letter, "correct")
        assert item["weighting"] == "1"
        assert LATENCY[version].match(item["latency"]) and WHEN[version].match(item["when"])
    if version == "2004":
        assert recorded[0]["description"] == "{lang=yo}" + quiz.questions[0].prompt.value
    assert run.text(".summary") == "O ti yege. Máàkì ìyege: 60%."
    page.set_viewport_size({"width": 900, "height": 2600})
    page.screenshot(path=artifacts / f"scorm{version.replace('.', '')}-fsdp-yo-results.png")
    page.evaluate("window.__leave()")           # pagehide after the end: no second Terminate
    page.wait_for_function("document.getElementById('sco').contentWindow.location.href === 'about:blank'")
    run.check_clean()


@pytest.mark.parametrize("version", VERSIONS)
def test_all_wrong_fails_with_zero_and_end_feedback_in_indonesian(page, site, version, expect):
    quiz = seed("zero-id", pass_mark=60, feedback="end")
    run = Run(page, site, version, package(quiz, version))
    for number, letter in enumerate(WRONG, start=1):
        assert run.button.inner_text() == ("Lihat hasil" if number == 8 else "Pertanyaan berikutnya")
        run.choose(letter)
        run.button.click()
        assert run.frame.locator(".feedback").count() == 0
    snapshot = run.finished()["final"]
    assert_result(version, snapshot, status="failed", percent="0", earned="0", total="8")
    assert [i["result"] for i in interactions(version, snapshot)] == [WRONG_RESULT[version]] * 8
    assert [i["response"] for i in interactions(version, snapshot)] == WRONG
    # The results page: every question with the learner's answer and the correct one.
    items = run.frame.locator(".review-item")
    assert items.count() == 8
    assert items.nth(1).locator("dt").all_inner_texts() == ["Jawaban Anda", "Jawaban yang benar"]
    assert items.nth(1).locator("dd").all_inner_texts() == [
        quiz.questions[1].choices[2].text.value, quiz.questions[1].choices[1].text.value]
    assert run.frame.locator("h2:focus").inner_text() == "Hasil"
    expect(run.frame.locator("#announcer")).to_contain_text("Anda belum lulus")
    run.check_clean()


@pytest.mark.parametrize("version", VERSIONS)
def test_partial_score_without_pass_mark_completes_in_vietnamese(page, site, version):
    quiz = seed("data-parallel-vi")
    assert quiz.settings.pass_mark is None
    run = Run(page, site, version, package(quiz, version))
    assert run.text("h2") == "Câu hỏi 1 trên 8"
    answers = KEY[:5] + WRONG[5:]
    run.take(answers)
    snapshot = run.finished()["final"]
    assert_result(version, snapshot, status="completed", percent="62.5", earned="5", total="8")
    assert run.text(".summary") == "Bạn đã hoàn thành bài kiểm tra."
    assert run.text(".score") == "Điểm: 5 trên 8 (62,5%)"
    fetched = [call["args"][0] for call in run.record()["calls"] if call["fn"].endswith("GetValue")]
    assert "cmi.scaled_passing_score" not in fetched
    run.check_clean()


@pytest.mark.parametrize("version", VERSIONS)
def test_leave_half_way_and_resume_with_answers_and_order(page, new_page, site, version):
    quiz = lmsexport.read(ROOT / "examples" / "features.txt")   # shuffle, pass 60%, 2 points each
    files = package(quiz, version)
    first = Run(page, site, version, files)
    first.take(["b", "a", "a"])        # right, wrong, half of the multiple-response question
    shown = first.order()              # question 4's options, in the order of this attempt
    page.evaluate("window.__leave()")
    left = first.finished()["final"]
    state = outcome(version, left)
    assert state["exit"] == "suspend"
    assert (state["status"] if version == "1.2" else state["completion"]) == "incomplete"
    saved = json.loads(state["suspend_data"])
    assert saved["i"] == 3 and saved["a"] == {"q1": "b", "q2": "a", "q3": "a"}
    assert saved["o"]["q4"].split(",") == shown
    assert len(interactions(version, left)) == 3
    first.check_clean()

    again = new_page()
    entry = {"core": {"entry": "resume"}} if version == "1.2" else {"entry": "resume"}
    resumed = Run(again, site, version, files, {**entry, "suspend_data": state["suspend_data"],
                                                   "interactions": left["cmi"]["interactions"]})
    assert resumed.text("#notice") == "Welcome back: you continue where you left off."
    assert resumed.text("h2") == "Question 4 of 6"
    assert resumed.order() == shown
    resumed.take(["a", "a", "c"])
    snapshot = resumed.finished()["final"]
    # 2 + 0 + 1 (half of 2) + 2 + 2 + 2 = 9 of 12 points: 75%.
    assert_result(version, snapshot, status="passed", percent="75", earned="9", total="12")
    recorded = interactions(version, snapshot)
    assert [item["id"].rsplit(":", 1)[-1] for item in recorded] == ["q1", "q2", "q3", "q4", "q5", "q6"]
    assert recorded[2]["response"] == "a" and recorded[2]["pattern"] == DELIMITER[version].join("ab")
    review = resumed.frame.locator(".review-item .verdict").all_inner_texts()
    assert review == ["Correct", "Incorrect", "Partly correct", "Correct", "Correct", "Correct"]
    resumed.check_clean()


# ---- Accessibility, languages, safety ----

@pytest.mark.parametrize("version", VERSIONS)
def test_keyboard_only(page, site, version, expect):
    quiz = small_quiz(pass_mark=50)
    run = Run(page, site, version, package(quiz, version))
    labelled = "inputs => inputs.every((i) => i.labels.length === 1 && i.labels[0].innerText.trim() !== '')"
    assert run.frame.locator("input").evaluate_all(labelled)
    assert run.frame.locator("fieldset").get_attribute("aria-labelledby") == "prompt"
    keys = page.keyboard
    keys.press("Tab")
    assert focused(run) == "input:a"
    choice = run.frame.locator(".choice").first
    assert choice.evaluate("e => getComputedStyle(e).outlineStyle") == "solid"   # visible focus
    keys.press("ArrowDown")                     # moves to, and selects, Mercury
    keys.press("Enter")                         # submits: check answer
    assert focused(run) == "button:Next question"
    expect(run.frame.locator("#announcer")).to_contain_text("Correct")
    keys.press("Enter")                         # next question; focus on its heading
    assert focused(run) == "h2:Question 2 of 2"
    keys.press("Tab")
    assert focused(run) == "input:a"
    keys.press("Space")
    keys.press("Tab")
    keys.press("Tab")
    assert focused(run) == "input:c"
    keys.press("Space")
    keys.press("Tab")
    assert focused(run) == "button:Check answer"
    keys.press("Enter")
    keys.press("Enter")                         # see results
    assert focused(run) == "h2:Results"
    expect(run.frame.locator("#announcer")).to_have_text("You passed. Pass mark: 50%. Score: 2 of 2 (100%)")
    snapshot = run.finished()["final"]
    assert [item["response"] for item in interactions(version, snapshot)] == ["b", DELIMITER[version].join("ac")]
    assert_result(version, snapshot, status="passed", percent="100", earned="2", total="2")
    run.check_clean()


@pytest.mark.parametrize("version", VERSIONS)
def test_right_to_left_quiz_with_a_question_in_another_language(page, site, artifacts, version):
    quiz = Quiz(id="arabic", title="اختبار قصير", lang="ar", settings=Settings(pass_mark=50), questions=(
        question("q1", "ما عاصمة مصر؟", ["القاهرة", "الإسكندرية"], "a", explanation="القاهرة هي العاصمة."),
        question("q2", "Which language is written right to left?", ["Arabic", "Vietnamese"], "a", lang="en"),
    ))
    run = Run(page, site, version, package(quiz, version))
    html = run.frame.locator("html")
    assert (html.get_attribute("lang"), html.get_attribute("dir")) == ("ar", "rtl")
    assert run.text("h2") == "السؤال 1 من 2" and run.button.inner_text() == "تحقّق من الإجابة"
    assert run.frame.locator(".choice").first.evaluate("e => getComputedStyle(e).direction") == "rtl"
    run.take(["a"])
    prompt = run.frame.locator("#prompt")
    assert (prompt.get_attribute("lang"), prompt.get_attribute("dir")) == ("en", "ltr")
    assert prompt.evaluate("e => getComputedStyle(e).direction") == "ltr"
    assert run.frame.locator(".choices").get_attribute("lang") == "en"
    assert run.text("h2") == "السؤال 2 من 2"                           # the interface stays Arabic
    run.take(["b"])
    snapshot = run.finished()["final"]
    assert_result(version, snapshot, status="passed", percent="50", earned="1", total="2")
    if version == "2004":
        assert [i["description"][:9] for i in interactions(version, snapshot)] == ["{lang=ar}", "{lang=en}"]
    summary = run.text(".summary")             # the percentage as ICU writes it in Arabic
    assert summary.startswith("لقد نجحت. درجة النجاح: ") and "50" in summary
    run.check_clean()
    page.set_viewport_size({"width": 900, "height": 1400})
    page.screenshot(path=artifacts / f"scorm{version.replace('.', '')}-rtl-results.png")


XSS_TEXT = """Safety quiz

1. Is <script>window.__ran = "prompt"</script> shown as text?
   *• <img src=x onerror="window.__ran = 'option'"> yes
   • no
"""
XSS_HTML = ('<b>bold</b><script>window.__ran = "script"</script><img src="x" onerror="window.__ran = \'img\'">'
            '<a href="javascript:window.__ran = \'link\'">link</a><iframe srcdoc="<script>parent.__ran=1</script>">'
            '</iframe><p onclick="window.__ran = \'click\'" style="color:red">para</p>')


@pytest.mark.parametrize("version", VERSIONS)
def test_script_in_a_source_never_runs(page, new_page, site, tmp_path, version):
    source = tmp_path / "safety.txt"
    source.write_text(XSS_TEXT, encoding="utf-8")
    plain_quiz = lmsexport.read(source)
    run = Run(page, site, version, package(plain_quiz, version))
    assert run.text("#prompt") == 'Is <script>window.__ran = "prompt"</script> shown as text?'
    assert run.text(".choice-text >> nth=0") == """<img src=x onerror="window.__ran = 'option'"> yes"""
    run.take(["a"])
    assert run.frame.locator("#stage script, #stage img").count() == 0
    assert run.frame.locator("body").evaluate("() => window.__ran") is None
    run.finished()
    run.check_clean()

    html_quiz = Quiz(id="html", title="HTML", lang="en", questions=(
        MultipleChoice(id="q1", prompt=Text(XSS_HTML, "html"), choices=(
            Choice(id="a", text=Text("<i>yes</i><svg onload=\"window.__ran='svg'\"></svg>", "html"), correct=True),
            Choice(id="b", text=Text("no", "html")))),))
    other = new_page()
    run = Run(other, site, version, package(html_quiz, version))
    for view in ("question", "results"):
        stage = run.frame.locator("#stage")
        assert stage.locator("b").first.inner_text() == "bold" and stage.locator("i").first.inner_text() == "yes"
        assert stage.locator("script, iframe, svg, [onerror], [onclick], [style]").count() == 0
        assert stage.locator("a").first.get_attribute("href") is None
        assert stage.locator("img").first.get_attribute("src") == "x"
        run.frame.locator("#stage a").first.click()
        assert run.frame.locator("body").evaluate("() => window.__ran") is None
        if view == "question":
            run.take(["a"])
    snapshot = run.finished()["final"]
    if version == "2004":
        assert interactions(version, snapshot)[0]["description"] == "{lang=en}boldlink para"
    assert page.dialogs == other.dialogs == []
    # What the console may show: the image the sanitiser kept (src="x" is not there), and the
    # Content Security Policy refusing the handlers of the inert copy the sanitiser parsed.
    assert [e for e in other.errors if "404" not in e and "Content Security Policy" not in e] == []


@pytest.mark.parametrize("version", VERSIONS)
def test_without_an_lms_it_runs_scores_and_says_nothing_is_saved(page, site, version):
    folder = site.add(Package(package(small_quiz(pass_mark=100), version)).to_bytes())
    page.goto((site.root / folder / "index.html").as_uri())        # file://, no LMS anywhere
    frame = page.main_frame
    assert frame.locator("#notice").inner_text() == (
        "No learning platform was found: you can take the quiz, but your results will not be saved.")
    frame.locator("input[value=a]").check()
    frame.locator("button.primary").click()
    assert frame.locator(".feedback .verdict").inner_text() == "Incorrect"
    assert frame.locator(".feedback dd").all_inner_texts() == ["Venus", "Mercury"]
    assert frame.locator(".explanation").inner_text() == "Explanation\nMercury orbits at about 0.39 AU."
    frame.locator("button.primary").click()
    frame.locator("input[value=a]").check()
    frame.locator("button.primary").click()
    assert frame.locator(".feedback .verdict").inner_text() == "Partly correct"
    frame.locator("button.primary").click()
    assert frame.locator(".summary").inner_text() == "You did not pass. Pass mark: 100%."
    assert frame.locator(".score").inner_text() == "Score: 0.5 of 2 (25%)"
    assert page.errors == []


CONTRAST = """(root, selectors) => {
  const luminance = (rgb) => {
    const [r, g, b] = rgb.match(/[\\d.]+/g).slice(0, 3).map(Number).map((c) => {
      c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const background = (e) => {
    for (; e; e = e.parentElement) {
      const color = getComputedStyle(e).backgroundColor;
      if (!/rgba\\(.*, 0\\)$/.test(color) && color !== "transparent") return color;
    }
    return "rgb(255, 255, 255)";
  };
  const out = {};
  for (const selector of selectors) {
    for (const e of document.querySelectorAll(selector)) {
      const [a, b] = [luminance(getComputedStyle(e).color), luminance(background(e))].sort((x, y) => y - x);
      out[selector] = Math.min(out[selector] ?? 99, (a + 0.05) / (b + 0.05));
    }
  }
  return out;
}"""
PHONE_CHECK = """() => ({
  overflow: document.documentElement.scrollWidth > document.documentElement.clientWidth,
  small: [...document.querySelectorAll('button, .choice')].filter((e) => e.getBoundingClientRect().height < 44).length,
})"""


def test_phone_layout_touch_targets_and_contrast(page, site, artifacts):
    page.set_viewport_size({"width": 360, "height": 740})
    run = Run(page, site, "1.2", package(seed("fsdp-yo", pass_mark=80), "1.2"))
    frame = page.frame_locator("#sco").locator("body")
    assert frame.evaluate(PHONE_CHECK) == {"overflow": False, "small": 0}
    run.choose("c")
    run.button.click()                                       # wrong: the red feedback
    assert frame.evaluate(PHONE_CHECK) == {"overflow": False, "small": 0}
    page.screenshot(path=artifacts / "scorm12-phone-feedback.png")
    ratios = frame.evaluate(CONTRAST, ["h1", "h2", ".prompt", ".hint", ".choice-text", ".description",
                                       ".feedback .verdict", ".answers dt", "button.primary"])
    run.button.click()
    run.take(KEY[1:])
    ratios |= frame.evaluate(CONTRAST, [".summary", ".score", ".review-item .verdict", ".answers dd"])
    assert min(ratios.values()) >= 4.5, ratios
    assert frame.evaluate(PHONE_CHECK) == {"overflow": False, "small": 0}
    run.check_clean()


@pytest.mark.parametrize("version", VERSIONS)
def test_time_limit_ends_the_attempt_with_the_answers_given(page, site, version, expect):
    quiz = dataclasses.replace(seed("data-parallel-vi"), settings=Settings(time_limit=3))
    run = Run(page, site, version, package(quiz, version))
    expect(run.frame.locator("#timer")).to_contain_text("Thời gian còn lại: 00:0")
    run.take(["a"])
    snapshot = run.finished()["final"]  # the limit, not the learner, ends the attempt
    expect(run.frame.locator("#notice")).to_have_text("Hết giờ. Các câu trả lời của bạn đến lúc này đã được nộp.")
    assert [item["response"] for item in interactions(version, snapshot)] == ["a"]
    cmi = snapshot["cmi"]
    status = cmi["core"]["lesson_status"] if version == "1.2" else cmi["completion_status"]
    assert status == "completed"
    run.check_clean()
