"""The one table of scores: (question, response) -> points under each scoring policy.

docs/scoring.md defines the policies; this table is their worked examples, and every output
must agree with it: the QTI items as the scoring oracle runs them and Moodle's grading of the
fractions written (tests/test_scoring.py), the SCORM player in Chromium
(tests/browser/test_scorm_scoring.py). Where a format cannot score a policy, its writer warns
and the row says, under `instead`, what that format gives the learner; the tests check both
the warning and that score.

Responses are written as the learner sees the options: ticked option ids, `{left item id:
right text}`, the item ids in the learner's order, `{gap id: text typed or choice picked}`.
Each runner turns them into its format's own response.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from lmsexport.model import (
    Answer, Choice, FillBlanks, Gap, Matching, MatchPair, MultipleChoice, OrderItem, Ordering, Question, Quiz,
    Settings, Text,
)

POLICIES = ("partial", "all_or_nothing")

QUESTIONS: dict[str, Question] = {
    "choices": MultipleChoice(
        id="choices", points=3, prompt=Text("Which are prime?"), multiple_response=True, choices=(
            Choice(id="a", text=Text("2"), correct=True), Choice(id="b", text=Text("3"), correct=True),
            Choice(id="c", text=Text("5"), correct=True), Choice(id="d", text=Text("9")))),
    "pairs": Matching(
        id="pairs", points=3, prompt=Text("Match each formula with its name."), distractors=(Text("metal"),), pairs=(
            MatchPair(id="a", left=Text("H2O"), right=Text("water")),
            MatchPair(id="b", left=Text("NaCl"), right=Text("salt")),
            MatchPair(id="c", left=Text("CO2"), right=Text("gas")))),
    "steps": Ordering(
        id="steps", points=4, prompt=Text("Put the steps in order."), items=tuple(
            OrderItem(id=i, text=Text(t)) for i, t in zip("abcd", ("load", "forward", "backward", "step"),
                                                           strict=True))),
    "gaps": FillBlanks(
        id="gaps", points=2, prompt=Text("The capital of France is ___, of Italy ___."), segments=(
            "The capital of France is ", Gap(id="g1", answers=(Answer(text="Paris"), Answer(text="Lutetia", credit=50))),
            ", of Italy ", Gap(id="g2", choices=(Choice(id="a", text=Text("Rome"), correct=True),
                                                 Choice(id="b", text=Text("Milan")))),
            ".")),
}
"""One question of each kind a policy applies to; the multiple-response one is the issue's
example (three right options and one wrong)."""


@dataclass(frozen=True)
class Row:
    question: str
    response: object
    partial: float
    all_or_nothing: float
    instead: dict[str, float] = field(default_factory=dict)
    """What a format that cannot score all or nothing (and warns) gives instead, by format."""

    def expected(self, policy: str, output: str) -> float:
        if policy == "all_or_nothing" and output in self.instead:
            return self.instead[output]
        return getattr(self, policy)

    @property
    def id(self) -> str:
        return f"{self.question}-{self.response}"


TABLE = [
    # Multiple response, 3 points, a b c right, d wrong: each right tick 1, each wrong tick -1.
    Row("choices", ("a", "b", "c"), 3, 3),
    Row("choices", ("a", "b", "c", "d"), 2, 0),                         # every box ticked
    Row("choices", ("a", "b"), 2, 0, {"moodle": 2}),
    Row("choices", ("a",), 1, 0, {"moodle": 1}),
    Row("choices", ("a", "d"), 0, 0),
    Row("choices", ("a", "b", "d"), 1, 0),
    Row("choices", ("d",), 0, 0),
    # Matching, 3 points, 3 pairs and a distractor: 1 per pair matched right.
    Row("pairs", {"a": "water", "b": "salt", "c": "gas"}, 3, 3),
    Row("pairs", {"a": "water", "b": "salt", "c": "metal"}, 2, 0, {"moodle": 2}),
    Row("pairs", {"a": "water", "b": "gas", "c": "salt"}, 1, 0, {"moodle": 1}),
    Row("pairs", {"a": "water"}, 1, 0, {"moodle": 1}),                  # the others left unanswered
    Row("pairs", {"a": "salt", "b": "gas", "c": "water"}, 0, 0),
    # Ordering, 4 points, load forward backward step: 1 per item in its right place.
    Row("steps", ("a", "b", "c", "d"), 4, 4),
    Row("steps", ("b", "a", "c", "d"), 2, 0),
    Row("steps", ("a", "c", "b", "d"), 2, 0),
    Row("steps", ("a", "b", "d", "c"), 2, 0),
    Row("steps", ("d", "a", "b", "c"), 0, 0),                           # each one place off
    Row("steps", ("d", "c", "b", "a"), 0, 0),
    # Fill in the blanks, 2 points: each gap 1 times its answer's credit (Lutetia 50 %).
    Row("gaps", {"g1": "Paris", "g2": "Rome"}, 2, 2),
    Row("gaps", {"g1": "paris", "g2": "Rome"}, 2, 2),                    # letter case does not count
    Row("gaps", {"g1": "Lutetia", "g2": "Rome"}, 1.5, 0, {"moodle": 1.5}),
    Row("gaps", {"g1": "Paris", "g2": "Milan"}, 1, 0, {"moodle": 1}),
    Row("gaps", {"g1": "Lutetia", "g2": "Milan"}, 0.5, 0, {"moodle": 0.5}),
    Row("gaps", {"g1": "Lyon", "g2": "Milan"}, 0, 0),
]

CANNOT = {"moodle": {"choices", "pairs", "gaps"}}
"""The questions each format scores all or nothing only with a warning (W661 for Moodle)."""


def quiz(policy: str, *question_ids: str) -> Quiz:
    """A quiz of the table's questions (all, or those named), scored by `policy`."""
    chosen = question_ids or tuple(QUESTIONS)
    return Quiz(id="scoring", title="Scoring", lang="en", settings=Settings(scoring=policy),
                questions=tuple(QUESTIONS[name] for name in chosen))
