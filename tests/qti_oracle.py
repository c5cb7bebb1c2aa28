"""A test oracle: runs QTI 2.1 response and outcome processing, for the subset lmsexport writes.

Not part of the product and not a general QTI engine. It executes the rules an item or
test carries (or the standard template its `template` URI names) exactly as the QTI 2.1
information model defines them, so the tests can check that every written item scores
the correct response to full marks and any other response to less:

    rules        responseCondition (responseIf / responseElseIf / responseElse),
                 setOutcomeValue, outcomeCondition (outcomeIf / outcomeElseIf / outcomeElse)
    expressions  baseValue, variable, correct, isNull, not, match, member, multiple, index,
                 mapResponse, stringMatch, patternMatch, equal (exact, absolute),
                 sum, product, divide, gt, gte, testVariables
    templates    match_correct, map_response (QTI 2.1 rptemplates, as published by IMS)
    tests        sections with selection (without replacement): `selected_items` draws an attempt
    base types   identifier, string, float, integer, boolean, directedPair
    cardinality  single, multiple, ordered

Anything else raises `Unsupported`, so a writer change that needs more semantics fails
loudly instead of being scored by guesswork. Values: NULL is None; multiple cardinality
is a Counter (a bag, as QTI defines containers), ordered a tuple; an empty container or an
empty string is NULL (QTI 2.1, 5.1); a pair is a tuple of two identifiers.
tests/test_qti_oracle.py checks the oracle itself; test_qti_scoring.py uses it.
"""

from __future__ import annotations

import re
from collections import Counter

from lxml import etree

QTI = "{http://www.imsglobal.org/xsd/imsqti_v2p1}"
_TEMPLATE_BASE = "http://www.imsglobal.org/question/qti_v2p1/rptemplates/"
# The two templates' rules, as in IMS's match_correct.xml and map_response.xml.
TEMPLATES = {
    "match_correct": """<responseProcessing xmlns="http://www.imsglobal.org/xsd/imsqti_v2p1">
  <responseCondition><responseIf>
    <match><variable identifier="RESPONSE"/><correct identifier="RESPONSE"/></match>
    <setOutcomeValue identifier="SCORE"><baseValue baseType="float">1</baseValue></setOutcomeValue>
  </responseIf><responseElse>
    <setOutcomeValue identifier="SCORE"><baseValue baseType="float">0</baseValue></setOutcomeValue>
  </responseElse></responseCondition></responseProcessing>""",
    "map_response": """<responseProcessing xmlns="http://www.imsglobal.org/xsd/imsqti_v2p1">
  <responseCondition><responseIf>
    <isNull><variable identifier="RESPONSE"/></isNull>
    <setOutcomeValue identifier="SCORE"><baseValue baseType="float">0.0</baseValue></setOutcomeValue>
  </responseIf><responseElse>
    <setOutcomeValue identifier="SCORE"><mapResponse identifier="RESPONSE"/></setOutcomeValue>
  </responseElse></responseCondition></responseProcessing>""",
}


class Unsupported(Exception):
    """The document uses QTI the oracle does not implement."""


def _local(node) -> str:
    if not node.tag.startswith(QTI):
        raise Unsupported(f"element outside QTI 2.1: {node.tag}")
    return node.tag[len(QTI):]


def _typed(base_type: str, text: str):
    if base_type == "string":
        return text or ""
    text = (text or "").strip()
    if base_type == "directedPair":
        source, target = text.split()
        return (source, target)
    if base_type == "float":
        return float(text)
    if base_type == "integer":
        return int(text)
    if base_type == "boolean":
        return {"true": True, "false": False}[text]
    if base_type == "identifier":
        return text
    raise Unsupported(f"baseType {base_type}")


def _null(value) -> bool:
    return value is None or value == "" or (isinstance(value, (Counter, tuple)) and not value)


def _number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _same(key, given, case_sensitive: bool) -> bool:
    if isinstance(key, str) and isinstance(given, str) and not case_sensitive:
        return key.casefold() == given.casefold()
    return key == given


