"""Every golden QTI item, run by a QTI engine on right, wrong and partial responses.

Each response's expected score and feedback come from the scoring rules of
docs/formats/qti21.md, computed here without the writer: the correct response scores
exactly the question's points, any other less (never below 0), partial credit as
documented per kind, and the feedback shown is the option's or answer's, right / wrong
and the explanation. The engine is tests/qti_oracle.py (checked in test_qti_oracle.py).
When LMSEXPORT_QTI_ENGINE names a folder holding the node_modules of
tests/fixtures/qti21/engine/package.json (copy it there, then `npm install --prefix FOLDER`),
the same items are also scored by a third-party engine, Citolab's qti-components, and must agree.
"""

from __future__ import annotations

import itertools
import json
import os
import random
import re
import shutil
import subprocess
from pathlib import Path

import pytest

import lmsexport
from conftest import GOLDEN, ROOT
from lmsexport.formats.qti21 import names as names
from lmsexport.model import Answer, FillBlanks, Matching, MultipleChoice, Numeric, Question, Quiz, ShortAnswer
from qti_oracle import displayed_feedback, process_item, process_test, selected_items

FIXTURES = Path(__file__).parent / "fixtures" / "qti21"
SOURCES = [
    *sorted((ROOT / "quizzes").glob("*.txt")), ROOT / "examples" / "features.txt",
    ROOT / "examples" / "all-kinds" / "quiz.txt", FIXTURES / "model-fields.json", FIXTURES / "kinds.json",
    ROOT / "examples" / "pools" / "quiz.txt",
]


def _golden(quiz: Quiz, name: str) -> bytes:
    return (GOLDEN / "writers" / "qti" / quiz.id / name).read_bytes()


def _typed_sample(answer: str) -> str:
    """Something a learner types that an answer accepts: its wildcards filled in."""
    return re.sub(r"(?<!\\)\*", "zz", answer).replace("\\*", "*")


def _accepts(answer: str, typed: str, case_sensitive: bool) -> bool:
    """Moodle's rule: `*` matches any run of characters, `\\*` a star; the whole answer."""
    parts = re.split(r"(\\\*|\*)", answer)
    pattern = "".join(".*" if part == "*" else re.escape("*" if part == "\\*" else part) for part in parts)
    return re.fullmatch(pattern, typed, 0 if case_sensitive else re.IGNORECASE) is not None


def _first(answers, typed, case_sensitive: bool):
    if typed is None:
        return None
    return next((n for n, answer in enumerate(answers) if _accepts(answer.text, typed, case_sensitive)), None)


def _typed_responses(answers: tuple[Answer, ...], case_sensitive: bool) -> list:
    samples = [_typed_sample(answer.text) for answer in answers]
    variants = [sample.swapcase() for sample in samples if not case_sensitive]
    return [*samples, *variants, "not an answer", "", None]


