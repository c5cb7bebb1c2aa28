"""The quiz model's common parts: text, choices, the question base, settings (the quiz: `quiz`).

Readers build these frozen objects, writers consume them; neither knows the other.
Objects check their own invariants on construction, so a writer can rely on every
question having an answer key and every identifier being usable in XML. The JSON
form (`data.py`'s free functions, wrapped by the json format's reader and writer)
carries `MODEL_VERSION` so that the contract is versioned, as pandoc-types does.
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from html import escape
from typing import ClassVar

from ..diagnostics import SourceSpan
from ..images import image_problem
from ..paths import unsafe_path
from ..vocabulary import (
    FEEDBACK_MODES, SCORING_POLICIES, TIME_LIMIT_MAX, XML_ILLEGAL, is_identifier, is_language_tag,
)

MODEL_VERSION = 2
"""Major version of the model's JSON form; readers refuse any other than READ_MODEL_VERSIONS.

A new optional field is not a new version: every document of the version still reads, and
nothing it said changes meaning. `Settings.scoring` and `Question.scoring` came that way:
before them the model said nothing about partial credit (each writer chose its own), and a
document without them reads with the default policy, `partial` (docs/scoring.md).
`Quiz.pools` is version 2: it changes what `questions` means for delivery (no longer every
question of an attempt), so a tool that ignores keys it does not know would deliver a
200-question bank as a 200-question quiz. A quiz without pools is still written as version 1."""

READ_MODEL_VERSIONS = (1, 2)
"""The versions of the JSON form this model reads (a version-1 form is a version-2 form without pools)."""

TEXT_FORMATS = ("plain", "html")
DEFAULT_SCORING = "partial"
"""The policy of a quiz that names none: the one most formats express exactly."""

class ModelError(ValueError):
    """A model object was built with values that break its invariants."""


def _check(condition: bool, message: str) -> None:
    if not condition:
        raise ModelError(message)


@dataclass(frozen=True, slots=True)
class Text:
    """Words a person wrote, in a known format and (optionally) a known language."""

    value: str
    format: str = "plain"
    """`plain` (shown as written, line breaks kept) or `html` (a fragment of safe HTML).

    In HTML, TeX math stands between `\\(` `\\)` (inline) and `\\[` `\\]` (display), the
    MathJax convention Moodle uses; writers for formats without TeX convert it to MathML.
    Images are `<img src="...">` with the path of one of the quiz's `assets`."""
    lang: str | None = None
    """BCP 47 tag when it differs from the enclosing question's or quiz's language."""

    def __post_init__(self) -> None:
        # Each message is made only when its check fails: a bank builds six texts a question.
        if self.format not in TEXT_FORMATS:
            raise ModelError(f"unknown text format {self.format!r}")
        _check(unicodedata.is_normalized("NFC", self.value), "text must be NFC-normalised")
        # A printable text holds no control character nor U+FFFE/U+FFFF: most need no search.
        _check(self.value.isprintable() or not XML_ILLEGAL.search(self.value),
               "text holds a character XML cannot carry")
        if self.lang is not None and not is_language_tag(self.lang):
            raise ModelError(f"bad language tag {self.lang!r}")

    def html(self) -> str:
        """The text as an HTML fragment (plain text escaped, line breaks as `<br>`)."""
        if self.format == "html":
            return self.value
        return "<br>".join(escape(line, quote=False) for line in self.value.split("\n"))

    def as_dict(self) -> dict:
        data: dict = {"value": self.value}
        if self.format != "plain":
            data["format"] = self.format
        if self.lang:
            data["lang"] = self.lang
        return data

    @classmethod
    def from_dict(cls, data: dict) -> Text:
        return cls(data["value"], data.get("format", "plain"), data.get("lang"))


