"""Pools in the lmsexport text format (docs/format.md#pools): questions drawn from per attempt.

    Pool: Warm-up                a pool starts; the rest of the line is its title
    @draw: 2                     how many of its questions one attempt shows (required)
    @points: 2                   points of each of its questions (optional)
    @shuffle: no                 show the drawn ones in the pool's order (default: shuffled)
    @id: warm-up                 its id (default pool1, pool2, ... by position)

    1. a question ...            its questions, written as anywhere else
    2. ...
    End pool                     the pool ends

The syntax borrows text2qti's `GROUP` / `pick:` / `points per question:` / `END_GROUP`, in the
`@name: value` form the text format's questions already use. Pools do not nest and hold
questions only (no `Text:` blocks). The parser calls these functions as it meets pool lines;
`build_pools` turns what they collected into model pools once the questions are built.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field

from ...diagnostics import SourceSpan
from ...model import Pool, Question
from ...settings import KEYS as HEADER_KEYS
from ...text import counted

POOL_ATTRIBUTES = ("draw", "points", "shuffle", "id")
"""The `@name: value` lines between `Pool:` and a pool's first question."""

_SYNONYMS = {"pick": "draw", "select": "draw", "choose": "draw"}
"""What other formats call `@draw` (text2qti's `pick:`, QTI's `select`), for the hint."""


@dataclass
class PoolDraft:
    """What the parser collected for one pool."""

    number: int
    line: int
    title: str
    start: int
    """Index in the parser's drafts of the pool's first question."""
    end: int | None = None
    """Index past its last question; None while the pool is open."""
    attributes: dict[str, tuple[int, int, str]] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return f"pool {self.number}" + (f" ({self.title})" if self.title else "")


def open_pool(parser) -> PoolDraft | None:
    """The pool still open (no `End pool` yet), if any."""
    return parser.pools[-1] if parser.pools and parser.pools[-1].end is None else None


def in_pool_head(parser) -> bool:
    """True between a `Pool:` line and the pool's first question (where its attributes go)."""
    pool = open_pool(parser)
    return pool is not None and pool.start == len(parser.drafts)


def start_pool(parser, number: int, match) -> None:
    """A `Pool:` line; one inside an open pool is an error (and ends the open one)."""
    pool = open_pool(parser)
    if pool is not None:
        parser.error("E241", f"pools do not nest: {pool.name}, started on line {pool.line}, has no End pool line "
                     "before this one", number, hint="end each pool with an End pool line before the next Pool: line")
        close_pool(parser, number)
    parser.pools.append(PoolDraft(number=len(parser.pools) + 1, line=number, title=match["rest"].strip(),
                                  start=len(parser.drafts)))


def close_pool(parser, number: int) -> None:
    """An `End pool` line: the open pool ends; one without a pool, or a pool without questions, is an error."""
    pool = open_pool(parser)
    if pool is None:
        parser.error("E242", "End pool, but no pool is open", number,
                     hint="start the pool with a Pool: line above its questions, or delete this line")
        return
    pool.end = len(parser.drafts)
    if pool.end == pool.start:
        parser.error("E243", f"{pool.name} has no questions", pool.line,
                     hint="put its questions between the Pool: line and End pool, or delete the pool")


def head_line(parser, number: int, line: str, kind: str, match) -> str:
    """A line between `Pool:` and the pool's first question: an attribute, or an error."""
    pool = open_pool(parser)
    if kind == "attribute":
        key = match["key"].lower()
        if key in pool.attributes:
            parser.error("E247", f"@{key} is given twice for {pool.name}", number, hint="keep one")
        pool.attributes[key] = (number, match.start("rest") + 1, match["rest"])
    elif kind != "blank":
        parser.error("E245", f"{pool.name} holds only its @draw, @points, @shuffle and @id lines before its "
                     "first question", number, len(line) - len(line.lstrip()) + 1,
                     "start its first question with its number (1. ...); a pool has no text of its own")
    return "blank"


def finish(parser) -> None:
    """At the end of the file, a pool still open is an error."""
    pool = open_pool(parser)
    if pool is not None:
        parser.error("E246", f"{pool.name} has no End pool line", pool.line,
                     hint="add a line End pool after its last question")
        pool.end = len(parser.drafts)


