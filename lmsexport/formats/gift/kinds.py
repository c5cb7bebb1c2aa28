"""Each GIFT question type as the model's kind (Moodle's readquestion(), one case per function).

    {~wrong =right ~%50%half#feedback}         multichoice: one `=` makes it single-answer
    {~%50%a ~%50%b ~%-100%c}                   multichoice with several right answers (no `=`)
    {=answer =%50%other#feedback}              shortanswer
    {#3.14:0.01} {#1..5} {#=%50%3:2 ~#no}      numerical
    {=left -> right = -> extra}                match
    {T} {FALSE#wrong feedback#right feedback}  truefalse
    {}                                         essay;   no braces: description

In the missing-word form (text after the `}`) a single-answer multichoice becomes a fill-in
question with a drop-down gap and a shortanswer one with a typed gap; other types keep Moodle's
blank (`_____`) in their text. A builder returns the question, or None after reporting why.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable

from ...ids import letters
from ...model import (
    Answer, Choice, Description, Essay, FillBlanks, Gap, Matching, MatchPair, MultipleChoice, Numeric,
    NumericAnswer, Question, ShortAnswer, Text, TrueFalse,
)
from ...numbers import read_plain, written
from ...quantities import QuantityError, read_answer
from .answers import Option, feedback_of, options, typed
from .lexer import Chars
from .parts import BLANK, Context, Parsed
from .texts import only_breaks, visible

_GAP = "\ue002"
"""Stands for the gap while the text around it is read as one."""
_SENTENCE_END = re.compile(r"[.?!…]+")
"""Text after the answers that only ends the sentence: Moodle's blank is plainly meant there."""
_KIND_NAMES = {"multichoice": "multiple-choice", "shortanswer": "short-answer", "numerical": "numeric",
               "truefalse": "true/false", "match": "matching", "essay": "essay"}
Builder = Callable[[Context, Parsed, str], Question | None]


def build_description(ctx: Context, q: Parsed, question_id: str) -> Question | None:
    prompt = _prompt(ctx, q)
    if prompt is None:
        ctx.error("E905", f"{q.label} is only a title: it has no text", q.block.chars.anchor,
                  "write its text right after the ::title:: (a blank line ends a question in GIFT)")
        return None
    return Description(**q.head(ctx, question_id, prompt, points=0.0))


def build_essay(ctx: Context, q: Parsed, question_id: str) -> Question | None:
    # Moodle's GIFT import gives an essay a 15-line answer box (responsefieldlines).
    return Essay(**q.head(ctx, question_id, _prompt(ctx, q)), lines=15)


def build_truefalse(ctx: Context, q: Parsed, question_id: str) -> Question | None:
    """`{T#wrong#right}`: the feedback for a wrong answer first, then for a right one (split_truefalse_comment())."""
    value, *feedback = q.answers.split("#", 3)
    wrong, right = ([ctx.text(part, q.format, q.label) for part in feedback] + [None, None])[:2]
    return TrueFalse(**q.head(ctx, question_id, _prompt(ctx, q)), answer=value.strip().text in ("T", "TRUE"),
                     correct_feedback=right, incorrect_feedback=wrong)


def build_multichoice(ctx: Context, q: Parsed, question_id: str) -> Question | None:
    found = options(ctx, q)
    if found is None:
        return None
    choices = tuple(_choice(ctx, i, option) for i, option in enumerate(found))
    single = any(option.sign == "=" for option in found)
    if single and q.missing_word:
        filled = _fill_blanks(ctx, q, question_id, Gap(id="g1", choices=choices))
        if filled is not None:
            return filled
    return MultipleChoice(**q.head(ctx, question_id, _prompt(ctx, q)), choices=choices, multiple_response=not single)


def _choice(ctx: Context, index: int, option: Option) -> Choice:
    return Choice(id=letters(index), text=option.text, correct=option.correct, feedback=option.feedback,
                  source=ctx.span(option.offset))


