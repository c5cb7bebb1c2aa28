"""What the Moodle writer's kind functions (`writer_kinds`) ask of the `<question>` being written:
`writer.QuestionOut` is the one class that has it. A protocol, so that the kinds need not import
the writer that imports them."""

from __future__ import annotations

from typing import Protocol

from ...model import Question, Quiz, Text


class QuestionWriting(Protocol):
    quiz: Quiz
    question: Question
    node: object
    """The `<question>` element being filled."""

    @property
    def lang(self) -> str | None:
        """The question's language, else the quiz's."""

    @property
    def label(self) -> str:
        """How messages name the question: `question 3` (`Quiz.label`)."""

    def header(self, prompt: str | None = None, *, points: bool = True, penalty: float = ...) -> None:
        """What import_headers() reads for every question type."""

    def fragment(self, text: Text | None) -> str:
        """A text as the HTML Moodle shows."""

    def rich(self, parent, name: str, text: Text | None = None, attrib: dict | None = None, *,
             fragment: str | None = None):
        """A text field with its images as `<file>`s."""

    def warn(self, code: str, message: str, part: object | None = None) -> None:
        """What Moodle XML cannot carry, located at `part` (an answer, pair, gap) if it has a place, else the question."""
