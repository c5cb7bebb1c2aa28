"""How a QTI 2.1 item scores a question of several parts, as one of the model's policies (QTI reader part).

QTI 2.1 info model, 5 (response processing): https://www.imsglobal.org/question/qtiv2p1/imsqti_infov2p1.html
The model's policies are in docs/scoring.md. What lmsexport's writer writes for each (the table
of kinds in docs/formats/qti21.md) reads back exactly: `match_correct`, or rules that test the
response against the correct one, are all or nothing; a mapping of equal shares (with -share for
each wrong option, kept from going below 0), lmsexport's PLACED and GAPS counts are partial. An
item of another tool that scores otherwise is read as the nearest policy, and `policy()` says
what it did instead, for the reader's warning (W821).
"""

from __future__ import annotations

from .. import names
from ....model import FillBlanks, Matching, MultipleChoice, Question
from ....xml import NS
from ....text import number
from .text import read_number

_Q = f"{{{NS['qti']}}}"
_CLOSE = 1e-6
"""lmsexport writes shares rounded up at the 7th decimal (writer/processing.py, share)."""


def policy(root, question: Question) -> tuple[str, str | None]:
    """The item's policy for `question` and, when the item does not score exactly by it, what it
    does instead (None when it does). A question both policies score alike reads as partial."""
    found, instead = _policy(root, question)
    if found == "all_or_nothing" and not question.scoring_matters:
        return "partial", None
    return found, instead


def _policy(root, question: Question) -> tuple[str, str | None]:
    processing = root.find(f"{_Q}responseProcessing")
    if processing is None:
        return "partial", "nothing (it has no response processing)"
    template = processing.get("template")
    if template is not None:
        name = template.rstrip("/").rsplit("/", 1)[-1].removesuffix(".xml")
        if name == "match_correct":
            return "all_or_nothing", None
        if name == "map_response":
            return "partial", _mapped(root, question)
        return "partial", f"by the response-processing template {name}"
    if isinstance(question, FillBlanks):  # a response per gap: no one match says the whole answer is right
        return _counted(processing, names.GAPS, len(question.gaps))
    if any(_matches_correct(branch) for branch in processing.iter(f"{_Q}responseIf", f"{_Q}responseElseIf")):
        return "all_or_nothing", None
    if processing.find(f".//{_Q}index") is not None:
        return _counted(processing, names.PLACED, len(question.items))
    if processing.find(f".//{_Q}mapResponse[@identifier='{names.RESPONSE}']") is not None:
        return "partial", _mapped(root, question)
    return "partial", "by rules of its own"


def _matches_correct(branch) -> bool:
    """`match(variable RESPONSE, correct RESPONSE)` setting SCORE: the whole response right or not."""
    test = branch[0] if len(branch) else None
    if test is None or test.tag != f"{_Q}match" or len(test) != 2:
        return False
    sets_score = any(s.get("identifier") == names.SCORE for s in branch.iterfind(f"{_Q}setOutcomeValue"))
    operands = {(child.tag, child.get("identifier")) for child in test}
    return sets_score and operands == {(f"{_Q}variable", names.RESPONSE), (f"{_Q}correct", names.RESPONSE)}


def _counted(processing, counter: str, parts: int) -> tuple[str, str | None]:
    """lmsexport's count of the parts right: SCORE its share of MAXSCORE (partial), or MAXSCORE
    when it reaches the number of parts (all or nothing)."""
    for test in processing.iter(f"{_Q}gte"):
        if _is_count(test, counter, parts):
            return "all_or_nothing", None
    for divide in processing.iter(f"{_Q}divide"):
        if _is_count(divide, counter, parts):
            return "partial", None
    return "partial", "by rules of its own"


def _is_count(node, counter: str, parts: int) -> bool:
    if len(node) != 2 or node[0].tag != f"{_Q}variable" or node[1].tag != f"{_Q}baseValue":
        return False
    return node[0].get("identifier") == counter and read_number(node[1].text, node[1], "a baseValue") == parts


def _mapped(root, question: Question) -> str | None:
    """What the mapping of RESPONSE gives each part, unless that is the partial rule exactly."""
    declared = root.find(f"{_Q}responseDeclaration[@identifier='{names.RESPONSE}']")
    mapping = None if declared is None else declared.find(f"{_Q}mapping")
    if isinstance(question, FillBlanks) and len(question.gaps) == 1 and mapping is not None:
        return None  # one gap, RESPONSE: its answers' credits are the mapping's, as the reader took them
    if mapping is None or not isinstance(question, (MultipleChoice, Matching)):
        return "by a mapping of its own"
    entries = {e.get("mapKey", "").strip(): read_number(e.get("mappedValue", "0"), e, "a mappedValue")
               for e in mapping.iterfind(f"{_Q}mapEntry")}
    default = read_number(mapping.get("defaultValue", "0"), mapping, "the mapping's defaultValue")
    if isinstance(question, MultipleChoice):
        right = [entries.get(c.id, default) for c in question.choices if c.correct]
        wrong = [entries.get(c.id, default) for c in question.choices if not c.correct]
        share = question.points / len(right)
        lower = mapping.get("lowerBound")
        floored = lower is not None and read_number(lower, mapping, "the mapping's lowerBound") == 0
        exact = floored and _all(right, share) and _all(wrong, -share)
        said = f"right options {_values(right)}" + (f", wrong options {_values(wrong)}" if wrong else "")
    else:
        keys = [f"{pair.id} {right}" for pair, right in _pairs(declared, question)]
        right = [entries.get(key, default) for key in keys]
        others = [value for key, value in entries.items() if key not in keys] + [default]
        exact = _all(right, question.points / len(right)) and _all(others, 0.0)
        said = f"pairs {_values(right)}" + (f", other pairs {_values(others)}" if any(others) else "")
    return None if exact else f"by its mapping: {said} points"


def _pairs(declared, question: Matching) -> list:
    """Each pair and the identifier of its right item, from the correct response."""
    values = [node.text.split() for node in declared.iterfind(f"{_Q}correctResponse/{_Q}value") if node.text]
    rights = {pair[0]: pair[1] for pair in values if len(pair) == 2}
    return [(pair, rights.get(pair.id, "")) for pair in question.pairs]


def _all(values: list[float], wanted: float) -> bool:
    return all(abs(value - wanted) <= _CLOSE for value in values)


def _values(values: list[float]) -> str:
    return ", ".join(number(value) for value in values)
