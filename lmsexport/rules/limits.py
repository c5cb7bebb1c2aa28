"""Limits: text an LMS or a package standard cuts short or cannot record.

    L050  Moodle: a question title over 255 characters (question names are cut by
          `qformat_default::clean_question_name()`, question/format.php), a tag
          over 50 (`clean_param(PARAM_TAG)` cuts at TAG_MAX_LENGTH, lib/moodlelib.php)
    L051  SCORM: a quiz title over 200 characters (the smallest permitted maximum
          of a manifest <title>, SCORM 1.2 and 2004 CAM), a question with more
          than 36 options (SCORM 1.2 RTE records a choice as one of the 36
          characters 0-9 a-z; SCORM 2004 guarantees 36 identifiers per response)

One rule per target, so a course that never goes to Moodle switches L050 off
(`--ignore L050`, or `lint: -L050` in a quiz).
"""

from __future__ import annotations

from typing import Iterator

from ..model import Quiz
from . import WARNING, Finding, Rule, choices

MOODLE_NAME = 255
MOODLE_TAG = 50
SCORM_TITLE = 200
SCORM_CHOICES = 36


def _tags(quiz: Quiz) -> Iterator[tuple[str, object, str]]:
    for tag in quiz.tags:
        yield tag, None, "the quiz"
    for number, question in enumerate(quiz.questions, 1):
        for tag in question.tags:
            yield tag, question, f"question {number}"


def _moodle_limits(quiz: Quiz) -> Iterator[Finding]:
    for number, question in enumerate(quiz.questions, 1):
        if question.title and len(question.title) > MOODLE_NAME:
            yield Finding(
                f"the title of question {number} has {len(question.title)} characters; "
                f"Moodle cuts question names at {MOODLE_NAME}",
                f"shorten it to {MOODLE_NAME} characters or fewer",
                question,
            )
    for tag, question, owner in _tags(quiz):
        if len(tag) > MOODLE_TAG:
            yield Finding(
                f"a tag of {owner} has {len(tag)} characters; Moodle cuts tags at {MOODLE_TAG}: {tag!r}",
                f"shorten it to {MOODLE_TAG} characters or fewer",
                question,
            )


def _scorm_limits(quiz: Quiz) -> Iterator[Finding]:
    if len(quiz.title) > SCORM_TITLE:
        yield Finding(
            f"the quiz title has {len(quiz.title)} characters; a SCORM LMS need keep only {SCORM_TITLE}",
            f"shorten it to {SCORM_TITLE} characters or fewer, and move the rest to the description",
        )
    for number, question in enumerate(quiz.questions, 1):
        count = len(choices(question))
        if count > SCORM_CHOICES:
            yield Finding(
                f"question {number} has {count} options; SCORM 1.2 can record only {SCORM_CHOICES} "
                "(one character each, 0-9 and a-z)",
                f"split it into questions of {SCORM_CHOICES} options or fewer",
                question,
            )


RULES = (
    Rule("L050", "moodle-limits", WARNING,
         "A question title or a tag is longer than Moodle keeps.", _moodle_limits),
    Rule("L051", "scorm-limits", WARNING,
         "A quiz title or an option count is beyond what SCORM guarantees.", _scorm_limits),
)
