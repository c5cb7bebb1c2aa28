"""Every lint rule takes time linear in the questions: proved by counting steps, not by a clock.

L032's chance of "the longest option is the correct one" took n^2 steps (100,000 questions:
285 s), L030's period search as many on a key that nearly repeats, and L040 compared every
question with every earlier look-alike. Each test doubles its input and checks that the count
of the rule's elementary steps at most doubles (with a little slack), and the tail the rules
test against is checked against the exact quadratic computation.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings, strategies as st

from lmsexport.model import Choice, MultipleChoice, Quiz, Text
from lmsexport.rules import answers, chance, repeats
from lmsexport.rules.runner import check


def _exact_tail(chances: list[float], count: int) -> float:
    """P(at least `count` successes), one trial at a time: n^2 steps, the definition."""
    distribution = [1.0]
    for p in chances:
        distribution = [a * (1 - p) + b * p for a, b in zip(distribution + [0.0], [0.0] + distribution)]
    return sum(distribution[count:])


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from([0.0, 1.0, 1 / 2, 1 / 3, 1 / 4, 1 / 7, 1 / 1000]), max_size=150), st.integers(0, 160))
def test_the_linear_tail_is_the_exact_tail(chances, count):
    assert chance.at_least(chances, count) == pytest.approx(_exact_tail(chances, count), abs=1e-12)


def _counting(monkeypatch, module, name: str, cost) -> list[int]:
    """Count `cost(*args)` for every call of `module.name`."""
    steps, original = [0], getattr(module, name)

    def counted(*args):
        steps[0] += cost(*args)
        return original(*args)

    monkeypatch.setattr(module, name, counted)
    return steps


def _quiz(count: int, *, options: int = 4, prompt=lambda i: f"Question {i} about topic {i * 7919 % 1000}?",
          correct=lambda i: i % 4, answer=lambda i, j: f"option {j} of {i}") -> Quiz:
    questions = tuple(MultipleChoice(id=f"q{i}", prompt=Text(prompt(i)), choices=tuple(
        Choice(id=f"c{j}", text=Text(answer(i, j)), correct=j == correct(i)) for j in range(options)))
        for i in range(count))
    return Quiz(id="many", title="Many", lang="en", questions=questions)


def _steps_when_doubled(steps: list[int], run, quizzes: tuple[Quiz, Quiz]) -> tuple[int, int]:
    counts = []
    for quiz in quizzes:
        steps[0] = 0
        run(quiz)
        counts.append(steps[0])
    return counts[0], counts[1]


def test_the_tail_costs_linear_steps(monkeypatch):
    """The products of every convolution: binomials O(sqrt(n)) wide, one per option count."""
    steps = _counting(monkeypatch, chance, "convolve", lambda a, b: len(a) * len(b))
    counts = []
    for n in (20_000, 40_000):
        steps[0] = 0
        chance.at_least([(1 / 2, 1 / 3, 1 / 4, 1 / 5)[i % 4] for i in range(n)], n // 3)
        counts.append(steps[0])
    assert 0 < counts[1] <= 2.2 * counts[0], counts


class _Counted(list):
    """A list that counts how often an item is read."""

    reads = 0

    def __getitem__(self, index):
        _Counted.reads += 1
        return super().__getitem__(index)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 2), max_size=30))
def test_the_shortest_period_is_the_one_the_definition_gives(values):
    periods = (p for p in range(1, len(values) + 1) if all(values[i] == values[i - p] for i in range(p, len(values))))
    assert answers._shortest_period(values) == next(periods, 0)


def test_l030_finds_a_period_in_linear_steps():
    """A key that walks a b c d but for its last question: the old search tried every period
    up to the end (n^2 / 4 comparisons); the failure function reads each position a few times."""
    reads = []
    for n in (4000, 8000):
        _Counted.reads = 0
        key = _Counted([i % 4 for i in range(n - 1)] + [n % 4])
        assert answers._shortest_period(key) > n // 2  # no pattern: the last answer breaks it
        reads.append(_Counted.reads)
    assert reads[1] <= 2.2 * reads[0] and reads[1] <= 8 * 8000, reads


def test_l040_compares_linearly_many_look_alike_questions(monkeypatch):
    """Prompts of five words out of eight, all with the answer "yes": every question shares its
    rarest words with thousands of others, and many are near repeats of earlier ones."""
    rng = random.Random(3)
    words = [f"w{i}" for i in range(8)]
    prompts = [" ".join(rng.sample(words, 5)) + "?" for _ in range(8000)]
    steps = _counting(monkeypatch, repeats, "_similar", lambda a, b: 1)
    quizzes = tuple(_quiz(n, options=2, prompt=prompts.__getitem__, correct=lambda i: 0,
                          answer=lambda i, j: ("yes", "no")[j]) for n in (4000, 8000))
    one, two = _steps_when_doubled(steps, lambda quiz: list(repeats._repeated_questions([quiz])), quizzes)
    assert 0 < two <= 2.2 * one, (one, two)


def test_l040_still_finds_repeats_among_look_alikes():
    """The index splits generic prompts by their short answers; exact copies meet by a dictionary."""
    generic = _quiz(3000, options=2, prompt=lambda i: "Which of these is true?", correct=lambda i: 0,
                    answer=lambda i, j: (f"fact {i % 1500}", "a falsehood")[j])
    found = [(finding.question.id, finding.message) for _, finding in repeats._repeated_questions([generic])]
    assert len(found) == 1500 and found[0] == ("q1500", "question 1501 repeats question 1")


def test_lint_of_many_questions_finds_what_the_key_calls_for():
    """Every rule but the language one (its model is tested elsewhere) on 10,000 questions."""
    long_right = lambda i, j: f"option {j} of {i}" + (" which is the long right one" if j == i % 4 else "")  # noqa: E731
    quiz = _quiz(10_000, answer=long_right)
    assert sorted({d.code for d in check([quiz], ignore=["L020"])}) == ["L030", "L032"]


_WORDS = st.lists(st.sampled_from(["one", "two", "tree", "four", "7", "8"]), min_size=1, max_size=6).map(" ".join)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(_WORDS, st.lists(_WORDS, min_size=2, max_size=3), st.integers(0, 2)), max_size=25))
def test_l040_finds_what_comparing_every_pair_finds(questions):
    """Below CANDIDATES look-alikes the index is exact: every question is reported as repeating the
    first earlier one with a similar prompt and similar correct answers, as comparing each pair
    says (questions whose prompt's numbers and count of correct answers no other has included)."""
    quiz = _quiz(len(questions), options=3, prompt=lambda i: questions[i][0] + "?",
                 correct=lambda i: questions[i][2], answer=lambda i, j: (questions[i][1] * 3)[j])
    words = [(repeats._Words.of(repeats._words(q.prompt.value)),
              tuple(repeats._words(c.text.value) for c in q.correct_choices)) for q in quiz.questions]
    expected = {}
    for later, (prompt, correct) in enumerate(words):
        first = next((earlier for earlier in range(later) if repeats._similar(words[earlier][0], prompt)
                      and repeats._same_answers(words[earlier][1], correct)), None)
        if first is not None:
            expected[f"q{later}"] = f"question {first + 1}"
    found = {finding.question.id: finding.message.split(" repeats ")[-1] for _, finding in
             repeats._repeated_questions([quiz])}
    assert found == expected
