"""One QTI 1.2 `item` into one model question: its kind, the fields every kind has, its feedback.

QTI ASI 1.2.1, section 3 (item): https://www.imsglobal.org/question/qtiv1p2/imsqti_asi_infov1p2.html
Part of the QTI 1.2 reader. The kind comes from Canvas's `question_type` field (canvas-lms
`lib/cc/qti/qti_items.rb` writes it, `gems/plugins/qti_exporter` reads it); an item without one
(Blackboard, WebCT, IMS samples) is known by its structure where it is Canvas's: one
`response_lid` of choices, several of matches, a `response_str` or `response_num` to type in.
A question the model cannot hold (calculated, file upload, hot spot, ...) or cannot read is
skipped (`Skip`): the reader warns and goes on. The kinds are in `choices` and `typed`, texts in
`text`, the response processing in `processing`.
"""

from __future__ import annotations

import math
import unicodedata
from dataclasses import dataclass, field

from .. import names
from ....diagnostics import Log, SourceSpan
from ....model import XML_ILLEGAL, Text
from . import processing
from .processing import Condition
from ....xml import local_name
from .text import Emptied, TextReader, Where, materials

_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
BLACKBOARD_SKIPPED = {
    "Calculated": "lmsexport has no calculated questions",
    "Calculated Formula": "lmsexport has no calculated questions",
    "Hot Spot": "lmsexport has no questions answered by clicking on an image",
    "Jumbled Sentence": "lmsexport has no jumbled sentences", "Quiz Bowl": "lmsexport has no quiz bowl questions",
    "File Upload": "lmsexport has no file upload questions", "Opinion Scale": "lmsexport has no opinion scales",
}
"""Blackboard's question types (`bbmd_questiontype`) that no model kind holds."""
SKIPPED_TYPES = {
    "calculated_question": "lmsexport has no calculated questions (numbers drawn from formulas)",
    "file_upload_question": "lmsexport has no file upload questions",
    "hot_spot_question": "lmsexport has no questions answered by clicking on an image",
    "formula_question": "lmsexport has no calculated questions (numbers drawn from formulas)",
    "categorization_question": "lmsexport has no categorisation questions",
    "stimulus": "lmsexport has no stimulus passages with questions of their own",
}
"""Canvas's types (classic and New Quizzes exports) that no model kind holds, and why."""


class Skip(Exception):
    """The question is left out: `message` says why, `hint` what to do."""

    def __init__(self, message: str, hint: str = "", code: str = "W872"):
        super().__init__(message)
        self.code, self.hint = code, hint


@dataclass
class Item:
    """One item being read: where it is, its language, its conditions and feedback, the warnings."""

    node: object
    id: str
    name: str
    """How messages name it: `question 3 (item 'g5b2')`, by its place among the file's items."""
    lang: str | None
    """The question's own language, when it is not the quiz's."""
    quiz_lang: str | None
    span: SourceSpan
    texts: TextReader
    log: Log
    points: float | None = None
    """The points its question group gives each question, instead of the item's own."""
    conditions: list[Condition] = field(default_factory=list)
    feedback_nodes: dict = field(default_factory=dict)
    placed: set = field(default_factory=set)

    def __post_init__(self) -> None:
        self.conditions = processing.conditions(self.node)
        self.feedback_nodes = {node.get("ident", ""): node for node in self.node if local_name(node) == "itemfeedback"}

    @property
    def where(self) -> Where:
        return Where(self.log, self.name, self.span)

    def warn(self, code: str, message: str, hint: str = "") -> None:
        self.where.warn(code, message, hint)

    @property
    def effective_lang(self) -> str | None:
        return self.lang or self.quiz_lang

    def text(self, holders: list, part: str, stem: bool = False) -> Text:
        """A text of the item (`part` names it in messages: `the prompt`, `option b`)."""
        return self.texts.text(holders, self.where, part, self.effective_lang, stem)

    def words(self, holders: list, part: str) -> str:
        return self.texts.words(holders, self.where, part)

    def feedback(self, *idents: str) -> Text | None:
        """The text of the first of `idents` the item has, which is then placed in the model."""
        for ident in idents:
            node = self.feedback_nodes.get(ident)
            if node is not None:
                self.placed.add(ident)
                text = self.text([node], f"its feedback {ident!r}")
                return text if text.value else None
        return None

    def responses(self, *kinds: str) -> list:
        """The presentation's response elements of these kinds (`response_lid`, ...), in order."""
        presentation = next((node for node in self.node if local_name(node) == "presentation"), None)
        return [] if presentation is None else [node for node in presentation.iter() if local_name(node) in kinds]

    def labels(self, response) -> list:
        return [node for node in response.iter() if local_name(node) == "response_label"]

    def left_out_feedback(self) -> None:
        """Warn for each feedback the question could not take (`placed` says which it took)."""
        from ....text import shorten, words

        for ident, node in self.feedback_nodes.items():
            try:
                shown = words(self.text([node], f"its feedback {ident!r}")) if ident not in self.placed else ""
            except Emptied:
                continue  # nothing left to show: what was removed is its warning (W010)
            if shown:
                self.warn("W874", f"its feedback {ident!r} ({shorten(shown, 40)!r}) is left out: it is shown on a "
                          "condition lmsexport has no place for (it keeps feedback for any answer, a right one, a "
                          "wrong one, and each option's)", "put what it says into the question's feedback for right "
                          "or wrong answers")