def build_shortanswer(ctx: Context, q: Parsed, question_id: str) -> Question | None:
    found = typed(ctx, q, q.answers, "{=Paris}")
    if found is None or not _full_credit(ctx, q, [row.weight for row in found]):
        return None
    if len(found) == 1 and found[0].text.upper() in ("T", "TRUE", "F", "FALSE"):
        ctx.warn("W907", f"{q.label}: {{{found[0].text}}} is read as a short answer accepting {found[0].text!r}, "
                 "as Moodle reads it", q.brace, "write {T}, {TRUE}, {F} or {FALSE} (capitals) for a true/false question")
    answers = tuple(Answer(text=row.text, credit=row.weight, feedback=row.feedback, source=ctx.span(row.chars.anchor))
                    for row in found)
    if q.missing_word:
        filled = _fill_blanks(ctx, q, question_id, Gap(id="g1", answers=answers))
        if filled is not None:
            return filled
    return ShortAnswer(**q.head(ctx, question_id, _prompt(ctx, q)), answers=answers)


def build_numerical(ctx: Context, q: Parsed, question_id: str) -> Question | None:
    """`{#value:tolerance}`, `{#min..max}`, `{#=value =%50%value:tolerance ~#feedback for any other answer}`."""
    body = q.answers[1:]
    incorrect = None
    wrong = body.find("~")
    if wrong >= 0:
        body, rest = body[:wrong], body[wrong + 1:]
        incorrect = feedback_of(ctx, q, rest)[1]
    found = typed(ctx, q, body, "{#3.14:0.01}")
    if found is None:
        return None
    numbers = [_numeric(ctx, q, row.chars) for row in found]
    if None in numbers or not _full_credit(ctx, q, [row.weight for row in found]):
        return None
    answers = tuple(NumericAnswer(value=value, tolerance=tolerance, credit=row.weight, feedback=row.feedback,
                                  source=ctx.span(row.chars.anchor))
                    for row, (value, tolerance) in zip(found, numbers))
    return Numeric(**q.head(ctx, question_id, _prompt(ctx, q)), answers=answers, incorrect_feedback=incorrect)


def _numeric(ctx: Context, q: Parsed, chars: Chars) -> tuple[float, float] | None:
    """(value, tolerance) of `value`, `value:tolerance` or `min..max`; None after reporting what is no number."""
    dots, colon = chars.find(".."), chars.find(":")
    cut, skip = (dots, 2) if dots > 0 else (colon, 1) if colon > 0 else (len(chars), 0)
    parts = [chars[:cut].strip(), chars[cut + skip:].strip()] if skip else [chars.strip()]
    values = []
    for part in parts:
        value = read_plain(part.text)
        if value is None or not math.isfinite(float(value)):
            what = f"{part.text!r} is not a number" if part.text else f"a number is missing in {chars.text!r}"
            ctx.error("E904", f"{what} in an answer of {q.label}", part.anchor, _not_a_number(part.text),
                      len(part.text.split("\n")[0]))
            return None
        values.append(value)
    if dots > 0:
        if values[0] > values[1]:
            ctx.error("E904", f"the range {chars.text} of {q.label} ends below its start", chars.anchor,
                      "write the smaller number first: min..max", len(chars.text))
            return None
        # In decimal, so 3.141..3.142 is 3.1415 +- 0.0005 exactly as written, not 3.1414999999999997.
        return float((values[0] + values[1]) / 2), float((values[1] - values[0]) / 2)
    return float(values[0]), float(abs(values[1])) if skip else 0.0


def _not_a_number(text: str) -> str:
    """What to write instead of a number Moodle's GIFT import refuses: the dot form of a number
    written with a comma (read as the shared layer reads numbers), the number without its unit."""
    rules = "a tolerance follows a colon (3.14:0.01), a range is min..max (1..5)"
    try:
        quantity = read_answer(text, None)
    except QuantityError:
        quantity = None
    if quantity is None or not math.isfinite(quantity.value) or quantity.bounded:
        return f"write numbers with digits and a dot, such as 3.14 (no comma, no unit); {rules}"
    plain = written(quantity.value, None)
    if quantity.unit:
        return (f"GIFT numbers have no unit (Moodle refuses {text}): write {plain} here and the unit "
                f"({quantity.unit}) in the question's text; {rules}")
    doubt = next((note.hint for note in quantity.notes if note.code == "W131"), f"write {plain}")
    return f"GIFT numbers are written with a dot and no grouping, as Moodle reads them: {doubt}; {rules}"


