"""text2qti question groups (`GROUP` ... `END_GROUP`) read as the model's pools.

    GROUP
    pick: 2                       how many questions an attempt draws (default 1)
    points per question: 3        what each is worth (default 1), whatever its own Points:
    solutions pick: 3             only for text2qti's solutions export (warned, W955)
    1.  ...
    END_GROUP

As text2qti 0.8 reads them (`text2qti/quiz.py`, `Group`): the options come first, pick and
points are whole numbers above 0, a group holds at least `pick` questions, all of the same
points, and groups do not nest. A group's questions are worth its points per question (text2qti
counts the group, not them, in the quiz's points). A text between questions cannot stand in a
pool, so a `Text:` in a group is an error. Each problem is E962, located.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from ...diagnostics import SourceSpan
from ...model import Pool, Question
from ...text import counted
from .drafts import QuestionDraft
from .lines import Element


@dataclass
class Group:
    """A GROUP being read: where it starts, its options, the index of its first item."""

    start: Element
    first: int
    options: dict[str, Element] = field(default_factory=dict)
    end: int | None = None
    """Index past its last item, once END_GROUP is read."""


def on_group(reader, element: Element) -> None:
    """GROUP, its options and END_GROUP, checked as text2qti checks them."""
    reader.current = None
    group = reader.group
    if element.kind == "start_group":
        if group is not None:
            reader.error("E962", "a GROUP inside a GROUP", element, "end the first group (END_GROUP) before this one")
            return
        reader.group = Group(element, len(reader.items))
    elif element.kind == "end_group":
        if group is None:
            reader.error("E962", "END_GROUP with no GROUP before it", element, "remove it, or add the GROUP line")
            return
        group.end = len(reader.items)
        reader.groups.append(group)
        reader.group = None
    elif group is None:
        reader.error("E962", f"'{_name(element)}:' outside a GROUP", element, "it sets a question group; remove it")
    elif len(reader.items) > group.first:
        reader.error("E962", f"'{_name(element)}:' after the group's first question", element,
                     "put pick: and points per question: right under GROUP")
    elif element.kind in group.options:
        reader.error("E957", f"the group's '{_name(element)}:' is given twice", element, "keep one of them")
    else:
        group.options[element.kind] = element


def _name(element: Element) -> str:
    return element.kind.removeprefix("group_").replace("_", " ")


def _whole(reader, element: Element | None) -> int | None:
    """A group option's value: a whole number above 0 (text2qti reads it with int())."""
    if element is None:
        return 1
    text = element.text.strip()
    # isdigit() alone takes digits int() refuses (², ①); text2qti's int() takes only decimal ones.
    if text.isascii() and text.isdigit() and int(text) > 0:
        return int(text)
    reader.error("E962", f"'{_name(element)}:' must be a whole number above 0, not {element.text!r}", element,
                 f"write {_name(element)}: 2")
    return None


def read_pools(reader, built: list[tuple[int, Question]]) -> tuple[list[Question], tuple[Pool, ...]]:
    """The questions (a group's at its points per question) and the pools; problems go to the reader.
    `built` pairs each question with the index of the item it came from."""
    by_item = dict(built)
    questions = dict(built)
    pools = []
    for number, group in enumerate(reader.groups, 1):
        pick = _whole(reader, group.options.get("group_pick"))
        points = _whole(reader, group.options.get("group_points_per_question"))
        _solutions_pick(reader, group)
        items = range(group.first, group.end)
        texts = [reader.items[index] for index in items if not isinstance(reader.items[index], QuestionDraft)]
        for text in texts:
            reader.error("E962", "a text inside a GROUP: a group holds questions only", text.line,
                         "move the text before GROUP or after END_GROUP")
        members = [by_item[index] for index in items if index in by_item]
        if pick is None or points is None or texts or not _checked(reader, group, members, pick):
            continue
        for index in items:
            if index in questions:
                questions[index] = replace(questions[index], points=float(points))
        pools.append(Pool(id=f"group{number}", draw=pick, points=float(points),
                          questions=tuple(question.id for question in members),
                          source=SourceSpan(reader.source, group.start.line, 1)))
    return [questions[index] for index, _ in built], tuple(pools)


def _checked(reader, group: Group, members: list[Question], pick: int) -> bool:
    """At least `pick` questions, all of the same points (text2qti's own rules)."""
    if len({question.points for question in members}) > 1:
        reader.error("E962", "the questions of a GROUP must all be worth the same (their Points:)", group.start,
                     "give them the same Points:, or none (the group's points per question is what counts)")
        return False
    if len(members) < pick:
        reader.error("E962", f"the GROUP holds {counted(len(members), 'question')} but picks {pick}", group.start,
                     f"pick {len(members)} or fewer, or add questions to the group" if members else
                     "put questions between GROUP and END_GROUP, or remove the group")
        return False
    return True


def _solutions_pick(reader, group: Group) -> None:
    element = group.options.get("group_solutions_pick")
    if element is not None:
        reader.log.unsupported("W955", SourceSpan(reader.source, element.line, 1), format="the lmsexport model",
                               feature=f"'solutions pick: {element.text}'",
                               instead="it only changes text2qti's solutions export, which lmsexport does not write",
                               hint="remove the line")
