"""The answer lines of each question kind in the lmsexport text format (docs/format.md).

Part of the text writer: one function per kind, each given the writer (`out`: its encoder, and
`lost()` to warn about what the text format cannot carry) and the question, returning the
lines under the prompt: options, `=` answers, the `___` box; for fill-in-the-blanks, the
sentence with its gaps.
"""

from __future__ import annotations

from ...model import Essay, FillBlanks, Gap, Matching, MultipleChoice, Numeric, Ordering, ShortAnswer, Text, TrueFalse
from ...numbers import written
from ...quantities import Quantity, QuantityError, read_answer
from .syntax import CREDIT, FALSE, GAP, TRUE, escape_gap, fold, join_lines
from .writer_lines import INDENT, number, one_line, reads_as_syntax

BULLET = "•"
_NO_UNIT = Quantity(0.0, 0.0, None)


def item_feedback(out, text: Text | None) -> list[str]:
    """`>>` lines: the feedback of the option or `=` answer right above them."""
    if text is None or not text.value:
        return []
    return [f"{INDENT}>> {line}" if line else f"{INDENT}>>" for line in out.encoder.block(text, "feedback")]


def _credit(credit: float) -> str:
    return "" if credit == 100 else f"{number(credit)}%"


def choice_lines(out, question: MultipleChoice) -> list[str]:
    lines, seen = [], set()
    for choice in question.choices:
        text = out.encoder.inline(choice.text, "choice")
        if fold(text) in seen:
            text = out.encoder.repeat(choice.text, text, seen) or text
        if fold(text) in seen:
            out.lost("W457", f"two options with nothing to tell them apart in the text ({text!r})",
                     "the text reader refuses the question until one of them is reworded")
        seen.add(fold(text))
        if question.multiple_response:
            lines.append(f"{INDENT}{BULLET} [{'x' if choice.correct else ' '}] {text}".rstrip())
        else:
            lines.append(f"{INDENT}{'*' if choice.correct else ''}{BULLET} {text}".rstrip())
        lines += item_feedback(out, choice.feedback)
    return lines


def true_false_lines(out, question: TrueFalse) -> list[str]:
    return [f"{INDENT}= {'true' if question.answer else 'false'}"]


def _typed(text: str, lang: str | None) -> str:
    """A typed answer as it must be written to read back as this text (`"42"` is not a number)."""
    quoted = (text != text.strip() or _reads_as_number(text, lang) or text.lower() in TRUE | FALSE
              or (len(text) >= 2 and text[0] == text[-1] == '"'))
    return f'"{text}"' if quoted else text


def _reads_as_number(text: str, lang: str | None) -> bool:
    try:
        return read_answer(text, lang) is not None
    except QuantityError:
        return True


def language(out, question) -> str | None:
    """The language a question's numbers are written in: its own, else the quiz's."""
    return question.lang or out.quiz.lang


def short_answer_lines(out, question: ShortAnswer) -> list[str]:
    lines = []
    for answer in question.answers:
        text, changed = one_line(answer.text)
        if changed:
            out.lost("W453", f"a line break in the typed answer {answer.text!r}", "it is written on one line")
        typed = _typed(text if changed else answer.text, language(out, question))
        lines.append(f"{INDENT}={_credit(answer.credit)} {typed}")
        lines += item_feedback(out, answer.feedback)
    return lines


def inline_unit(question: Numeric, lang: str | None) -> bool:
    """Whether the question's unit can follow each number (`= 9,81 m/s²`) and read back as
    written; one that cannot (`km h⁻¹`, with a space) is written as `@unit:`."""
    if question.unit is None:
        return False
    try:
        return all((read_answer(sample.format(unit=question.unit), lang) or _NO_UNIT).unit == question.unit
                   for sample in ("1 {unit}", "1 {unit} ± 1"))
    except QuantityError:
        return False


def numeric_lines(out, question: Numeric) -> list[str]:
    """`= value unit ± tolerance` in the question's language: the unit right after the value, where
    a `%` cannot be taken for a tolerance in percent of the value."""
    lang = language(out, question)
    unit = f" {question.unit}" if inline_unit(question, lang) else ""
    lines = []
    for answer in question.answers:
        tolerance = f" ± {written(answer.tolerance, lang)}" if answer.tolerance else ""
        lines.append(f"{INDENT}={_credit(answer.credit)} {written(answer.value, lang)}{unit}{tolerance}")
        lines += item_feedback(out, answer.feedback)
    return lines


