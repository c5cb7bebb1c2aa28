"""The quiz model's whole: the quiz, its questions in order, and the pools drawn from per attempt.

A pool names a run of the quiz's questions (`Quiz.pools`), so `Quiz.questions` stays every
question and `Quiz.items` is what one attempt is made of: fixed questions and pools, in order.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from ..diagnostics import SourceSpan
from ..ids import ID_LIMIT
from .base import Asset, ModelError, Question, Settings, Text, _check, is_identifier, is_language_tag


@dataclass(frozen=True, slots=True, kw_only=True)
class Pool:
    """Questions of which `draw` are picked for each attempt (a Canvas question group, a QTI
    section with selection, a Moodle category drawn from by random questions).

    A pool names its questions by id: they stay in `Quiz.questions`, one after another where
    the pool stands, so code that reads every question (lint, the answer key, a writer of a
    bank) keeps working, and only delivery (which questions one attempt shows) differs."""

    id: str
    """Unique among the quiz's pools and questions (it names a QTI section, a Moodle category)."""
    title: str | None = None
    draw: int
    """How many of its questions one attempt shows: 1 to all of them."""
    points: float | None = None
    """Points of each drawn question; every question of the pool is then worth exactly that.
    None: each keeps its own points (a format that needs one value, Canvas, warns)."""
    shuffle: bool = True
    """Show the drawn questions in a random order (False: in the pool's order)."""
    questions: tuple[str, ...]
    """Ids of its questions, in the order they stand in `Quiz.questions`."""
    source: SourceSpan | None = field(default=None, compare=False)
    """Where the pool starts in its source, for messages; not part of its meaning."""

    def __post_init__(self) -> None:
        _check(is_identifier(self.id), f"bad pool id {self.id!r}")
        _check(len(self.questions) >= 1, f"pool {self.id}: a pool needs one question or more")
        _check(len(set(self.questions)) == len(self.questions), f"pool {self.id}: a question is in it twice")
        _check(1 <= self.draw <= len(self.questions),
               f"pool {self.id}: it draws {self.draw} of {len(self.questions)} questions (1 to all of them)")
        _check(self.points is None or (math.isfinite(self.points) and self.points >= 0), f"pool {self.id}: bad points")


