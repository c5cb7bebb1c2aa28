"""The QTI 1.2 items of typed answers and the rest: short answer, numerical, essay, fill in the
blanks (typed gaps, drop-down gaps), text blocks.

QTI ASI 1.2.1 (response_str, render_fib): https://www.imsglobal.org/question/qtiv1p2/imsqti_asi_infov1p2.html
Part of the QTI 1.2 writer; the shapes are Canvas's (canvas-lms `lib/cc/qti/qti_items.rb`). Canvas
accepts a typed answer whole or not at all, ignoring letter case and knowing no wildcard
(`quizzes/quiz_question/short_answer_question.rb`), so typed answers are written as it can take
them, each difference a warning: partial credit (W853), wildcards (W854), letter case (W855).
"""

from __future__ import annotations

from html import escape

from .. import names
from ....model import Answer, Essay, FillBlanks, Gap, Numeric, ShortAnswer, Text
from ....xml import sub
from .parts import Context, Parts, answer_feedback, condition, set_score, share, show, varequal, x


def write_short_answer(context: Context) -> Parts:
    """short_answer_question: every accepted text in one condition (any of them is right)."""
    question: ShortAnswer = context.question
    accepted = _accepted(context, question.answers, question.case_sensitive, "its answer")
    if not accepted:
        context.warn("W862", "no typed answer is left that Canvas can accept, so it is written as an essay for a "
                     "person to mark", "give the question an answer without wildcards that earns full credit")
        return write_essay(context)
    parts = Parts(names.SHORT_ANSWER, [context.answer_ident(n) for n in range(1, len(accepted) + 1)])
    parts.responses.append(_typed_response(fib=None))
    for ident, (text, answer) in zip(parts.answer_ids, accepted, strict=True):
        answer_feedback(parts, ident, answer.feedback, varequal(names.RESPONSE, text))
    scoring = condition(*(varequal(names.RESPONSE, text) for text, _ in accepted))
    set_score(scoring)
    context.right(scoring)
    parts.conditions.append(scoring)
    return parts


def write_numeric(context: Context) -> Parts:
    """numerical_question: an exact answer with a margin for each full-credit answer (Canvas's
    `exact_answer`: the value, or between value - margin and value + margin)."""
    question: Numeric = context.question
    answers = [answer for answer in question.answers if answer.credit == 100]
    _left_out(context, [answer for answer in question.answers if answer.credit != 100],
              lambda answer: names.decimal(answer.value) + (f" ± {names.decimal(answer.tolerance)}" if answer.tolerance
                                                            else ""))
    parts = Parts(names.NUMERICAL, [context.answer_ident(n) for n in range(1, len(answers) + 1)])
    parts.responses.append(_typed_response(fib="Decimal"))
    if question.unit is not None:
        # Canvas draws the answer box after the question text: the unit ends the text, just above it.
        parts.stem = question.prompt.html() + f"<p>({escape(question.unit, quote=False)})</p>"
        context.warn("W864", f"Canvas numerical questions have no units: ({question.unit}) ends the question text, "
                     "and learners type the number alone (its answer box takes a number only)",
                     "say so in the question if learners may not expect it")
    for ident, answer in zip(parts.answer_ids, answers, strict=True):
        exact = [varequal(names.RESPONSE, names.decimal(answer.value))]
        if answer.tolerance:
            low, high = names.bounds(answer.value, answer.tolerance)
            exact.append(x("and", None, x("vargte", {"respident": names.RESPONSE}, text=low),
                           x("varlte", {"respident": names.RESPONSE}, text=high)))
        scoring = condition(x("or", None, *exact))
        set_score(scoring)
        if answer.feedback:
            show(scoring, names.answer_feedback(ident))
            parts.answer_feedback.append((names.answer_feedback(ident), answer.feedback))
        context.right(scoring)
        parts.conditions.append(scoring)
    return parts


def write_essay(context: Context) -> Parts:
    """essay_question: a text box and a condition that scores nothing (a person marks it)."""
    question = context.question
    if isinstance(question, Essay) and question.lines != 10:
        context.warn("W860", f"Canvas essays have no answer box size; the box is Canvas's own, not {question.lines} "
                     "lines", "nothing to do: learners can type as much as they need")
    parts = Parts(names.ESSAY, responses=[_typed_response(fib=None)])
    parts.conditions.append(condition(x("other")))
    return parts


def write_description(context: Context) -> Parts:
    """text_only_question: the text, no response, no score, no feedback (Canvas reads none)."""
    question = context.question
    if question.explanation:
        context.warn("W856", "Canvas text blocks carry no feedback, so the explanation is left out",
                     "put what learners should read into the text itself")
    return Parts(names.TEXT_ONLY, scored=False)


