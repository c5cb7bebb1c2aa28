"""Lint rules: what each rule is, what it reports, and the text it looks at.

A rule is a function over the model (never over source text, so it applies to
whatever reader built the quiz) that yields `Finding`s; `lmsexport.rules.runner` runs
the rules, drops what a quiz or the run switched off, and turns findings into
located Diagnostics. Each rule module ends with a `RULES` table (pandoc's
association lists): code, name, severity, one-line summary, function.
"""

from __future__ import annotations

import bisect
import functools
import operator
import re
from dataclasses import dataclass
from itertools import accumulate, chain, repeat
from typing import Callable, Iterator, NamedTuple, TypeVar

from ..diagnostics import Severity, SourceSpan
from ..ids import letters
from ..model import Choice, FillBlanks, Matching, MultipleChoice, Numeric, Ordering, Question, Quiz, ShortAnswer, Text
from ..text import html_words

ERROR = Severity.ERROR
WARNING = Severity.WARNING
T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Finding:
    """One problem a rule saw, before it is given a place and a severity."""

    message: str
    hint: str = ""
    question: Question | None = None
    """The question it is about; None when it is about the quiz as a whole."""
    span: SourceSpan | None = None
    """Where the part it is about is written (an option's own line), when the reader said;
    else the finding points at its question."""


@dataclass(frozen=True, slots=True)
class Rule:
    """A lint rule: a stable code to switch it off by, and the function that runs it."""

    code: str
    """`L0NN`, never reused for another meaning."""
    name: str
    severity: Severity
    summary: str
    """One line for docs/lint.md and SARIF rule metadata."""
    function: Callable
    batch: bool = False
    """False: `function(quiz) -> findings`; True: `function(quizzes) -> (index, finding)`
    pairs, for rules that compare quizzes with each other."""


class Part(NamedTuple):
    """A piece of text a learner sees, and how a message names it. A named tuple, not a frozen
    dataclass: lint makes one per text (12,000 for 2,000 questions), at a third of the cost."""

    value: str
    format: str
    kind: str
    """`title`, `description`, `question title`, `prompt`, `option` (of a choice question),
    `item` (matching and ordering items, drop-down gap choices), `answer` (an accepted typed
    answer), `feedback`, `explanation`."""
    naming: str
    """How messages name it, `{label}` standing for `label` and `{detail}` for `detail`:
    `option {detail} of {label}` (`name` makes the name, for a finding only: as made for
    each of a bank's 600,000 texts, the names were 45 MB)."""
    question: Question | None
    lang: str | None
    """The language it should be in: its own, else its question's, else the quiz's."""
    span: SourceSpan | None = None
    """Where it is written, if its reader kept that (options, answers, items, gaps; a feedback
    points at the option or answer it belongs to); else messages point at its question."""
    label: str = ""
    """Its question as messages name it (`Quiz.label`), one text that all its parts share."""
    detail: object = None
    """What tells it from its question's other parts of its kind: an option's letter, an item's id."""

    @property
    def name(self) -> str:
        """For messages: `option b of question 4`, `the prompt of text block 1`, `the quiz title`."""
        return self.naming.format(label=self.label, detail=self.detail)


@functools.lru_cache(maxsize=None)
def option_letter(index: int) -> str:
    """Options are named by position, as in the text format's answer key (cached: every option
    of every question asks)."""
    return letters(index)


def choices(question: Question) -> tuple[Choice, ...]:
    return question.choices if isinstance(question, MultipleChoice) else ()


def question_parts(quiz: Quiz, position: int) -> tuple[Part, ...]:
    """The texts of the question at `position` in `quiz.questions` (counting from 1), in reading order."""
    return _parts(quiz)[1][position - 1]


def quiz_parts(quiz: Quiz) -> tuple[Part, ...]:
    """Every text of a quiz a learner may see: title, description, then each question's."""
    return _parts(quiz)[0]


_shared: dict[str, tuple[object, object]] = {}
"""Work several rules share, by name: (the quiz or quizzes it was made from, the work). Every
rule walks a quiz's parts (12,000 Parts for 2,000 questions) and L040 and L061 find the same
repeats, so each is made once, not once a rule; `check()` runs the rules quiz by quiz and
`forget()`s it all at the end. Each entry is replaced whole, so that a thread never gets the
work of another thread's quiz."""


