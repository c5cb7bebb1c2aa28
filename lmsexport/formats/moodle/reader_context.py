"""What the Moodle reader's helper modules (`reader_kinds`, `reader_files`, `reader_losses`,
`reader_mapped`) ask of the reader reading a question: `reader.MoodleReader` is the one class that
has it. A protocol, so that those modules need not import the reader that imports them; and
`Head`, what every question type shares, which the reader makes and the kinds use."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from ...model import Asset, Question, Text


@dataclass
class Head:
    """What every question type shares (import_headers), read before its own parts."""

    fields: dict
    """Keyword arguments for the model's question: id, title, points, prompt, explanation, source."""
    lang: str | None
    """The language its prompt is marked with."""
    format: str
    """The question text's format: the default of every other text of the question."""


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

    def head(self, node, *, prompt: tuple[Text, str | None] | None = None, points: float | None = None) -> Head:
        """What every question type shares."""

    def text(self, node, default_format: str, context: str | None) -> Text | None:
        """A field as model text, in its language where it differs from `context`."""

    def number(self, node, name: str, default: float) -> float | None:
        """A number field, or `default`; None after a problem."""

    def name(self, node) -> str:
        """The question's name, as Moodle lists it."""

    def build(self, node, kind: type[Question], **fields) -> Question | None:
        """The model's question, or None after a problem."""