def write_fill_blanks(context: Context) -> Parts:
    """fill_in_multiple_blanks_question (typed gaps) or multiple_dropdowns_question (drop-downs): `[id]`
    in the text for each gap, a response_lid per gap listing its accepted texts or its choices, and a
    condition adding the gap's share when its (first) right label is given. Canvas has no question
    mixing both: then every gap is typed, a drop-down's choices listed after it (W852)."""
    question: FillBlanks = context.question
    context.partial_only("each gap given its right answer earns its share")
    typed = any(gap.answers for gap in question.gaps)
    if typed and any(gap.choices for gap in question.gaps):
        context.warn("W852", "Canvas has no question with both typed and drop-down gaps: it is written as fill in "
                     "multiple blanks, each drop-down a typed blank whose choices are listed after it and whose "
                     "right choice is the answer to type", "for Canvas, make every gap typed or every gap a drop-down")
    parts = Parts(names.FILL_IN_BLANKS if typed else names.DROPDOWNS)
    marked = []
    for part in question.segments:
        if isinstance(part, str):
            marked.append(part)
            continue
        blank = names.blank_ident(part.id)
        marked.append(f"[{blank}]" + (_choice_list(context, part) if typed and part.choices else ""))
        _gap(context, parts, part, blank, typed, share(len(question.gaps)))
    if question.case_sensitive and typed:
        context.warn("W855", "Canvas compares typed blanks ignoring letter case", "accept every spelling that is right")
    parts.stem = Text("".join(marked)).html()
    return parts


def _gap(context: Context, parts: Parts, gap: Gap, blank: str, typed: bool, part_share: str) -> None:
    if gap.choices and typed:
        labels = [(context.text.plain(c.text, f"gap {gap.id}'s choice"), c.feedback) for c in gap.choices if c.correct]
    elif gap.choices:
        labels = [(context.text.plain(c.text, f"gap {gap.id}'s choice"), c.feedback) for c in gap.choices]
    else:
        accepted = _accepted(context, gap.answers, False, f"gap {gap.id}")
        labels = [(text, answer.feedback) for text, answer in accepted] or [(_literal(gap), None)]
    first = len(parts.answer_ids) + 1
    idents = [context.answer_ident(n) for n in range(first, first + len(labels))]
    parts.answer_ids += idents
    lid = x("response_lid", {"ident": names.blank_response(blank)})
    sub(sub(lid, "qti12:material"), "qti12:mattext", {"texttype": "text/plain"}, blank)
    render = sub(lid, "qti12:render_choice")
    for ident, (text, feedback) in zip(idents, labels, strict=True):
        sub(sub(sub(render, "qti12:response_label", {"ident": ident}), "qti12:material"), "qti12:mattext",
            {"texttype": "text/plain"}, text)
        answer_feedback(parts, ident, feedback, varequal(names.blank_response(blank), ident))
    if any(item.feedback for item in (*gap.answers, *gap.choices)):
        context.warn("W856", f"Canvas's importer reads no feedback for the answers of a blank, so gap {gap.id}'s is "
                     "left out there (the package carries it, as Canvas's own export does)",
                     "put it into the question's feedback for right or wrong answers", gap)
    parts.responses.append(lid)
    right = idents[0] if not gap.choices or typed else idents[[c.correct for c in gap.choices].index(True)]
    scoring = condition(varequal(names.blank_response(blank), right), proceed=None)
    set_score(scoring, part_share, "Add")
    parts.conditions.append(scoring)


def _literal(gap: Gap) -> str:
    """A gap whose every answer is a wildcard keeps its first full-credit one as written (W854 says so)."""
    return next(answer.text for answer in gap.answers if answer.credit == 100)


def _choice_list(context: Context, gap: Gap) -> str:
    """A drop-down gap made typed: its choices after the blank, for the learner to type one."""
    return " (" + " / ".join(context.text.plain(choice.text, f"gap {gap.id}'s choice") for choice in gap.choices) + ")"


def _accepted(context: Context, answers: tuple[Answer, ...], case_sensitive: bool, what: str) -> list:
    """(text, answer) for each typed answer Canvas accepts: full credit, wildcards left out."""
    if case_sensitive:
        context.warn("W855", "Canvas compares typed answers ignoring letter case", "accept every spelling that is right")
    _left_out(context, [answer for answer in answers if answer.credit != 100], lambda answer: answer.text)
    accepted = []
    for answer in answers:
        if answer.credit != 100:
            continue
        text = "*".join(part.replace("*", "") for part in answer.text.split("\\*")).strip()
        if text != answer.text.replace("\\*", "*").strip():
            context.warn("W854", f"Canvas knows no wildcard: {what} {answer.text!r} is written as {text!r}, the "
                         "only text it then accepts" if text else f"Canvas knows no wildcard: {what} "
                         f"{answer.text!r} is left out", "list the spellings to accept one by one", answer)
        if text and text not in [known for known, _ in accepted]:
            accepted.append((text, answer))
    return accepted


def _left_out(context: Context, answers: list, label) -> None:
    for answer in answers:
        what = "and its feedback are" if answer.feedback else "is"
        context.warn("W853", f"Canvas gives full marks or none for a typed answer, so the answer "
                     f"{label(answer)!r} ({names.decimal(answer.credit)}% credit) {what} left out",
                     "make it a full-credit answer, or leave it out of the source", answer)


def _typed_response(fib: str | None):
    """response_str with one response_label: Decimal for a number, a text box otherwise."""
    render = x("render_fib", {"fibtype": fib}, x("response_label", {"ident": names.ANSWER,
                                                                     "rshuffle": None if fib else "No"}))
    return x("response_str", {"ident": names.RESPONSE, "rcardinality": "Single"}, render)