def shared(name: str, source: Quiz | tuple[Quiz, ...], make: Callable[[], T]) -> T:
    """What `make()` made for `source` (compared by identity), made now if it was for another."""
    entry = _shared.get(name)
    if entry is None or not _same(entry[0], source):
        entry = (source, make())
        _shared[name] = entry
    return entry[1]


def _same(a: object, b: object) -> bool:
    if isinstance(a, tuple) and isinstance(b, tuple):
        return len(a) == len(b) and all(map(operator.is_, a, b))
    return a is b


def _parts(quiz: Quiz) -> tuple[tuple[Part, ...], tuple[tuple[Part, ...], ...]]:
    return shared("parts", quiz, lambda: _make_parts(quiz))


def _make_parts(quiz: Quiz) -> tuple[tuple[Part, ...], tuple[tuple[Part, ...], ...]]:
    per_question = tuple(tuple(_question_parts(quiz, question)) for question in quiz.questions)
    head = [Part(quiz.title, "plain", "title", "the quiz title", None, quiz.lang)]
    if quiz.description:
        text = quiz.description
        head.append(Part(text.value, text.format, "description", "the quiz description", None,
                         text.lang or quiz.lang))
    return (*head, *chain.from_iterable(per_question)), per_question


def forget() -> None:
    """Drop the shared work (and with it the last quizzes linted)."""
    _shared.clear()


def _question_parts(quiz: Quiz, question: Question) -> list[Part]:
    """The question's parts, in reading order; options, most parts, are made without a call
    each (100,000 questions have 700,000 parts)."""
    lang, label = question.lang or quiz.lang, quiz.label(question)

    def part(text: Text, kind: str, naming: str, span: SourceSpan | None = None, detail: object = None) -> Part:
        return Part(text.value, text.format, kind, naming, question, text.lang or lang, span, label, detail)

    made = [part(question.prompt, "prompt", "the prompt of {label}")]
    if question.title:
        made.insert(0, Part(question.title, "plain", "question title", "the title of {label}", question, lang, None,
                            label))
    if isinstance(question, MultipleChoice):
        for index, choice in enumerate(question.choices):
            text, letter = choice.text, option_letter(index)
            made.append(Part(text.value, text.format, "option", "option {detail} of {label}", question,
                             text.lang or lang, choice.source, label, letter))
            if choice.feedback:
                made.append(part(choice.feedback, "feedback", "the feedback of option {detail} of {label}",
                                 choice.source, letter))
    else:
        made += _kind_parts(question, label, part, lang)
    for text, naming in ((question.correct_feedback, "the feedback of {label} when right"),
                         (question.incorrect_feedback, "the feedback of {label} when wrong")):
        if text:
            made.append(part(text, "feedback", naming))
    if question.explanation:
        made.append(part(question.explanation, "explanation", "the explanation of {label}"))
    return made


def _kind_parts(question: Question, label: str, part, lang: str | None) -> Iterator[Part]:
    """The texts only some kinds have: items to match or order, gap choices, typed answers."""
    if isinstance(question, Matching):
        for pair in question.pairs:
            yield part(pair.left, "item", "left item {detail} of {label}", pair.source, pair.id)
            yield part(pair.right, "item", "right item {detail} of {label}", pair.source, pair.id)
        for index, text in enumerate(question.distractors, 1):
            yield part(text, "item", "extra right item {detail} of {label}", None, index)
    elif isinstance(question, Ordering):
        for item in question.items:
            yield part(item.text, "item", "item {detail} of {label}", item.source, item.id)
    elif isinstance(question, FillBlanks):
        for gap in question.gaps:
            for choice in gap.choices:
                yield part(choice.text, "item", "choice {detail[0]} of gap {detail[1]} of {label}",
                           choice.source or gap.source, (choice.id, gap.id))
            for answer in gap.answers:
                yield Part(answer.text, "plain", "answer", "an answer of gap {detail} of {label}", question, lang,
                           answer.source or gap.source, label, gap.id)
    elif isinstance(question, (ShortAnswer, Numeric)):
        for index, answer in enumerate(question.answers, 1):
            if isinstance(question, ShortAnswer):
                yield Part(answer.text, "plain", "answer", "answer {detail} of {label}", question, lang, answer.source,
                           label, index)
            if answer.feedback:
                yield part(answer.feedback, "feedback", "the feedback of answer {detail} of {label}", answer.source,
                           index)


