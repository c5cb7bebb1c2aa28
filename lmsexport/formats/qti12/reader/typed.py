"""QTI 1.2 items of typed answers and the rest back into the model: short answer, numerical,
essay, fill in multiple blanks, multiple dropdowns, text only.

QTI ASI 1.2.1 (response_str, render_fib): https://www.imsglobal.org/question/qtiv1p2/imsqti_asi_infov1p2.html
Part of the QTI 1.2 reader. The shapes are Canvas's (canvas-lms `lib/cc/qti/qti_items.rb`), read as
its importer reads them (`gems/plugins/qti_exporter/lib/qti/fill_in_the_blank.rb`,
`numeric_interaction.rb`): a short answer's accepted texts are the `varequal`s of its scoring
condition; a number is an exact answer with a margin (`or(varequal, and(vargte, varlte))`), a
range (`vargte` and `varlte`) or a precision (`vargt`, read as a margin); a blank `[id]` in the
text has a `response_lid response_<id>` listing its accepted answers or, for a drop-down, its
choices, the right one named by the condition adding its share.
"""

from __future__ import annotations

import re
from decimal import Decimal

from .. import names
from ....ids import letters
from ....model import (Answer, Choice, Description, Essay, FillBlanks, Gap, Numeric, NumericAnswer, Question,
                       ShortAnswer, Text, is_identifier)
from . import processing
from .items import Item, Skip, common, span
from .processing import Condition
from .text import lines

_KNOWN_FEEDBACK = {names.GENERAL_FEEDBACK, names.CORRECT_FEEDBACK, names.INCORRECT_FEEDBACK}
_LAYOUT = frozenset({"p", "div", "br", "span"})
"""Elements a fill-in text may have that carry no formatting: its paragraphs and line breaks."""
_SPACE = re.compile(r"[ \t\r\n]+")
_BLOCKS = frozenset({"p", "div", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "blockquote", "table"})


def read_short_answer(item: Item, meta: dict[str, str]) -> Question:
    """short_answer_question: every text a scoring condition accepts; partial scores as credit."""
    response = _typed_response(item).get("ident", "")
    scoring = [c for c in item.conditions if c.scores and c.named(response)]
    if not scoring:
        raise Skip("it has no accepted answer", "give it an answer in the source LMS and export it again")
    best = max(c.score for c in scoring)
    shown = processing.answer_feedback(item.conditions)
    answers: dict[str, Answer] = {}
    for condition in sorted(scoring, key=lambda c: -c.score):
        for value in condition.named(response):
            text = _literal(value)
            if text.strip() and text not in answers:
                feedback = item.feedback(*shown.get((response, value), []))
                answers[text] = Answer(text=text, credit=_credit(condition, best), feedback=feedback,
                                       source=span(item, condition.node))
    case = any(test.node.get("case", "No").lower() == "yes" for c in scoring for test in c.tests)
    return ShortAnswer(**common(item, meta), answers=tuple(answers.values()), case_sensitive=case)


def read_numeric(item: Item, meta: dict[str, str]) -> Question:
    """numerical_question: one accepted number per scoring condition, with its margin."""
    response = _typed_response(item).get("ident", "")
    scoring = [c for c in item.conditions if c.scores and any(t.response == response for t in c.tests)]
    if not scoring:
        raise Skip("it has no accepted number", "give it an answer in the source LMS and export it again")
    best = max(c.score for c in scoring)
    answers = []
    for condition in scoring:
        found = _number(item, condition, response)
        if found is None:
            continue
        value, tolerance = found
        shown = [ident for ident in condition.shows if ident not in _KNOWN_FEEDBACK]
        answers.append(NumericAnswer(value=float(value), tolerance=float(tolerance), credit=_credit(condition, best),
                                     feedback=item.feedback(*shown), source=span(item, condition.node)))
    if not any(answer.credit == 100 for answer in answers):
        raise Skip("none of its accepted numbers can be read", "give it an exact answer or a range in the source LMS")
    return Numeric(**common(item, meta), answers=tuple(answers))


