"""The optional `---` header of a quiz text: `key: value` settings, checked.

    ---
    id: fsdp-yo          identifier used for output names (default: from the file name)
    title: 1. Basics     the title, when the first line cannot say it (it would read as a question)
    lang: yo             BCP 47 language tag of the quiz
    shuffle: true        let the LMS shuffle options (default false)
    points: 2            points per question (default 1)
    pass: 70%            pass mark, percent of the total score
    feedback: end        immediate (default) or end
    tags: ml, week 3     comma-separated tags
    lint: -L012          lint rules switched off for this quiz
    markup: markdown     texts are Markdown (with math and images), or html: HTML as it is
    attempts: 2          attempts a learner has (SCORM packages)
    time: 30 min         time for one attempt (QTI, SCORM)
    scoring: partial     partial credit (default) or all_or_nothing (docs/scoring.md)
    ---

Unknown keys are errors with the closest known key suggested: a misspelt
`shufle: true` silently ignored would ship a quiz that behaves differently.
"""

from __future__ import annotations

import difflib
import math
import re
from typing import Callable

from ...model import FEEDBACK_MODES, SCORING_POLICIES, is_identifier, is_language_tag
from .syntax import MARKUPS

_LINE = re.compile(r"[ \t]*(?P<key>[A-Za-z_][\w-]*)[ \t]*:[ \t]*(?P<value>.*?)[ \t]*\Z")
_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}


def _identifier(value: str) -> str:
    if not is_identifier(value):
        raise ValueError("an id is ASCII letters, digits, - _ and ., starting with a letter (e.g. fsdp-yo)")
    return value


def _language(value: str) -> str:
    if not is_language_tag(value):
        raise ValueError("use a BCP 47 language tag such as en, yo, id, vi, ar or pt-BR")
    return value


def _boolean(value: str) -> bool:
    if value.lower() in _TRUE:
        return True
    if value.lower() in _FALSE:
        return False
    raise ValueError("use true or false")


def _points(value: str) -> float:
    try:
        points = float(value)
    except ValueError:
        points = math.nan
    if not (math.isfinite(points) and points > 0):
        raise ValueError("use a positive number, such as 1 or 2.5")
    return points


def _pass_mark(value: str) -> float:
    try:
        mark = float(value.removesuffix("%").strip())
    except ValueError:
        mark = math.nan
    if not 0 <= mark <= 100:
        raise ValueError("use a percentage of the total score from 0 to 100, such as 60 or 60%")
    return mark


def _feedback(value: str) -> str:
    if value not in FEEDBACK_MODES:
        raise ValueError(f"use one of: {', '.join(FEEDBACK_MODES)}")
    return value


_POLICY_HINTS = {"partial": "each right part earns its share", "all_or_nothing": "the points only when all is right"}


def _scoring(value: str) -> str:
    """A scoring policy; `All-or-nothing` and `all or nothing` are read as `all_or_nothing`."""
    policy = "_".join(value.lower().replace("-", " ").split())
    if policy not in SCORING_POLICIES:
        raise ValueError("use " + " or ".join(f"{name} ({_POLICY_HINTS[name]})" for name in SCORING_POLICIES))
    return policy


def _tags(value: str) -> tuple[str, ...]:
    return tuple(tag.strip() for tag in value.split(",") if tag.strip())


def _attempts(value: str) -> int:
    if not value.isdigit() or int(value) < 1:
        raise ValueError("use a whole number of attempts, 1 or more")
    return int(value)


_DURATION = re.compile(r"(?:(?P<h>\d+)\s*h)?\s*(?:(?P<m>\d+)\s*min)?\s*(?:(?P<s>\d+)\s*s)?\Z")


def _time_limit(value: str) -> int:
    """`30 min`, `1 h 30 min`, `90 s`, or a bare number of minutes; in seconds."""
    if value.isdigit():
        seconds = int(value) * 60
    else:
        match = _DURATION.match(value.strip().lower())
        if not match or not any(match.groupdict().values()):
            raise ValueError("use minutes (30), or units: 30 min, 1 h 30 min, 90 s")
        seconds = sum(int(match[unit] or 0) * size for unit, size in (("h", 3600), ("m", 60), ("s", 1)))
    if seconds < 1:
        raise ValueError("a time limit is a second or more")
    return seconds


def _markup(value: str) -> str:
    if value not in MARKUPS:
        raise ValueError("use plain (text shown as written), markdown or html")
    return value


def _title(value: str) -> str:
    if not value:
        raise ValueError("give the quiz's title")
    return value


_RULE = re.compile(r"-?L\d{3}\Z")


def _lint(value: str) -> tuple[str, ...]:
    codes = value.replace(",", " ").split()
    if not codes or not all(_RULE.match(code) for code in codes):
        raise ValueError("list the lint rules to switch off, e.g. -L012 -L031 (see docs/lint.md)")
    return tuple(code.lstrip("-") for code in codes)


KEYS: dict[str, Callable[[str], object]] = {
    "id": _identifier,
    "title": _title,
    "lang": _language,
    "shuffle": _boolean,
    "points": _points,
    "pass": _pass_mark,
    "feedback": _feedback,
    "tags": _tags,
    "lint": _lint,
    "markup": _markup,
    "attempts": _attempts,
    "time": _time_limit,
    "scoring": _scoring,
}


def parse_header(lines: list[str], error: Callable[..., None]) -> tuple[dict, int]:
    """Settings from a leading `---` block, and the index of the first body line."""
    start = next((i for i, line in enumerate(lines) if line.strip()), 0)
    if lines[start].strip() != "---":
        return {}, 0
    end = next((i for i in range(start + 1, len(lines)) if lines[i].strip() == "---"), None)
    if end is None:
        error(
            "E113",
            "the header that starts here is never closed",
            start + 1,
            hint="end the header with a line holding only ---",
        )
        return {}, len(lines)
    values: dict = {}
    for index in range(start + 1, end):
        line = lines[index]
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        match = _LINE.match(line)
        if not match:
            error("E114", "a header line must be key: value", index + 1, hint="for example lang: yo")
            continue
        key, value = match["key"].lower(), match["value"]
        column = match.start("key") + 1
        if key not in KEYS:
            close = difflib.get_close_matches(key, KEYS, n=1, cutoff=0.5)
            suggestion = f"did you mean {close[0]}?" if close else ""
            error(
                "E111",
                f"unknown header key {key!r}",
                index + 1,
                column,
                f"{suggestion} known keys: {', '.join(KEYS)}".strip(),
                len(key),
            )
            continue
        if key in values:
            error("E115", f"header key {key!r} is given twice", index + 1, column, "keep one", len(key))
            continue
        try:
            values[key] = KEYS[key](value)
        except ValueError as exc:
            error(
                "E112",
                f"bad value {value!r} for {key}",
                index + 1,
                match.start("value") + 1,
                str(exc),
                max(1, len(value)),
            )
    return values, end + 1