class Expected:
    """What a response should score and which feedback it should show, per kind, under the
    question's scoring policy (docs/scoring.md): all or nothing keeps the full marks of the
    partial rule and makes every other score 0."""

    def __init__(self, question: Question, policy: str = "partial"):
        self.question = question
        self.policy = policy

    def cases(self) -> list[tuple[object, float, set[str]]]:
        """(response, score, per-answer feedback shown) for the kind's responses."""
        cases = getattr(self, f"_{self.question.kind}")()
        if self.policy != "all_or_nothing" or not self.question.has_parts:
            return cases
        full = self.question.points
        return [(r, full if score == pytest.approx(full) else 0.0, shown) for r, score, shown in cases]

    def _credit(self, credit: float) -> float:
        return self.question.points * max(credit, 0) / 100

    def _multiple_choice(self):
        question: MultipleChoice = self.question
        ids = [choice.id for choice in question.choices]
        if not question.multiple_response:
            return [(r, question.points if r == question.correct_choices[0].id else 0.0, self._picked([r]))
                    for r in [None, *ids]]
        share = question.points / len(question.correct_choices)
        cases = []
        for picked in (list(s) for size in range(len(ids) + 1) for s in itertools.combinations(ids, size)):
            right = sum(choice.correct for choice in question.choices if choice.id in picked)
            cases.append((picked, min(max((2 * right - len(picked)) * share, 0.0), question.points),
                          self._picked(picked)))
        return cases

    def _picked(self, picked) -> set[str]:
        return {names.choice_feedback_identifier(n) for n, c in enumerate(self.question.choices)
                if c.feedback and c.id in picked}

    def _true_false(self):
        right = names.TRUE if self.question.answer else names.FALSE
        return [(r, self.question.points if r == right else 0.0, set()) for r in (None, names.TRUE, names.FALSE)]

    def _short_answer(self):
        question: ShortAnswer = self.question
        cases = []
        for typed in _typed_responses(question.answers, question.case_sensitive):
            n = _first(question.answers, typed or None, question.case_sensitive)
            answer = None if n is None else question.answers[n]
            shown = {names.choice_feedback_identifier(n)} if answer and answer.feedback else set()
            cases.append((typed, self._credit(answer.credit) if answer else 0.0, shown))
        return cases

    def _numeric(self):
        question: Numeric = self.question
        cases = []
        typed = [v for a in question.answers for v in (a.value, a.value - a.tolerance, a.value + a.tolerance)]
        for value in [*typed, max(a.value for a in question.answers) + 1000, "not a number", None]:
            n = next((n for n, a in enumerate(question.answers) if isinstance(value, float)
                      and a.value - a.tolerance <= value <= a.value + a.tolerance), None)
            answer = None if n is None else question.answers[n]
            shown = {names.choice_feedback_identifier(n)} if answer and answer.feedback else set()
            cases.append((repr(value) if isinstance(value, float) else value,
                          self._credit(answer.credit) if answer else 0.0, shown))
        return cases

    def _essay(self):
        return [(typed, 0.0, set()) for typed in ("An answer, to be marked by a person.", None)]

    def _matching(self):
        question: Matching = self.question
        rights = [f"R{n}" for n in range(1, len(question.pairs) + len(question.distractors) + 1)]
        key = [f"{pair.id} {rights[n]}" for n, pair in enumerate(question.pairs)]
        cases = [(key, question.points, set()), ([], 0.0, set()), (None, 0.0, set())]
        for n in range(len(key)):
            wrong = [*key[:n], f"{question.pairs[n].id} {rights[-1]}", *key[n + 1:]]
            right = len(key) - 1 + (not question.distractors and n == len(key) - 1)
            cases.append((wrong, question.points * right / len(key), set()))
        return cases

    def _ordering(self):
        """Each item in its right place earns points / items."""
        ids = [item.id for item in self.question.items]
        share = self.question.points / len(ids)
        return [(list(order), share * sum(a == b for a, b in zip(order, ids)), set())
                for order in itertools.permutations(ids)] + [(None, 0.0, set())]

    def _fill_blanks(self):
        question: FillBlanks = self.question
        options = [self._gap_options(gap) for gap in question.gaps]
        cases = []
        for combination in itertools.product(*options):
            response = {names.response_identifier(gap.id): typed
                        for gap, (typed, _, _) in zip(question.gaps, combination, strict=True)}
            earned = sum(credit for _, credit, _ in combination) / len(question.gaps)
            score = question.points if earned == 100 else question.points * earned / 100
            cases.append((response, score, set().union(*(shown for _, _, shown in combination))))
        return cases

    def _gap_options(self, gap) -> list[tuple[object, float, set[str]]]:
        """(typed or picked, credit, feedback shown) for one gap."""
        if gap.choices:
            return [(names.gap_choice_identifier(gap.id, c.id) if c else None, 100.0 if c and c.correct else 0.0,
                     {names.gap_feedback_identifier(gap.id, n)} if c and c.feedback else set())
                    for n, c in [*enumerate(gap.choices), (None, None)]]
        options = []
        for typed in [*{_typed_sample(a.text) for a in gap.answers}, "wrong", None]:
            n = _first(gap.answers, typed, self.question.case_sensitive)
            answer = None if n is None else gap.answers[n]
            shown = {names.gap_feedback_identifier(gap.id, n)} if answer and answer.feedback else set()
            options.append((typed, max(answer.credit, 0.0) if answer else 0.0, shown))
        return sorted(options, key=lambda option: str(option[0]))

    def _description(self):
        return [(None, None, set())]

    def shown(self, score: float | None, per_answer: set[str]) -> set[str]:
        """Every feedback the response should show."""
        question = self.question
        shown = set(per_answer)
        if score is not None and question.scored:
            full = score >= question.points
            if question.correct_feedback and full:
                shown.add(names.CORRECT_FEEDBACK)
            if question.incorrect_feedback and not full:
                shown.add(names.INCORRECT_FEEDBACK)
        if question.explanation:
            shown.add(names.GENERAL_FEEDBACK)
        return shown


CASES = [(source, question.id) for source in SOURCES for question in lmsexport.read(source).questions]


@pytest.mark.parametrize("source, question_id", CASES, ids=lambda v: v.stem if isinstance(v, Path) else v)
def test_item_scores_every_response_right(source, question_id):
    quiz = lmsexport.read(source)
    question = next(q for q in quiz.questions if q.id == question_id)
    item = _golden(quiz, f"items/{question.id}.xml")
    expected = Expected(question, quiz.scoring_of(question))
    for response, score, per_answer in expected.cases():
        outcomes = process_item(item, response)
        if score is None:
            assert "SCORE" not in outcomes and "MAXSCORE" not in outcomes
        else:
            assert outcomes["SCORE"] == pytest.approx(score, abs=1e-6), response
            assert (outcomes["SCORE"] == question.points) == (score == question.points), response
            assert 0 <= outcomes["SCORE"] <= question.points and outcomes["MAXSCORE"] == question.points
        assert displayed_feedback(item, outcomes) == expected.shown(score, per_answer), response


