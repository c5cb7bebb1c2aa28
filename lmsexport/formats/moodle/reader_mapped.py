"""Moodle question types the model has no kind of its own for, read as the nearest kind.

Part of the Moodle reader: each `read_<type>` returns what reader_kinds' readers return.

- gapselect (Select missing words, qtype_gapselect): each `[[n]]` of the text is a drop-down
  gap offering the options of option n's group, option n the right one; exact.
- ddwtos (Drag and drop into text, qtype_ddwtos): the same gaps, as drop-down lists (W683).
- calculatedsimple: a numerical question with the values of the first item of its datasets
  (qtype_calculated's formulas, `formula.py`); Moodle gives each learner other values (W683).
- oumultiresponse (the OU's plugin): a multiple-answer choice question (W683).
"""

from __future__ import annotations

import re
import unicodedata

from ...ids import letters
from ...model import Choice, FillBlanks, Gap, Text
from ...text import number
from .formula import FormulaError, evaluate, substitute
from .reader_context import Reading
from .reader_kinds import Read, _combined, gap_parts, read_multichoice, read_numerical
from .rules import trans_single


_PLACE = re.compile(r"\[\[(\d+)\]\]")
_RELATIVE, _NOMINAL, _GEOMETRIC = "1", "2", "3"
"""qtype_calculated's tolerance types."""


def read_gapselect(r: Reading, node, option: str = "selectoption") -> Read:
    """qtype_gapselect::import_from_xml(): `[[n]]` places, `<selectoption>`s with their `<group>`."""
    options = [(unicodedata.normalize("NFC", (o.findtext("text") or "").strip()), (o.findtext("group") or "1").strip())
               for o in node.iterchildren(option)]
    questiontext = node.find("questiontext")
    if questiontext is None:
        r.problem("E605", node, f"{r.subject} has no <questiontext>, so it has no gaps",
                  "export the question again from Moodle")
        return None, None
    fragment, lang, text_format = r.fragment(questiontext, "html")
    if fragment is not None and text_format in ("plain_text", "markdown"):
        fragment = Text(fragment).html()
    pieces = _PLACE.split(fragment or "")
    gaps = []
    for place in pieces[1::2]:
        gap = _gap(r, questiontext, options, int(place), len(gaps) + 1)
        if gap is not None:
            gaps.append(gap)
    parts = gap_parts(r, questiontext, pieces[0::2])
    segments = [s for i, part in enumerate(parts) for s in ([part] if part else []) + gaps[i:i + 1]]
    head = r.head(node, prompt=(Text("___".join(parts)), lang))
    question = r.build(node, FillBlanks, **head.fields, **_combined(r, node, head), segments=tuple(segments))
    return question, trans_single(node.findtext("shuffleanswers"), False)


def _gap(r: Reading, at, options: list[tuple[str, str]], place: int, position: int) -> Gap | None:
    """The drop-down for `[[place]]`: the options of its group, in the file's order."""
    if not 1 <= place <= len(options) or not options[place - 1][0]:
        r.problem("E605", at, f"{r.subject}: the gap [[{place}]] has no option {place} to be its answer",
                  "give the question as many options as its text has gaps, each gap's answer at its number")
        return None
    group = options[place - 1][1]
    offered = [(index, text) for index, (text, own) in enumerate(options, 1) if own == group and text]
    return Gap(id=f"g{position}", choices=tuple(
        Choice(id=letters(n), text=Text(text), correct=index == place) for n, (index, text) in enumerate(offered)))


def read_ddwtos(r: Reading, node) -> Read:
    """qtype_ddwtos: the drag boxes as the drop-down lists of gapselect."""
    question, shuffle = read_gapselect(r, node, "dragbox")
    if question is not None:
        r.warn("W683", node, f"{r.subject} (ddwtos): its words to drag into the text are read as a drop-down list "
               "in each gap (the words of the gap's group), which every format can show",
               "nothing to do; in Moodle, Select missing words (gapselect) is the same question with drop-downs")
    return question, shuffle