class _Declaration:
    """A variable's declaration: cardinality, base type, default, correct response, mapping."""

    def __init__(self, node):
        self.identifier = node.get("identifier")
        self.cardinality = node.get("cardinality")
        self.base_type = node.get("baseType")
        self.default = self._values(node.find(f"{QTI}defaultValue"))
        self.correct = self._values(node.find(f"{QTI}correctResponse"))
        self.mapping = node.find(f"{QTI}mapping")
        if self.cardinality not in ("single", "multiple", "ordered"):
            raise Unsupported(f"cardinality {self.cardinality}")

    def _values(self, holder):
        if holder is None:
            return None
        return self.container([_typed(self.base_type, value.text) for value in holder.iterfind(f"{QTI}value")])

    def container(self, values: list):
        """`values` in this variable's cardinality (None when there are none)."""
        if self.cardinality == "single":
            return values[0] if values else None
        return (tuple(values) if self.cardinality == "ordered" else Counter(values)) or None

    def response(self, given):
        """A candidate's response, as an engine receives it: typed text is parsed (a float
        that does not parse is no response), an empty answer is NULL."""
        values = [given] if self.cardinality == "single" else list(given or ())
        parsed = []
        for value in values:
            if value is None or value == "":
                continue
            try:
                parsed.append(_typed(self.base_type, value) if isinstance(value, str) else value)
            except ValueError:
                continue
        return self.container(parsed)

    def initial(self):
        """Outcome start value: the default; numeric outcomes without one start at 0 (QTI 2.1 5.1)."""
        if self.default is None and self.base_type in ("float", "integer") and self.cardinality == "single":
            return 0.0
        return self.default


