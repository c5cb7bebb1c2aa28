"""Which modalFeedback of a QTI 2.1 item shows when: the QTI reader's view of response processing.

Part of the QTI reader (readers/qti21.py). The rules lmsexport writes add a feedback
identifier to the FEEDBACK outcome always (the explanation), when the answer earns full
marks or not (right / wrong feedback), or when a test on the response holds (an option was
picked, a typed answer matched); readers/qti21_items.py asks which test names which option
or answer. Feedback shown on any other condition is left out with a warning (W884).
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import names
from ....model import Text
from ....xml import NS
from .text import TextReader, Unreadable

_Q = f"{{{NS['qti']}}}"


@dataclass
class _Shown:
    """A feedback identifier and the branch that adds it: its test, or the else of `test`."""

    test: object | None
    otherwise: bool = False


class Feedback:
    """The item's modalFeedback texts and when each shows; parts are taken, what is left is an error."""

    def __init__(self, root, reader: TextReader):
        self.nodes = {node.get("identifier"): node for node in root.iterfind(f"{_Q}modalFeedback")}
        self.reader = reader
        self.when: dict[str, _Shown] = {}
        self.echoed = False
        """FEEDBACK is set to RESPONSE itself: the feedback identifiers are option identifiers."""
        processing = root.find(f"{_Q}responseProcessing")
        for rule in [] if processing is None else processing:
            self._rule(rule)

    def _rule(self, rule) -> None:
        if _setter(rule):
            for identifier in _added(rule):
                self.when.setdefault(identifier, _Shown(None))
            self.echoed |= rule.find(f"{_Q}variable[@identifier='{names.RESPONSE}']") is not None
        elif rule.tag == f"{_Q}responseCondition":
            first = rule[0][0] if len(rule) and len(rule[0]) else None
            for branch in rule:
                otherwise = branch.tag == f"{_Q}responseElse"
                for setter in filter(_setter, branch):
                    for identifier in _added(setter):
                        self.when.setdefault(identifier, _Shown(first if otherwise else branch[0], otherwise))

    def _take(self, identifier: str) -> Text:
        node = self.nodes.pop(identifier)
        if node.get("showHide", "show") != "show":
            raise Unreadable(f"modalFeedback {identifier!r} is hidden when its identifier is set", node,
                             "lmsexport reads feedback that is shown (showHide=\"show\")")
        return self.reader.block_text(node)

    def always(self) -> Text | None:
        """The explanation: the one feedback added whatever the answer."""
        found = [i for i, shown in self.when.items() if shown.test is None and i in self.nodes]
        return self._take(found[0]) if found else None

    def right_wrong(self) -> tuple[Text | None, Text | None]:
        """Feedback for full marks (SCORE >= MAXSCORE, or RESPONSE matching the correct one) and for less."""
        found = {}
        for identifier, shown in self.when.items():
            if identifier in self.nodes and shown.test is not None and _full_marks(shown.test):
                found.setdefault(shown.otherwise, identifier)
        return tuple(self._take(found[key]) if key in found else None for key in (False, True))

    def per_answer(self, resolve) -> dict:
        """Feedback shown when a test picks out one option or answer: {resolve(test): text}.
        `resolve` gives a key for a test it recognises, None for any other."""
        found = {}
        for identifier, shown in self.when.items():
            if identifier in self.nodes and shown.test is not None and not shown.otherwise:
                key = resolve(shown.test)
                if key is not None and key not in found:
                    found[key] = self._take(identifier)
        return found

    def echoed_choices(self, choice_ids) -> dict:
        """`FEEDBACK = RESPONSE` items: the feedback named like an option shows when it is picked."""
        if not self.echoed:
            return {}
        return {identifier: self._take(identifier) for identifier in list(self.nodes) if identifier in choice_ids}

    def finish(self) -> None:
        """A feedback that found no place in the model is left out, with a warning (W884)."""
        for identifier, node in self.nodes.items():
            self.reader.log.warn("W884", f"{self.reader.subject}: its modalFeedback {identifier!r} is left out: it "
                                 "is shown on a condition the model has no place for", self.reader.span,
                                 "lmsexport keeps feedback shown always, on full marks or not, and for one picked "
                                 "option or given answer; put the text in one of those")


def _setter(rule) -> bool:
    return rule.tag == f"{_Q}setOutcomeValue" and rule.get("identifier") == names.FEEDBACK


def _added(setter) -> list[str]:
    return [value.text.strip() for value in setter.iter(f"{_Q}baseValue")
            if value.get("baseType") == "identifier" and value.text]


def _full_marks(test) -> bool:
    """gte(SCORE, MAXSCORE) as lmsexport writes it, or match(RESPONSE, correct(RESPONSE))."""
    parts = [(node.tag.rpartition("}")[2], node.get("identifier")) for node in test]
    if test.tag == f"{_Q}gte":
        return parts == [("variable", names.SCORE), ("variable", names.MAXSCORE)]
    return test.tag == f"{_Q}match" and parts == [("variable", names.RESPONSE), ("correct", names.RESPONSE)]


def variable_of(test) -> str | None:
    """The response variable a test looks at (its one `variable` operand)."""
    found = [node.get("identifier") for node in test if node.tag == f"{_Q}variable"]
    return found[0] if len(found) == 1 else None


def picked(test, response: str) -> str | None:
    """X in `match(response, X)`, `match(X, response)` or `member(X, response)`: an option picked."""
    if test.tag not in (f"{_Q}match", f"{_Q}member") or len(test) != 2 or variable_of(test) != response:
        return None
    values = [(node.text or "").strip() for node in test.iterfind(f"{_Q}baseValue")
              if node.get("baseType") == "identifier"]
    return values[0] if len(values) == 1 and values[0] else None
