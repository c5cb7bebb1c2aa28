"""QTI 2.1 response processing for the QTI writer: expressions, rules, score shares.

QTI 2.1 info model, 5 (response processing) and 5.2 (the standard templates):
https://www.imsglobal.org/question/qtiv2p1/imsqti_infov2p1.html
Small builders so that a rule reads as nested calls (`set_outcome(SCORE, variable(MAXSCORE))`),
the two standard templates written out (an item that shows feedback carries its rules
inline), and the arithmetic of partial credit (docs/formats/qti21.md, Scoring).
"""

from __future__ import annotations

from decimal import ROUND_CEILING, ROUND_HALF_EVEN, Decimal

from .. import names
from ....xml import built_once, element
from ....text import number

STEP = Decimal("0.0000001")
"""`text.number()` keeps 7 decimals."""


def x(name: str, attrib: dict | None = None, *children, text: str | None = None):
    """A QTI element with children: expressions read as nested calls."""
    node = element(f"qti:{name}", attrib, text)
    node.extend(children)
    return node


def value(base_type: str, text: str):
    return x("baseValue", {"baseType": base_type}, text=text)


def variable(identifier: str):
    return x("variable", {"identifier": identifier})


def set_outcome(identifier: str, expression):
    return x("setOutcomeValue", {"identifier": identifier}, expression)


def condition(*branches):
    """A responseCondition from (test, rules) pairs: if, else-if ...; a None test is the else."""
    rule = x("responseCondition")
    for position, (test, rules) in enumerate(branches):
        kind = "responseElse" if test is None else "responseIf" if position == 0 else "responseElseIf"
        rule.append(x(kind, None, *([] if test is None else [test]), *rules))
    return rule


@built_once
def show(identifier: str):
    """FEEDBACK gains `identifier`: the `multiple(variable, baseValue)` form Canvas reads."""
    return set_outcome(names.FEEDBACK, x("multiple", None, variable(names.FEEDBACK), value("identifier", identifier)))


@built_once
def float_outcome(identifier: str, default: str | None = None, normal_maximum: str | None = None):
    declaration = x("outcomeDeclaration", {
        "identifier": identifier, "cardinality": "single", "baseType": "float", "normalMaximum": normal_maximum,
    })
    if default is not None:
        declaration.append(x("defaultValue", None, x("value", text=default)))
    return declaration


@built_once
def feedback_outcome():
    """FEEDBACK: the identifiers of the modalFeedback to show (`show()` adds to it)."""
    return x("outcomeDeclaration", {"identifier": names.FEEDBACK, "cardinality": "multiple", "baseType": "identifier"})


@built_once
def template_rules(template: str):
    """The rules of a standard template, as IMS publishes them (match_correct.xml, map_response.xml)."""
    response = variable(names.RESPONSE)
    if template == "match_correct":
        test = x("match", None, response, x("correct", {"identifier": names.RESPONSE}))
        return condition((test, [set_outcome(names.SCORE, value("float", "1"))]),
                         (None, [set_outcome(names.SCORE, value("float", "0"))]))
    return condition((x("isNull", None, response), [set_outcome(names.SCORE, value("float", "0"))]),
                     (None, [set_outcome(names.SCORE, x("mapResponse", {"identifier": names.RESPONSE}))]))


def all_or_nothing(points: str) -> str | list:
    """Scoring that gives the points for the correct response only: `match_correct` when the item
    is worth 1 (the template sets SCORE to 1), else the same test setting SCORE to MAXSCORE."""
    if points == "1":
        return "match_correct"
    test = x("match", None, variable(names.RESPONSE), x("correct", {"identifier": names.RESPONSE}))
    return [condition((test, [set_outcome(names.SCORE, variable(names.MAXSCORE))]),
                      (None, [set_outcome(names.SCORE, value("float", "0"))]))]


def counted_share(counter: str, parts: int):
    """SCORE = MAXSCORE * counter / parts: equal shares of the points, and exactly the points
    when every part counts (no sum of rounded shares)."""
    fraction = x("divide", None, variable(counter), value("float", str(parts)))
    return set_outcome(names.SCORE, x("product", None, variable(names.MAXSCORE), fraction))


def all_counted(counter: str, parts: int):
    """SCORE = MAXSCORE when the counter reached `parts` (every part in full), else 0."""
    test = x("gte", None, variable(counter), value("float", str(parts)))
    return condition((test, [set_outcome(names.SCORE, variable(names.MAXSCORE))]),
                     (None, [set_outcome(names.SCORE, value("float", "0"))]))


@built_once
def full_marks():
    """The test for "the answer earns full marks": SCORE >= MAXSCORE."""
    return x("gte", None, variable(names.SCORE), variable(names.MAXSCORE))


def share(points: str, parts: int) -> Decimal:
    """Each of `parts` equal parts of `points`, rounded up to 7 decimals, and up by one more
    step when the parts, added up as floats the way engines add them, would fall short of
    `points`: the full answer always reaches `points` (an upper bound or a cap brings it back
    to exactly `points`) and any answer with a part missing stays below it."""
    part = (Decimal(points) / parts).quantize(STEP, ROUND_CEILING)
    total = 0.0
    for _ in range(parts):
        total += float(part)
    return part if total >= float(points) else part + STEP


def credit_value(points: str | Decimal, credit: float) -> str:
    """`credit` percent of `points`, never below 0 (items score within 0..points)."""
    if credit >= 100:
        return number(float(points))
    part = (Decimal(points) * Decimal(repr(max(credit, 0.0))) / 100).quantize(STEP, ROUND_HALF_EVEN)
    return number(float(part))
