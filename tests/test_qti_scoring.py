"""Every golden QTI item, run by a QTI engine on every possible response.

The correct response must score exactly the question's points, any other response
less (and never below 0); multiple response must follow the documented partial-credit
scheme; the feedback shown must be the option's and the explanation. The engine is
tests/qti_oracle.py (checked in test_qti_oracle.py). When LMSEXPORT_QTI_ENGINE names a
folder holding the node_modules of tests/fixtures/qti21/engine/package.json (copy it
there, then `npm install --prefix FOLDER`), the same items are also scored by a
third-party engine, Citolab's qti-components, and must agree.
"""

from __future__ import annotations

import itertools
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

import lmsexport
from conftest import GOLDEN, ROOT
from lmsexport.model import MultipleChoice, Quiz
from lmsexport.qti21 import GENERAL_FEEDBACK, choice_feedback_identifier
from qti_oracle import displayed_feedback, process_item, process_test

FIXTURES = Path(__file__).parent / "fixtures" / "qti21"
SOURCES = [
    *sorted((ROOT / "quizzes").glob("*.txt")), ROOT / "examples" / "features.txt", FIXTURES / "model-fields.json",
]


def _golden(quiz: Quiz, name: str) -> bytes:
    return (GOLDEN / "writers" / "qti" / quiz.id / name).read_bytes()


def _responses(question: MultipleChoice) -> list:
    """Every answer a candidate can give: each option or none; every subset for checkboxes."""
    ids = [choice.id for choice in question.choices]
    if question.multiple_response:
        return [list(subset) for size in range(len(ids) + 1) for subset in itertools.combinations(ids, size)]
    return [None, *ids]


def _correct(question: MultipleChoice):
    ids = [choice.id for choice in question.correct_choices]
    return ids if question.multiple_response else ids[0]


def _partial_credit(question: MultipleChoice, picked: list) -> float:
    """docs/formats/qti21.md: +points/n per correct option ticked, -points/n per wrong one, within 0..points."""
    share = question.points / len(question.correct_choices)
    right = sum(choice.correct for choice in question.choices if choice.id in picked)
    return min(max((right - (len(picked) - right)) * share, 0.0), question.points)


CASES = [(source, question.id) for source in SOURCES for question in lmsexport.read(source).questions]


@pytest.mark.parametrize("source, question_id", CASES, ids=lambda v: v.stem if isinstance(v, Path) else v)
def test_item_scores_every_response_right(source, question_id):
    quiz = lmsexport.read(source)
    question = next(q for q in quiz.questions if q.id == question_id)
    item = _golden(quiz, f"items/{question.id}.xml")
    for response in _responses(question):
        outcomes = process_item(item, response)
        score = outcomes["SCORE"]
        if response == _correct(question):
            assert score == question.points, response
        elif question.multiple_response:
            assert score == pytest.approx(_partial_credit(question, response), abs=1e-6), response
            assert score < question.points or question.points == 0, response
        else:
            assert score == 0.0, response
        assert outcomes["MAXSCORE"] == question.points
        picked = [response] if isinstance(response, str) else response or []
        expected = {
            choice_feedback_identifier(i) for i, c in enumerate(question.choices) if c.feedback and c.id in picked
        }
        assert displayed_feedback(item, outcomes) == expected | ({GENERAL_FEEDBACK} if question.explanation else set())


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: p.stem)
def test_test_sums_the_item_scores_and_applies_the_pass_mark(source):
    quiz = lmsexport.read(source)
    items = {q.id: _golden(quiz, f"items/{q.id}.xml") for q in quiz.questions}
    right = [process_item(items[q.id], _correct(q)) for q in quiz.questions]
    wrong = [process_item(items[q.id], None) for q in quiz.questions]
    test = _golden(quiz, "test.xml")
    assert process_test(test, right)["SCORE"] == quiz.total_points
    assert process_test(test, wrong)["SCORE"] == 0.0
    if quiz.settings.pass_mark is None:
        assert "PASS" not in process_test(test, right)
    else:
        assert (process_test(test, right)["PASS"], process_test(test, wrong)["PASS"]) == (True, False)
        half = [r if n % 2 else w for n, (r, w) in enumerate(zip(right, wrong, strict=True))]
        percent = 100 * sum(o["SCORE"] for o in half) / quiz.total_points
        assert process_test(test, half)["PASS"] is (percent >= quiz.settings.pass_mark)


ENGINE = os.environ.get("LMSEXPORT_QTI_ENGINE")


@pytest.mark.skipif(not ENGINE, reason="set LMSEXPORT_QTI_ENGINE to cross-check with Citolab's QTI engine (Node)")
def test_a_third_party_engine_agrees(tmp_path):
    cases = []
    for source in SOURCES:
        quiz = lmsexport.read(source)
        for question in quiz.questions:
            item = _golden(quiz, f"items/{question.id}.xml")
            responses = _responses(question)
            expected = [process_item(item, response)["SCORE"] for response in responses]
            cases.append({"item": item.decode(), "responses": responses, "expected": expected, "where": question.id})
    shutil.copy(FIXTURES / "engine" / "score.mjs", tmp_path)
    (tmp_path / "node_modules").symlink_to(Path(ENGINE).resolve() / "node_modules")
    run = subprocess.run(["node", str(tmp_path / "score.mjs")], input=json.dumps(cases), capture_output=True,
                         text=True, timeout=600, check=True)
    for case in json.loads(run.stdout):
        # The engine reports scores to 3 decimals.
        assert case["scores"] == pytest.approx(case["expected"], abs=1e-3), case["where"]
