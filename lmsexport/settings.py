"""Quiz settings as sources write them: the one vocabulary that a text quiz's `---` header
(docs/format.md), a sheet's settings rows (docs/formats/sheet.md) and the `[defaults]` of
lmsexport.toml (docs/build.md) share.

Each checker takes the value as written and returns it as the model holds it, or raises
ValueError with the hint to show; the caller places the message (a header line, a cell, the
toml file). `KEYS` is the header's vocabulary, which `[defaults]` takes too (but for each quiz's
own `id` and `title`), so a folder's defaults mean what the same line in a header means. A sheet
reads numbers its own way (a decimal comma, a number cell) and checks them with
`check_points`, `check_pass_mark` and `check_attempts`.
"""

from __future__ import annotations

import math
import re
from typing import Callable

from .ids import ID_LIMIT
from .vocabulary import FEEDBACK_MODES, SCORING_POLICIES, TIME_LIMIT_MAX, is_identifier, is_language_tag

MARKUPS = ("plain", "markdown", "html")
"""The `markup:` values: texts as written, Markdown, or HTML."""
_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}
BOOLEANS = "true/false, yes/no, on/off"
_DURATION = re.compile(r"(?:(?P<h>\d+)\s*h)?\s*(?:(?P<m>\d+)\s*min)?\s*(?:(?P<s>\d+)\s*s)?\Z")
_RULE = re.compile(r"-?L\d{3}\Z")


def identifier(value: str) -> str:
    if not is_identifier(value):
        raise ValueError("an id is ASCII letters, digits, - _ and ., starting with a letter (e.g. fsdp-yo)")
    if len(value) > ID_LIMIT:
        raise ValueError(f"an id is {ID_LIMIT} characters at most (it names the files a build writes); "
                         f"this one has {len(value)}")
    return value


def title(value: str) -> str:
    if not value:
        raise ValueError("give the quiz's title")
    return value


def language(value: str) -> str:
    if not is_language_tag(value):
        raise ValueError("use a BCP 47 language tag such as en, yo, id, vi, ar or pt-BR")
    return value


def boolean(value: str) -> bool:
    if value.lower() in _TRUE:
        return True
    if value.lower() in _FALSE:
        return False
    raise ValueError(f"use one of {BOOLEANS}")


def _number(value: str) -> float:
    try:
        return float(value)
    except ValueError:
        return math.nan


def check_points(points: float) -> float:
    """Points per question: a quiz's default is more than 0 (a question may say 0 for itself)."""
    if not (math.isfinite(points) and points > 0):
        raise ValueError("use a positive number, such as 1 or 2.5")
    return points


def points(value: str) -> float:
    return check_points(_number(value))


def check_pass_mark(mark: float) -> float:
    if not 0 <= mark <= 100:
        raise ValueError("use a percentage of the total score from 0 to 100, such as 60 or 60%")
    return mark


def pass_mark(value: str) -> float:
    return check_pass_mark(_number(value.removesuffix("%").strip()))


def feedback(value: str) -> str:
    if value not in FEEDBACK_MODES:
        raise ValueError(f"use one of: {', '.join(FEEDBACK_MODES)}")
    return value


def tags(value: str) -> tuple[str, ...]:
    return tuple(tag.strip() for tag in value.split(",") if tag.strip())


_ATTEMPTS_HINT = "use a whole number of attempts, 1 or more"


def check_attempts(count: float) -> int:
    if not (math.isfinite(count) and count >= 1 and count == int(count)):
        raise ValueError(_ATTEMPTS_HINT)
    return int(count)


def attempts(value: str) -> int:
    if not value.isdecimal():  # isdigit() takes "²", which int() refuses
        raise ValueError(_ATTEMPTS_HINT)
    return check_attempts(int(value))


def time_limit(value: str) -> int:
    """`30 min`, `1 h 30 min`, `90 s`, or a bare number of minutes; in seconds."""
    value = value.strip().lower()
    if value.isdecimal():
        seconds = int(value) * 60
    else:
        match = _DURATION.match(value)
        if not match or not any(match.groupdict().values()):
            raise ValueError("use minutes (30), or units: 30 min, 1 h 30 min, 90 s")
        seconds = sum(int(match[unit] or 0) * size for unit, size in (("h", 3600), ("m", 60), ("s", 1)))
    if not 1 <= seconds <= TIME_LIMIT_MAX:
        raise ValueError(f"a time limit is a second or more, and {TIME_LIMIT_MAX // 3600:,} h at most")
    return seconds


def lint(value: str) -> tuple[str, ...]:
    """Lint rules switched off: `-L012 -L031` (or with commas), as their codes."""
    codes = value.replace(",", " ").split()
    if not codes or not all(_RULE.match(code) for code in codes):
        raise ValueError("list the lint rules to switch off, e.g. -L012 -L031 (see docs/lint.md)")
    return tuple(code.lstrip("-") for code in codes)


def markup(value: str) -> str:
    if value not in MARKUPS:
        raise ValueError("use one of plain (text shown as written), markdown or html")
    return value


_POLICY_HINTS = {"partial": "each right part earns its share", "all_or_nothing": "the points only when all is right"}


def scoring(value: str) -> str:
    """A scoring policy; `All-or-nothing` and `all or nothing` are read as `all_or_nothing`."""
    policy = "_".join(value.lower().replace("-", " ").split())
    if policy not in SCORING_POLICIES:
        raise ValueError("use " + " or ".join(f"{name} ({_POLICY_HINTS[name]})" for name in SCORING_POLICIES))
    return policy


def messages(value: str) -> str:
    """The `messages:` value, checked by `interface.custom`, which is imported only for a header
    or a lmsexport.toml that names a messages file (7 ms of a no-op build's start)."""
    from .interface.custom import check_path

    return check_path(value)


KEYS: dict[str, Callable[[str], object]] = {
    "id": identifier,
    "title": title,
    "lang": language,
    "shuffle": boolean,
    "points": points,
    "pass": pass_mark,
    "feedback": feedback,
    "tags": tags,
    "lint": lint,
    "markup": markup,
    "attempts": attempts,
    "time": time_limit,
    "scoring": scoring,
    "messages": messages,
}
"""Each header key and the checker of its value."""
CLOSED_VALUES = {"shuffle": BOOLEANS, "feedback": ", ".join(FEEDBACK_MODES), "markup": ", ".join(MARKUPS),
                 "scoring": ", ".join(SCORING_POLICIES)}
"""The keys that take one of a few words, and those words, for hints."""
OWN = ("id", "title")
"""Keys that belong to one quiz: a default for every quiz of a folder would make no sense."""