def _number(item: Item, condition: Condition, response: str) -> tuple[Decimal, Decimal] | None:
    """(value, tolerance) of one accepted number: exact (with a margin), a range, or a precision."""
    tests = {}
    for test in condition.tests:
        if test.response == response and not test.negated:
            tests.setdefault(test.kind, processing.number(test.value))
    exact, low, high = tests.get("varequal"), _bound(tests, "vargte", "vargt"), _bound(tests, "varlte", "varlt")
    found = None
    if exact is not None:
        margins = (abs(names.EXACT.subtract(bound, exact)) for bound in (low, high) if bound is not None)
        found = exact, max(margins, default=Decimal(0))
    elif low is not None and high is not None:
        half = names.EXACT.divide(names.EXACT.subtract(high, low), 2)
        found = names.EXACT.add(low, half), abs(half)
    if found is not None and ("vargt" in tests or "varlt" in tests):
        item.warn("W875", f"its answer from {low} to {high}, a bound excluded (Canvas's precision answer), is read as "
                  f"{_decimal(found[0])} ± {_decimal(found[1])}, bounds included", "nothing to do: only the bounds "
                  "themselves are judged otherwise")
    if found is not None:
        return found
    values = ", ".join(f"{kind} {value}" for kind, value in tests.items())
    item.warn("W875", f"an accepted answer ({values or 'no number'}) is left out: lmsexport's numeric answers are a "
              "number within a margin", "give it as an exact answer or a range in the source LMS")
    return None


def _decimal(number: Decimal) -> str:
    text = format(number.normalize(), "f")
    return "0" if text in ("-0", "") else text


def _bound(tests: dict, inclusive: str, strict: str) -> Decimal | None:
    return tests.get(inclusive) if tests.get(inclusive) is not None else tests.get(strict)


def _credit(condition: Condition, best: Decimal) -> float:
    return 100.0 if condition.score == best else float(condition.score * 100 / best)


def _typed_response(item: Item):
    responses = item.responses("response_str", "response_num")
    if len(responses) != 1:
        raise Skip(f"a typed answer has one box, this question has {len(responses)}",
                   "check the question in the source LMS")
    return responses[0]


def _literal(value: str) -> str:
    """A typed answer as the model writes it: QTI compares it whole, so a `*` is a star (`\\*`)."""
    return value.strip().replace("*", "\\*")


def read_essay(item: Item, meta: dict[str, str]) -> Question:
    """essay_question: a text box a person marks (Canvas has no box size: the model's default)."""
    return Essay(**common(item, meta))


def read_description(item: Item, meta: dict[str, str]) -> Question:
    """text_only_question: a text between questions, worth nothing."""
    points = processing.number(meta.get(names.POINTS, "0"))
    if points:
        item.warn("W880", f"a text block is worth no points, not {meta[names.POINTS]}", "nothing to do")
    return Description(**common(item, meta, scored=False))


def read_blanks(item: Item, meta: dict[str, str], typed: bool) -> Question:
    """fill_in_multiple_blanks_question (typed) or multiple_dropdowns_question: the question text
    with `[id]` where each blank of a `response_lid response_<id>` goes."""
    lids = {lid.get("ident", "").removeprefix("response_"): lid for lid in item.responses("response_lid")}
    lids.pop("", None)  # no blank has an empty name
    gaps = {blank: (_typed_gap if typed else _dropdown_gap)(item, lid, _gap_id(blank, n))
            for n, (blank, lid) in enumerate(lids.items(), 1)}
    fields = common(item, meta)
    text = _plain(item, fields["prompt"])
    pattern = re.compile("|".join(re.escape(f"[{blank}]") for blank in sorted(gaps, key=len, reverse=True)) or "(?!)")
    segments, used, position = [], set(), 0
    for found in pattern.finditer(text):
        blank = found.group()[1:-1]
        if blank in used:
            continue
        segments += [text[position:found.start()], gaps[blank]]
        used.add(blank)
        position = found.end()
    segments.append(text[position:])
    for blank in gaps.keys() - used:
        item.warn("W875", f"the blank {blank!r} is left out: its [{blank}] is not in the question text",
                  "put the blank into the text in the source LMS")
    if not used:
        raise Skip("none of its blanks is in the question text", "check the question in the source LMS")
    fields["prompt"] = Text("___".join(part for part in segments if isinstance(part, str)), "plain",
                            fields["prompt"].lang)
    if fields["title"] == names.item_title(fields["prompt"].html(), item.id):
        fields["title"] = None  # the writer's, made from this prompt
    return FillBlanks(**fields, segments=tuple(part for part in segments if part != ""))