@dataclass(frozen=True, slots=True, kw_only=True)
class Quiz:
    """A titled, ordered set of questions in one main language."""

    id: str
    """Names the outputs (`<id>.qti.zip`) and prefixes identifiers across packages; `ids.ID_LIMIT`
    characters at most."""
    title: str
    lang: str | None = None
    """BCP 47 tag of the quiz's main language (`yo`, `id`, `vi`, `ar`, `pt-BR`)."""
    description: Text | None = None
    settings: Settings = field(default_factory=Settings)
    tags: tuple[str, ...] = ()
    lint_ignore: tuple[str, ...] = ()
    """Lint rule codes switched off for this quiz (`lint: -L012` in a text header)."""
    questions: tuple[Question, ...]
    """Every question, pooled or not, in delivery order (a pool's questions where the pool stands)."""
    pools: tuple[Pool, ...] = ()
    """Groups of `questions` drawn from per attempt; a question is in one pool at most."""
    assets: tuple[Asset, ...] = ()
    """Files the quiz's HTML text refers to by path, each once, in the order the source mentions them."""
    _numbers: dict[str, int] | None = field(default=None, init=False, repr=False, compare=False)
    """Question id -> `number()`, made on first use (the quiz is frozen, so it never changes)."""
    _starts: dict[str, int] | None = field(default=None, init=False, repr=False, compare=False)
    """Pool id -> the index of its first question in `questions`, made on first use."""

    def __post_init__(self) -> None:
        _check(is_identifier(self.id) and len(self.id) <= ID_LIMIT, f"bad quiz id {self.id!r}")
        _check(bool(self.title.strip()), "a quiz needs a title")
        _check(self.lang is None or is_language_tag(self.lang), "bad quiz language tag")
        ids = [question.id for question in self.questions]
        _check(len(set(ids)) == len(ids), "question ids repeat")
        paths = [asset.path for asset in self.assets]
        _check(len(set(paths)) == len(paths), "asset paths repeat")
        if self.pools:
            _check_pools(self.questions, self.pools)

    @property
    def items(self) -> tuple[Question | Pool, ...]:
        """What one attempt is made of, in order: a fixed question, or a pool to draw from
        (its questions are `members(pool)`). Without pools, just the questions."""
        if not self.pools:
            return self.questions
        pooled = {qid: pool for pool in self.pools for qid in pool.questions}
        items: list[Question | Pool] = []
        for question in self.questions:
            pool = pooled.get(question.id)
            if pool is None:
                items.append(question)
            elif pool.questions[0] == question.id:
                items.append(pool)
        return tuple(items)

    def members(self, pool: Pool) -> tuple[Question, ...]:
        """The questions of one of this quiz's pools, in order: the run of `questions` it names
        (found for every pool in one pass, as a large quiz's questions may be packed)."""
        if self._starts is None:
            firsts = {each.questions[0]: each.id for each in self.pools}
            starts = {firsts[question.id]: index for index, question in enumerate(self.questions)
                      if question.id in firsts}
            object.__setattr__(self, "_starts", starts)
        start = self._starts[pool.id]
        return self.questions[start:start + len(pool.questions)]

    def pool_of(self, question: Question) -> Pool | None:
        return next((pool for pool in self.pools if question.id in pool.questions), None)

    @property
    def total_points(self) -> float:
        """The points one attempt can earn: every fixed question's, and `draw` questions'
        of each pool (at the mean of its questions' points when they differ)."""
        total = 0.0
        for item in self.items:
            if isinstance(item, Pool):
                members = self.members(item)
                total += item.draw * sum(question.points for question in members) / len(members)
            else:
                total += item.points
        return total

    def where(self, question: Question | Pool | None = None, part: object | None = None) -> SourceSpan:
        """Where a message about `question`, or about the quiz as a whole, points: the
        position of `part` (an option, answer, pair, item, gap or asset that carries one),
        else the question's, else the file the quiz's questions were read from (the model
        keeps no position of the quiz itself), else the quiz id."""
        if getattr(part, "source", None) is not None:
            return part.source
        if question is not None and question.source is not None:
            return question.source
        return next((SourceSpan(q.source.file) for q in self.questions if q.source is not None), SourceSpan(self.id))

    def number(self, item: Question | Pool) -> int:
        """The position of a question as its author counts it, from 1: among the quiz's questions
        (pooled ones included), or, for a text block, among its text blocks; of a pool, among the
        pools. The text format's reader counts so (`1.` ... and `Text:` blocks apart), as does
        the answer key."""
        if isinstance(item, Pool):
            return next(n for n, pool in enumerate(self.pools, 1) if pool.id == item.id)
        if self._numbers is None:
            numbering, numbers = Numbering(), {}
            for question in self.questions:
                numbering.next(question.kind == "description")
                numbers[question.id] = numbering.counts[_noun(question)]
            object.__setattr__(self, "_numbers", numbers)
        return self._numbers[item.id]

    def label(self, item: Question | Pool) -> str:
        """How every message names a question, `question 3` or `text block 1` (`number()`), or a
        pool, `pool 2 (Warm-up)` (its title, if it has one, after its number). The text reader,
        lint and every writer say it so, whatever ids they have."""
        if isinstance(item, Pool):
            return f"pool {self.number(item)}" + (f" ({item.title})" if item.title else "")
        return f"{_noun(item)} {self.number(item)}"

    def scoring_of(self, question: Question) -> str:
        """The policy `question` is scored by: its own, else the quiz's (the one place that decides)."""
        return question.scoring or self.settings.scoring


class Numbering:
    """Numbers questions as their author counts them, in the order a reader meets them: `question 1`,
    `question 2`, ... and, apart, `text block 1`, ... (`Quiz.number` counts so, and a reader of
    another LMS's file names what it reads so before its quiz exists)."""

    def __init__(self) -> None:
        self.counts = {"question": 0, "text block": 0}

    def next(self, text_block: bool) -> str:
        """The label of the next question, or text block."""
        noun = "text block" if text_block else "question"
        self.counts[noun] += 1
        return f"{noun} {self.counts[noun]}"


def _noun(question: Question) -> str:
    return "text block" if question.kind == "description" else "question"


def _check_pools(questions: tuple[Question, ...], pools: tuple[Pool, ...]) -> None:
    """A pool's questions exist, stand together and in its order, are in no other pool,
    are worth the pool's points when it sets them, and are questions (not text blocks)."""
    by_id = {question.id: (index, question) for index, question in enumerate(questions)}
    names = [pool.id for pool in pools]
    _check(len(set(names)) == len(names), "pool ids repeat")
    _check(not set(names) & set(by_id), "a pool id is also a question id")
    seen: set[str] = set()
    for pool in pools:
        missing = [qid for qid in pool.questions if qid not in by_id]
        _check(not missing, f"pool {pool.id}: no question {', '.join(missing)} in the quiz")
        _check(not seen & set(pool.questions),
               f"pool {pool.id}: a question of it is in another pool (pools do not nest)")
        seen.update(pool.questions)
        places = [by_id[qid][0] for qid in pool.questions]
        _check(places == list(range(places[0], places[0] + len(places))),
               f"pool {pool.id}: its questions must stand together, in its order, in the quiz's questions")
        for qid in pool.questions:
            question = by_id[qid][1]
            _check(question.kind != "description", f"pool {pool.id}: {qid} is a text block, not a question")
            if pool.points is not None and question.points != pool.points:
                raise ModelError(f"pool {pool.id}: {qid} is worth {question.points:g} points, the pool {pool.points:g}")
