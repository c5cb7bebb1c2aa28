"""Moodle's Cloze syntax (question type multianswer): gaps such as `{1:SHORTANSWER:=Paris~=paris}`.

A Cloze question is one HTML text with sub-questions written inline; Moodle parses it with
`qtype_multianswer_extract_question()` (moodle/moodle question/type/multianswer/questiontype.php,
`ANSWER_REGEX`): `{weight:TYPE:alternative~alternative...}`, each alternative `=` (100 %),
`%n%` or nothing (0 %), the answer, then `#feedback`. An answer ends at a `~`, `#` or `}` that
is not preceded by `\\`, `&` or `&amp;`; feedback at a `~` or `}` not preceded by `\\`. Both
are then passed through html_entity_decode() and `\\}` `\\#` unescaped, so lmsexport writes
every character the syntax would read as markup (`~ } # \\`, a leading `=` or `%`, a final `&`)
as a numeric character reference: unlike the backslash escapes, which Moodle undoes only for
`}` and `#`, a reference comes back as exactly the character in every Moodle version.

`write_gap()` builds one sub-question, `parse()` splits a question text the way Moodle does,
and `problems()` lists what `qtype_multianswer_validate_question()` would refuse.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field

TYPES = {
    "NUMERICAL": "numerical", "NM": "numerical",
    "MULTICHOICE": "multichoice", "MC": "multichoice",
    "MULTICHOICE_V": "multichoice", "MCV": "multichoice",
    "MULTICHOICE_H": "multichoice", "MCH": "multichoice",
    "SHORTANSWER": "shortanswer", "SA": "shortanswer", "MW": "shortanswer",
    "SHORTANSWER_C": "shortanswer_c", "SAC": "shortanswer_c", "MWC": "shortanswer_c",
    "MULTICHOICE_S": "multichoice_s", "MCS": "multichoice_s",
    "MULTICHOICE_VS": "multichoice_s", "MCVS": "multichoice_s",
    "MULTICHOICE_HS": "multichoice_s", "MCHS": "multichoice_s",
    "MULTIRESPONSE": "multiresponse", "MR": "multiresponse",
    "MULTIRESPONSE_H": "multiresponse", "MRH": "multiresponse",
    "MULTIRESPONSE_S": "multiresponse", "MRS": "multiresponse",
    "MULTIRESPONSE_HS": "multiresponse", "MRHS": "multiresponse",
}
"""ANSWER_TYPE_DEF_REGEX: every type name and alias -> what it makes (`_c` case-sensitive, `_s` shuffled)."""

_TYPE = "|".join(sorted(TYPES, key=len, reverse=True))
_START = re.compile(rf"\{{([0-9]*):({_TYPE}):")  # ANSWER_START_REGEX
_FRACTION = re.compile(r"=|%(-?[0-9]+(?:[.,][0-9]*)?)%")  # ANSWER_ALTERNATIVE_FRACTION_REGEX
_ANSWER_END = re.compile(r"(?<!\\)(?<!&)(?<!&amp;)[~#}]")  # ANSWER_ALTERNATIVE_ANSWER_REGEX's end
_FEEDBACK_END = re.compile(r"(?<!\\)[~}]")  # ANSWER_ALTERNATIVE_FEEDBACK_REGEX's end
_NUMBER = r"-?(?:[0-9]+[.,]?[0-9]*|[.,][0-9]+)(?:[eE][-+]?[0-9]+)?"
_NUMERICAL = re.compile(rf"({_NUMBER})(?::({_NUMBER}))?\Z", re.DOTALL)
_MARKER_START = re.compile(rf"\{{(?=[0-9]*:(?:{_TYPE}):)")
_SPECIAL = {"~": "&#126;", "}": "&#125;", "#": "&#35;", "\\": "&#92;"}
ESCAPED_BRACE = "&#123;"
"""How a `{` in the text around the gaps is written when it would start a sub-question."""


@dataclass
class Alternative:
    """One answer of a sub-question, decoded as Moodle stores it."""

    text: str
    percent: float
    feedback: str
    tolerance: float | None = None
    """For numerical sub-questions: the error margin (`value:margin`), when the answer is a number."""


@dataclass
class Gap:
    """A sub-question: its weight (marks), the type it makes, its answers, and where it stood."""

    weight: int
    kind: str
    type_name: str
    alternatives: list[Alternative] = field(default_factory=list)


def encode(value: str) -> str:
    """`value` so that html_entity_decode() and the alternative regex give it back exactly.

    Written as HTML-escaped text plus references for `~ } # \\`, a leading `=` or `%` (which
    would read as a grade) and a final `&` (`&amp;` before `~` would hide the separator).
    """
    text = "".join(_SPECIAL.get(char, char) for char in html.escape(value, quote=False))
    if text[:1] in ("=", "%"):
        text = f"&#{ord(text[0])};{text[1:]}"
    if text.endswith("&amp;"):
        text = text[: -len("&amp;")] + "&#38;"
    return text


def write_gap(weight: int, type_name: str, alternatives: list[tuple[float, str, str]]) -> str:
    """`{weight:TYPE:...}` from (percent, answer, feedback) triples; texts are what Moodle should store.

    100 % is `=`, 0 % nothing, anything else `%n%` in whole numbers (older parsers read no decimals there).
    """
    parts = []
    for percent, answer, feedback in alternatives:
        grade = "=" if percent == 100 else "" if percent == 0 else f"%{round(percent)}%"
        parts.append(grade + encode(answer) + (f"#{encode(feedback)}" if feedback else ""))
    return f"{{{weight}:{type_name}:{'~'.join(parts)}}}"


def protect(text: str) -> str:
    """Text around the gaps with every `{` that would start a sub-question written as `&#123;`."""
    return _MARKER_START.sub(ESCAPED_BRACE, text)


def parse(text: str) -> tuple[list[str], list[Gap]]:
    """The text around the sub-questions (one more piece than gaps) and the sub-questions.

    As qtype_multianswer_extract_question(): the leftmost `{weight:TYPE:...}` that parses is
    taken, then the next. Each answer and feedback ends at its first end mark, the reading PCRE
    tries first; where PHP would backtrack into a longer answer (malformed texts such as
    `{1:SA:a~}`), this refuses the sub-question instead, and stays linear on any input.
    """
    pieces, gaps, done, search = [], [], 0, 0
    scan = _Scan(text)
    while (start := _START.search(text, search)) is not None:
        read = scan.alternatives(start.end())
        if read is None:
            search = start.start() + 1
            continue
        alternatives, end = read
        gap = Gap(int(start[1]) if start[1] else 1, TYPES[start[2]], start[2])
        gap.alternatives = [_alternative(gap.kind, *parts) for parts in alternatives]
        pieces.append(text[done: start.start()])
        gaps.append(gap)
        done = search = end
    pieces.append(text[done:])
    return pieces, gaps


class _Scan:
    """The end marks of one text, found once: each answer or feedback ends at the first mark after
    it, and the reading from a position is always the same, so where one led to no `}` is
    remembered too. Unclosed sub-questions then cost one pass over the text, not one each."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.dead_ends: set[int] = set()
        self.found: dict[re.Pattern, tuple[int, int]] = {}

    def alternatives(self, position: int) -> tuple[list[tuple[str, str, str]], int] | None:
        """The (grade, answer, feedback) parts from `position` to the closing `}`, and the index after it."""
        text, parts, visited = self.text, [], []
        while position not in self.dead_ends:
            visited.append(position)
            grade = _FRACTION.match(text, position)
            mark = grade[0] if grade is not None and grade.end() < len(text) else ""  # an answer follows it
            position += len(mark)
            if position >= len(text):
                break  # an answer has one character at least
            end = self.end(_ANSWER_END, position + 1)
            answer, feedback = text[position:end], ""
            if text[end: end + 1] == "#":
                stop = self.end(_FEEDBACK_END, end + 1)
                feedback, end = text[end + 1: stop], stop
            parts.append((mark, answer, feedback))
            if text[end: end + 1] == "}":
                return parts, end + 1
            if text[end: end + 1] != "~":
                break
            position = end + 1
        self.dead_ends.update(visited)
        return None

    def end(self, pattern: re.Pattern, position: int) -> int:
        """Where the first end mark at or after `position` is, else the end of the text (`$`)."""
        start, end = self.found.get(pattern, (-1, -1))
        if not start <= position <= end:
            found = pattern.search(self.text, position)
            start, end = position, found.start() if found else len(self.text)
            self.found[pattern] = (start, end)
        return end


