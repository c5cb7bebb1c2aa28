"""Moodle XML: how Moodle grades each question type, against the model's scoring policies.

The policies are the model's (model.SCORING_POLICIES, docs/scoring.md). Moodle's grading,
which this module translates to and from (moodle/moodle, question/type/):

* multichoice, several answers (`multichoice/question.php`,
  `qtype_multichoice_multi_question::grade_response`): the fractions of the answers ticked,
  added up and kept within 0..1. Right minus wrong is each right answer 100/n % and each wrong
  one -100/n %; no fractions say all or nothing (right answers must add up to 100 %).
* match (`match/question.php`, `grade_response`): right stems / stems, always partial.
* ordering (`ordering/question.php`, `grade_response`): by `gradingtype`; ABSOLUTE_POSITION
  counts the items in their right place, ALL_OR_NOTHING the whole order.
* multianswer, Cloze (`multianswer/question.php`, `grade_response`): each gap's fraction times
  its weight, over the weights: always partial.

Shared by the writer (a policy becomes fractions and options) and the reader (fractions and
options become the nearest policy, with whether it is exact).
"""

from __future__ import annotations

from collections.abc import Sequence

from .rules import POSITIVE_GRADES, adds_up, nearest_grade

ORDERING_GRADINGS = {"partial": "ABSOLUTE_POSITION", "all_or_nothing": "ALL_OR_NOTHING"}
"""qtype_ordering's `gradingtype` for each policy."""
_ORDERING_ALIASES = {"ABS": "ABSOLUTE_POSITION", "ABSOLUTE": "ABSOLUTE_POSITION", "REL": "RELATIVE_NEXT_EXCLUDE_LAST",
                     "RELATIVE": "RELATIVE_NEXT_EXCLUDE_LAST"}
_ORDERING_TYPES = ("ALL_OR_NOTHING", "ABSOLUTE_POSITION", "RELATIVE_NEXT_EXCLUDE_LAST", "RELATIVE_NEXT_INCLUDE_LAST",
                   "RELATIVE_ONE_PREVIOUS_AND_NEXT", "RELATIVE_ALL_PREVIOUS_AND_NEXT", "LONGEST_ORDERED_SUBSET",
                   "LONGEST_CONTIGUOUS_SUBSET", "RELATIVE_TO_CORRECT")
ORDERING_DEFAULT = "RELATIVE_NEXT_EXCLUDE_LAST"
"""What qtype_ordering::set_layout_select_count_grading() takes for a missing or unknown name."""
WRONG_TICK = -100.0
"""What each wrong option costs when the quiz wants all or nothing: any wrong tick scores 0."""


def grades(correct: Sequence[bool], multiple_response: bool, policy: str = "partial") -> list[float]:
    """Moodle answer fractions, in percent, for options of which `correct` are right.

    One answer: 100 for the right option, 0 for the others. Multiple response: the right
    options share 100 equally when Moodle's grade list has 100/n (n = 1-10 and 20; the
    thirds, sixths, sevenths and ninths add up to 100 within Moodle's rounding); for
    n = 11-19 the first 20-n are worth 10 and the rest 5; past 20 the first 20 are worth 5
    and the rest 0. Each wrong option costs, for `partial`, the list value nearest 100/n (the
    right options' share itself when they have one: right minus wrong); for `all_or_nothing`,
    which Moodle cannot grade, 100, so that any wrong tick scores 0.
    """
    if not multiple_response:
        return [100.0 if right else 0.0 for right in correct]
    right = sum(correct)
    shares = _shares(right)
    penalty = WRONG_TICK if policy == "all_or_nothing" else 0.0 - wrong_tick(right)  # never -0
    taken = iter(shares)
    return [next(taken) if is_right else penalty for is_right in correct]


def wrong_tick(right: int) -> float:
    """What a wrong tick costs under right minus wrong: the share of one right option, on the list."""
    shares = set(_shares(right))
    return shares.pop() if len(shares) == 1 else nearest_grade(100 / right)


def _shares(count: int) -> list[float]:
    """`count` list values adding up to 100 (to Moodle's rounding), as equal as the list allows."""
    equal = next((share for share in POSITIVE_GRADES if adds_up([share] * count)), None)
    if equal is not None:
        return [equal] * count
    if count < 20:
        return [10.0] * (20 - count) + [5.0] * (2 * count - 20)
    return [5.0] * 20 + [0.0] * (count - 20)


def grades_policy(percents: Sequence[float]) -> str | None:
    """The policy the fractions of a multiple-answer question grade by exactly (`partial` when
    they are what grades() writes for it), else None: no policy of the model grades as they do."""
    expected = grades([percent > 0 for percent in percents], True)
    exact = len(set(_shares(sum(percent > 0 for percent in percents)))) == 1
    same = all(abs(percent - wanted) < 0.001 for percent, wanted in zip(percents, expected, strict=True))
    return "partial" if exact and same else None


def ordering_grading(value: str | None) -> str:
    """The grading type qtype_ordering takes from a `<gradingtype>` (its aliases, its default)."""
    name = (value or "").strip().upper()
    name = _ORDERING_ALIASES.get(name, name)
    return name if name in _ORDERING_TYPES else ORDERING_DEFAULT


def ordering_policy(grading: str) -> str | None:
    """The policy a grading type is exactly, or None (the relative and subset types)."""
    return next((policy for policy, name in ORDERING_GRADINGS.items() if name == grading), None)
