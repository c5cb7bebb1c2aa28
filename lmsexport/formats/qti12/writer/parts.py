"""What the kinds of the QTI 1.2 writer share: the warnings, a question's context, the parts a kind
returns, and the few QTI 1.2 elements every kind builds (conditions, scores, feedback references).

QTI ASI 1.2.1, section 3 (response processing): https://www.imsglobal.org/question/qtiv1p2/imsqti_asi_infov1p2.html
The shapes are those Canvas exports (canvas-lms `lib/cc/qti/qti_items.rb`), which its importer reads back.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .. import names
from ....diagnostics import Log, SourceSpan
from ....model import Question, Quiz, Text
from ....xml import element, sub


class Notes:
    """The writer's warnings, located at the question they are about (or at the quiz's source)."""

    def __init__(self, quiz: Quiz):
        spans = [question.source for question in quiz.questions if question.source]
        self.where = SourceSpan(spans[0].source) if spans else SourceSpan(quiz.id)
        self.log = Log()
        self.label = quiz.label
        """How messages name a question: `question 3` (model.Quiz.label)."""

    def warn(self, question: Question | None, code: str, message: str, hint: str = "", part: object | None = None) -> None:
        """A warning about `question` (or the quiz), pointing at `part` (an answer, a gap) where it has a place."""
        span = getattr(part, "source", None) or (question.source if question is not None and question.source else self.where)
        self.log.warn(code, message, span, hint)


@dataclass
class Context:
    """What a kind's writer needs: the question, where it stands, its text writer, the warnings."""

    question: Question
    position: int
    """1-based place in the quiz: answer idents are made from it."""
    text: object
    """The question's TextWriter (writer/text.py)."""
    notes: Notes
    quiz_lang: str | None = None
    scoring: str = "partial"
    """The policy the question is scored by (model.Quiz.scoring_of)."""

    def answer_ident(self, number: int) -> str:
        return names.answer_ident(self.position, number)

    def partial_only(self, instead: str) -> None:
        """Canvas grades this kind by its own partial credit (docs/scoring.md): say what the learner
        gets when the question is to be scored all or nothing."""
        if self.scoring == "all_or_nothing" and self.question.scoring_matters:
            self.warn("W863", f"Canvas cannot score it all or nothing; the learner gets partial credit instead: "
                      f"{instead}", "score it partially, or regrade the question in Canvas")

    def warn(self, code: str, message: str, hint: str = "", part: object | None = None) -> None:
        self.notes.warn(self.question, code, f"{self.notes.label(self.question)}: {message}", hint, part)

    def right(self, scoring) -> None:
        """Show the question's feedback for a right answer where the answer is scored right."""
        if self.question.correct_feedback:
            show(scoring, names.CORRECT_FEEDBACK)


@dataclass
class Parts:
    """What a kind adds to its item; writer/__init__.py puts the item together in Canvas's order."""

    question_type: str
    answer_ids: list[str] = field(default_factory=list)
    """The answers' idents in order (`original_answer_ids`)."""
    responses: list = field(default_factory=list)
    """The presentation's response elements, after the question text."""
    conditions: list = field(default_factory=list)
    """The scoring respconditions."""
    feedback_conditions: list = field(default_factory=list)
    """respconditions showing an answer's feedback, written before the scoring ones (as Canvas does)."""
    answer_feedback: list[tuple[str, Text]] = field(default_factory=list)
    """itemfeedback ident -> text, for single answers."""
    stem: str | None = None
    """The question text as HTML when the kind makes it (fill in the blanks); else the prompt."""
    scored: bool = True
    """False for a text block: no resprocessing, no feedback."""


def x(name: str, attrib: dict | None = None, *children, text: str | None = None):
    """A QTI 1.2 element with children."""
    node = element(f"qti12:{name}", attrib, text)
    node.extend(children)
    return node


def condition(*tests, proceed: bool | None = False, title: str | None = None):
    """A respcondition testing all of `tests` (conditionvar's children are and-ed); `proceed` is its
    `continue` (None: left out, as Canvas writes it for the conditions that add a share)."""
    attrib = {"continue": None if proceed is None else ("Yes" if proceed else "No"), "title": title}
    return x("respcondition", attrib, x("conditionvar", None, *tests))


def varequal(respident: str, value: str):
    return x("varequal", {"respident": respident}, text=value)


def set_score(node, value: str = names.FULL, action: str = "Set") -> None:
    """SCORE set (single-answer kinds) or added to (a blank's or a left item's share), in Canvas's attribute order."""
    attrib = {"action": action, "varname": names.SCORE} if action == "Set" else {"varname": names.SCORE, "action": action}
    sub(node, "qti12:setvar", attrib, value)


def show(node, ident: str) -> None:
    sub(node, "qti12:displayfeedback", {"feedbacktype": "Response", "linkrefid": ident})


def share(count: int) -> str:
    """A blank's or a left item's part of SCORE, as Canvas writes it: 100 / count with two decimals."""
    return f"{100 / count:.2f}"


def answer_feedback(parts: Parts, ident: str, feedback: Text | None, test) -> None:
    """An answer's feedback: a condition that shows it when `test` holds, and its itemfeedback."""
    if feedback is None:
        return
    shown = condition(test, proceed=True)
    show(shown, names.answer_feedback(ident))
    parts.feedback_conditions.append(shown)
    parts.answer_feedback.append((names.answer_feedback(ident), feedback))
