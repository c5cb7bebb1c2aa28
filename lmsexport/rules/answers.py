"""Answers a learner can guess without knowing the subject.

    L030  the correct options follow a pattern (a b c d a b c d, always b) or sit
          mostly at one position, and the LMS does not shuffle them
    L031  "all of the above", "none of the above", "A and B" with shuffling on
    L032  the correct option is the longest one in most questions

L030 and L032 look at single-answer questions across a quiz and fire only when
the pattern is unlikely to be chance: at most ALPHA, taking each question's
correct option to be any of its options with equal chance (a Poisson binomial
tail for counts, `chance.at_least`; for a repeating pattern, the chance that a
random key repeats its first period). So four questions walking a b c d are not
flagged, eight are. Both take time linear in the questions (100,000 questions:
L032 took 285 s when its tail cost n^2 steps).
"""

from __future__ import annotations

import re
from collections import Counter
from math import prod
from typing import Iterator

from ..model import MultipleChoice, Quiz
from . import WARNING, Finding, Rule, option_letter, question_parts, visible
from .chance import at_least

ALPHA = 0.01
"""How unlikely under chance a pattern must be to be reported."""
MIN_SHARE = 0.5
"""A bias must hold for at least this share of the questions to be worth a warning."""
LONGER_BY = 1.1
"""The correct option counts as the longest when it is 10 % longer than every other."""
SHOWN = 12
"""Correct positions (L030) or question numbers (L032) a message spells out before `…`."""


def _single_answer(quiz: Quiz) -> list[tuple[int, MultipleChoice]]:
    """The single-answer questions, each with its number (`Quiz.number`)."""
    return [
        (quiz.number(question), question)
        for question in quiz.questions
        if isinstance(question, MultipleChoice) and not question.multiple_response
    ]


def _period(positions: list[int], sizes: list[int]) -> int | None:
    """The shortest period the positions repeat with (at most half their number), if a random
    key would rarely do so."""
    period = _shortest_period(positions)
    if not positions or period > len(positions) // 2:
        return None
    chance = prod(1 / size for size in sizes[period:])
    return period if chance <= ALPHA else None


def _shortest_period(values: list[int]) -> int:
    """The least p with values[i] == values[i - p] for every i >= p: the length less its longest
    proper prefix that is also a suffix (Knuth-Morris-Pratt's failure function, linear time)."""
    border = [0] * len(values)
    for i in range(1, len(values)):
        k = border[i - 1]
        while k and values[i] != values[k]:
            k = border[k - 1]
        border[i] = k + (values[i] == values[k])
    return len(values) - (border[-1] if values else 0)


def _sequence(positions: list[int]) -> str:
    shown = " ".join(option_letter(position) for position in positions[:SHOWN])
    return shown + (" …" if len(positions) > SHOWN else "")


def _answer_pattern(quiz: Quiz) -> Iterator[Finding]:
    if quiz.settings.shuffle:
        return  # the LMS moves the options, so their places in the source tell nothing
    questions = [question for _, question in _single_answer(quiz)]
    positions = [next(i for i, c in enumerate(q.choices) if c.correct) for q in questions]
    sizes = [len(q.choices) for q in questions]
    hint = (
        "move the correct options (and the answer key) so that their places look random, "
        "or add shuffle: true to the header to let the LMS shuffle the options"
    )
    period = _period(positions, sizes)
    if period == 1:
        letter = option_letter(positions[0])
        yield Finding(
            f"the correct option is always {letter} ({len(positions)} questions): a learner can guess it", hint
        )
    elif period:
        yield Finding(
            f"the correct options run {_sequence(positions)}, repeating every {period} questions: "
            "a learner can guess them",
            hint,
        )
    elif positions:
        yield from _one_position(positions, sizes, hint)


