"""Repeats: the same question twice, in one quiz or anywhere in the batch linted.

    L040  a question repeats an earlier one: the same prompt (or nearly) with the
          same correct answer (or nearly)
    L061  the same, in one quiz, where a pool holds one of the two: an attempt may
          draw both (two pools, one pool, or a pool and a fixed question). Variants of
          a question in one pool that draws one are what pools are for: neither rule.

Texts are compared as words after normalisation (NFKC, case folded, punctuation
dropped; accents kept, since in Yoruba or Vietnamese they change the word).
"Nearly" means a word-set Jaccard similarity of at least SIMILAR, for texts of
MIN_WORDS or more, with the same numbers: "What is 2 + 2?" and "What is 2 + 3?"
are different questions. The correct answers must match too, so a generic prompt
("Which statement is true?") asked about different things is no repeat, nor is
"Which is NOT ..." next to "Which is ...".

Candidates come from prefix filtering (Bayardo et al., "Scaling up all pairs
similarity search", 2007): two sets with Jaccard >= t share a word among the
rarest |x| - ceil(t|x|) + 1 of each, so the batch is not compared pair by pair.
The index is keyed by what a repeat must have equal anyway (its numbers, its count
of correct answers, a single short answer), a question equal to an earlier one in
every word is found by a dictionary, and a question is compared with at most
`CANDIDATES` earlier ones per shared word, so the rule takes linear time even on
thousands of look-alike questions (a repeat hidden behind as many look-alikes as
that, sharing its rarest words, can go unreported).
"""

from __future__ import annotations

import itertools
import math
import re
import sys
import unicodedata
from collections import Counter, defaultdict
from typing import Iterator, NamedTuple, Sequence

from ..model import MultipleChoice, Question, Quiz
from . import WARNING, Finding, Rule, shared, visible

SIMILAR = 0.8
MIN_WORDS = 4
CANDIDATES = 32
"""Earlier questions a question is compared with per word of its prefix, the latest first."""


class _Blanked(dict):
    """A `str.translate` table: punctuation and symbols become a space, other characters
    stay. Filled as characters are met, so a text is translated in C, not walked in Python."""

    def __missing__(self, code: int) -> int:
        self[code] = 32 if unicodedata.category(chr(code))[0] in "PS" else code
        return self[code]


_BLANKS = _Blanked()
_ASCII_MARKS = re.compile(r"[!-/:-@\[-`{-~]+")
"""ASCII's punctuation and symbols (all of them P or S): replaced by a space without a call
back to Python, which leaves most texts with letters, digits and spaces only."""
_MARKS = re.compile(r"(?:[^\w\s]|_)+")
"""Where other punctuation and symbols can be (no letter, digit or space is either): translating
only these runs takes half the time of translating a whole text that is not ASCII."""


def _words(text: str) -> tuple[str, ...]:
    """A text as normalised words: NFKC, case folded, punctuation and symbols a space."""
    spaced = _ASCII_MARKS.sub(" ", unicodedata.normalize("NFKC", text).casefold())
    if not spaced.replace(" ", "").isalnum():  # something is left besides letters, digits and spaces
        spaced = _MARKS.sub(lambda marks: marks.group().translate(_BLANKS), spaced)
    # Interned: a bank says its words over and over, and every question's are kept till the end.
    return tuple(map(sys.intern, spaced.split()))


class _Words(NamedTuple):
    """A text as normalised words, with what the comparison needs precomputed."""

    words: tuple[str, ...]
    distinct: tuple[str, ...]
    """Its words, each once (the very `words` when none repeats): a set of them is made only to
    compare two texts, since a frozenset kept for each of a bank's 90,000 prompts was 18 MB."""
    numbers: tuple[str, ...]
    """Its numbers, each once, sorted (a tuple: a one-number frozenset is 216 bytes, this 48)."""

    @classmethod
    def of(cls, words: tuple[str, ...]) -> _Words:
        # Most texts are letters only, and have none.
        numbers = () if "".join(words).isalpha() else tuple(
            sorted({w for w in words if not w.isalpha() and any(map(str.isdigit, w))}))  # a word: no digit
        distinct = tuple(dict.fromkeys(words))
        return cls(words, words if len(distinct) == len(words) else distinct, numbers)