@dataclass(frozen=True, slots=True, kw_only=True)
class Asset:
    """A file the quiz's text refers to (an image), carried into every package.

    HTML text refers to it as `src="<path>"`; writers put it where their format wants
    it (a file in the zip, a base64 `<file>` in Moodle XML)."""

    path: str
    """Relative, `/`-separated, as written in the source (`img/graph.png`); never leaves the quiz's folder."""
    media_type: str
    """`image/png`, `image/jpeg`, `image/svg+xml`, `image/gif` or `image/webp`."""
    data: bytes = field(repr=False)
    source: SourceSpan | None = field(default=None, compare=False)
    """Where the source first mentions the file, for messages about it; not part of its meaning."""

    def __post_init__(self) -> None:
        reason = unsafe_path(self.path)
        _check(reason is None and "" not in self.path.split("/"), f"bad asset path {self.path!r}: {reason or 'empty part'}")
        _check(self.media_type in MEDIA_TYPES.values(), f"unsupported media type {self.media_type!r}")
        problem = image_problem(self.data, self.media_type)
        _check(problem is None, f"{self.path}: {problem}")


MEDIA_TYPES = {
    ".png": "image/png",
    ".jpg": "image/jpeg",
    ".jpeg": "image/jpeg",
    ".gif": "image/gif",
    ".svg": "image/svg+xml",
    ".webp": "image/webp",
}
"""File suffix -> media type of the assets a quiz may carry."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Choice:
    """One option of a choice question."""

    id: str
    """Unique within its question: `a`, `b`, ... in source order."""
    text: Text
    correct: bool = False
    feedback: Text | None = None
    """Shown when the learner picks this option."""
    source: SourceSpan | None = field(default=None, compare=False)
    """Where it is written in its source, for messages about it; not part of its meaning."""

    def __post_init__(self) -> None:
        if not is_identifier(self.id):
            raise ModelError(f"bad choice id {self.id!r}")


@dataclass(frozen=True, slots=True, kw_only=True)
class Question:
    """What every question kind has; a kind adds its own answer fields."""

    kind: ClassVar[str]
    id: str
    """Unique within its quiz and stable across builds (`q1`, `q2`, ... by position)."""
    title: str | None = None
    lang: str | None = None
    """BCP 47 tag when the question is not in the quiz's language."""
    tags: tuple[str, ...] = ()
    points: float = 1.0
    scoring: str | None = None
    """The question's own scoring policy (`SCORING_POLICIES`), which wins over the quiz's;
    None: the quiz's. Only a question of several parts has one (`has_parts`)."""
    prompt: Text
    explanation: Text | None = None
    """Shown after the question is answered, whatever the answer."""
    correct_feedback: Text | None = None
    """Shown when the answer earns full marks."""
    incorrect_feedback: Text | None = None
    """Shown when the answer earns less than full marks."""
    source: SourceSpan | None = field(default=None, compare=False)
    """Where the question starts in its source, for messages; not part of its meaning."""

    scored: ClassVar[bool] = True
    """False for kinds a machine does not score (essays are marked by a person, texts not at all)."""

    def __post_init__(self) -> None:
        # Messages are made only for a failed check, as a bank builds thousands of questions.
        if not is_identifier(self.id):
            raise ModelError(f"bad question id {self.id!r}")
        if not (math.isfinite(self.points) and self.points >= 0):
            raise ModelError(f"{self.id}: bad points")
        if self.lang is not None and not is_language_tag(self.lang):
            raise ModelError(f"{self.id}: bad language tag")
        if self.scoring is not None:
            _check(self.scoring in SCORING_POLICIES, f"{self.id}: unknown scoring {self.scoring!r}")
            _check(self.has_parts, f"{self.id}: a question of one part has no scoring policy")

    @property
    def has_parts(self) -> bool:
        """True for the kinds a scoring policy applies to: several parts, each right or wrong."""
        return False

    @property
    def scoring_matters(self) -> bool:
        """False when both scoring policies give every response the same score, so a format
        that can score only one of them still scores this question exactly."""
        return self.has_parts


