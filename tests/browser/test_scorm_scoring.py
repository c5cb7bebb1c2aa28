"""The SCORM player scores the table of tests/scoring_table.py as the table says, in Chromium.

Each row is played as a learner plays it: a package of that one question under each policy,
the response given through the page's own controls, the quiz finished; the score is what the
LMS (scorm-again) recorded, SCORM 2004's cmi.score.raw in points. The player scores both
versions alike (only the 1.2 adapter turns points into a percentage: test_scorm_kinds.py).
"""

from __future__ import annotations

import dataclasses

import pytest

from scoring_table import POLICIES, QUESTIONS, TABLE, quiz

from .lms import Run, outcome, package
from .test_scorm_kinds import Learner


def respond(run: Run, question: dict, response) -> None:
    """Give the table's response with the controls the player shows for `question` (its page data)."""
    frame = run.frame
    if question["kind"] == "multiple_choice":
        run.choose(*response)
    elif question["kind"] == "matching":
        options = {option["label"]: option["id"] for option in question["options"]}
        for left, right in response.items():
            frame.locator(f"select[name={left}]").select_option(options[right])
    elif question["kind"] == "ordering":
        Learner(run).reorder(list(response))
    else:
        for segment in (s for s in question["segments"] if "gap" in s):
            control = frame.locator(f".gap[name={segment['gap']}]")
            if "choices" in segment:
                control.select_option(next(c["id"] for c in segment["choices"] if c["label"] == response[segment["gap"]]))
            else:
                control.fill(response[segment["gap"]])


@pytest.mark.parametrize("policy", POLICIES)
def test_the_player_scores_every_row_of_the_table(page, site, policy):
    wrong = []
    for row in TABLE:
        single = quiz(policy, row.question)
        single = dataclasses.replace(single, settings=dataclasses.replace(single.settings, feedback="end"))
        run = Run(page, site, "2004", package(single, "2004"))
        (question,) = run.data()["questions"]
        assert question.get("scoring") == policy and QUESTIONS[row.question].points == question["points"]
        respond(run, question, row.response)
        run.button.click()
        score = float(outcome("2004", run.finished()["final"])["score"]["raw"])
        if score != pytest.approx(row.expected(policy, "scorm"), abs=1e-6):
            wrong.append((row.id, score, row.expected(policy, "scorm")))
        run.check_clean()
    assert wrong == [], "rows the player scores otherwise: (row, player, table)"
