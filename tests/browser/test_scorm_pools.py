"""Pools in the SCORM player, in Chromium against scorm-again: each attempt draws its questions.

A quiz of one fixed question, 2 of 4 questions worth 2 points, 1 of 3 worth 3 points and a
fixed last one: every attempt shows 5 questions worth 9 points (of the 17 the quiz holds), draws
them afresh, keeps its draw when resumed, and reports interactions and a score for what it drew.
"""

from __future__ import annotations

import dataclasses
import json
import re

import pytest

from lmsexport.model import Pool, Quiz, Settings

from .lms import VERSIONS, Run, assert_result, interactions, outcome, package
from .test_scorm_player import question

FIXED = ("q1", "q9")
POOLS = (("q2", "q3", "q4", "q5"), ("q6", "q7", "q8"))


def _quiz() -> Quiz:
    points = {"q2": 2.0, "q3": 2.0, "q4": 2.0, "q5": 2.0, "q6": 3.0, "q7": 3.0, "q8": 3.0}
    questions = tuple(dataclasses.replace(question(f"q{n}", f"Question {n}: which letter is first?", ["a", "b"], "a"),
                                          points=points.get(f"q{n}", 1.0)) for n in range(1, 10))
    return Quiz(id="pooled", title="Pooled quiz", lang="en", settings=Settings(pass_mark=50), questions=questions,
                pools=(Pool(id="warm", title="Warm-up", draw=2, points=2.0, questions=POOLS[0]),
                       Pool(id="hard", title="Harder", draw=1, points=3.0, shuffle=False, questions=POOLS[1])))


def _shown(run: Run) -> str:
    """The id of the question on screen (its prompt says its number)."""
    return "q" + re.search(r"Question (\d+):", run.text("#prompt"))[1]


def _answer(run: Run, count: int, letter: str = "a") -> list[str]:
    """Answer `count` questions in turn; the ids of those shown."""
    shown = []
    for _ in range(count):
        shown.append(_shown(run))
        run.take([letter])
    return shown


def _check_draw(shown: list[str]) -> None:
    """Where each pool stands, the number it draws of its own questions; the fixed ones around them."""
    assert shown[0] == "q1" and shown[-1] == "q9" and len(shown) == 5
    assert set(shown[1:3]) <= set(POOLS[0]) and len(set(shown[1:3])) == 2
    assert shown[3] in POOLS[1]


def _ids(version: str, snapshot: dict) -> list[str]:
    return [item["id"].rsplit(":", 1)[-1] for item in interactions(version, snapshot)]


@pytest.mark.parametrize("version", VERSIONS)
def test_each_attempt_draws_and_scores_only_what_it_drew(page, new_page, site, version):
    files = package(_quiz(), version)
    draws = []
    for attempt in range(12):  # 18 draws are possible: two attempts in a row alike 1 time in 18
        run = Run(page if attempt == 0 else new_page(), site, version, files)
        assert run.text("h2") == "Question 1 of 5"
        shown = _answer(run, 5)
        _check_draw(shown)
        snapshot = run.finished()["final"]
        assert _ids(version, snapshot) == shown  # interactions of the drawn questions only
        assert_result(version, snapshot, status="passed", percent="100", earned="9", total="9")
        assert run.frame.locator(".review-item").count() == 5
        run.check_clean()
        draws.append(shown)
        if len({tuple(draw) for draw in draws}) > 1:
            break
    assert len({tuple(draw) for draw in draws}) > 1, f"{len(draws)} attempts all drew {draws[0]}"


@pytest.mark.parametrize("version", VERSIONS)
def test_a_resumed_attempt_keeps_its_draw_and_its_maximum(page, new_page, site, version):
    files = package(_quiz(), version)
    first = Run(page, site, version, files)
    before = _answer(first, 2, "b")  # q1 wrong (1 point lost), one warm-up question wrong
    page.evaluate("window.__leave()")
    left = first.finished()["final"]
    state = outcome(version, left)
    saved = json.loads(state["suspend_data"])
    assert saved["i"] == 2 and set(saved["a"]) == set(before) and isinstance(saved["s"], int)

    entry = {"core": {"entry": "resume"}} if version == "1.2" else {"entry": "resume"}
    resumed = Run(new_page(), site, version, files, {**entry, "suspend_data": state["suspend_data"],
                                                        "interactions": left["cmi"]["interactions"]})
    assert resumed.text("h2") == "Question 3 of 5"
    after = _answer(resumed, 3)
    _check_draw(before + after)
    snapshot = resumed.finished()["final"]
    assert _ids(version, snapshot) == before + after
    # 0 + 0 + 2 + 3 + 1 = 6 of the 9 points drawn: 66.7%, passed.
    assert_result(version, snapshot, status="passed", percent="66.67", earned="6", total="9")
    resumed.check_clean()

    # The same seed from the start draws the same questions: the draw is the seed's.
    fresh = dict(saved, i=0, a={}, t=0)
    again = Run(new_page(), site, version, files, {**entry, "suspend_data": json.dumps(fresh)})
    assert _answer(again, 5) == before + after
