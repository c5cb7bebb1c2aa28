"""The answers between a GIFT question's braces: weights, texts and feedback.

    ~%50%answer text#feedback      a weight (percent, negative allowed) follows ~ or =
    =answer text#feedback          `#` starts the answer's feedback (commentparser())

Moodle (question/format/gift/format.php) reads a weight only where its pattern fits
(`%-50%`, `%33.3%`), so `%abc%` would become part of the answer's text there; lmsexport
reports it, as it reports a weight beyond -100..100. A multiple-choice question's options
split at every `~` and `=` (an unescaped `=` in feedback starts a new right option, as in
Moodle); short and numerical answers split at `=`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ...model import Text
from .lexer import Chars
from .parts import Context, Parsed
from .texts import safe, split_format

_WEIGHT = re.compile(r"-?(?:\d+(?:\.\d*)?|\.\d+)")
_WEIGHT_HINT = "write the weight as a percentage from -100 to 100 between % signs, such as ~%50%answer or ~%-25%answer"


@dataclass
class Option:
    """One option of a multiple-choice question (or a drop-down gap)."""

    sign: str
    """`=` (right), `~` (weighted or wrong), or `` for text before the first mark."""
    weight: float
    text: Text
    feedback: Text | None
    offset: int
    correct: bool = False


@dataclass
class Typed:
    """One accepted answer of a short-answer or numerical question."""

    chars: Chars
    """Its text, without weight, format and feedback."""
    weight: float
    feedback: Text | None

    @property
    def text(self) -> str:
        return safe(self.chars.text)


def weight(ctx: Context, q: Parsed, chars: Chars) -> tuple[float | None, Chars]:
    """A leading `%weight%` (percent) and the rest; no weight when there is none, or after reporting a bad one."""
    end = chars.find("%", 1) if chars.startswith("%") else -1
    if end < 0:
        return None, chars
    raw = chars.text[1:end].strip()
    if not _WEIGHT.fullmatch(raw):
        ctx.error("E903", f"the weight %{raw}% of an answer of {q.label} is not a number", chars.anchor,
                  _WEIGHT_HINT, end + 1)
    elif not -100 <= float(raw) <= 100:
        ctx.error("E903", f"the weight %{raw}% of an answer of {q.label} is beyond -100..100", chars.anchor,
                  _WEIGHT_HINT, end + 1)
    else:
        return float(raw), chars[end + 1:].strip()
    return None, chars[end + 1:].strip()


def feedback_of(ctx: Context, q: Parsed, chars: Chars) -> tuple[Chars, Text | None]:
    """An answer's text and its `#feedback` (commentparser(): the first `#` splits them)."""
    text, *rest = chars.split("#", 2)
    feedback = ctx.text(rest[0], q.format, q.label) if rest else None
    return text.strip(), feedback


def _marked(answers: Chars) -> list[tuple[str, Chars]]:
    """The answers split at every unescaped `~` and `=`, each with its mark."""
    found, start, sign = [], 0, ""
    for index, char in enumerate(answers.text):
        if char in "~=" and not answers.escaped[index]:
            found.append((sign, answers[start:index].strip()))
            start, sign = index + 1, char
    found.append((sign, answers[start:].strip()))
    return [(sign, chars) for sign, chars in found if sign or chars.text]


def options(ctx: Context, q: Parsed) -> list[Option] | None:
    """The options of a multiple-choice question, right or wrong; None after reporting why it is not read."""
    found, mark = [], len(ctx.problems)
    for sign, chars in _marked(q.answers):
        if not sign:
            ctx.warn("W907", f"{q.label}: the text {chars.text[:40]!r} before its first ~ or = is read as a wrong "
                     "option, as Moodle reads it", chars.anchor, "start each option with ~ (wrong) or = (right)")
        value, rest = weight(ctx, q, chars) if sign != "=" else (None, chars)
        if sign == "=" and rest.startswith("%") and rest.find("%", 1) > 0:
            ctx.error("E903", f"an answer of {q.label} has both = and a weight; Moodle would show the weight as "
                      "part of its text", chars.anchor, "write =answer for the right one, ~%50%answer for partial credit")
        text_chars, feedback = feedback_of(ctx, q, rest)
        text = ctx.text(text_chars, q.format, q.label)
        if text is None:
            ctx.warn("W908", f"{q.label}: an empty option is left out, as Moodle leaves it out", chars.anchor,
                     "write its text, or delete the ~ or =")
            continue
        found.append(Option(sign, 100.0 if sign == "=" else value or 0.0, text, feedback, chars.anchor))
    if len(ctx.problems) > mark:
        return None
    if len(found) < 2:
        ctx.error("E905", f"{q.label} has {len(found)} option{'s' * (len(found) != 1)}; a multiple-choice question "
                  "needs two or more", q.brace, "add options: ~wrong =right")
        return None
    single = any(option.sign == "=" for option in found)
    return _single(ctx, q, found) if single else _multiple(ctx, q, found)