def _alternative(kind: str, grade: str, raw: str, feedback: str) -> Alternative:
    percent = 100.0 if grade == "=" else float(grade.strip("%").replace(",", ".")) if grade else 0.0
    number = _NUMERICAL.match(raw) if kind == "numerical" else None
    if number:
        tolerance = float(number[2].replace(",", ".")) if number[2] else 0.0
        return Alternative(number[1], percent, _decode(feedback), tolerance)
    return Alternative(_decode(raw), percent, _decode(feedback))


def _decode(value: str) -> str:
    """html_entity_decode() then the two backslash escapes Moodle undoes."""
    return html.unescape(value).replace("\\}", "}").replace("\\#", "#")


def problems(gaps: list[Gap]) -> list[str]:
    """What qtype_multianswer_validate_question() refuses, one message per problem."""
    if not gaps:
        return ["the text holds no sub-question {1:TYPE:...} (questionsmissing)"]
    found = []
    for number, gap in enumerate(gaps, 1):
        answers = [a for a in gap.alternatives if a.text.strip()]
        if gap.kind.startswith("multi") and len(answers) < 2:
            found.append(f"sub-question {number} ({gap.type_name}) has fewer than two answers (notenoughanswers)")
        elif not answers:
            found.append(f"sub-question {number} ({gap.type_name}) has no answer")
        right = (lambda a: a.percent > 0) if gap.kind == "multiresponse" else (lambda a: a.percent == 100)
        if not any(right(a) for a in answers):
            found.append(f"sub-question {number} ({gap.type_name}) has no right answer (fractionsnomax)")
        if gap.kind == "numerical":
            found += [f"sub-question {number}: {a.text!r} is not a number (answermustbenumberorstar)"
                      for a in answers if a.tolerance is None and a.text.strip() != "*"]
    return found
