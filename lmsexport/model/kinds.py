"""Question kinds beyond multiple choice, and the answer parts they are made of.

One frozen dataclass per kind, each checking what makes it scorable (a full-credit
answer, two items to match or order), so every writer can rely on it. Credit is a
percentage of the question's points (100 = full marks), as in Moodle and GIFT.
"""

from __future__ import annotations

import math
import unicodedata
from dataclasses import dataclass, field
from typing import ClassVar

from ..diagnostics import SourceSpan
from .base import XML_ILLEGAL, Choice, MultipleChoice, Question, Text, _check, is_identifier


def _credit_ok(credit: float) -> bool:
    return math.isfinite(credit) and -100 <= credit <= 100


@dataclass(frozen=True, slots=True, kw_only=True)
class Answer:
    """An accepted typed answer (short answer, a fill-in gap).

    As in Moodle, `*` in `text` matches any characters and `\\*` a literal star; a
    response earns the credit of the first answer it matches, in the order written."""

    text: str
    credit: float = 100.0
    feedback: Text | None = None
    source: SourceSpan | None = field(default=None, compare=False)
    """Where it is written in its source, for messages about it; not part of its meaning."""

    def __post_init__(self) -> None:
        _check(bool(self.text.strip()), "an accepted answer cannot be empty")
        _check(_credit_ok(self.credit), f"bad credit {self.credit} for {self.text!r}")


@dataclass(frozen=True, slots=True, kw_only=True)
class NumericAnswer:
    """An accepted number: right when within `tolerance` (absolute) of `value`."""

    value: float
    tolerance: float = 0.0
    credit: float = 100.0
    feedback: Text | None = None
    source: SourceSpan | None = field(default=None, compare=False)
    """Where it is written in its source, for messages about it; not part of its meaning."""

    def __post_init__(self) -> None:
        _check(math.isfinite(self.value), "a numeric answer must be a finite number")
        _check(math.isfinite(self.tolerance) and self.tolerance >= 0, "a tolerance must be 0 or more")
        _check(_credit_ok(self.credit), f"bad credit {self.credit} for {self.value}")


def _needs_full_credit(question_id: str, credits) -> None:
    credits = list(credits)
    _check(bool(credits), f"{question_id}: no accepted answer")
    _check(any(credit == 100 for credit in credits), f"{question_id}: no answer gives full credit")


@dataclass(frozen=True, slots=True, kw_only=True)
class TrueFalse(Question):
    """A statement the learner marks true or false."""

    kind: ClassVar[str] = "true_false"
    answer: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class ShortAnswer(Question):
    """A typed word or phrase, compared with the accepted answers (`*` matches anything)."""

    kind: ClassVar[str] = "short_answer"
    answers: tuple[Answer, ...]
    case_sensitive: bool = False

    def __post_init__(self) -> None:
        Question.__post_init__(self)
        _needs_full_credit(self.id, (answer.credit for answer in self.answers))


@dataclass(frozen=True, slots=True, kw_only=True)
class Numeric(Question):
    """A typed number, right within a tolerance or range."""

    kind: ClassVar[str] = "numeric"
    answers: tuple[NumericAnswer, ...]
    unit: str | None = None
    """The unit the answers are in (`m/s²`, `%`, `km/h`), shown with the answer box. A learner may
    type it after the number or leave it out: it is never graded, and never converted (Moodle's
    "units are optional"). A short label: one line, no spaces at its ends, at most 50 characters
    (Moodle's limit). None for a bare number."""

    def __post_init__(self) -> None:
        Question.__post_init__(self)
        _needs_full_credit(self.id, (answer.credit for answer in self.answers))
        _check(self.unit is None or _is_label(self.unit), f"{self.id}: bad unit {self.unit!r}")


@dataclass(frozen=True, slots=True, kw_only=True)
class Essay(Question):
    """Free text, recorded for a person to mark."""

    kind: ClassVar[str] = "essay"
    scored: ClassVar[bool] = False
    lines: int = 10
    """Size of the answer box, in lines."""

    def __post_init__(self) -> None:
        Question.__post_init__(self)
        _check(1 <= self.lines <= 100, f"{self.id}: an answer box has 1 to 100 lines")