_CODE_SPAN = re.compile(r"`[^`\n]+`")
_CODE_TAG = re.compile(r"<(?:code|pre|kbd|samp)", re.IGNORECASE)
"""What an HTML text holding code has (and some without: `<preview>`); without it, its prose
is the very text it shows."""


_VALUE, _FORMAT = operator.itemgetter(0), operator.itemgetter(1)
"""A Part's value and format, got in C (`texts`)."""


def visible(part: Part | Text) -> str:
    """The words a learner sees (text.html_words); a plain text as it is."""
    return html_words(part.value) if part.format == "html" else part.value


def _prose(part: Part, shown: str) -> str:
    """The visible text without code (`code` spans, <code>/<pre>), where `%s` or `{0}` are
    meant, given what `part` shows: that very string when it holds no code."""
    value = part.value
    if part.format == "html":
        return html_words(value, code=False) if _CODE_TAG.search(value) else shown
    return _CODE_SPAN.sub(" ", value) if "`" in value else shown


def texts(quiz: Quiz, kind: str) -> tuple[str, ...]:
    """Per part of `quiz_parts(quiz)`, its `value`, `visible()` or prose text (`_prose`); made
    once a quiz. The very tuple of the visible texts or of the values when every text is that
    text (a quiz without code, plain text), so that nothing is made twice of the same texts."""

    def make() -> tuple[str, ...]:
        parts = quiz_parts(quiz)
        if kind == "value":
            return tuple(map(_VALUE, parts))
        values = texts(quiz, "value")
        if kind == "visible":
            if "html" not in map(_FORMAT, parts):  # looked at in C: most quizzes are plain text
                return values
            made, bases = tuple(map(visible, parts)), (values,)
        else:
            shown = texts(quiz, "visible")
            if shown is values and not any(map(operator.contains, values, repeat("`"))):
                return shown  # plain text without a code span
            made, bases = tuple(map(_prose, parts, shown)), (shown, values)
        return next((base for base in bases if all(map(operator.is_, made, base))), made)

    return shared(f"{kind} texts", quiz, make)


JOINED = 4096
"""Parts that `candidates` joins at a time: one copy of all a quiz's texts, kept for every rule
that asks, was 80 MB at 100,000 Vietnamese questions, and three of them (value, visible, prose)
140 MB of a 200 MB Moodle bank's lint; a chunk is made and let go in a tenth of a millisecond."""


def candidates(quiz: Quiz, hints: tuple[str | re.Pattern, ...], *kinds: str) -> list[int]:
    """The indexes in `quiz_parts(quiz)` of the parts whose text of one of `kinds` holds one of
    `hints` (a string, or a pattern that finds something), in order. A rule's quick look for
    what its patterns all need: one search per hint over the quiz's texts joined by line breaks
    (JOINED at a time), resumed at the next part after each find, instead of one per part
    (12,000 parts for 2,000 questions, most of them without it). A string is searched for as
    such (`str.find`, many times faster than a pattern); a pattern must never match a line break."""
    found: set[int] = set()
    searched: list[tuple[str, ...]] = []
    for kind in kinds:
        pieces = texts(quiz, kind)
        if any(pieces is other for other in searched):
            continue  # the same texts (`texts`): the same finds
        searched.append(pieces)
        for first in range(0, len(pieces), JOINED):
            chunk = pieces[first:first + JOINED]
            joined = "\n".join(chunk)
            starts = list(accumulate(map((1).__add__, map(len, chunk[:-1])), initial=0))
            for hint in hints:
                position = 0
                while (start := _find(joined, hint, position)) >= 0:
                    index = bisect.bisect_right(starts, start) - 1
                    found.add(first + index)
                    position = starts[index + 1] if index + 1 < len(starts) else len(joined)
    return sorted(found)


def _find(text: str, hint: str | re.Pattern, position: int) -> int:
    if isinstance(hint, str):
        return text.find(hint, position)
    match = hint.search(text, position)
    return -1 if match is None else match.start()
