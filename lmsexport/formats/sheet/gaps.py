"""Gaps in a question cell: the fill-in-the-blanks syntax of GIFT and of lmsexport's text format.

    Paris is the capital of {=France}.              a typed gap
    Water boils at {=100 =50% 99} °C.               several accepted answers, partial credit
    The sky is {=blue ~green ~red}.                 a drop-down: one = right, ~ wrong ones

Written here rather than borrowed: a format never imports another's modules (DESIGN.md), and
the syntax is small. Only `{=` and `{~` open a gap, so `{1, 2}` in a question stays text.
"""

from __future__ import annotations

import re

from ...ids import letters
from ...model import Answer, Choice, Gap, ModelError, Text

GAP = re.compile(r"\{(?P<body>[=~][^{}]*)\}")
_TOKEN = re.compile(r"(?P<sign>[=~])(?P<text>[^=~]*)")
_CREDIT = re.compile(r"(?P<credit>-?\d+(?:\.\d+)?)%\s*(?P<text>\S.*)\Z", re.S)


def has_gaps(text: str) -> bool:
    return bool(GAP.search(text))


def split(text: str) -> tuple[list[str | Gap], str]:
    """The question's segments (text pieces and gaps, in reading order) and its text with
    each gap shown as `___`; raises ValueError (with the hint) for a gap that is not right."""
    segments: list[str | Gap] = []
    shown, end = [], 0
    for number, match in enumerate(GAP.finditer(text), start=1):
        segments.append(text[end:match.start()])
        shown.append(text[end:match.start()])
        segments.append(_gap(f"g{number}", match["body"]))
        shown.append("___")
        end = match.end()
    segments.append(text[end:])
    shown.append(text[end:])
    return [segment for segment in segments if segment != ""], "".join(shown)


def _gap(gap_id: str, body: str) -> Gap:
    tokens = [(match["sign"], match["text"].strip()) for match in _TOKEN.finditer(body)]
    if any(not text for _, text in tokens):
        raise ValueError(f"the gap {{{body}}} has an empty answer; write {{=right}} or {{=right ~wrong ~wrong}}")
    right = [text for sign, text in tokens if sign == "="]
    wrong = [text for sign, text in tokens if sign == "~"]
    if not wrong:
        try:
            return Gap(id=gap_id, answers=tuple(_answer(text) for text in right))
        except ModelError:
            raise ValueError(f"no answer of the gap {{{body}}} gives full credit (credits run from -100% to 100%); "
                             "write one without a %") from None
    if len(right) != 1:
        raise ValueError(f"the gap {{{body}}} lists choices with {len(right)} right ones; a drop-down gap has "
                         "exactly one: {=Paris ~Rome ~Oslo}")
    choices = [Choice(id=letters(0), text=Text(right[0]), correct=True)]
    choices += [Choice(id=letters(i + 1), text=Text(text)) for i, text in enumerate(wrong)]
    return Gap(id=gap_id, choices=tuple(choices))


def _answer(text: str) -> Answer:
    credit = _CREDIT.match(text)
    return Answer(text=credit["text"], credit=float(credit["credit"])) if credit else Answer(text=text)