@dataclass(frozen=True, slots=True, kw_only=True)
class MatchPair:
    """A left-hand item and the right-hand item it belongs with."""

    id: str
    left: Text
    right: Text
    source: SourceSpan | None = field(default=None, compare=False)
    """Where it is written in its source, for messages about it; not part of its meaning."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Matching(Question):
    """Match each left item with one right item; `distractors` are right items matching nothing."""

    kind: ClassVar[str] = "matching"
    pairs: tuple[MatchPair, ...]
    distractors: tuple[Text, ...] = ()

    def __post_init__(self) -> None:
        Question.__post_init__(self)
        _check(len(self.pairs) >= 2, f"{self.id}: matching needs two pairs or more")
        _unique_ids(self.id, [pair.id for pair in self.pairs])

    @property
    def has_parts(self) -> bool:
        """Each left item is a part."""
        return True


@dataclass(frozen=True, slots=True, kw_only=True)
class OrderItem:
    id: str
    text: Text
    source: SourceSpan | None = field(default=None, compare=False)
    """Where it is written in its source, for messages about it; not part of its meaning."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Ordering(Question):
    """Put the items in order; `items` holds them in the correct order."""

    kind: ClassVar[str] = "ordering"
    items: tuple[OrderItem, ...]

    def __post_init__(self) -> None:
        Question.__post_init__(self)
        _check(len(self.items) >= 2, f"{self.id}: ordering needs two items or more")
        _unique_ids(self.id, [item.id for item in self.items])

    @property
    def has_parts(self) -> bool:
        """Each item is a part: in its right place or not."""
        return True


@dataclass(frozen=True, slots=True, kw_only=True)
class Gap:
    """A blank in a text: typed (`answers`) or picked from a list (`choices`)."""

    id: str
    answers: tuple[Answer, ...] = ()
    choices: tuple[Choice, ...] = ()
    source: SourceSpan | None = field(default=None, compare=False)
    """Where it is written in its source, for messages about it; not part of its meaning."""

    def __post_init__(self) -> None:
        _check(is_identifier(self.id), f"bad gap id {self.id!r}")
        _check(bool(self.answers) != bool(self.choices), f"gap {self.id}: typed answers or choices, not both")
        if self.answers:
            _needs_full_credit(self.id, (answer.credit for answer in self.answers))
        else:
            _check(sum(c.correct for c in self.choices) == 1, f"gap {self.id}: one choice must be correct")
            _unique_ids(self.id, [choice.id for choice in self.choices])


@dataclass(frozen=True, slots=True, kw_only=True)
class FillBlanks(Question):
    """A text with blanks; `segments` alternate plain-text pieces (never HTML) and gaps,
    in reading order.

    `prompt` holds the same text with each gap shown as `___`, for places that need
    one string (titles, names, lint)."""

    kind: ClassVar[str] = "fill_blanks"
    segments: tuple[str | Gap, ...]
    case_sensitive: bool = False
    """Whether typed gaps compare letter case."""

    def __post_init__(self) -> None:
        Question.__post_init__(self)
        gaps = self.gaps
        _check(bool(gaps), f"{self.id}: a fill-in-the-blanks question needs a gap")
        _unique_ids(self.id, [gap.id for gap in gaps])

    @property
    def gaps(self) -> tuple[Gap, ...]:
        return tuple(part for part in self.segments if isinstance(part, Gap))

    @property
    def has_parts(self) -> bool:
        """Each gap is a part (even a single gap, whose answers may give partial credit)."""
        return True

    @property
    def scoring_matters(self) -> bool:
        """One gap whose answers give full credit or none scores alike under both policies."""
        gaps = self.gaps
        return len(gaps) > 1 or any(0 < answer.credit < 100 for answer in gaps[0].answers)


@dataclass(frozen=True, slots=True, kw_only=True)
class Description(Question):
    """A text between questions (instructions, a passage to read): no answer, no score."""

    kind: ClassVar[str] = "description"
    scored: ClassVar[bool] = False

    def __post_init__(self) -> None:
        Question.__post_init__(self)
        _check(self.points == 0, f"{self.id}: a text block has no points")


def _is_label(text: str) -> bool:
    """A short one-line text: not empty, no spaces at its ends, no line break, at most 50 characters."""
    return (0 < len(text) <= 50 and text == text.strip() and not any(c in text for c in "\n\r\t")
            and unicodedata.is_normalized("NFC", text) and not XML_ILLEGAL.search(text))


def _unique_ids(owner: str, ids: list[str]) -> None:
    _check(all(is_identifier(i) for i in ids), f"{owner}: bad identifier among {ids}")
    _check(len(set(ids)) == len(ids), f"{owner}: identifiers repeat")


QUESTION_KINDS: dict[str, type[Question]] = {
    kind.kind: kind
    for kind in (MultipleChoice, TrueFalse, ShortAnswer, Numeric, Essay, Matching, Ordering, FillBlanks, Description)
}
"""Kind name (as in the JSON form) -> class."""
