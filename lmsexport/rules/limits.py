"""Limits: text an LMS or a package standard cuts short or cannot record.

    L050  Moodle: a question title over 255 characters (question names are cut by
          `qformat_default::clean_question_name()`, question/format.php), a tag
          over 50 (`clean_param(PARAM_TAG)` cuts at TAG_MAX_LENGTH, lib/moodlelib.php)
    L051  SCORM: a quiz title over 200 characters (the smallest permitted maximum
          of a manifest <title>, SCORM 1.2 and 2004 CAM), a question with more
          than 36 options (SCORM 1.2 RTE records a choice as one of the 36
          characters 0-9 a-z; SCORM 2004 guarantees 36 identifiers per response)

The numbers are not kept here: each format declares its own (`LIMITS` in
formats/<name>/limits.py) and the rule asks the registry for them. One rule per
target, so a course that never goes to Moodle switches L050 off (`--ignore L050`,
or `lint: -L050` in a quiz); a build that writes a target leaves its rule to that
target's writer, which says what the LMS gets instead (W652, W653, W601, W608, W609).
"""

from __future__ import annotations

from typing import Callable, Iterable, Iterator

from .. import formats as registry
from ..model import Quiz
from ..package import Limit
from . import WARNING, Finding, Rule, choices


def _tags(quiz: Quiz) -> Iterator[tuple[str, object, str]]:
    for tag in quiz.tags:
        yield tag, None, "the quiz"
    for question in quiz.questions:
        for tag in question.tags:
            yield tag, question, quiz.label(question)


def _quiz_title(quiz: Quiz, limit: Limit) -> Iterator[Finding]:
    if len(quiz.title) > limit.size:
        yield Finding(f"the quiz title has {len(quiz.title)} characters; {limit.reason}",
                      f"shorten it to {limit.size} characters or fewer, and move the rest to the description")


def _question_title(quiz: Quiz, limit: Limit) -> Iterator[Finding]:
    for question in quiz.questions:
        if question.title and len(question.title) > limit.size:
            yield Finding(f"the title of {quiz.label(question)} has {len(question.title)} characters; {limit.reason}",
                          f"shorten it to {limit.size} characters or fewer", question)


def _tag(quiz: Quiz, limit: Limit) -> Iterator[Finding]:
    for tag, question, owner in _tags(quiz):
        if len(tag) > limit.size:
            yield Finding(f"a tag of {owner} has {len(tag)} characters; {limit.reason}: {tag!r}",
                          f"shorten it to {limit.size} characters or fewer", question)


def _options(quiz: Quiz, limit: Limit) -> Iterator[Finding]:
    for question in quiz.questions:
        count = len(choices(question))
        if count > limit.size:
            first_over = choices(question)[limit.size]  # the finding points at the first option too many
            yield Finding(f"{quiz.label(question)} has {count} options; {limit.reason}",
                          f"split it into questions of {limit.size} options or fewer", question, first_over.source)


CHECKS: dict[str, Callable[[Quiz, Limit], Iterator[Finding]]] = {
    "quiz_title": _quiz_title, "question_title": _question_title, "tag": _tag, "options": _options,
}
"""`Limit.field` -> the check of a quiz against such a limit (every field a format may declare)."""


def _within(target: str) -> Callable[[Quiz], Iterator[Finding]]:
    """The check of a quiz against every limit the format `target` declares."""
    def check(quiz: Quiz) -> Iterator[Finding]:
        for limit in registry.limits(target):
            yield from CHECKS[limit.field](quiz, limit)

    return check


TARGETS = {
    "L050": ("moodle", "A question title or a tag is longer than Moodle keeps."),
    "L051": ("scorm", "A quiz title or an option count is beyond what SCORM guarantees."),
}
"""Rule code -> the format whose limits it checks, and the rule's summary."""


def left_to_writers(formats: Iterable[str]) -> tuple[str, ...]:
    """The limit rules a build writing `formats` (format names) leaves to those formats' writers."""
    written = set(formats)
    return tuple(code for code, (target, _) in TARGETS.items() if target in written)


RULES = tuple(Rule(code, f"{target}-limits", WARNING, summary, _within(target))
              for code, (target, summary) in TARGETS.items())
