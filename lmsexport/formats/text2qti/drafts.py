"""A text2qti question while it is read: the elements after its `1.` line, checked in place.

A question's kind follows from its first answer element, as in text2qti (`Question.append_*`
in `text2qti/quiz.py`): `a)` / `*a)` choices (multiple choice, or true/false when the two
choices are `true` and `false`), `[ ]` / `[*]` choices (multiple answers), `*` answers (short
answer), `=` (numerical), `____` (essay), `^^^^` (file upload). General feedback (`...`),
`+` / `-` feedback and a `!` solution come before the answers; a `...` right after a choice
is that choice's feedback. Every misplaced element is reported where it stands.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...model import Text
from .lines import Element

KINDS = {
    "mctf_correct_choice": "multiple_choice", "mctf_incorrect_choice": "multiple_choice",
    "multans_correct_choice": "multiple_answers", "multans_incorrect_choice": "multiple_answers",
    "shortans_correct_choice": "short_answer", "numerical": "numerical", "essay": "essay", "upload": "upload",
}
"""The question kind each answer element makes."""
_KIND_NAMES = {"multiple_choice": "a) choices", "multiple_answers": "[ ] choices", "short_answer": "* answers",
               "numerical": "an = answer", "essay": "an essay box (____)", "upload": "a file upload (^^^^)"}
_FEEDBACK_NAMES = {"feedback": "general feedback (...)", "correct_feedback": "feedback when right (+)",
                   "incorrect_feedback": "feedback when wrong (-)", "solution": "a solution (!)"}


@dataclass
class ChoiceDraft:
    element: Element
    correct: bool
    text: Text | None
    feedback: Text | None = None
    feedback_line: int = 0


@dataclass
class QuestionDraft:
    """A numbered question and what followed it."""

    number: int
    element: Element
    prompt: Text | None
    title: str | None = None
    points: Element | None = None
    kind: str | None = None
    choices: list[ChoiceDraft] = field(default_factory=list)
    numerical: Element | None = None
    feedback: dict[str, Text | None] = field(default_factory=dict)
    """Texts of the `...`, `+`, `-` and `!` elements given, by kind."""
    broken: bool = False
    """An answer of another kind was refused: the question is not checked further."""
    solution_line: int = 0
    """Where its `!` solution is (the model has no place for it: a warning points there)."""

    @property
    def name(self) -> str:
        return f"question {self.number}"


def add_answer(reader, draft: QuestionDraft, element: Element) -> None:
    """A choice, an answer or an answer box of `draft`; its kind must agree with the others."""
    kind = KINDS[element.kind]
    if draft.kind is not None and (draft.kind != kind or kind in ("numerical", "essay", "upload")):
        what = "a second " + _KIND_NAMES[kind].removeprefix("an ") if kind == draft.kind else _KIND_NAMES[kind]
        reader.error("E958", f"{draft.name} already has {_KIND_NAMES[draft.kind]}, so it cannot take {what}",
                     element, "a question has one kind of answer; start a new question (2. ...) for the other")
        draft.broken = True
        return
    if kind in ("essay", "upload") and {"correct_feedback", "incorrect_feedback"} & draft.feedback.keys():
        reader.error("E958", f"{draft.name} has feedback for right and wrong answers, which {_KIND_NAMES[kind]} "
                     "cannot take", element, "give it general feedback (...) instead of + and - lines")
    draft.kind = kind
    if kind == "numerical":
        draft.numerical = element
    elif kind in ("multiple_choice", "multiple_answers", "short_answer"):
        _add_choice(reader, draft, element)


def _add_choice(reader, draft: QuestionDraft, element: Element) -> None:
    short = element.kind == "shortans_correct_choice"
    text = Text(element.text) if short else reader.text(element, draft.name)
    if text is not None and any(choice.text == text for choice in draft.choices):
        reader.error("E963", f"{draft.name} has this {'answer' if short else 'choice'} twice", element,
                     "remove one of them")
    correct = element.kind in ("mctf_correct_choice", "multans_correct_choice", "shortans_correct_choice")
    draft.choices.append(ChoiceDraft(element, correct, text))


def add_feedback(reader, draft: QuestionDraft, element: Element) -> None:
    """A `...`, `+`, `-` or `!` element: of the question before its answers, of the last choice after one."""
    kind = element.kind
    if kind == "feedback" and draft.choices:
        _choice_feedback(reader, draft, element)
        return
    if draft.kind is not None:
        where = "right after the question" if kind == "feedback" else "before the choices or answers"
        reader.error("E956", f"{_FEEDBACK_NAMES[kind]} of {draft.name} must come {where}", element,
                     f"move it up, under the question's text: text2qti takes {_FEEDBACK_NAMES[kind]} there")
    elif kind in draft.feedback:
        reader.error("E957", f"{draft.name} has {_FEEDBACK_NAMES[kind]} twice", element, "keep one of them")
    elif kind == "solution" and reader.feedback_is_solution:
        reader.error("E956", "a solution (!) in a quiz with 'feedback is solution: true'", element,
                     "write it as general feedback (...), which is then the solution too")
    else:
        draft.feedback[kind] = reader.text(element, draft.name)
        draft.solution_line = element.line if kind == "solution" else draft.solution_line


def _choice_feedback(reader, draft: QuestionDraft, element: Element) -> None:
    choice = draft.choices[-1]
    if draft.kind == "short_answer":
        reader.error("E958", f"an answer of {draft.name} has feedback: text2qti takes none for single short "
                     "answers", element, "give the question feedback instead (... , + or - under its text)")
    elif choice.feedback_line:
        reader.error("E957", f"a choice of {draft.name} has feedback twice", element, "keep one of them")
    else:
        choice.feedback, choice.feedback_line = reader.text(element, draft.name), element.line
