"""Structure: questions that cannot work as written.

    L001  every option of a multiple-response question is correct
    L002  two options of a question read the same
    L003  a prompt or an option with no visible text
    L004  an image with no alt text

"No correct answer" and "a single option" are not rules: the model refuses to
build such a question (`MultipleChoice` needs two options and a correct one), so
every reader reports them as source errors (E201, E202, E203) and lint never
sees one. The text reader refuses an option typed twice too (E204), but other
readers (JSON, and the Moodle/QTI importers) can produce duplicates, and so can
a text quiz that spells a repeat apart (`&#46;`), hence L002.
"""

from __future__ import annotations

import re
from typing import Iterator

from ..model import MultipleChoice, Quiz
from . import ERROR, WARNING, Finding, Part, Rule, option_letter, question_parts, quiz_parts, visible


def _every_option_correct(quiz: Quiz) -> Iterator[Finding]:
    for question in quiz.questions:
        if isinstance(question, MultipleChoice) and all(choice.correct for choice in question.choices):
            yield Finding(
                f"every option of {quiz.label(question)} is correct, so ticking them all scores full marks",
                "add wrong options, or make it a single-answer question about one of them",
                question,
            )


def _folded(part: Part) -> str:
    """What a learner can tell apart: case and runs of spaces do not count."""
    return " ".join(visible(part).casefold().split())


def _duplicate_options(quiz: Quiz) -> Iterator[Finding]:
    for number, question in enumerate(quiz.questions, 1):
        seen: dict[str, int] = {}
        options = [part for part in question_parts(quiz, number) if part.kind == "option"]
        for index, part in enumerate(options):
            folded = _folded(part)
            first = seen.setdefault(folded, index)
            if first != index and folded:
                yield Finding(
                    f"options {option_letter(first)} and {option_letter(index)} of {quiz.label(question)} are the same: "
                    f"{part.value!r}",
                    "remove one or reword it; a learner cannot tell them apart",
                    question, part.span,
                )


def _empty_text(quiz: Quiz) -> Iterator[Finding]:
    for position, question in enumerate(quiz.questions, 1):
        for part in question_parts(quiz, position):
            if part.kind in ("prompt", "option") and not visible(part).strip():
                yield Finding(
                    f"{part.name} is empty",
                    "write its text; Moodle drops empty options and Canvas shows 'No answer text provided.'"
                    if part.kind == "option"
                    else "write the question",
                    question, part.span,
                )


_IMAGE = re.compile(r"<img\b[^>]*>", re.IGNORECASE)
_ALT = re.compile(r"\balt=\"\s*[^\"\s][^\"]*\"", re.IGNORECASE)


def _missing_alt_text(quiz: Quiz) -> Iterator[Finding]:
    for part in quiz_parts(quiz):
        if part.format != "html":
            continue
        for image in _IMAGE.findall(part.value):
            if not _ALT.search(image):
                yield Finding(
                    f"an image in {part.name} has no alt text",
                    "describe the image for learners who cannot see it: ![what it shows](path)",
                    part.question, part.span,
                )


RULES = (
    Rule("L001", "every-option-correct", WARNING,
         "Every option of a multiple-response question is correct.", _every_option_correct),
    Rule("L002", "duplicate-options", ERROR,
         "Two options of a question read the same (ignoring case and spacing).", _duplicate_options),
    Rule("L003", "empty-text", ERROR, "A prompt or an option has no visible text.", _empty_text),
    Rule("L004", "missing-alt-text", WARNING, "An image has no alt text for learners who cannot see it.",
         _missing_alt_text),
)