@dataclass(frozen=True, slots=True, kw_only=True)
class MultipleChoice(Question):
    """Pick one option (`multiple_response=False`) or every correct one (`True`)."""

    kind: ClassVar[str] = "multiple_choice"
    multiple_response: bool = False
    choices: tuple[Choice, ...]

    def __post_init__(self) -> None:
        Question.__post_init__(self)
        ids = [choice.id for choice in self.choices]
        correct = sum(choice.correct for choice in self.choices)
        # One test for all four checks; their messages are made only when one of them fails.
        if len(ids) < 2 or len(set(ids)) < len(ids) or correct < 1 or (correct > 1 and not self.multiple_response):
            _check(len(ids) >= 2, f"{self.id}: a choice question needs two options or more")
            _check(len(set(ids)) == len(ids), f"{self.id}: choice ids repeat")
            _check(correct >= 1, f"{self.id}: no correct option")
            raise ModelError(f"{self.id}: several correct options")

    @property
    def correct_choices(self) -> tuple[Choice, ...]:
        return tuple(choice for choice in self.choices if choice.correct)

    @property
    def has_parts(self) -> bool:
        """Multiple response: each option is a part (ticked or not, rightly or wrongly)."""
        return self.multiple_response

    @property
    def scoring_matters(self) -> bool:
        """With one right option, right minus wrong is already all or nothing."""
        return self.multiple_response and len(self.correct_choices) > 1


@dataclass(frozen=True, slots=True, kw_only=True)
class Settings:
    """How the quiz behaves when delivered; each writer maps what its format can."""

    shuffle: bool = False
    """Let the LMS shuffle options (never shuffled at build time: output is deterministic)."""
    pass_mark: float | None = None
    """Percent of the total score needed to pass, or None for no pass/fail."""
    feedback: str = "immediate"
    """`immediate`: right/wrong and explanation after each answer; `end`: on a results page."""
    attempts: int | None = None
    """How many times a learner may take the quiz (where the format says it), None for no limit."""
    time_limit: int | None = None
    """Seconds a learner has for one attempt, None for no limit; at most `TIME_LIMIT_MAX`."""
    scoring: str = DEFAULT_SCORING
    """How its questions of several parts earn credit (`SCORING_POLICIES`), unless a question says otherwise."""
    messages: tuple[tuple[str, str], ...] = ()
    """Words of lmsexport's own quiz player (the SCORM packages) that the quiz gives instead of the
    player's, as (key, text) pairs sorted by key (`messages:`, docs/formats/scorm.md); the keys are
    the player's (lmsexport/interface), checked where the file is read. Other formats' LMSs show
    their own interface."""
    spans: Mapping[str, SourceSpan] = field(default_factory=dict, compare=False, repr=False)
    """Where each setting was given, by field name (`time_limit`: the `time:` line of a text
    header), for the message of a writer that cannot carry it; not part of the meaning."""

    def __post_init__(self) -> None:
        _check(self.scoring in SCORING_POLICIES, f"unknown scoring policy {self.scoring!r}")
        keys = [key for key, _ in self.messages]
        _check(keys == sorted(set(keys)), "interface messages must be sorted by key, each key once")
        _check(all(isinstance(text, str) and text.strip() and unicodedata.is_normalized("NFC", text)
                   and not XML_ILLEGAL.search(text) for _, text in self.messages),
               "an interface message must be NFC text that XML can carry")
        _check(self.pass_mark is None or 0 <= self.pass_mark <= 100, "pass mark must be 0-100")
        _check(self.feedback in FEEDBACK_MODES, f"unknown feedback mode {self.feedback!r}")
        _check(self.attempts is None or self.attempts >= 1, "attempts must be 1 or more")
        _check(self.time_limit is None or 1 <= self.time_limit <= TIME_LIMIT_MAX,
               f"a time limit must be a second or more, and {TIME_LIMIT_MAX} seconds at most")