def read_calculatedsimple(r: Reading, node) -> Read:
    """import_calculated(): the formulas evaluated with the first dataset item, then read as numerical."""
    values = _first_items(node)
    for text in node.iter("text"):
        parent = text.getparent()
        if text.text and parent is not None and parent.tag not in ("answer", "name", "status", "distribution"):
            text.text = substitute(text.text, values)
    geometric = False
    for answer in node.iterchildren("answer"):
        try:
            value = evaluate((answer.findtext("text") or "").strip(), values)
        except FormulaError as exc:
            r.problem("E605", answer, f"{r.subject}: {exc}", "write the answer as a formula of the question's "
                      "wildcards, such as {a} + {b}, with the functions Moodle offers (sqrt, pow, pi() ...)")
            continue
        geometric |= (answer.findtext("tolerancetype") or _RELATIVE).strip() == _GEOMETRIC
        _absolute(answer, value)
    question, _ = read_numerical(r, node)
    if question is not None:
        shown = ", ".join(f"{{{name}}} = {number(value)}" for name, value in values.items())
        r.warn("W683", node, f"{r.subject} (calculatedsimple): read as a numeric question with the values of its "
               f"first dataset item ({shown}){'; its geometric tolerance as the narrower absolute one' if geometric else ''}:"
               " Moodle gives each learner other values, here every learner gets these",
               "nothing to do if one set of values will do; otherwise leave it out and keep it in Moodle")
    return question, None


def _first_items(node) -> dict[str, float]:
    """Each wildcard's value in its dataset's first item (the lowest `<number>`)."""
    values = {}
    for definition in node.iterfind("dataset_definitions/dataset_definition"):
        name = (definition.findtext("name/text") or "").strip()
        items = []
        for item in definition.iterfind("dataset_items/dataset_item"):
            try:
                items.append((float(item.findtext("number") or 0), float(item.findtext("value") or "")))
            except ValueError:
                continue
        if name and items:
            values[name] = min(items)[1]
    return values


def _absolute(answer, value: float) -> None:
    """The answer as a numerical one: its value, its tolerance absolute (`<tolerancetype>`)."""
    from lxml import etree

    try:
        tolerance = abs(float(answer.findtext("tolerance") or 0))
    except ValueError:
        tolerance = 0.0
    kind = (answer.findtext("tolerancetype") or _RELATIVE).strip()
    if kind == _RELATIVE:
        tolerance *= abs(value)
    elif kind == _GEOMETRIC:
        tolerance = abs(value) * tolerance / (1 + tolerance)
    answer.find("text").text = repr(value)
    node = answer.find("tolerance")
    if node is None:
        node = etree.SubElement(answer, "tolerance")
    node.text = repr(tolerance)


def read_oumultiresponse(r: Reading, node) -> Read:
    """qtype_oumultiresponse: a multiple-answer question whose right options each have fraction 100."""
    from lxml import etree

    answers = list(node.iterchildren("answer"))
    right = sum(_fraction(answer) > 0 for answer in answers) or 1
    for answer in answers:
        answer.set("fraction", number(100 / right if _fraction(answer) > 0 else -100 / right))
    single = node.find("single")
    if single is None:
        single = etree.SubElement(node, "single")
    single.text = "false"
    question, shuffle = read_multichoice(r, node)
    if question is not None:
        r.warn("W683", node, f"{r.subject} (oumultiresponse): the OU's multiple-response question is read as a "
               "multiple-answer question: each right option ticked earns its share, each wrong one takes as much "
               "away", "nothing to do; core Moodle's multichoice with several answers is the same question")
    return question, shuffle


def _fraction(answer) -> float:
    try:
        return float(answer.get("fraction", "0"))
    except ValueError:
        return 0.0


MAPPED_READERS = {
    "gapselect": read_gapselect,
    "ddwtos": read_ddwtos,
    "calculatedsimple": read_calculatedsimple,
    "oumultiresponse": read_oumultiresponse,
}
"""Moodle question type -> the reader that maps it to the nearest model kind."""