class Session:
    """Variables of one item (or one test) while its processing runs."""

    def __init__(self, declarations: dict[str, _Declaration], values: dict, item_outcomes: list[dict] | None = None):
        self.declarations = declarations
        self.values = values
        self.item_outcomes = item_outcomes or []

    def run(self, rules) -> None:
        for rule in rules:
            self._rule(rule)

    def _rule(self, rule) -> None:
        name = _local(rule)
        if name == "setOutcomeValue":
            identifier = rule.get("identifier")
            if identifier not in self.declarations:
                raise Unsupported(f"setOutcomeValue of undeclared {identifier}")
            self.values[identifier] = self._coerce(identifier, self.evaluate(rule[0]))
        elif name in ("responseCondition", "outcomeCondition"):
            self._condition(rule)
        else:
            raise Unsupported(f"rule {name}")

    def _condition(self, condition) -> None:
        for branch in condition:
            kind = _local(branch)
            if kind.endswith("Else"):
                self.run(branch)
                return
            if self.evaluate(branch[0]) is True:
                self.run(branch[1:])
                return

    def _coerce(self, identifier: str, value):
        declaration = self.declarations[identifier]
        if value is None:
            return None
        if declaration.base_type == "float" and isinstance(value, (int, float)) and not isinstance(value, bool):
            return float(value)
        if declaration.cardinality == "multiple" and not isinstance(value, Counter):
            return Counter([value])
        return value

    def evaluate(self, node):
        method = getattr(self, f"_x_{_local(node)}", None)
        if method is None:
            raise Unsupported(f"expression {_local(node)}")
        return method(node)

    def _x_baseValue(self, node):
        return _typed(node.get("baseType"), node.text)

    def _x_variable(self, node):
        identifier = node.get("identifier")
        if identifier not in self.values:
            raise Unsupported(f"variable {identifier} (not declared here)")
        if node.get("weightIdentifier"):
            raise Unsupported("weightIdentifier")
        return self.values[identifier]

    def _x_correct(self, node):
        return self.declarations[node.get("identifier")].correct

    def _x_isNull(self, node):
        return _null(self.evaluate(node[0]))

    def _x_match(self, node):
        left, right = (self.evaluate(child) for child in node)
        if _null(left) or _null(right):
            return None
        if type(left) is not type(right) and not (_number(left) and _number(right)):
            raise Unsupported("match of different cardinalities or types")
        return left == right

    def _x_member(self, node):
        value, container = (self.evaluate(child) for child in node)
        if _null(value) or _null(container):
            return None
        return container[value] > 0

    def _x_index(self, node):
        """QTI 2.1 5.3 index: the n-th value (from 1) of an ordered container; NULL when the
        container is NULL or shorter than n."""
        value = self.evaluate(node[0])
        position = int(node.get("n"))
        if _null(value):
            return None
        if not isinstance(value, tuple):
            raise Unsupported("index of a value that is not an ordered container")
        return value[position - 1] if position <= len(value) else None

    def _x_multiple(self, node):
        result: Counter = Counter()
        for child in node:
            value = self.evaluate(child)
            if not _null(value):
                result.update(value if isinstance(value, Counter) else [value])
        return result or None

    def _x_mapResponse(self, node):
        """QTI 2.1 5.3 mapResponse: each distinct value mapped once (by the first entry that
        matches it, string keys compared by `caseSensitive`), summed, then bounded."""
        declaration = self.declarations[node.get("identifier")]
        mapping = declaration.mapping
        if mapping is None:
            raise Unsupported("mapResponse without a mapping")
        value = self.values[declaration.identifier]
        keys = [] if _null(value) else list(dict.fromkeys(value)) if isinstance(value, (Counter, tuple)) else [value]
        entries = [(_typed(declaration.base_type, e.get("mapKey")), float(e.get("mappedValue")),
                    e.get("caseSensitive", "true") == "true") for e in mapping.iterfind(f"{QTI}mapEntry")]
        default = float(mapping.get("defaultValue", "0"))
        total = sum(next((mapped for key, mapped, case in entries if _same(key, given, case)), default)
                    for given in keys)
        if mapping.get("lowerBound") is not None:
            total = max(total, float(mapping.get("lowerBound")))
        if mapping.get("upperBound") is not None:
            total = min(total, float(mapping.get("upperBound")))
        return total

    def _x_not(self, node):
        result = self.evaluate(node[0])
        return None if result is None else not result

    def _x_stringMatch(self, node):
        """QTI 2.1 5.3 stringMatch, whole strings (substring="true" is not supported)."""
        if node.get("substring", "false") != "false":
            raise Unsupported("stringMatch substring")
        left, right = (self.evaluate(child) for child in node)
        if _null(left) or _null(right):
            return None
        return _same(left, right, node.get("caseSensitive") == "true")

    def _x_patternMatch(self, node):
        """QTI 2.1 5.3 patternMatch: the whole string matches an XML Schema regular expression
        (the subset shared with Python's re: no \\p{..}, \\i, \\c or class subtraction)."""
        pattern = node.get("pattern")
        if re.search(r"\\[pPiIcC]|-\[", pattern):
            raise Unsupported(f"pattern {pattern!r}")
        value = self.evaluate(node[0])
        return None if _null(value) else re.fullmatch(pattern, value) is not None

    def _x_equal(self, node):
        """QTI 2.1 5.3 equal: exact, or the first within [second - t0, second + t1] (absolute)."""
        values = self._numbers(node)
        if values is None:
            return None
        mode = node.get("toleranceMode")
        if mode == "exact":
            return values[0] == values[1]
        if mode != "absolute" or node.get("includeLowerBound", "true") != "true" or \
                node.get("includeUpperBound", "true") != "true":
            raise Unsupported(f"equal toleranceMode {mode}")
        low, high = (float(t) for t in (node.get("tolerance").split() * 2)[:2])
        return values[1] - low <= values[0] <= values[1] + high

    def _x_gt(self, node):
        values = self._numbers(node)
        return None if values is None else values[0] > values[1]

    def _numbers(self, node):
        values = []
        for child in node:
            value = self.evaluate(child)
            if _null(value):
                return None
            values += list(value.elements()) if isinstance(value, Counter) else [value]
        return values

    def _x_sum(self, node):
        values = self._numbers(node)
        return None if values is None else float(sum(values))

    def _x_product(self, node):
        values = self._numbers(node)
        if values is None:
            return None
        result = 1.0
        for value in values:
            result *= value
        return result

    def _x_divide(self, node):
        values = self._numbers(node)
        return None if values is None or values[1] == 0 else values[0] / values[1]

    def _x_gte(self, node):
        values = self._numbers(node)
        return None if values is None else values[0] >= values[1]

    def _x_testVariables(self, node):
        """QTI 2.1 5.3: the variable's value in every item session, NULLs ignored."""
        if set(node.attrib) != {"variableIdentifier"}:
            raise Unsupported("testVariables with a filter or weight")
        found = [outcomes.get(node.get("variableIdentifier")) for outcomes in self.item_outcomes]
        return Counter(value for value in found if value is not None) or None


