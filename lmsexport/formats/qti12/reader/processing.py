"""What an item's QTI 1.2 response processing says: which answers score, and which feedback shows when.

QTI ASI 1.2.1, section 3.8 (resprocessing): https://www.imsglobal.org/question/qtiv1p2/imsqti_asi_infov1p2.html
Part of the QTI 1.2 reader. Canvas's importer does not run the conditions either: it reads them for
the key (canvas-lms `gems/plugins/qti_exporter/lib/qti/choice_interaction.rb` and its siblings),
and so does this module. A `respcondition` that sets or adds a positive score names right answers
(its `varequal`s, but those under `not`); one that scores nothing and tests one answer shows that
answer's feedback; `<other/>` alone is "whatever the answer" (Canvas's general comments).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation

from ....xml import local_name


_EXPONENTS = 400
"""Decimal exponents a number may have (floats reach 10^±308): beyond, it is no number lmsexport
reads, and arithmetic on it stays exact (names.EXACT) and cheap."""
_MAXIMUM = Decimal(100)
"""What Blackboard's `<setvar>SCORE.max</setvar>` (the variable's maximum: full marks) counts as."""
_TESTS = frozenset({"varequal", "vargte", "varlte", "vargt", "varlt", "varsubstring"})


@dataclass(frozen=True)
class Test:
    """One comparison of a condition: `<kind respident=response>value</kind>`, maybe under `not`."""

    kind: str
    response: str
    value: str
    negated: bool
    node: object = field(compare=False, repr=False)


@dataclass
class Condition:
    """One respcondition, as the reader needs it."""

    node: object
    tests: list[Test]
    score: Decimal | None
    """The score it sets or adds (SCORE, or the one variable it sets), None if it sets none."""
    adds: bool
    shows: list[str]
    """The itemfeedback idents it displays."""
    otherwise: bool
    """Its conditionvar is `<other/>` alone: it holds whatever the answer."""

    @property
    def scores(self) -> bool:
        return self.score is not None and self.score > 0

    def named(self, response: str | None = None) -> list[str]:
        """The values its positive `varequal`s give (for `response`, or any), in order."""
        return [test.value for test in self.tests
                if test.kind == "varequal" and not test.negated and response in (None, test.response)]


def conditions(item) -> list[Condition]:
    """Every respcondition of the item's (first) resprocessing, in order."""
    processing = next((node for node in item if local_name(node) == "resprocessing"), None)
    if processing is None:
        return []
    return [_condition(node) for node in processing if local_name(node) == "respcondition"]


def _condition(node) -> Condition:
    conditionvar = next((child for child in node if local_name(child) == "conditionvar"), None)
    tests = [] if conditionvar is None else list(_tests(conditionvar, False))
    children = [] if conditionvar is None else [child for child in conditionvar if local_name(child)]
    otherwise = len(children) == 1 and local_name(children[0]) == "other"
    score, adds = None, False
    setvars = [child for child in node if local_name(child) == "setvar"]
    scoring = next((s for s in setvars if (s.get("varname") or s.get("variablename") or "SCORE") == "SCORE"),
                   setvars[0] if setvars else None)
    if scoring is not None:
        score = _MAXIMUM if (scoring.text or "").strip().endswith(".max") else number(scoring.text)
        adds = (scoring.get("action") or "Set") == "Add"
    shows = [child.get("linkrefid", "") for child in node if local_name(child) == "displayfeedback"]
    return Condition(node, tests, score, adds, shows, otherwise)


def _tests(node, negated: bool):
    for child in node:
        name = local_name(child)
        if name in _TESTS:
            yield Test(name, child.get("respident", ""), (child.text or "").strip(), negated, child)
        elif name == "not":
            yield from _tests(child, not negated)
        elif name in ("and", "or"):
            yield from _tests(child, negated)


def maximum(item) -> Decimal | None:
    """The `maxvalue` the item declares for SCORE: its points, in other tools' items (Canvas's is 100 %)."""
    for node in item.iter():
        if local_name(node) == "decvar" and (node.get("varname") or "SCORE") == "SCORE":
            value = number(node.get("maxvalue"))
            return value if value is not None and value > 0 else None
    return None


def number(text: str | None) -> Decimal | None:
    """A decimal number as QTI writes one (`100`, `14.29`, ` 5 `), or None (also for one no float holds)."""
    try:
        value = Decimal((text or "").strip())
    except InvalidOperation:
        return None
    return value if value.is_finite() and abs(value.adjusted()) <= _EXPONENTS else None


def right_values(found: list[Condition], response: str) -> list[str]:
    """The values of `response` that the conditions giving the highest score name: the key of a
    choice, short answer or matching response."""
    scoring = [condition for condition in found if condition.scores and condition.named(response)]
    if not scoring:
        return []
    best = max(condition.score for condition in scoring)
    return list(dict.fromkeys(value for condition in scoring if condition.score == best
                              for value in condition.named(response)))


def lesser_values(found: list[Condition], response: str) -> list[str]:
    """Values of `response` that score, but less than the best: partial credit the model cannot hold."""
    right = set(right_values(found, response))
    return [value for condition in found if condition.scores for value in condition.named(response)
            if value not in right]


def answer_feedback(found: list[Condition]) -> dict[tuple[str, str], list[str]]:
    """(response, value) -> the feedback idents shown when that one answer is given: conditions
    that score nothing and test one value (Canvas's `answer_feedback_respconditions`)."""
    shown: dict[tuple[str, str], list[str]] = {}
    for condition in found:
        if condition.scores or len(condition.tests) != 1 or condition.tests[0].negated:
            continue
        test = condition.tests[0]
        if test.kind == "varequal":
            shown.setdefault((test.response, test.value), []).extend(condition.shows)
    return shown