def _single(ctx: Context, q: Parsed, found: list[Option]) -> list[Option] | None:
    """One right answer (Moodle's `single`): `=`, or `~%100%`; other weights are dropped, with a warning."""
    right = [option for option in found if option.weight == 100]
    if len(right) > 1:
        ctx.warn("W902", f"{q.label} is left out: it has {len(right)} right answers of which a learner picks one, "
                 "and the model's single-answer questions have one right option", q.brace,
                 "keep one = answer; or, to have the learner tick them all, make it multiple-answer: "
                 "~%50%first ~%50%second ~wrong")
        return None
    for option in found:
        option.correct = option.weight == 100
        if option.weight not in (0, 100):
            what = "a penalty" if option.weight < 0 else "partial credit"
            ctx.warn("W901", f"{q.label}: the model cannot carry the weight %{option.weight:g}% ({what}) of an option "
                     "of a single-answer question; the option is read as wrong (worth nothing)", option.offset,
                     "in the model an option of a single-answer question is right or wrong")
    return found


def _multiple(ctx: Context, q: Parsed, found: list[Option]) -> list[Option] | None:
    """Several right answers (no `=`): those with a positive weight, which Moodle needs to add up to 100 %."""
    for option in found:
        option.correct = option.weight > 0
    total = sum(option.weight for option in found if option.correct)
    if not any(option.correct for option in found):
        ctx.error("E905", f"{q.label} has no right answer: no option has = or a positive weight", q.brace,
                  "mark the right answer with = (one right answer), or give the right ones weights that add up "
                  "to 100: ~%50%a ~%50%b")
        return None
    if abs(total - 100) >= 0.5:
        ctx.error("E905", f"the positive weights of {q.label} add up to {total:g}%, not 100%; Moodle refuses that",
                  q.brace, "give the right options weights that add up to 100, such as ~%50%a ~%50%b")
        return None
    right = {option.weight for option in found if option.correct}
    wrong = {option.weight for option in found if not option.correct}
    if len(right) > 1 or wrong - {-min(right)}:
        weights = ", ".join(f"{option.weight:g}%" for option in found)
        ctx.warn("W901", f"{q.label}: the model keeps which options are right, not their weights ({weights}); "
                 "each output format scores a multiple-answer question its own way (docs/formats/gift.md)",
                 q.brace, "weights carry over only as equal shares for the right options and the same share "
                 "off for each wrong one (~%50%a ~%50%b ~%-50%c)")
    return found


def typed(ctx: Context, q: Parsed, body: Chars, example: str) -> list[Typed] | None:
    """The `=`-separated answers of a short-answer or numerical question (`example` shows one); None after
    reporting a problem."""
    pieces = [piece.strip() for piece in body.split("=")]
    pieces = pieces[1:] if pieces and not pieces[0].text else pieces
    found, mark = [], len(ctx.problems)
    for piece in pieces:
        value, rest = weight(ctx, q, piece)
        text_chars, feedback = feedback_of(ctx, q, rest)
        text_chars = split_format(text_chars, q.format)[1]
        if not text_chars.text:
            ctx.warn("W908", f"{q.label}: an empty answer is left out, as Moodle leaves it out", piece.anchor,
                     "write the answer after the =, or delete the =")
            continue
        found.append(Typed(text_chars, 100.0 if value is None else value, feedback))
    if len(ctx.problems) > mark:
        return None
    if not found:
        ctx.error("E907", f"{q.label} has no answer", q.brace, f"write the accepted answer: {example}")
        return None
    return found