def _declarations(root, kinds: tuple[str, ...]) -> dict[str, _Declaration]:
    return {d.identifier: d for kind in kinds for d in map(_Declaration, root.iterfind(f"{QTI}{kind}"))}


def process_item(item: bytes, response) -> dict:
    """The item's outcomes after response processing, for the candidate's `response`: one
    value for an item with one response variable (an identifier, typed text, a collection for
    multiple or ordered responses, None for no answer), or a dict {response identifier: value}."""
    root = etree.fromstring(item)
    responses = _declarations(root, ("responseDeclaration",))
    declarations = {**responses, **_declarations(root, ("outcomeDeclaration",))}
    values = {d.identifier: d.initial() for d in declarations.values() if d.identifier not in responses}
    given = response if isinstance(response, dict) else dict.fromkeys(responses, response)
    if set(given) - set(responses):
        raise Unsupported(f"responses to undeclared variables {sorted(set(given) - set(responses))}")
    for identifier, declaration in responses.items():
        values[identifier] = declaration.response(given.get(identifier))
    session = Session(declarations, values)
    session.run(_rules(root.find(f"{QTI}responseProcessing")))
    return {key: value for key, value in session.values.items() if key not in responses}


def _rules(processing) -> list:
    if processing is None:
        return []
    template = processing.get("template")
    if template is None:
        return list(processing)
    if not template.startswith(_TEMPLATE_BASE) or template[len(_TEMPLATE_BASE):] not in TEMPLATES:
        raise Unsupported(f"response processing template {template}")
    return list(etree.fromstring(TEMPLATES[template[len(_TEMPLATE_BASE):]]))


def process_test(test: bytes, item_outcomes: list[dict]) -> dict:
    """The test's outcomes after outcome processing over the items' outcomes."""
    root = etree.fromstring(test)
    declarations = _declarations(root, ("outcomeDeclaration",))
    session = Session(declarations, {d.identifier: d.initial() for d in declarations.values()}, item_outcomes)
    processing = root.find(f"{QTI}outcomeProcessing")
    session.run([] if processing is None else list(processing))
    return session.values


def selected_items(test: bytes, pick) -> list[str]:
    """The hrefs of the items one attempt's session holds (QTI 2.1 info model, assessmentSection
    selection): every item of a section without selection; of one with `select="N"`, the N that
    `pick(section identifier, its children, N)` returns. Sections nested in a selecting section,
    selection with replacement and `required` children are beyond the oracle."""
    def walk(section) -> list[str]:
        children = [child for child in section if _local(child) in ("assessmentSection", "assessmentItemRef")]
        selection = section.find(f"{QTI}selection")
        if selection is not None:
            if selection.get("withReplacement", "false") == "true" or any(
                    _local(child) == "assessmentSection" or child.get("required") == "true" for child in children):
                raise Unsupported("selection with replacement, nested sections or required items")
            children = pick(section.get("identifier"), children, int(selection.get("select")))
        found = []
        for child in children:
            found += walk(child) if _local(child) == "assessmentSection" else [child.get("href")]
        return found

    root = etree.fromstring(test)
    return [href for part in root.iterfind(f"{QTI}testPart") for section in part.iterfind(f"{QTI}assessmentSection")
            for href in walk(section)]


def displayed_feedback(item: bytes, outcomes: dict) -> set[str]:
    """Identifiers of the modalFeedback shown (QTI 2.1 5.2, showHide)."""
    shown = set()
    for feedback in etree.fromstring(item).iterfind(f"{QTI}modalFeedback"):
        value = outcomes.get(feedback.get("outcomeIdentifier"))
        identifier = feedback.get("identifier")
        present = value[identifier] > 0 if isinstance(value, Counter) else value == identifier
        if present == (feedback.get("showHide", "show") == "show"):
            shown.add(identifier)
    return shown
