"""The scoring policies give the table's scores in every output (tests/scoring_table.py).

QTI 2.1: the item as the scoring oracle (tests/qti_oracle.py) processes the response. Moodle
XML: the fractions and options written, graded by the model of Moodle's grading in
tests/moodle_grading.py. Where Moodle cannot score a policy, the writer must say so (W661)
and give what the row says instead. The SCORM player is checked against the same table in
Chromium (tests/browser/test_scorm_scoring.py); the JSON model carries the policies as they are.
"""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from lxml import etree

import lmsexport
from lmsexport.formats.qti21 import names
from lmsexport.model import Answer, Choice, FillBlanks, Gap, Matching, MultipleChoice, Quiz, Settings, Text
from moodle_grading import mark
from qti_oracle import process_item
from scoring_table import CANNOT, POLICIES, QUESTIONS, TABLE
from scoring_table import quiz as table_quiz

CASES = [(policy, row) for policy in POLICIES for row in TABLE]
IDS = [f"{policy}-{row.id}" for policy, row in CASES]


def _qti_response(question, response):
    """The table's response as the QTI writer's identifiers: R1... right items, RESPONSE_<gap>."""
    if isinstance(question, Matching):
        rights = [pair.right.value for pair in question.pairs] + [text.value for text in question.distractors]
        return [f"{left} R{rights.index(right) + 1}" for left, right in response.items()]
    if question.kind == "fill_blanks":
        out = {}
        for gap in question.gaps:
            picked = [choice.id for choice in gap.choices if choice.text.value == response[gap.id]]
            out[names.response_identifier(gap.id)] = (names.gap_choice_identifier(gap.id, picked[0]) if picked
                                                      else response[gap.id])
        return out
    return list(response)


@pytest.mark.parametrize("policy, row", CASES, ids=IDS)
def test_qti_items_score_as_the_table_says(policy, row):
    question = QUESTIONS[row.question]
    item = lmsexport.write(table_quiz(policy, row.question), "qti").files[names.item_path(question.id)]
    outcomes = process_item(item, _qti_response(question, row.response))
    assert outcomes["SCORE"] == pytest.approx(row.expected(policy, "qti"), abs=1e-6)


ENGINE = os.environ.get("LMSEXPORT_QTI_ENGINE")


@pytest.mark.skipif(not ENGINE, reason="set LMSEXPORT_QTI_ENGINE to cross-check with Citolab's QTI engine (Node)")
def test_a_third_party_qti_engine_scores_the_table_alike(tmp_path):
    """Citolab's qti-components, as in test_qti_scoring.py (tests/fixtures/qti21/engine)."""
    cases = []
    for policy, row in CASES:
        question = QUESTIONS[row.question]
        item = lmsexport.write(table_quiz(policy, row.question), "qti").files[names.item_path(question.id)]
        cases.append({"item": item.decode(), "responses": [_qti_response(question, row.response)],
                      "expected": [row.expected(policy, "qti")], "where": f"{policy} {row.id}"})
    engine = Path(__file__).parent / "fixtures" / "qti21" / "engine"
    shutil.copy(engine / "score.mjs", tmp_path)
    (tmp_path / "node_modules").symlink_to(Path(ENGINE).resolve() / "node_modules")
    run = subprocess.run(["node", str(tmp_path / "score.mjs")], input=json.dumps(cases), capture_output=True,
                         text=True, timeout=600, check=True)
    for case in json.loads(run.stdout):
        assert case["scores"] == pytest.approx(case["expected"], abs=1e-3), case["where"]  # it shows 3 decimals


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("explained", [False, True], ids=["template", "rules written out"])
def test_a_qti_package_reads_back_with_its_policies_and_no_warning(policy, explained):
    """With an explanation to show, the item carries its scoring as rules instead of a template."""
    written = table_quiz(policy)
    if explained:
        written = dataclasses.replace(written, questions=tuple(
            dataclasses.replace(q, explanation=Text("Why.")) for q in written.questions))
    log = lmsexport.Log()
    back = lmsexport.read("x.qti.zip", lmsexport.write(written, "qti").to_bytes(), log=log)
    assert log.diagnostics == []
    assert [back.scoring_of(q) for q in back.questions] == [policy] * len(QUESTIONS)


def _moodle_response(question, response):
    """The table's response as positions in the Moodle question (options, stems, items, gaps in
    the model's order, as the writer writes them) and the texts Moodle shows."""
    if question.kind == "multiple_choice":
        return {n for n, choice in enumerate(question.choices) if choice.id in response}
    if question.kind == "matching":
        return {n: response[pair.id] for n, pair in enumerate(question.pairs) if pair.id in response}
    if question.kind == "ordering":
        ids = [item.id for item in question.items]
        return [ids.index(item) for item in response]
    return {n: response[gap.id] for n, gap in enumerate(question.gaps)}