def _one_position(positions: list[int], sizes: list[int], hint: str) -> Iterator[Finding]:
    counts = Counter(positions)
    position = max(counts, key=lambda p: (counts[p], -p))
    count = counts[position]
    chances = [1 / size if position < size else 0.0 for size in sizes]
    if count >= MIN_SHARE * len(positions) and at_least(chances, count) <= ALPHA:
        letter = option_letter(position)
        yield Finding(
            f"the correct option is {letter} in {count} of {len(positions)} questions: "
            f"a learner who always picks {letter} scores {count / len(positions):.0%}",
            hint,
        )


_ALL_OR_NONE = re.compile(
    r"(?:all|none|both|neither|toutes|tous|aucune|aucun|todas|todos|ninguna|ninguno|ambas|nenhuma|nenhum"
    r"|alle|keine|beide|semua|tidak|kedua|tất|không|cả|gbogbo|kò|ko)\b.*"
    r"\b(?:above|ci-dessus|précédentes|anteriores|arriba|acima|oben|obigen|genannten|di atas|trên|loke|lókè)"
)
_LETTER = re.compile(r"[a-h]\Z")
_CONNECTORS = {
    "and", "or", "&", "both", "only", "dan", "atau", "keduanya", "hanya", "và", "hoặc", "cả", "hai", "chỉ",
    "ati", "tabi", "et", "ou", "y", "o", "e", "und", "oder", "nur",
}


def _position_words(text: str) -> str | None:
    """What makes an option depend on where the others are, if anything."""
    words = re.sub(r"[^\w&\s-]", " ", text.casefold()).split()
    if not words or len(words) > 8:
        return None
    if _ALL_OR_NONE.fullmatch(" ".join(words)):
        return "refers to the other options' places, but shuffle: true lets the LMS move them"
    if sum(bool(_LETTER.match(w)) for w in words) >= 2 and all(_LETTER.match(w) or w in _CONNECTORS for w in words):
        return "names other options by letter, but shuffle: true gives them other letters"
    return None


def _shuffled_position_words(quiz: Quiz) -> Iterator[Finding]:
    if not quiz.settings.shuffle:
        return
    for position, question in enumerate(quiz.questions, 1):
        for part in question_parts(quiz, position):
            problem = _position_words(visible(part)) if part.kind == "option" else None
            if problem:
                yield Finding(
                    f"{part.name} ({part.value!r}) {problem}",
                    "name the options by what they say (for example 'All of these'), or set shuffle: false",
                    question, part.span,
                )


def _longest_is_correct(question: MultipleChoice) -> bool:
    lengths = sorted(((len(visible(c.text).strip()), c.correct) for c in question.choices), reverse=True)
    (longest, correct), (runner_up, _) = lengths[:2]
    return correct and longest > runner_up and longest >= LONGER_BY * runner_up


def _longest_correct(quiz: Quiz) -> Iterator[Finding]:
    questions = _single_answer(quiz)
    longest = [number for number, question in questions if _longest_is_correct(question)]
    chances = [1 / len(question.choices) for _, question in questions]
    if questions and len(longest) >= MIN_SHARE * len(questions) and at_least(chances, len(longest)) <= ALPHA:
        shown = ", ".join(map(str, longest[:SHOWN])) + (", …" if len(longest) > SHOWN else "")
        yield Finding(
            f"the correct option is the longest in {len(longest)} of {len(questions)} questions "
            f"({shown}): a learner who picks the longest option scores "
            f"{len(longest) / len(questions):.0%}",
            "make the wrong options as long and as specific as the right one, or the right one shorter",
        )


RULES = (
    Rule("L030", "answer-pattern", WARNING,
         "The correct options follow a pattern or sit mostly at one position, unshuffled.", _answer_pattern),
    Rule("L031", "position-words-shuffled", WARNING,
         "An option such as 'All of the above' or 'A and B' is shuffled away from what it refers to.",
         _shuffled_position_words),
    Rule("L032", "longest-correct", WARNING,
         "The correct option is the longest one in most questions.", _longest_correct),
)
