"""Which model kind a QTI 1.2 item is: Canvas's `question_type`, else the item's structure.

QTI ASI 1.2.1: https://www.imsglobal.org/question/qtiv1p2/imsqti_asi_infov1p2.html. Part of the
QTI 1.2 reader: `read_question` picks the kind's reader (`choices`, `typed`) for an item. Canvas
names its type (canvas-lms `lib/cc/qti/qti_items.rb`); other tools' items (Blackboard, WebCT, IMS
samples) are read where their structure is one of Canvas's types, and skipped with a warning
saying why where it is not.
"""

from __future__ import annotations

from .. import names
from ....model import Question
from . import choices, typed
from .items import BLACKBOARD_SKIPPED, SKIPPED_TYPES, Item, Skip, metadata
from ....xml import local_name

_READERS = {
    names.MULTIPLE_CHOICE: lambda item, meta: choices.read_choice(item, meta, names.MULTIPLE_CHOICE),
    names.TRUE_FALSE: lambda item, meta: choices.read_choice(item, meta, names.TRUE_FALSE),
    names.MULTIPLE_ANSWERS: lambda item, meta: choices.read_choice(item, meta, names.MULTIPLE_ANSWERS),
    names.MATCHING: choices.read_matching,
    "ordering_question": choices.read_ordering,
    names.SHORT_ANSWER: typed.read_short_answer,
    names.NUMERICAL: typed.read_numeric,
    names.ESSAY: typed.read_essay,
    names.FILL_IN_BLANKS: lambda item, meta: typed.read_blanks(item, meta, typed=True),
    names.DROPDOWNS: lambda item, meta: typed.read_blanks(item, meta, typed=False),
    names.TEXT_ONLY: typed.read_description,
}
_AGAIN = "make the question again in the LMS you import into, as a kind both have"
_UNREAD_RESPONSES = ("response_xy", "response_grp", "response_extension")
_UNREAD_RENDERS = {"render_hotspot": "clicking on an image", "render_slider": "a slider",
                   "render_extension": "a rendering of its own"}


def read_question(item: Item) -> Question:
    """The item as a model question, or Skip saying why it cannot be one."""
    meta = metadata(item.node)
    declared = meta.get(names.QUESTION_TYPE)
    if declared in SKIPPED_TYPES:
        raise Skip(f"it is a {declared}, and {SKIPPED_TYPES[declared]}", code="W871", hint=_AGAIN)
    if declared is not None and declared not in _READERS:
        raise Skip(f"its question_type {declared!r} is not one lmsexport knows", code="W871",
                   hint=f"make it again in the LMS you import into; lmsexport reads {', '.join(sorted(_READERS))}")
    if declared is not None:
        return _READERS[declared](item, meta)
    blackboard = next((node.text.strip() for node in item.node.iter() if local_name(node) == "bbmd_questiontype"
                       and node.text), None)
    if blackboard in BLACKBOARD_SKIPPED:
        raise Skip(f"it is a Blackboard {blackboard} question, and {BLACKBOARD_SKIPPED[blackboard]}", code="W871",
                   hint=_AGAIN)
    kind = _inferred(item)
    if kind in (names.MULTIPLE_CHOICE, names.MULTIPLE_ANSWERS):
        return choices.read_choice(item, meta, None)
    if kind == names.MATCHING:
        return choices.read_matching(item, meta, None)
    return _READERS[kind](item, meta)


def _inferred(item: Item) -> str:
    """The Canvas type an item without one has the structure of (Blackboard, WebCT, IMS samples)."""
    unread = item.responses(*_UNREAD_RESPONSES)
    if unread:
        raise Skip(f"it is answered with a <{local_name(unread[0])}>, which no lmsexport question holds", code="W871",
                   hint=_AGAIN)
    lids, typed_in = item.responses("response_lid"), item.responses("response_str", "response_num")
    if lids and typed_in:
        raise Skip("it mixes choices and typed answers, which no lmsexport question holds", code="W871", hint=_AGAIN)
    if len(lids) == 1:
        return _choice_kind(item, lids[0])
    if len(lids) > 1:
        prompt = "".join(node.text or "" for node in item.node.iter() if local_name(node) == "mattext")
        blanks = [lid.get("ident", "").removeprefix("response_") for lid in lids]
        return names.DROPDOWNS if all(f"[{blank}]" in prompt for blank in blanks) else names.MATCHING
    if len(typed_in) > 1:
        raise Skip(f"it has {len(typed_in)} boxes to type in, which lmsexport reads only in Canvas's fill in "
                   "multiple blanks", code="W871", hint=_AGAIN)
    if typed_in:
        return _typed_kind(item, typed_in[0])
    return names.TEXT_ONLY


def _choice_kind(item: Item, lid) -> str:
    renders = [local_name(node) for node in lid if local_name(node).startswith("render_")]
    if lid.get("rcardinality") == "Ordered":
        return "ordering_question"
    unread = next((render for render in renders if render in _UNREAD_RENDERS), None)
    if unread is not None:
        raise Skip(f"it is answered by {_UNREAD_RENDERS[unread]} (<{unread}>), which no lmsexport question holds",
                   code="W871", hint=_AGAIN)
    return names.MULTIPLE_ANSWERS if lid.get("rcardinality") == "Multiple" else names.MULTIPLE_CHOICE


def _typed_kind(item: Item, response) -> str:
    fib = next((node for node in response if local_name(node) == "render_fib"), None)
    if local_name(response) == "response_num" or (fib is not None and fib.get("fibtype") in ("Decimal", "Integer")):
        return names.NUMERICAL
    ident = response.get("ident", "")
    scored = any(condition.scores and condition.named(ident) for condition in item.conditions)
    return names.SHORT_ANSWER if scored else names.ESSAY