def span(item: Item, node) -> SourceSpan:
    """Where a part of the item (an option, a pair, an answer) is written."""
    return SourceSpan(item.span.source, node.sourceline or item.span.line)


def text_only(item) -> bool:
    """Whether an item is a text block: Canvas's text_only_question, or, without a question_type
    (Blackboard, WebCT), an item with nothing to answer."""
    declared = metadata(item).get(names.QUESTION_TYPE)
    if declared is not None:
        return declared == names.TEXT_ONLY
    return not any(local_name(node).startswith("response_") for node in item.iter())


def metadata(item) -> dict[str, str]:
    """Canvas's item metadata fields (`qtimetadatafield`), label -> entry."""
    found = {}
    for holder in item:
        if local_name(holder) != "itemmetadata":
            continue
        for node in holder.iter():
            if local_name(node) == "qtimetadatafield":
                label = next((c.text for c in node if local_name(c) == "fieldlabel"), None) or ""
                entry = next((c.text for c in node if local_name(c) == "fieldentry"), None) or ""
                found[label.strip()] = entry.strip()
    return found


def common(item: Item, meta: dict[str, str], scored: bool = True) -> dict:
    """The fields every kind has: id, title, language, points, question text and feedback. A kind
    calls it once it has placed its answers' feedback (which a generic reading would take)."""
    presentation = next((node for node in item.node if local_name(node) == "presentation"), None)
    prompt = item.text(materials(presentation) if presentation is not None else [], "the prompt", stem=True)
    fields = {"id": item.id, "lang": item.lang, "points": _points(item, meta) if scored else 0.0, "prompt": prompt,
              "source": item.span}
    fields["title"] = _title(item.node.get("title"), prompt, item.id)
    fields["explanation"] = item.feedback(names.GENERAL_FEEDBACK)
    fields["correct_feedback"] = item.feedback(names.CORRECT_FEEDBACK)
    fields["incorrect_feedback"] = item.feedback(names.INCORRECT_FEEDBACK)
    _generic_feedback(item, fields)
    return fields


def _title(title: str | None, prompt: Text, question_id: str) -> str | None:
    """The item's title, but the one a writer makes from the start of the prompt (not the author's)."""
    title = unicodedata.normalize("NFC", XML_ILLEGAL.sub("", title or ""))
    return title if title.strip() and title != names.item_title(prompt.html(), question_id) else None


def _points(item: Item, meta: dict[str, str]) -> float:
    """The group's points per question, `points_possible` (Canvas), the declared maximum score
    (other tools), else 1."""
    if item.points is not None:
        return item.points
    value = meta.get(names.POINTS)
    if value is None:
        declared = processing.maximum(item.node) if names.QUESTION_TYPE not in meta else None
        return 1.0 if declared is None else float(declared)
    number = processing.number(value)
    if number is None or number < 0 or not math.isfinite(float(number)):
        item.warn("W880", f"its points_possible {value!r} is not a number of 0 or more, so it is worth 1 point",
                  "give the question its points in the source LMS and export it again")
        return 1.0
    return float(number)


def _generic_feedback(item: Item, fields: dict) -> None:
    """Feedback of other tools' items, by when their conditions show it, for the places still
    empty: with the best score, the feedback for a right answer; whatever the answer, before any
    scoring, the explanation; whatever the answer after it (where a right answer has stopped),
    the feedback for a wrong one."""
    scored_before = False
    best = max((c.score for c in item.conditions if c.scores), default=None)
    for condition in item.conditions:
        scored_before = scored_before or condition.scores
        for ident in condition.shows:
            if ident in item.placed or ident not in item.feedback_nodes:
                continue
            if condition.scores and condition.score == best and not condition.adds:
                role = "correct_feedback"
            elif condition.otherwise:
                role = "incorrect_feedback" if scored_before else "explanation"
            else:
                continue
            if fields[role] is None:
                fields[role] = item.feedback(ident)
