"""Choice questions of the text format: `*` marks, `[x]` checkboxes and the `Answers:` key.

    1. Which?                 Answers: 1b 2ac
       • one                  (letters count options in order; several make
       *• two                  a multiple-response question)

Inline marks and the key may both be given; they must then agree.
"""

from __future__ import annotations

import re

from ...ids import letters
from ...model import Choice, MultipleChoice
from ...text import counted
from .syntax import fold

_KEY_TOKEN = re.compile(r"(?P<number>\d+)[.):-]?(?P<letters>[A-Za-z]+)\Z")
_KEY_SPLIT = re.compile(r"[^\s,;]+")
_MARK_HINT = (
    "mark the correct option with * right before its bullet or label (*• text, *b) text), "
    "or add an answer key after the last question: Answers: {n}a"
)


def apply_key(parser) -> None:
    """Attach the `Answers:` key to the drafts, reporting tokens that name nothing."""
    by_number = {draft.number: draft for draft in parser.drafts if draft.number}
    for line, rest, offset in parser.key_lines:
        for token in _KEY_SPLIT.finditer(rest):
            _apply_token(parser, by_number, line, offset + token.start() + 1, token.group())


def _apply_token(parser, by_number: dict, line: int, column: int, token: str) -> None:
    match = _KEY_TOKEN.match(token)
    if not match:
        parser.error("E304", f"{token!r} is not an answer: write the question number, then the letter of each right option",
                     line, column, "for example Answers: 1a 2b 3ac", len(token))
        return
    draft = by_number.get(int(match["number"]))
    if draft is None:
        parser.error("E302", f"the answer key names question {match['number']}, but the quiz has "
                     f"{counted(len(by_number), 'question')}", line, column,
                     "questions are counted in order from 1; remove or correct this answer", len(token))
        return
    if draft.key is not None:
        parser.error("E305", f"the answer key gives question {draft.number} twice", line, column,
                     "keep one answer per question", len(token))
        return
    chosen: set[int] = set()
    draft.key = (line, chosen)
    if not draft.options:
        return  # not a choice question: reported once, with the question (E307)
    for letter in match["letters"].lower():
        index = ord(letter) - ord("a")
        if index >= len(draft.options):
            parser.error("E303", f"the answer key names option {letter} of question {draft.number}, "
                         f"which has {counted(len(draft.options), 'option')}", line, column,
                         "options are lettered in order from a", len(token))
            continue
        chosen.add(index)


def choice(parser, draft, common: dict, prompt: str, attributes: dict) -> MultipleChoice | None:
    """A single- or multiple-response question, after every check of its marks."""
    if len(draft.options) < 2:
        parser.error("E203", f"{draft.name} has only one option", draft.line,
                     hint="list two options or more under the question, one per line, each starting with • or a)")
        return None
    _check_duplicates(parser, draft)
    boxes = {option.checkbox is not None for option in draft.options}
    if len(boxes) > 1:
        parser.error("E205", f"{draft.name} mixes checkbox options ([x] / [ ]) with plain ones", draft.line,
                     hint="give every option of a multiple-response question a [x] or [ ]")
    for option in draft.options:
        if option.star and option.checkbox is False:
            parser.error("E205", "an option is marked correct with * but unticked with [ ]",
                         option.line, option.column, "use [x] alone for a correct option")
    correct = _correct(parser, draft)
    if parser.problems:
        return None
    choices = tuple(
        Choice(id=letters(i), text=parser.text(option.text), correct=i in correct,
               feedback=parser.text("\n".join(option.feedback).strip())
               if option.feedback and "".join(option.feedback).strip() else None,
               source=parser.span(option.line, option.column))
        for i, option in enumerate(draft.options)
    )
    return MultipleChoice(**common, prompt=parser.text(prompt), choices=choices,
                          multiple_response=True in boxes or len(correct) > 1)


def _correct(parser, draft) -> set[int]:
    marked = {i for i, option in enumerate(draft.options) if option.star or option.checkbox}
    if draft.key is None:
        if not marked:
            parser.error("E201", f"{draft.name} has no correct answer marked", draft.line,
                         hint=_MARK_HINT.format(n=draft.number))
        return marked
    key_line, keyed = draft.key
    if marked and keyed != marked:
        parser.error("E301", f"the answer key says {_letters(keyed)} for {draft.name}, "
                     f"but the options marked in the question are {_letters(marked)}", key_line,
                     hint=f"make them agree, or keep only one of the two ({draft.name} is on line {draft.line})")
    return keyed


def _check_duplicates(parser, draft) -> None:
    seen: dict[str, object] = {}
    for option in draft.options:
        first = seen.setdefault(fold(option.text), option)
        if first is not option:
            parser.error("E204", f"{draft.name} has two identical options: {option.text!r}",
                         option.line, option.column, f"the same option is on line {first.line}; remove one or reword it")


def _letters(indices: set[int]) -> str:
    return "".join(letters(i) for i in sorted(indices)) or "none"
