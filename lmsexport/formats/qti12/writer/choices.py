"""The QTI 1.2 items of picked answers: multiple choice, multiple answers, true/false, matching, and
ordering (written as a matching of the items to their positions).

QTI ASI 1.2.1 (response_lid, render_choice): https://www.imsglobal.org/question/qtiv1p2/imsqti_asi_infov1p2.html
Part of the QTI 1.2 writer (writer/__init__.py puts each item together). The shapes are Canvas's
(canvas-lms `lib/cc/qti/qti_items.rb`); what Canvas's importer reads from them is in
docs/formats/canvas.md. Canvas grades with its own rule per type, not with the SCORE values.
"""

from __future__ import annotations

from .. import names
from ....model import Matching, MultipleChoice, Ordering, Text, TrueFalse
from ....xml import sub
from .parts import Context, Parts, answer_feedback, condition, set_score, share, varequal, x


def write_multiple_choice(context: Context) -> Parts:
    """multiple_choice_question, or multiple_answers_question for checkboxes. Canvas gives partial
    credit to multiple answers: points x (right ticked - wrong ticked) / right options, at least 0,
    which is the model's rule (docs/formats/canvas.md)."""
    question: MultipleChoice = context.question
    kind = names.MULTIPLE_ANSWERS if question.multiple_response else names.MULTIPLE_CHOICE
    if question.multiple_response:
        context.partial_only("each right option ticked earns its share and each wrong one takes as much away")
    return _choices(context, kind, [(choice.text, choice.correct, choice.feedback) for choice in question.choices],
                    question.multiple_response)


def write_true_false(context: Context) -> Parts:
    """true_false_question: Canvas keeps the type only if its answers read True and False, so they do."""
    question: TrueFalse = context.question
    lang = (question.lang or context.quiz_lang or "en").split("-")[0].lower()
    if lang != "en":
        context.warn("W859", "Canvas keeps a true/false question only when its answers read True and False, so "
                     "they are in English", "Canvas's own true/false questions are in English too; write a "
                     "multiple choice question for answers in the quiz's language")
    answers = [(Text(names.TRUE_LABEL), question.answer, None), (Text(names.FALSE_LABEL), not question.answer, None)]
    return _choices(context, names.TRUE_FALSE, answers, False)


def _choices(context: Context, kind: str, answers: list, multiple: bool) -> Parts:
    parts = Parts(kind, [context.answer_ident(n) for n in range(1, len(answers) + 1)])
    lid = x("response_lid", {"ident": names.RESPONSE, "rcardinality": "Multiple" if multiple else "Single"})
    render = sub(lid, "qti12:render_choice")
    for ident, (text, _, feedback) in zip(parts.answer_ids, answers, strict=True):
        context.text.material(sub(render, "qti12:response_label", {"ident": ident}), text)
        answer_feedback(parts, ident, feedback, varequal(names.RESPONSE, ident))
    parts.responses.append(lid)
    if multiple:
        tests = [varequal(names.RESPONSE, ident) if right else x("not", None, varequal(names.RESPONSE, ident))
                 for ident, (_, right, _) in zip(parts.answer_ids, answers, strict=True)]
        scoring = condition(x("and", None, *tests))
    else:
        right = next(ident for ident, (_, correct, _) in zip(parts.answer_ids, answers, strict=True) if correct)
        scoring = condition(varequal(names.RESPONSE, right))
    set_score(scoring)
    context.right(scoring)
    parts.conditions.append(scoring)
    return parts


def write_matching(context: Context) -> Parts:
    """matching_question: a response_lid per left item listing every option (distractors too),
    each left item's share of SCORE added when it is matched right (Canvas gives that partial credit)."""
    question: Matching = context.question
    context.partial_only("each pair matched right earns its share")
    lefts = [(pair.left, pair.right) for pair in question.pairs]
    options = [context.text.plain(pair.right, f"the matching option {n}")
               for n, pair in enumerate(question.pairs, 1)]
    extras = [context.text.plain(text, "a distractor") for text in question.distractors]
    return _matching(context, lefts, options, extras)


def write_ordering(context: Context) -> Parts:
    """Canvas classic quizzes have no ordering question: a matching of each item to its place (1, 2, ...)
    keeps it graded, with a share for each item in its place (the partial policy exactly)."""
    question: Ordering = context.question
    context.warn("W851", "Canvas classic quizzes have no ordering question: it is written as a matching question "
                 "pairing each item with its position (1, 2, ...), and Canvas gives a share of the points for each "
                 "item in its place", "tell learners to match each item with its position")
    context.partial_only("each item matched with its place earns its share")
    shown = _display_order([item.text for item in question.items])
    lefts = [(question.items[n].text, None) for n in shown]
    options = [str(n + 1) for n in shown]
    return _matching(context, lefts, options, [], order=int)


def _words(text: str) -> tuple[str, str]:
    return " ".join(text.casefold().split()), text


def _matching(context: Context, lefts: list, options: list[str], extras: list[str], order=_words) -> Parts:
    """`options[n]` is the option left item n matches; the options are listed once each, in an order
    that does not give the answers away (sorted by `order`: their words, or positions by number),
    distractors among them."""
    listed = sorted(dict.fromkeys(options + extras), key=order)
    base = len(lefts)
    option_ids = {text: context.answer_ident(base + n) for n, text in enumerate(listed, 1)}
    parts = Parts(names.MATCHING, [context.answer_ident(n) for n in range(1, base + 1)])
    for ident, (left, _), option in zip(parts.answer_ids, lefts, options, strict=True):
        lid = x("response_lid", {"ident": names.blank_response(ident)})
        context.text.material(lid, left)
        render = sub(lid, "qti12:render_choice")
        for text in listed:
            label = sub(render, "qti12:response_label", {"ident": option_ids[text]})
            sub(sub(label, "qti12:material"), "qti12:mattext", {"texttype": "text/plain"}, text)
        parts.responses.append(lid)
        scoring = condition(varequal(names.blank_response(ident), option_ids[option]), proceed=None)
        set_score(scoring, share(base), "Add")
        parts.conditions.append(scoring)
    return parts


def _display_order(texts: list[Text]) -> list[int]:
    """Positions of `texts` sorted by their words, so that the order shown says nothing about the
    answer; reversed when sorting kept the answer's order."""
    from lxml import html

    def words(text: Text) -> str:
        return " ".join(html.fragment_fromstring(text.html(), create_parent="div").text_content().casefold().split())

    order = sorted(range(len(texts)), key=lambda n: (words(texts[n]), n))
    return order[::-1] if order == list(range(len(texts))) else order
