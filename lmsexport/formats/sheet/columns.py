"""The sheet format's vocabulary: the column names of the header row and the question types.

A teacher types these, so they are forgiving where that is safe: any letter case, spaces,
`_` and `-` alike (`Correct Feedback`, `correct_feedback`), and a few common synonyms
(`answer` for `correct`, `score` for `points`). They are strict where guessing would be
wrong: a name that is none of these is an error with the closest known one suggested,
because a misspelt `corect` column quietly ignored would ship a quiz without its key. A
column for the teacher's own notes starts with `#` and is never read.
"""

from __future__ import annotations

import difflib
import re

COLUMNS: dict[str, tuple[str, ...]] = {
    "type": ("kind", "question type"),
    "question": ("prompt", "question text", "stem"),
    "correct": ("answer", "answers", "correct answer", "correct answers", "key", "right answer"),
    "tolerance": ("margin",),
    "unit": ("units",),
    "points": ("score", "marks", "mark"),
    "title": ("name",),
    "tags": ("tag",),
    "lang": ("language",),
    "explanation": ("feedback", "general feedback"),
    "correct feedback": ("feedback if correct", "feedback if right", "right feedback"),
    "incorrect feedback": ("feedback if incorrect", "feedback if wrong", "wrong feedback"),
    "case": ("case sensitive", "match case"),
    "lines": ("answer lines",),
}
"""Each column's name, as the docs spell it, and the other names it may go by. Besides
these: an option column per letter (`a`, `b`, ... `z`, also `option a`) and a feedback
column per option (`feedback a`)."""

OPTION_LETTERS = "abcdefghijklmnopqrstuvwxyz"

_SEPARATORS = re.compile(r"[\s_\-]+")
_OPTION = re.compile(r"(?:option |choice )?(?P<letter>[a-z])\)?\Z")
_OPTION_FEEDBACK = re.compile(r"feedback (?P<letter>[a-z])\Z|(?P<after>[a-z]) feedback\Z")
_NAMES = {alias: name for name, aliases in COLUMNS.items() for alias in (name, *aliases)}

TYPES: dict[str, tuple[str, ...]] = {
    "multiple_choice": ("multiple choice", "mc", "mcq", "choice", "single choice", "single"),
    "multiple_response": ("multiple response", "mr", "multiple answer", "multiple answers", "multi",
                          "checkbox", "checkboxes", "select all"),
    "true_false": ("true false", "true or false", "tf"),
    "short_answer": ("short answer", "short", "sa"),
    "numeric": ("number", "numerical", "num"),
    "essay": ("long answer", "open", "free text"),
    "matching": ("match",),
    "ordering": ("order", "sequence", "sort"),
    "fill_blanks": ("fill in the blanks", "fill in the blank", "fill blanks", "blanks", "gaps", "cloze",
                    "missing word"),
    "description": ("text", "text block", "info", "instructions"),
}
"""Each question type's name in the `type` column, and the other names it may go by."""

_TYPE_NAMES = {_SEPARATORS.sub(" ", alias): name for name, aliases in TYPES.items() for alias in (name, *aliases)}


def fold(name: str) -> str:
    """A name as compared: lower case, runs of spaces, `_` and `-` as one space, no trailing `:`."""
    return _SEPARATORS.sub(" ", name.strip().rstrip(":").strip().casefold()).strip()


def is_note(name: str) -> bool:
    """A column (or a settings row) the teacher keeps for themselves: its name starts with `#`."""
    return name.lstrip().startswith("#")


def column(name: str) -> str | None:
    """The column a header cell names (`question`, `option a`, `feedback a`), or None."""
    folded = fold(name)
    if folded in _NAMES:
        return _NAMES[folded]
    option = _OPTION.match(folded)
    if option:
        return f"option {option['letter']}"
    feedback = _OPTION_FEEDBACK.match(folded)
    if feedback:
        return f"feedback {feedback['letter'] or feedback['after']}"
    return None


def suggest_column(name: str) -> str:
    """A hint for a header cell that names no column."""
    close = difflib.get_close_matches(fold(name), list(_NAMES), n=1, cutoff=0.6)
    known = ", ".join(["type", "question", "a, b, c, ...", *[n for n in COLUMNS if n not in ("type", "question")]])
    guess = f"did you mean {_NAMES[close[0]]}? " if close else ""
    return f"{guess}the columns are {known}; start a column's name with # to keep it for your notes"


def question_type(value: str) -> str | None:
    """The question type a `type` cell names (`MC`, `true/false`, `Fill in the blanks`), or None."""
    return _TYPE_NAMES.get(_SEPARATORS.sub(" ", fold(value).replace("/", " ")).strip())


def suggest_type(value: str) -> str:
    close = difflib.get_close_matches(fold(value), list(_TYPE_NAMES), n=1, cutoff=0.6)
    guess = f"did you mean {_TYPE_NAMES[close[0]]}? " if close else ""
    return f"{guess}the types are {', '.join(TYPES)}; or leave type empty to let the other cells decide"