class _Entry(NamedTuple):
    quiz: int
    question: Question
    prompt: _Words
    answers: tuple[tuple[str, ...], ...] | None
    """The words of its correct answers: compared (`_same_answers`) only once prompts are. None
    when no other question has its prompt's numbers and as many correct answers (`_key`): it
    repeats nothing and nothing repeats it, so they are not made (numbered prompts)."""


def _entries(quizzes: Sequence[Quiz]) -> list[_Entry]:
    drafts = []
    for index, quiz in enumerate(quizzes):
        for question in quiz.questions:
            prompt = _words(visible(question.prompt))
            if prompt:
                correct = question.correct_choices if isinstance(question, MultipleChoice) else ()
                drafts.append((index, question, _Words.of(prompt), correct))
    alike = Counter((prompt.numbers, len(correct)) for _, _, prompt, correct in drafts)
    return [
        _Entry(index, question, prompt, tuple(_words(visible(choice.text)) for choice in correct)
               if alike[prompt.numbers, len(correct)] > 1 else None)
        for index, question, prompt, correct in drafts
    ]


def _similar(a: _Words, b: _Words) -> bool:
    if a.words == b.words:
        return True
    if a.numbers != b.numbers or min(len(a.words), len(b.words)) < MIN_WORDS:
        return False
    union = len(set(a.distinct).union(b.distinct))
    return len(a.distinct) + len(b.distinct) - union >= SIMILAR * union  # the intersection's size


def _same_answers(a: tuple[tuple[str, ...], ...], b: tuple[tuple[str, ...], ...]) -> bool:
    if len(a) != len(b):
        return False
    b_words = [_Words.of(words) for words in b]
    return all(any(_similar(x, y) for y in b_words) for x in map(_Words.of, a))


def _key(entry: _Entry) -> tuple | None:
    """What a repeat of `entry` has equal to it: the numbers of its prompt (`_similar`), its count
    of correct answers, and a lone answer of fewer than MIN_WORDS words, which only an equal one
    is similar to. "... (1)?" and "... (2)?" never meet, nor do generic prompts ("Which is
    true?") with different short answers. None for an entry that no other has the first two of."""
    if entry.answers is None:
        return None
    (answer, *more) = entry.answers or (None,)
    short = answer if answer is not None and not more and len(answer) < MIN_WORDS else None
    return entry.prompt.numbers, len(entry.answers), short


def _candidates(entries: list[_Entry], same: dict[int, int]) -> Iterator[tuple[int, int]]:
    """Pairs (earlier, later) of entries whose prompts may be similar; `same` gets the entries
    equal in every word to an earlier one (later -> the first such), which are not indexed: they
    meet what their first meets. An entry whose key (`_key`) no other has repeats nothing and
    is repeated by nothing: it is left out (most of a bank whose prompts are numbered, or whose
    answers are short)."""
    frequency = Counter(itertools.chain.from_iterable(entry.prompt.distinct for entry in entries))
    keys = list(map(_key, entries))
    shared = {key for key, count in Counter(keys).items() if count > 1 and key is not None}
    index: dict[tuple, list[int]] = defaultdict(list)
    exact: dict[tuple, int] = {}
    for later, (entry, key) in enumerate(zip(entries, keys)):
        if key not in shared:
            continue
        first = exact.setdefault((entry.prompt.words, entry.answers), later)
        if first != later:
            same[later] = first
            continue
        words = sorted(sorted(entry.prompt.distinct), key=frequency.__getitem__)  # rarest first, ties by word
        seen = set()
        for word in words[: len(words) - math.ceil(SIMILAR * len(words)) + 1]:
            posting = index[key, word]
            for earlier in reversed(posting[-CANDIDATES:]):
                if earlier not in seen:
                    seen.add(earlier)
                    yield earlier, later
            posting.append(later)


