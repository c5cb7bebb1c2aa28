"""QTI 2.1 sections that select items (info model, assessmentSection.selection) read as pools.

A section with `<selection select="N">` draws N of its items per attempt: the model's pool.
Its items (those read; skipped ones are not drawn from) become the pool's questions, its
`ordering shuffle` the pool's shuffle, its title the pool's, and its items' points the pool's
points when they are all the same. What the model cannot hold is read as near as it can and
warned (W885): selection with replacement (read without), a selecting section nested in
another (its items join the outer pool), `required` items (drawn like the others), a pool left
drawing more items than it has after items were skipped (it draws them all), a `select` that is
no number (it draws 1).
"""

from __future__ import annotations

from typing import NamedTuple

from ....diagnostics import Log, SourceSpan
from ....ids import slug
from ....model import Pool, Question, is_identifier

_QTI = "{http://www.imsglobal.org/xsd/imsqti_v2p1}"


class Selecting(NamedTuple):
    """The outermost selecting section an item reference stands in."""

    element: object
    where: SourceSpan


def selecting_section(ref, source: str) -> Selecting | None:
    """The outermost ancestor section of `ref` that has a selection, if any."""
    found = None
    for ancestor in ref.iterancestors(f"{_QTI}assessmentSection"):
        if ancestor.find(f"{_QTI}selection") is not None:
            found = ancestor
    return None if found is None else Selecting(found, SourceSpan(source, found.sourceline or 0))


def read_pools(read: list[tuple[Question, Selecting | None]], quiz_id: str, log: Log) -> tuple[Pool, ...]:
    """The pools of the questions read, each from the selecting section its items stand in."""
    groups: dict[object, tuple[Selecting, list[Question]]] = {}
    for question, section in read:
        if section is not None:
            groups.setdefault(section.element, (section, []))[1].append(question)
    taken = {question.id for question, _ in read}
    pools = []
    for number, (section, members) in enumerate(groups.values(), 1):
        pool_id = _pool_id(section.element.get("identifier", ""), quiz_id, number, taken)
        taken.add(pool_id)
        pools.append(_pool(section, members, pool_id, log))
    return tuple(pools)


def _pool_id(identifier: str, quiz_id: str, number: int, taken: set[str]) -> str:
    wanted = identifier.removeprefix(f"{quiz_id}-")
    wanted = wanted if is_identifier(wanted) else slug(wanted, fallback="pool")
    return wanted if wanted not in taken else next(
        f"pool{n}" for n in range(number, number + len(taken) + 2) if f"pool{n}" not in taken)


def _pool(section: Selecting, members: list[Question], pool_id: str, log: Log) -> Pool:
    element, where = section
    selection = element.find(f"{_QTI}selection")
    name = f"the section {element.get('identifier', '')!r}"
    if selection.get("withReplacement") == "true":
        log.warn("W885", f"{name} draws with replacement (an item may come twice); it is read as a pool drawing "
                 "each question once", where, "nothing to do unless a question must be able to come twice")
    if any(inner.find(f"{_QTI}selection") is not None for inner in element.iterdescendants(f"{_QTI}assessmentSection")):
        log.warn("W885", f"{name} holds sections that select too; their items are read into one pool drawn from "
                 "as a whole", where, "split them into pools side by side if each must draw its own")
    if any(ref.get("required") == "true" for ref in element.iter(f"{_QTI}assessmentItemRef")):
        log.warn("W885", f"{name} requires some items in every attempt; they are read as questions drawn like "
                 "the others", where, "move questions every attempt must show out of the pool")
    draw = _select(selection.get("select", ""))
    if draw is None:
        log.warn("W885", f"{name} draws {selection.get('select', '')!r} items, which is no whole number; the pool "
                 "draws 1", where, "set how many items the pool draws after importing it")
        draw = 1
    if draw > len(members):
        log.warn("W885", f"{name} draws {draw} items but {len(members)} of them are read; the pool draws "
                 f"{len(members)}", where, "see the warnings about the items skipped")
        draw = len(members)
    points = {question.points for question in members}
    ordering = element.find(f"{_QTI}ordering")
    return Pool(id=pool_id, title=element.get("title") or None, draw=max(1, draw),
                points=points.pop() if len(points) == 1 else None,
                shuffle=ordering is not None and ordering.get("shuffle") == "true",
                questions=tuple(question.id for question in members), source=where)


def _select(value: str) -> int | None:
    """`select` as a number (an xs:int, so ASCII digits: str.isdigit() also takes ², which int() refuses)."""
    value = value.strip()
    return int(value) if value.isascii() and value.isdigit() else None
