"""Canvas's quiz settings back into the model: `assessment_meta.xml` and the assessment's metadata.

Canvas writes its settings in its own namespace (cccv1p0) beside the assessment (canvas-lms
`lib/cc/qti/qti_generator.rb`) and reads them back in `lib/cc/importer/canvas/quiz_metadata_converter.rb`;
the assessment's `qtimetadata` repeats the attempts (`cc_maxattempts`) and the time limit
(`qmd_timelimit`, minutes). Part of the QTI 1.2 reader: the title, the description, shuffling,
attempts and the time limit are the model's; every other setting that changes what learners get
(one question at a time, a practice quiz, an access code, dates, ...) is left out with a warning.
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import names
from ....diagnostics import Log, SourceSpan
from ....model import Settings, Text
from ....xml import local_name
from .text import Emptied, TextReader, Where

_LEFT_OUT = {
    "quiz_type": lambda v: v not in ("", "assignment"),
    "one_question_at_a_time": lambda v: v == "true",
    "cant_go_back": lambda v: v == "true",
    "show_correct_answers": lambda v: v == "false",
    "hide_results": lambda v: v != "",
    "one_time_results": lambda v: v == "true",
    "access_code": lambda v: v != "",
    "ip_filter": lambda v: v != "",
    "require_lockdown_browser": lambda v: v == "true",
    "due_at": lambda v: v != "",
    "lock_at": lambda v: v != "",
    "unlock_at": lambda v: v != "",
}
"""Settings the model has no field for, and when their value changes what learners get."""


@dataclass
class QuizInfo:
    """What the settings give the quiz."""

    title: str | None
    description: Text | None
    settings: Settings


def read_settings(meta, assessment, texts: TextReader, log: Log, span: SourceSpan, lang: str | None) -> QuizInfo:
    """The quiz's title, description and settings from `meta` (assessment_meta.xml's root, or None)
    and the assessment's own metadata."""
    fields = _fields(meta)
    metadata = assessment_metadata(assessment)

    def warn(code: str, message: str, hint: str = "") -> None:
        log.warn(code, f"the quiz: {message}", span, hint)

    minutes = fields.get("time_limit") or metadata.get(names.TIME_LIMIT)
    attempts = fields.get("allowed_attempts") or metadata.get(names.MAX_ATTEMPTS)
    settings = Settings(shuffle=fields.get("shuffle_answers") == "true", feedback="end",
                        attempts=_attempts(attempts, warn), time_limit=_seconds(minutes, warn))
    description = fields.get("description")
    try:
        text = texts.html(description, Where(log, "the quiz", span), "its description", lang) if description and \
            description.strip() else None
    except Emptied:
        text = None  # what the sanitiser removed, leaving nothing, is its warning (W010)
    left_out = [f"{name} {value}" for name, value in _all_fields(meta) if name in _LEFT_OUT and _LEFT_OUT[name](value)]
    if fields.get("scoring_policy", "keep_highest") != "keep_highest" and settings.attempts != 1:
        left_out.insert(0, f"scoring_policy {fields['scoring_policy']}")
    if left_out:
        warn("W876", f"Canvas settings that lmsexport has no place for are left out: {', '.join(left_out)}",
             "set them again in the LMS you import the quiz into")
    return QuizInfo(fields.get("title") or None, text if text is not None and text.value else None, settings)


def assessment_metadata(assessment) -> dict[str, str]:
    """The assessment's own qtimetadata fields (not its items'), label -> entry."""
    found = {}
    for holder in (node for node in assessment if local_name(node) == "qtimetadata"):
        for field in (node for node in holder if local_name(node) == "qtimetadatafield"):
            label = next((c.text for c in field if local_name(c) == "fieldlabel"), None) or ""
            entry = next((c.text for c in field if local_name(c) == "fieldentry"), None) or ""
            found[label.strip()] = entry.strip()
    return found


def _fields(meta) -> dict[str, str]:
    """The settings, their values without the space around them (but the description's, which is HTML)."""
    if meta is None:
        return {}
    return {local_name(node): (node.text or "") if local_name(node) == "description" else (node.text or "").strip()
            for node in meta if local_name(node)}


def _all_fields(meta):
    """Every setting, the assignment's (dates) included, in document order."""
    if meta is None:
        return []
    return [(local_name(node), (node.text or "").strip()) for node in meta.iter() if local_name(node) and not len(node)]


def _attempts(value: str | None, warn) -> int | None:
    if value in (None, "", "-1", names.UNLIMITED):
        return None
    if value.isascii() and value.isdigit() and int(value) >= 1:  # isdigit() alone takes ², which int() refuses
        return int(value)
    warn("W876", f"the attempts {value!r} are not a number of 1 or more, so attempts are not limited",
         "set the attempts again in the LMS you import the quiz into")
    return None


def _seconds(minutes: str | None, warn) -> int | None:
    if not minutes:
        return None
    try:
        seconds = round(float(minutes) * 60)
    except (ValueError, OverflowError):
        seconds = 0
    if seconds >= 1:
        return seconds
    warn("W876", f"the time limit {minutes!r} is not a number of minutes, so there is no time limit",
         "set the time limit again in the LMS you import the quiz into")
    return None