def _label(quizzes: Sequence[Quiz], entry: _Entry) -> str:
    """How messages name the question (`Quiz.label`): made for the repeats only."""
    return quizzes[entry.quiz].label(entry.question)


def _where(quizzes: Sequence[Quiz], entry: _Entry, later: _Entry) -> str:
    if entry.quiz == later.quiz:
        return _label(quizzes, entry)
    place = f" ({entry.question.source})" if entry.question.source else ""
    return f"{_label(quizzes, entry)} of quiz {quizzes[entry.quiz].id}{place}"


def _repeated_questions(quizzes: Sequence[Quiz]) -> Iterator[tuple[int, Finding]]:
    for index, finding, pooled in _repeats(quizzes):
        if pooled == "":
            yield index, finding


def _repeated_in_pools(quizzes: Sequence[Quiz]) -> Iterator[tuple[int, Finding]]:
    for index, finding, pooled in _repeats(quizzes):
        if pooled:
            yield index, Finding(f"{finding.message}, and one attempt may draw both: {pooled}",
                                 "remove one of them, or keep both in one pool that draws one question",
                                 finding.question)


def _pooled(quiz: Quiz, a: Question, b: Question) -> str | None:
    """Which pools hold two questions of one quiz (`pool 1 (Warm-up) holds them`), when one of
    them does; '' when none does; None when one pool holds both and draws one of its questions
    (no attempt shows both)."""
    pools = [quiz.pool_of(a), quiz.pool_of(b)]
    if not any(pools):
        return ""
    if pools[0] is pools[1] and pools[0].draw == 1:
        return None
    if pools[0] is pools[1]:
        return f"{quiz.label(pools[0])} holds them"
    if None in pools:
        return f"one is fixed, {quiz.label(pools[0] or pools[1])} holds the other"
    return f"{quiz.label(pools[0])} holds one, {quiz.label(pools[1])} the other"


def _repeats(quizzes: Sequence[Quiz]) -> list[tuple[int, Finding, str]]:
    """Every repeat, found once for both rules."""
    return shared("repeats", tuple(quizzes), lambda: list(_find_repeats(quizzes)))


def _find_repeats(quizzes: Sequence[Quiz]) -> Iterator[tuple[int, Finding, str]]:
    entries = _entries(quizzes)
    first: dict[int, int] = {}
    same: dict[int, int] = {}
    for earlier, later in _candidates(entries, same):
        a, b = entries[earlier], entries[later]
        if later in first and first[later] < earlier:
            continue
        if _similar(a.prompt, b.prompt) and _same_answers(a.answers, b.answers):
            first[later] = earlier
    for later, equal in same.items():  # the first that `equal` repeats, if any, came before it
        first[later] = first.get(equal, equal)
    for later, earlier in sorted(first.items()):
        a, b = entries[earlier], entries[later]
        same = a.prompt.words == b.prompt.words and a.answers == b.answers
        how = "repeats" if same else "nearly repeats"
        pooled = _pooled(quizzes[a.quiz], a.question, b.question) if a.quiz == b.quiz else ""
        yield b.quiz, Finding(
            f"{_label(quizzes, b)} {how} {_where(quizzes, a, b)}",
            "remove one of them, or ask something else; a learner gets the same question twice",
            b.question,
        ), pooled


RULES = (
    Rule("L040", "repeated-question", WARNING,
         "A question repeats an earlier one, in the same quiz or elsewhere in the batch.",
         _repeated_questions, batch=True),
    Rule("L061", "repeated-in-pools", WARNING,
         "A question repeats another of its quiz where a pool holds one of them, so an attempt may draw both.",
         _repeated_in_pools, batch=True),
)
