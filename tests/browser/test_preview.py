"""`lmsexport preview` in Chromium: the index, a quiz answered with the panel watching, live reload.

The command runs in a subprocess on a copy of the sources (127.0.0.1, a free port, read
from its first line) and is stopped with Ctrl-C at the end, or killed if it hangs. The
runtime in the page is the scorm-again the wheel ships (lmsexport/preview/static/).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from lmsexport import formats as registry

from running import Running, retrying

ROOT = Path(__file__).resolve().parents[2]
KEY = ["a", "b", "c", "d", "a", "b", "c", "d"]
"""The answer key of the three quizzes in quizzes/."""
FIRST_QUESTION = {"fsdp-yo": "Ìbéèrè 1 nínú 8", "data-parallel-vi": "Câu hỏi 1 trên 8", "zero-id": "Pertanyaan 1 dari 8"}


def _serve(folder: Path):
    with Running("preview", str(folder)) as running:
        url = running.expect(r"at (http://127\.0\.0\.1:\d+/) \(Ctrl-C to stop\)")[1]
        yield url
        assert running.interrupt() == 0, running.output()


@pytest.fixture(scope="module")
def quizzes(tmp_path_factory):
    """A preview of a copy of quizzes/, which no test changes."""
    folder = tmp_path_factory.mktemp("quizzes")
    for source in (ROOT / "quizzes").glob("*.txt"):
        shutil.copy(source, folder)
    yield from _serve(folder)


@pytest.fixture
def editable(tmp_path):
    """A preview of one quiz that the test edits: (its url, its file)."""
    source = tmp_path / "zero-id.txt"
    shutil.copy(ROOT / "quizzes" / "zero-id.txt", source)
    for url in _serve(tmp_path):
        yield url, source


def _take(frame, answers: list[str]) -> None:
    """Answer each question in turn with immediate feedback: pick, check, go on."""
    button = frame.locator("button.primary")
    for letter in answers:
        frame.locator(f"input[value='{letter}']").check()
        button.click()
        frame.locator("#feedback").wait_for()
        button.click()
        frame.locator("#feedback").wait_for(state="detached")


def _status(page) -> dict[str, str]:
    rows = page.locator("#status > div")
    return {rows.nth(i).get_attribute("data-name"): rows.nth(i).locator("dd").inner_text() for i in range(rows.count())}


def test_the_index_shows_the_three_quizzes_each_in_its_language(page, quizzes, expect):
    page.goto(quizzes)
    links = page.locator("tbody td:first-child a")
    expect(links).to_have_count(3)
    assert links.evaluate_all("links => links.map(a => a.lang)") == ["vi", "yo", "id"]
    assert links.all_inner_texts() == ["Bài kiểm tra song song dữ liệu", "Ni kikun Sharded Data Parallel adanwo",
                                       "Kuis ZeRO dan Pengoptimal Sharded"]
    for slug, heading in FIRST_QUESTION.items():
        page.goto(f"{quizzes}quiz/{slug}/")
        expect(page.frame_locator("#sco").locator("h2")).to_have_text(heading)
    assert page.errors == []


@pytest.mark.parametrize("format_name, version", [("scorm2004", "2004"), ("scorm12", "1.2")])
def test_answering_shows_what_the_lms_records_then_reset_starts_afresh(page, quizzes, expect, artifacts,
                                                                         format_name, version):
    page.set_viewport_size({"width": 1400, "height": 900})
    page.goto(f"{quizzes}quiz/fsdp-yo/?format={format_name}")
    frame = page.frame_locator("#sco")
    expect(frame.locator("h2")).to_have_text("Ìbéèrè 1 nínú 8")
    expect(page.locator("#session")).to_have_text("running")
    answers = KEY[:6] + ["a", "a"]  # 6 of 8 right
    _take(frame, answers[:7])
    rows = page.locator("#interactions tbody tr")
    expect(rows).to_have_count(7)
    frame.locator(f"input[value='{answers[7]}']").check()
    frame.locator("button.primary").click()
    frame.locator("#feedback").wait_for()
    frame.locator("button.primary").click()  # the results
    expect(page.locator("#session")).to_have_text("terminated")
    expect(rows).to_have_count(8)
    cells = [rows.nth(i).locator("td").all_inner_texts() for i in range(8)]
    prefix = "" if version == "1.2" else "urn:lmsexport:fsdp-yo:"
    assert [row[1] for row in cells] == [f"{prefix}q{n}" for n in range(1, 9)]
    assert [(row[2], row[3], row[4]) for row in cells] == [("choice", a, k) for a, k in zip(answers, KEY)]
    wrong = "wrong" if version == "1.2" else "incorrect"
    assert [row[5] for row in cells] == ["correct"] * 6 + [wrong] * 2
    status = _status(page)
    if version == "1.2":
        assert (status["cmi.core.lesson_status"], status["cmi.core.score.raw"], status["cmi.core.score.max"]) == \
            ("completed", "75", "100")
    else:
        assert (status["cmi.completion_status"], status["cmi.score.raw"], status["cmi.score.max"],
                status["cmi.score.scaled"]) == ("completed", "6", "8", "0.75")
    assert '"q8": "a"' in page.locator("#suspend").inner_text()
    expect(page.locator("#calls li.failed")).to_have_count(0)
    page.screenshot(path=artifacts / f"preview-{format_name}-fsdp-yo.png")

    page.locator("#reset").click()
    expect(rows).to_have_count(0)
    expect(page.locator("#session")).to_have_text("running")
    expect(frame.locator("h2")).to_have_text("Ìbéèrè 1 nínú 8")
    assert page.locator("#suspend").inner_text() != ""
    assert page.errors == []


def test_the_panels_show_lint_and_each_formats_warnings(page, quizzes):
    page.goto(f"{quizzes}quiz/fsdp-yo/")
    lint = page.locator("#problems h3:has-text('Lint') + ol li")
    assert lint.count() == 5
    assert "fsdp-yo.txt:25:4" in lint.all_inner_texts()[2]
    assert page.locator("#problems h3[data-format]").evaluate_all("hs => hs.map(h => h.dataset.format)") == \
        list(registry.flavours())


def test_saving_the_source_reloads_the_page(page, editable, expect):
    url, source = editable
    page.goto(f"{url}quiz/zero-id/")
    expect(page.frame_locator("#sco").locator("#quiz-title")).to_have_text("Kuis ZeRO dan Pengoptimal Sharded")
    text = source.read_text(encoding="utf-8")
    retrying(lambda: source.write_text(text.replace("Kuis ZeRO", "Kuis BARU"), encoding="utf-8"),
             lambda: expect(page.locator("header h1")).to_have_text("Kuis BARU dan Pengoptimal Sharded", timeout=3000))
    expect(page.frame_locator("#sco").locator("#quiz-title")).to_have_text("Kuis BARU dan Pengoptimal Sharded")
    assert page.errors == []


def test_a_broken_source_shows_its_located_errors_then_the_quiz_again(page, editable, expect):
    url, source = editable
    page.goto(f"{url}quiz/zero-id/")
    page.frame_locator("#sco").locator("#stage > *").wait_for()
    text = source.read_text(encoding="utf-8")
    broken = text.replace("Answers: 1a 2b", "Answers: 1z 2b")
    line = broken.splitlines().index(next(l for l in broken.splitlines() if l.startswith("Answers:"))) + 1
    retrying(lambda: source.write_text(broken, encoding="utf-8"),
             lambda: expect(page.locator("main.broken .diagnostic")).to_have_count(1, timeout=3000))
    error = page.locator("main.broken .diagnostic")
    expect(error.locator(".where")).to_have_text(f"{source.as_posix()}:{line}:10")
    assert error.locator(".excerpt").inner_text().splitlines()[0] == broken.splitlines()[line - 1]
    assert page.locator("#sco").count() == 0
    retrying(lambda: source.write_text(text, encoding="utf-8"),
             lambda: expect(page.frame_locator("#sco").locator("#stage > *")).to_have_count(1, timeout=3000))
    assert page.errors == []


def test_a_path_outside_the_quizzes_is_refused(page, quizzes):
    # The browser resolves `..` and `%2e%2e` itself (WHATWG URL): what reaches the server stays inside.
    resolved = page.request.get(quizzes + "static/%2e%2e/%2e%2e/pyproject.toml")
    assert (resolved.url, resolved.status) == (quizzes + "pyproject.toml", 404)
    # Encoded slashes and backslashes it leaves alone: the server refuses them.
    for path in ("static/..%2F..%2Fpyproject.toml", "quiz/zero-id/scorm2004/..%2F..%2F..%2Fzero-id.txt",
                 "quiz/zero-id/scorm2004/%2E%2E%5C%2E%2E%5Czero-id.txt"):
        response = page.request.get(quizzes + path)
        assert response.status == 403, path
        assert "outside" in response.text()
    assert page.goto(f"{quizzes}quiz/zero-id/scorm2004/..%2Fkey").status == 403