def pool_settings(parser, header: dict) -> list[dict]:
    """Each pool's attributes read and checked; its `@points` becomes the points of each of its
    questions that does not say its own, and one that says other points is an error."""
    settings = []
    for pool in parser.pools:
        values = _values(parser, pool)
        drafts = parser.drafts[pool.start:pool.end]
        for draft in drafts:
            if not draft.number:
                parser.error("E245", f"{pool.name} holds a text block: pools hold questions only", draft.line,
                             hint="move the Text: block before the Pool: line or after End pool")
        _check_draw(parser, pool, values, len(drafts))
        if "points" in values:
            _apply_points(parser, pool, values["points"], drafts)
        settings.append(values)
    return settings


def _values(parser, pool: PoolDraft) -> dict:
    values: dict = {}
    for key, (line, column, value) in pool.attributes.items():
        if key not in POOL_ATTRIBUTES:
            close = [_SYNONYMS[key]] if key in _SYNONYMS else difflib.get_close_matches(key, POOL_ATTRIBUTES, 1, 0.5)
            hint = (f"did you mean @{close[0]}? " if close else "") + "a pool takes " + ", ".join(
                "@" + name for name in POOL_ATTRIBUTES)
            parser.error("E247", f"unknown pool attribute @{key}", line, column - len(key) - 3, hint, len(key) + 1)
            continue
        try:
            values[key] = _value(key, value)
        except ValueError as exc:
            parser.error("E247", f"bad value {value!r} for @{key} of {pool.name}", line, column, str(exc),
                         max(1, len(value)))
    return values


def _value(key: str, value: str):
    if key == "draw":
        if not value.isdigit() or int(value) < 1:
            raise ValueError("use a whole number of questions, 1 or more")
        return int(value)
    if key == "points":
        return HEADER_KEYS["points"](value)
    if key == "shuffle":
        return HEADER_KEYS["shuffle"](value)
    return HEADER_KEYS["id"](value)


def _check_draw(parser, pool: PoolDraft, values: dict, count: int) -> None:
    if "draw" not in values:
        if "draw" not in pool.attributes:
            parser.error("E243", f"{pool.name} does not say how many of its questions to draw", pool.line,
                         hint=f"add a line @draw: N right under the Pool: line (N from 1 to {max(count, 1)})")
        return
    if count and values["draw"] > count:
        line, column, value = pool.attributes["draw"]
        parser.error("E243", f"{pool.name} draws {values['draw']} questions but holds {count}", line, column,
                     f"draw {count} or fewer, or add questions to the pool", len(value))


def _apply_points(parser, pool: PoolDraft, points: float, drafts) -> None:
    for draft in drafts:
        own = draft.attributes.get("points")
        if own is None:
            draft.attributes["points"] = pool.attributes["points"]
            continue
        try:
            same = float(own[2]) == points
        except ValueError:
            continue  # the question's own attribute reports its bad value
        if not same:
            parser.error("E244", f"{draft.name} is worth {counted(float(own[2]), 'point')}, but {pool.name} gives each of its "
                         f"questions {points:g}", own[0], own[1],
                         "delete the question's @points (or make it the pool's), or move the question out of "
                         "the pool: every question a pool draws from is worth the same", max(1, len(own[2])))


def build_pools(parser, settings: list[dict], questions: list[Question]) -> tuple[Pool, ...]:
    """The model's pools, once every question is built without a problem."""
    if not parser.pools or parser.problems or len(questions) != len(parser.drafts):
        return ()
    taken = {question.id for question in questions}
    pools = []
    for pool, values in zip(parser.pools, settings):
        pool_id = values.get("id") or f"pool{pool.number}"
        if pool_id in taken:
            line, column, _ = pool.attributes.get("id", (pool.line, 1, ""))
            parser.error("E247", f"{pool.name} has the id {pool_id!r}, which a question or another pool has",
                         line, column, "give the pool an @id of its own")
            continue
        taken.add(pool_id)
        members = questions[pool.start:pool.end]
        pools.append(Pool(id=pool_id, title=pool.title or None, draw=values["draw"], points=values.get("points"),
                          shuffle=values.get("shuffle", True), questions=tuple(q.id for q in members),
                          source=SourceSpan(parser.source, pool.line, 1)))
    return tuple(pools)
