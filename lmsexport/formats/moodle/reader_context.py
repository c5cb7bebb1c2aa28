"""What the Moodle reader's helper modules (`reader_files`, `reader_losses`, `reader_mapped`) ask
of the reader reading a question: `reader.MoodleReader` is the one class that has it. A
protocol, so that those modules need not import the reader that imports them."""

from __future__ import annotations

from typing import Any, Protocol

from ...model import Asset, Question, Text


class Reading(Protocol):
    subject: str
    """The question being read, as messages name it: `question 4 'Name'`."""
    question_id: str
    assets: dict[str, Asset]
    mentions: dict[str, int]

    def problem(self, code: str, node, message: str, hint: str) -> None:
        """A problem of the question (it is skipped), or of the file for E609 and E610."""

    def warn(self, code: str, node, message: str, hint: str = "") -> None:
        """Something the model holds otherwise than the file says."""

    def fragment(self, node, default_format: str) -> tuple[str | None, str | None, str]:
        """A field's text, its language and its format."""

    def clean(self, fragment: str, node) -> str | None:
        """HTML through the sanitiser, its files linked; None when nothing is left."""

    def head(self, node, *, prompt: tuple[Text, str | None] | None = None, points: float | None = None) -> Any:
        """What every question type shares (`reader.Head`)."""

    def build(self, node, kind: type[Question], **fields) -> Question | None:
        """The model's question, or None after a problem."""