@pytest.mark.parametrize("policy, row", CASES, ids=IDS)
def test_moodle_grades_the_fractions_written_as_the_table_says(policy, row):
    question = QUESTIONS[row.question]
    package = lmsexport.write(table_quiz(policy, row.question), "moodle")
    (node,) = [q for q in etree.fromstring(next(iter(package.files.values()))) if q.get("type") != "category"]
    assert mark(node, _moodle_response(question, row.response)) == pytest.approx(row.expected(policy, "moodle"),
                                                                                abs=1e-6)
    warned = [d for d in package.warnings if d.code == "W661"]
    cannot = policy == "all_or_nothing" and row.question in CANNOT["moodle"]
    assert bool(warned) == cannot
    if cannot:
        (warning,) = warned
        assert warning.message.startswith("question 1: Moodle XML cannot score")  # the quiz's one question
        assert "the learner gets partial credit instead" in warning.message


@pytest.mark.parametrize("policy", POLICIES)
def test_the_json_model_carries_the_quiz_s_and_each_question_s_policy(policy):
    other = next(p for p in POLICIES if p != policy)
    mixed = table_quiz(policy)
    mixed = dataclasses.replace(mixed, questions=(dataclasses.replace(mixed.questions[0], scoring=other),
                                                  *mixed.questions[1:]))
    again = lmsexport.read("x.json", lmsexport.write(mixed, "json").files["scoring.json"])
    assert again == mixed
    assert [again.scoring_of(q) for q in again.questions] == [other] + [policy] * (len(QUESTIONS) - 1)


@pytest.mark.parametrize("policy", POLICIES)
def test_canvas_says_where_it_gives_partial_credit_instead(policy):
    """Canvas grades every kind of several parts by its own partial credit (docs/scoring.md)."""
    package = lmsexport.write(table_quiz(policy), "canvas")
    quiz = table_quiz(policy)
    warned = sorted(d.message.split(":")[0] for d in package.warnings if d.code == "W863")
    assert warned == (sorted(quiz.label(question) for question in quiz.questions) if policy == "all_or_nothing" else [])


def test_where_both_policies_score_alike_nothing_is_warned():
    """One right option among checkboxes, or one gap without partial credit: all or nothing is
    what right minus wrong gives already, so Moodle scores it exactly."""
    one_right = MultipleChoice(id="q1", prompt=Text("Which is prime?"), multiple_response=True, choices=(
        Choice(id="a", text=Text("2"), correct=True), Choice(id="b", text=Text("4"))))
    one_gap = FillBlanks(id="q2", prompt=Text("2 + 2 = ___"), segments=("2 + 2 = ", Gap(id="g1", answers=(
        Answer(text="4"),))))
    quiz = Quiz(id="alike", title="Alike", settings=Settings(scoring="all_or_nothing"), questions=(one_right, one_gap))
    assert not any(q.scoring_matters for q in quiz.questions) and all(q.has_parts for q in quiz.questions)
    assert lmsexport.write(quiz, "moodle").warnings == []
    assert [d for d in lmsexport.write(quiz, "canvas").warnings if d.code == "W863"] == []


@pytest.mark.parametrize("policy", POLICIES)
def test_the_text_format_carries_the_quiz_s_and_each_question_s_policy(policy):
    other = next(p for p in POLICIES if p != policy)
    mixed = table_quiz(policy)
    mixed = dataclasses.replace(mixed, questions=(dataclasses.replace(mixed.questions[0], scoring=other),
                                                  *mixed.questions[1:]))
    (text,) = lmsexport.write(mixed, "text").files.values()
    header = text.decode().split("---")[1].splitlines()
    assert ("scoring: all_or_nothing" in header) == (policy == "all_or_nothing")  # the default goes unsaid
    again = lmsexport.read("x.txt", text)
    assert [again.scoring_of(q) for q in again.questions] == [other] + [policy] * (len(QUESTIONS) - 1)


def test_the_table_covers_each_question_under_each_policy_with_partial_and_wrong_answers():
    for name in QUESTIONS:
        rows = [row for row in TABLE if row.question == name]
        full = QUESTIONS[name].points
        assert any(row.partial == full for row in rows) and any(row.partial == 0 for row in rows)
        assert any(0 < row.partial < full and row.all_or_nothing == 0 for row in rows)
