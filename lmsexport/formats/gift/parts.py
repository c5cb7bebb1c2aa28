"""A GIFT question's parts, found as Moodle's readquestion() finds them, and the file's context.

    // a comment, [id:q-1] [tag:week1]
    ::Title::[html]Question text {answers ####general feedback} more text

Moodle (question/format/gift/format.php): a question starting `$CATEGORY:` is a category; a
leading `::name::` is the title; the answers are between the first `{` and the first `}` (no
braces: a description); text after the `}` puts a blank (`_____`) where the answers stood (the
"missing word" form); the last `####` in the answers starts the general feedback; the answers'
first characters decide the question type (`Parsed.kind`).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field

from ...diagnostics import Diagnostic, Log, SourceSpan
from ...model import Text
from .lexer import Block, Chars, Locator
from .texts import Texts, split_format

BLANK = "_____"
"""What Moodle writes where a missing word's answers stood."""
_TRUE_FALSE = ("T", "TRUE", "F", "FALSE")
_ID = re.compile(r"\[id:((?:\\]|[^\]\x00-\x1f])+)\]")
_TAG = re.compile(r"\[tag:((?:\\]|[^\]<>`\x00-\x1f])+)\]")


@dataclass
class Context:
    """One file's reading: where things are, what was found wrong, what was warned."""

    locator: Locator
    log: Log
    texts: Texts
    problems: list[Diagnostic] = field(default_factory=list)

    def span(self, offset: int, length: int = 1) -> SourceSpan:
        return self.locator.span(offset, length)

    def error(self, code: str, message: str, offset: int, hint: str, length: int = 1) -> None:
        span = self.span(offset, length)
        self.problems.append(Diagnostic(code, message, span, hint, source_line=self.locator.line_text(span.line)))

    def warn(self, code: str, message: str, offset: int, hint: str = "") -> None:
        self.log.warn(code, message, self.span(offset), hint)

    def text(self, chars: Chars, default_format: str, label: str) -> Text | None:
        """A GIFT text (in its own `[format]`, else `default_format`) as the model's; None if nothing shows."""
        text_format, rest = split_format(chars, default_format)

        def locate(part: str) -> SourceSpan:
            found = self.locator.text.find(part, rest.anchor)
            return self.span(rest.anchor) if found < 0 else self.span(found, len(part))

        return self.texts.text(rest.text, text_format, label, locate)


@dataclass
class Parsed:
    """A question's parts, before its type is read."""

    label: str
    """How messages name it: `question 3`, or `text block 1` for a description (`Quiz.label`)."""
    block: Block
    title: str | None
    before: Chars
    """The question text before the answers (all of it for a description)."""
    after: Chars
    """The question text after the answers: not empty in the missing-word form."""
    answers: Chars | None
    """Between the braces, without the general feedback; None for a description."""
    general: Chars | None
    brace: int
    """The offset of the `{`."""

    @property
    def missing_word(self) -> bool:
        return bool(self.after.strip().text)

    @property
    def kind(self) -> str:
        """The Moodle question type the answers make, in readquestion()'s order of tests."""
        answers = self.answers
        if answers is None:
            return "description"
        if not answers.text:
            return "essay"
        if answers.startswith("#"):
            return "numerical"
        if answers.find("~") >= 0:
            return "multichoice"
        if answers.find("=") >= 0 and answers.find("->") >= 0:
            return "match"
        first = answers.find("#")
        head = answers[:first].strip() if first > 0 else answers
        return "truefalse" if head.text in _TRUE_FALSE else "shortanswer"

    def question_text(self, blank: str) -> Chars:
        """The question text with `blank` where the answers stood (missing word), else without them."""
        if not self.missing_word:
            return self.before
        gap = Chars(blank, (self.brace,) * len(blank), bytes(len(blank)), self.brace)
        return self.before + gap + self.after

    @functools.cached_property
    def format(self) -> str:
        """The question text's format, the default of every other text of the question."""
        return split_format(self.question_text(BLANK), "moodle")[0]

    def head(self, ctx: Context, question_id: str, prompt: Text | None, *, points: float = 1.0) -> dict:
        """The fields every kind has: id, title, points, prompt, explanation, tags, source."""
        explanation = None
        if self.general is not None:
            explanation = ctx.text(self.general, self.format, self.label)
        return {"id": question_id, "title": self.title, "points": points, "prompt": prompt or Text(""),
                "explanation": explanation, "tags": tags(self.block), "source": ctx.span(self.block.chars.anchor)}


def idnumber(block: Block) -> str:
    """The `[id:...]` of the question's comments (Moodle 3.6+), or ''."""
    found = _ID.search("\n".join(block.comments))
    return found.group(1).replace("\\]", "]").strip() if found else ""


def tags(block: Block) -> tuple[str, ...]:
    """The `[tag:...]`s of the question's comments (Moodle 3.6+), each once, in order."""
    found = (tag.replace("\\]", "]").strip() for tag in _TAG.findall("\n".join(block.comments)))
    return tuple(dict.fromkeys(tag for tag in found if tag))


def is_description(block: Block) -> bool:
    """A question without answers (no braces but in its title), which Moodle reads as a description."""
    text = block.chars
    if text.startswith("::"):
        end = text.find("::", 2)
        text = text[2:] if end < 0 else text[end + 2:]
    return text.find("{") < 0 and text.find("}") < 0


def parse(ctx: Context, block: Block, label: str) -> Parsed | None:
    """The parts of a question; None (after reporting why) when its braces are wrong."""
    text = block.chars
    title = None
    if text.startswith("::"):
        end = text.find("::", 2)
        if end < 0:
            text = text[2:]
        else:
            title = text[2:end].text.strip() or None
            text = text[end + 2:].strip()
    start, finish = text.find("{"), text.find("}")
    if start < 0 and finish < 0:
        return Parsed(label, block, title, text, text[len(text):], None, None, text.anchor)
    if not _braces_fit(ctx, text, start, finish, label):
        return None
    answers = text[start + 1:finish].strip()
    general = None
    split = answers.rfind("####")
    if split >= 0:
        general, answers = answers[split + 4:], answers[:split].strip()
    return Parsed(label, block, title, text[:start], text[finish + 1:], answers, general, text.offset(start))


def _braces_fit(ctx: Context, text: Chars, start: int, finish: int, label: str) -> bool:
    """One `{` and one `}` after it, as Moodle needs them (braceerror); a second pair is text in Moodle."""
    escape = "write \\{ and \\} for braces that are part of the text"
    if finish < 0:
        ctx.error("E901", f"the answers of {label} are never closed: a {{ with no }}", text.offset(start),
                  "end the answers with }; a blank line ends a question in GIFT, so a blank line inside the "
                  f"answers cuts the question in two; {escape}")
    elif start < 0 or finish < start:
        ctx.error("E901", f"{label} has a }} with no {{ before it", text.offset(finish),
                  f"open the answers with {{; {escape}")
    else:
        extra = min((i for i in (text.find("{", finish), text.find("}", finish + 1)) if i >= 0), default=-1)
        if extra < 0:
            return True
        ctx.error("E902", f"{label} has a second {text.text[extra]} after its answers: GIFT gives a "
                  "question one set of answers, and Moodle would show the rest as text", text.offset(extra),
                  f"make it a question of its own (a blank line before it), or {escape}")
    return False