def build_match(ctx: Context, q: Parsed, question_id: str) -> Question | None:
    """`=premise -> answer` pairs; an empty premise makes an answer that matches nothing (a distractor)."""
    pieces = [piece.strip() for piece in q.answers.split("=")]
    pairs, distractors, mark = [], [], len(ctx.problems)
    for piece in pieces[1:] if not pieces[0].text else pieces:
        arrow = piece.find("->")
        left = ctx.text(piece[:arrow], q.format, q.label) if arrow >= 0 else None
        right = Text(piece[arrow + 2:].strip().text) if arrow >= 0 and piece[arrow + 2:].strip().text else None
        if arrow < 0 or (left is not None and right is None):
            what = "no ->" if arrow < 0 else "nothing after its ->"
            ctx.error("E906", f"a pair of {q.label} (matching) has {what}", piece.anchor,
                      "write each pair as =item -> its match (=-> answer alone: an answer that matches nothing)",
                      len(piece.text.split("\n")[0]))
        elif left is None:
            distractors += [right] if right else []
        else:
            pairs.append(MatchPair(id=letters(len(pairs)), left=left, right=right, source=ctx.span(piece.anchor)))
    if len(ctx.problems) > mark:
        return None
    if len(pairs) < 2:
        ctx.error("E906", f"{q.label} has {len(pairs)} pair{'s' * (len(pairs) != 1)}; a matching question needs "
                  "two or more", q.brace, "add pairs: =item -> its match")
        return None
    return Matching(**q.head(ctx, question_id, _prompt(ctx, q)), pairs=tuple(pairs), distractors=tuple(distractors))


def _full_credit(ctx: Context, q: Parsed, weights: list[float]) -> bool:
    if any(weight == 100 for weight in weights):
        return True
    ctx.error("E907", f"no answer of {q.label} gives full credit; Moodle refuses it", q.brace,
              "mark a right answer with = alone (or =%100%)")
    return False


def _prompt(ctx: Context, q: Parsed) -> Text | None:
    """The question text, with Moodle's blank where the answers stood in the missing-word form."""
    after = q.after.strip()
    if q.missing_word and not _SENTENCE_END.fullmatch(after.text):
        ctx.warn("W904", f"{q.label}: the text after its answers ({after.text[:40]!r}) makes it a missing-word "
                 f"question; the model holds it as a {_KIND_NAMES[q.kind]} question whose text shows a blank "
                 f"({BLANK}) where the answers stood, as Moodle shows it", after.anchor,
                 "if that text is not part of the question, delete it; if it is, move it before the {")
    return ctx.text(q.question_text(BLANK), "moodle", q.label)


def _fill_blanks(ctx: Context, q: Parsed, question_id: str, gap: Gap) -> Question | None:
    """The missing-word form as the model's fill-in question; None where the text cannot hold the gap."""
    if _GAP in q.before.text or _GAP in q.after.text:
        return None
    text = ctx.text(q.question_text(_GAP), "moodle", q.label)
    if text is None or text.value.count(_GAP) != 1:
        return None
    plain = text.value if text.format == "plain" else visible(text.value)
    if not only_breaks(text.html()):
        ctx.warn("W905", f"{q.label}: the text around its gap is read as plain text (its formatting, links "
                 "and images are left out): the model's fill-in questions hold plain text", q.block.chars.anchor,
                 "keep the text around the {…} plain, or make the formatted part a question of its own")
    before, _, after = plain.partition(_GAP)
    segments = tuple(part for part in (before, gap, after) if part)
    return FillBlanks(**q.head(ctx, question_id, Text(f"{before}___{after}")), segments=segments)


BUILDERS: dict[str, Builder] = {
    "description": build_description,
    "essay": build_essay,
    "truefalse": build_truefalse,
    "multichoice": build_multichoice,
    "shortanswer": build_shortanswer,
    "numerical": build_numerical,
    "match": build_match,
}
"""Moodle question type (Parsed.kind) -> the builder of its model kind."""