def essay_lines(out, question: Essay) -> list[str]:
    return [f"{INDENT}___"]


def matching_lines(out, question: Matching) -> list[str]:
    lines = []
    for pair in question.pairs:
        if not pair.left.value or not pair.right.value:
            out.lost("W456", "a matching pair with an empty side", "it is written as it is: give both sides a text")
        left, right = out.encoder.inline(pair.left, "left"), out.encoder.inline(pair.right, "right")
        lines.append(f"{INDENT}{BULLET} {left} -> {right}".rstrip())
    for distractor in question.distractors:
        lines.append(f"{INDENT}{BULLET} -> {out.encoder.inline(distractor, 'right')}".rstrip())
    return lines


def ordering_lines(out, question: Ordering) -> list[str]:
    return [f"{INDENT}{BULLET} [{position}] {out.encoder.inline(item.text, 'item')}".rstrip()
            for position, item in enumerate(question.items, 1)]


def _gap(out, gap: Gap) -> str:
    """`{=answer =50% other}` or `{=right ~wrong}`, with `= ~ { } \\` escaped in each token."""
    if any(part.feedback for part in (*gap.answers, *gap.choices)):
        out.lost("W454", "feedback on a gap's answers", "it is left out: put it in the explanation (>)")
    if gap.answers:
        tokens = []
        for answer in gap.answers:
            text, changed = one_line(answer.text)
            if changed:
                out.lost("W453", f"spaces or a line break in the gap answer {answer.text!r}", f"it is written {text!r}")
            credit = _credit(answer.credit) or ("100%" if CREDIT.match(text) else "")
            tokens.append(f"={credit}{' ' if credit else ''}{escape_gap(text)}")
        return "{" + " ".join(tokens) + "}"
    choices = gap.choices
    if any(not choice.text.value and not choice.correct for choice in choices):
        out.lost("W456", "a drop-down choice without text (a blank first entry?)", "it is left out")
        choices = tuple(choice for choice in choices if choice.text.value or choice.correct)
    if any(not choice.text.value for choice in choices):
        out.lost("W456", "a right drop-down choice without text", "the text reader refuses the gap until it has one")
    if len(choices) == 1:
        out.lost("W458", "a drop-down gap with a single choice", "it reads back as a typed gap")
    return "{" + " ".join(("=" if c.correct else "~") + out.encoder.inline(c.text, "gap") for c in choices) + "}"


def sentence_lines(out, question: FillBlanks) -> list[str]:
    """The sentence with its gaps, as plain text whatever the markup (gaps are never HTML).

    A line that would read as syntax is joined to the line before it, with a warning."""
    parts = []
    for segment in question.segments:
        if isinstance(segment, Gap):
            parts.append(_gap(out, segment))
        elif GAP.search(segment):
            out.lost("W453", "text that reads as a gap ({=...}) in a fill-in-the-blanks sentence",
                     "it reads back as a gap: reword it")
            parts.append(segment)
        else:
            parts.append(segment)
    sentence = "".join(parts).replace("\r", "\n")
    lines: list[str] = []
    for line in sentence.split("\n"):
        if lines and reads_as_syntax(line, "prompt", 1):
            lines[-1] = f"{lines[-1]} {line.strip()}"
        else:
            lines.append(line)
    if "\n".join(lines) == sentence and join_lines(lines) == sentence:
        return lines
    out.lost("W453", "the layout of a fill-in-the-blanks sentence (line breaks, spaces at the ends of lines, "
             "lines that would read as options or answers)", "it is written with its lines trimmed and joined")
    return join_lines(lines).split("\n")


BODIES = {
    "multiple_choice": choice_lines,
    "true_false": true_false_lines,
    "short_answer": short_answer_lines,
    "numeric": numeric_lines,
    "essay": essay_lines,
    "matching": matching_lines,
    "ordering": ordering_lines,
    "fill_blanks": sentence_lines,
}
"""Kind -> the lines under its prompt (fill-in-the-blanks: the sentence, which is its prompt)."""