def _right(question: Question):
    """The response that earns full marks."""
    return next((r for r, score, _ in Expected(question).cases() if score == pytest.approx(question.points)), None)


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: p.stem)
def test_test_sums_the_item_scores_and_applies_the_pass_mark(source):
    quiz = lmsexport.read(source)
    items = {q.id: _golden(quiz, f"items/{q.id}.xml") for q in quiz.questions}
    right = [process_item(items[q.id], _right(q)) for q in quiz.questions]
    wrong = [process_item(items[q.id], None) for q in quiz.questions]
    test = _golden(quiz, "test.xml")
    machine = sum(q.points for q in quiz.questions if q.scored)
    assert process_test(test, right)["SCORE"] == pytest.approx(machine, abs=1e-6)
    assert process_test(test, wrong)["SCORE"] == 0.0
    if quiz.settings.pass_mark is None:
        assert "PASS" not in process_test(test, right)
    else:
        passed = 100 * machine / quiz.total_points >= quiz.settings.pass_mark
        assert (process_test(test, right)["PASS"], process_test(test, wrong)["PASS"]) == (passed, False)


ENGINE = os.environ.get("LMSEXPORT_QTI_ENGINE")
_NO_TOLERANCE = b'toleranceMode="absolute"'
"""Citolab's qti-equal (qti-components 7.27) supports toleranceMode exact only ("toleranceMode
is not supported yet"): items that compare numbers within a tolerance are left to the oracle."""


@pytest.mark.skipif(not ENGINE, reason="set LMSEXPORT_QTI_ENGINE to cross-check with Citolab's QTI engine (Node)")
def test_a_third_party_engine_agrees(tmp_path):
    cases = []
    for source in SOURCES:
        quiz = lmsexport.read(source)
        for question in quiz.questions:
            item = _golden(quiz, f"items/{question.id}.xml")
            if not question.scored or _NO_TOLERANCE in item:
                continue
            responses = [response for response, _, _ in Expected(question).cases()]
            expected = [process_item(item, response)["SCORE"] for response in responses]
            cases.append({"item": item.decode(), "responses": responses, "expected": expected,
                          "where": f"{quiz.id} {question.id}"})
    shutil.copy(FIXTURES / "engine" / "score.mjs", tmp_path)
    (tmp_path / "node_modules").symlink_to(Path(ENGINE).resolve() / "node_modules")
    run = subprocess.run(["node", str(tmp_path / "score.mjs")], input=json.dumps(cases), capture_output=True,
                         text=True, timeout=600, check=True)
    for case in json.loads(run.stdout):
        # The engine reports scores to 3 decimals.
        assert case["scores"] == pytest.approx(case["expected"], abs=1e-3), case["where"]


@pytest.mark.parametrize("seed", range(6))
def test_an_attempt_scores_and_passes_on_the_questions_it_drew(seed):
    """examples/pools: one fixed question, 2 of 4 at 2 points, 1 of 3 at 3 points, an essay; each
    attempt's SCORE and MAXSCORE come from its drawn items only, and PASS from their ratio."""
    quiz = lmsexport.read(ROOT / "examples" / "pools" / "quiz.txt")
    test = _golden(quiz, "test.xml")
    chooser = random.Random(seed)
    hrefs = selected_items(test, lambda section, children, count: chooser.sample(children, count))
    by_href = {f"items/{q.id}.xml": q for q in quiz.questions}
    drawn = [by_href[href] for href in hrefs]
    assert [sum(q.id in pool.questions for q in drawn) for pool in quiz.pools] == [pool.draw for pool in quiz.pools]
    assert sum(q.points for q in drawn) == quiz.total_points
    right = [process_item(_golden(quiz, href), _right(q) if q.scored else None) for href, q in zip(hrefs, drawn)]
    outcomes = process_test(test, right)
    machine = sum(q.points for q in drawn if q.scored)
    assert outcomes["SCORE"] == pytest.approx(machine) and outcomes["MAXSCORE"] == quiz.total_points
    assert outcomes["PASS"] == (100 * machine / quiz.total_points >= quiz.settings.pass_mark)
    half = [o if q.id not in quiz.pools[0].questions else process_item(_golden(quiz, f"items/{q.id}.xml"), None)
            for o, q in zip(right, drawn)]
    assert process_test(test, half)["SCORE"] == pytest.approx(machine - 4)
