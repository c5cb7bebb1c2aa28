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
    messages: cs.json    the SCORM player's words for this quiz (docs/formats/scorm.md)
    ---

Unknown keys are errors with the closest known key suggested: a misspelt
`shufle: true` silently ignored would ship a quiz that behaves differently. The keys and the
checks of their values are lmsexport's quiz settings (`lmsexport.settings`), which a sheet's
settings rows and lmsexport.toml's `[defaults]` take too.
"""

from __future__ import annotations

import difflib
import re
from typing import Callable

from ...settings import CLOSED_VALUES, KEYS

_LINE = re.compile(r"[ \t]*(?P<key>[A-Za-z_][\w-]*(?:[ \t]+[\w-]+)*)[ \t]*:[ \t]*(?P<value>.*?)[ \t]*\Z")
"""`key: value`; a key of several words (`pass mark:`) is read so that the hint can name the right one."""


def unknown_key_hint(key: str) -> str:
    """The nearest known key (a word of the key, else the closest spelling) with what it takes, then all keys."""
    words = [word for word in re.split(r"[\s_-]+", key) if word in KEYS]
    close = words or difflib.get_close_matches(key, KEYS, n=1, cutoff=0.5)
    suggestion = ""
    if close:
        values = f" ({CLOSED_VALUES[close[0]]})" if close[0] in CLOSED_VALUES else ""
        suggestion = f"did you mean '{close[0]}:'{values}? "
    return f"{suggestion}known keys: {', '.join(KEYS)}"


def parse_header(lines: list[str], error: Callable[..., None]) -> tuple[dict, dict[str, tuple[int, int]], int]:
    """Settings from a leading `---` block, where each value stands (key -> 1-based line and
    column, for writers' messages about a setting they cannot carry), and the index of the
    first body line."""
    start = next((i for i, line in enumerate(lines) if line.strip()), 0)
    if lines[start].strip() != "---":
        return {}, {}, 0
    end = next((i for i in range(start + 1, len(lines)) if lines[i].strip() == "---"), None)
    if end is None:
        error(
            "E113",
            "the header that starts here is never closed",
            start + 1,
            hint="end the header with a line holding only ---",
        )
        return {}, {}, len(lines)
    values: dict = {}
    places: dict[str, tuple[int, int]] = {}
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
            error("E111", f"unknown header key {key!r}", index + 1, column, unknown_key_hint(key), len(key))
            continue
        if key in values:
            error("E115", f"header key {key!r} is given twice", index + 1, column, "keep one", len(key))
            continue
        try:
            values[key] = KEYS[key](value)
            places[key] = (index + 1, match.start("value") + 1)
        except ValueError as exc:
            error(
                "E112",
                f"bad value {value!r} for {key}",
                index + 1,
                match.start("value") + 1,
                str(exc),
                max(1, len(value)),
            )
    return values, places, end + 1


def header_messages(lines: list[str], header: dict, source: str, assets) -> tuple[tuple, list]:
    """The player's words the `messages:` setting gives, and the problems met reading them
    (at the header line, or in the messages file)."""
    from ...diagnostics import SourceError, SourceSpan
    from ...interface.custom import quiz_messages

    number = next((n for n, line in enumerate(lines, 1) if re.match(r"[ \t]*messages[ \t]*:", line, re.I)), None)
    where = SourceSpan(source, number, 1) if number else SourceSpan(source)
    try:
        return quiz_messages(header.get("messages"), header.get("lang"), assets, where), []
    except SourceError as exc:
        return (), list(exc.diagnostics)