def _gap_id(blank: str, number: int) -> str:
    return blank if is_identifier(blank) else f"g{number}"


def _typed_gap(item: Item, lid, gap_id: str) -> Gap:
    """A typed blank: each label of its list is an accepted answer (Canvas accepts any of them)."""
    shown = processing.answer_feedback(item.conditions)
    answers: dict[str, Answer] = {}
    for label in item.labels(lid):
        ident = label.get("ident", "")
        text = _literal(item.words([label], f"an answer of the blank {gap_id!r}"))
        if text and text not in answers:
            feedback = item.feedback(*shown.get((lid.get("ident"), ident), []), names.answer_feedback(ident))
            answers[text] = Answer(text=text, feedback=feedback, source=span(item, label))
    if not answers:
        raise Skip(f"the blank {gap_id!r} has no accepted answer", "give every blank an answer in the source LMS")
    return Gap(id=gap_id, answers=tuple(answers.values()))


def _dropdown_gap(item: Item, lid, gap_id: str) -> Gap:
    """A drop-down: its labels are the choices, the one the scoring condition names is right."""
    right = processing.right_values(item.conditions, lid.get("ident", ""))
    shown = processing.answer_feedback(item.conditions)
    choices = []
    for label in item.labels(lid):
        ident = label.get("ident", "")
        feedback = item.feedback(*shown.get((lid.get("ident"), ident), []), names.answer_feedback(ident))
        choice_id = letters(len(choices))
        choices.append(Choice(id=choice_id, text=item.text([label], f"choice {choice_id} of the blank {gap_id!r}"),
                              correct=bool(right) and ident == right[0], feedback=feedback, source=span(item, label)))
    if sum(choice.correct for choice in choices) != 1:
        raise Skip(f"the drop-down {gap_id!r} has no right choice", "mark its right choice in the source LMS")
    return Gap(id=gap_id, choices=tuple(choices))


def _plain(item: Item, prompt: Text) -> str:
    """The question text as the plain text the model's fill-in questions hold (model.FillBlanks):
    paragraphs and line breaks as new lines, formatting left out with a warning."""
    if prompt.format == "plain":
        return prompt.value
    root = names.fragment(prompt.value)
    exact = lines(root)
    if exact is not None:
        return exact  # text, line breaks and formulas: what the writer makes of the model's text
    formatted = sorted({node.tag for node in root.iter() if node is not root and (node.tag not in _LAYOUT or
                                                                                  node.attrib)})
    if formatted:
        item.warn("W879", f"the text around its blanks is plain text in lmsexport: its formatting "
                  f"({', '.join(f'<{tag}>' for tag in formatted)}) is left out", "nothing to do, unless it mattered")
    pieces: list[str] = []
    _walk(root, pieces)
    joined = re.sub(r" *\n *", "\n", "".join(pieces))
    return re.sub(r"\n{3,}", "\n\n", joined).strip("\n")


def _walk(node, pieces: list[str]) -> None:
    """The text of `node` as HTML shows it: runs of space one space, a block on lines of its own."""
    if node.tag == "br":
        pieces.append("\n")
        return
    block = node.tag in _BLOCKS
    pieces += ["\n"] if block else []
    pieces.append(_SPACE.sub(" ", node.text or ""))
    for child in node:
        _walk(child, pieces)
        pieces.append(_SPACE.sub(" ", child.tail or ""))
    pieces += ["\n"] if block else []
