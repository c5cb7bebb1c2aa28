"""From the text reader's drafts to model questions: which kind each is, and checks.

A draft's kind follows from what the author wrote under the prompt, the way GIFT
and text2qti do it: options make a choice question (or matching with `->`, ordering
with `[n]`), `=` answers a short-answer, numeric or true/false question, a `___`
line an essay, `{=...}` gaps a fill-in-the-blanks question, `Text:` a text block.
Problems are reported on the parser (`error`), all of them, before anything is built.
"""

from __future__ import annotations

import dataclasses
import difflib
import math
import sys
from dataclasses import dataclass, field

from ...diagnostics import Log, SourceSpan
from ...ids import letters
from ...markup import Sanitiser
from ...model import (
    Answer, Choice, Description, Essay, FillBlanks, Gap, Matching, MatchPair, Numeric,
    OrderItem, Ordering, Question, ShortAnswer, Text, TrueFalse,
)
from ...model.packed import Packed, Packer
from ...quantities import UNIT_LENGTH
from ...settings import KEYS as SETTINGS
from .choices import apply_key, choice
from .numeric import NOT_NUMBERS, numeric_fields
from .syntax import (
    ATTRIBUTES, CREDIT, ESSAY_LINES, FALSE, GAP, GAP_TOKEN, MATCH, TRUE, join_lines, unescape_gap, unquote,
)


@dataclass(slots=True)
class Option:
    line: int
    column: int
    indent: int
    star: bool
    text: str
    checkbox: bool | None = None
    position: int | None = None
    feedback: list[str] = field(default_factory=list)


@dataclass(slots=True, kw_only=True)
class Head:
    """What names a numbered question (or `Text:` block) in messages: all a draft leaves in the
    parser's drafts once its question is built, as a bank's drafts kept to the end of the read
    would double its peak memory."""

    number: int
    """Position among numbered questions, from 1; 0 for a `Text:` block."""
    line: int
    block: int = 0

    @property
    def name(self) -> str:
        return f"question {self.number}" if self.number else f"text block {self.block}"


@dataclass(slots=True, kw_only=True)
class Draft(Head):
    """What the parser collected for one numbered question (or `Text:` block)."""

    prompt: list[str]
    options: list[Option] = field(default_factory=list)
    answers: list[tuple[int, int, float, str, list[str]]] = field(default_factory=list)
    """(line, column, credit, text, feedback lines) per `=` line."""
    essay: int = 0
    """Line of the `___` answer box, if any."""
    attributes: dict[str, tuple[int, int, str]] = field(default_factory=dict)
    explanation: list[str] = field(default_factory=list)
    correct_feedback: list[str] = field(default_factory=list)
    incorrect_feedback: list[str] = field(default_factory=list)
    key: tuple[int, set[int]] | None = None
    """(line, option indices) from the answer key."""

    @property
    def has_body(self) -> bool:
        """True once options, answers or an answer box follow the prompt."""
        return bool(self.options or self.answers or self.essay)

    def last_item(self, previous: str) -> list[str] | None:
        """The feedback list of the option or answer a `>>` line refers to."""
        if previous in ("option", "continuation", "item_feedback") and self.options:
            return self.options[-1].feedback
        if previous in ("answer", "item_feedback") and self.answers:
            return self.answers[-1][4]
        return None

    def feedback_lines(self, kind: str) -> list[str]:
        if kind == "item_feedback":
            return self.options[-1].feedback if self.options else self.answers[-1][4]
        return getattr(self, kind)


def _text(parser, lines: list[str]) -> Text | None:
    joined = join_lines(lines)
    return parser.text(joined) if joined else None


class Builder:
    """Turns the parser's drafts into model questions, in order, each replaced by its `Head` once
    built (a bank's drafts kept to the end of the read would double its peak memory).

    The parser of a quiz without an answer key or pools hands each draft over as soon as the next
    one starts (`streamed`), so a bank is never held as drafts; what its builds warn then waits
    in `log` to follow the parser's own warnings, as when every draft is built at the end."""

    def __init__(self, parser, header: dict, *, pack: bool = False, streamed: bool = False):
        self.parser = parser
        self.header = header
        self.questions = Packer(pack_from=None if pack else sys.maxsize, share=self._share)
        self._line = 0
        """The first line of the draft being built: how far through the source the questions are."""
        self.owners: dict[str, Head] = {}
        self.built = 0
        self.log = Log() if streamed else None
        self._own = (self.log, Sanitiser(self.log, parser.problems)) if streamed else None
        """The log and sanitiser its builds tell through while the parser still reads."""

    def build(self, index: int) -> None:
        """Build draft `index`, the one after the last built."""
        parser = self.parser
        told = parser.log, parser.sanitise
        if self._own is not None:
            parser.log, parser.sanitise = self._own
        try:
            draft = parser.drafts[index]
            self._line = draft.line
            head = Head(number=draft.number, line=draft.line, block=draft.block)
            attributes = _attributes(parser, draft, self.header)
            attributes["id"] = _unique_id(parser, draft, attributes.get("id"), self.owners, head)
            question = _build(parser, draft, attributes)
            if question is not None:
                self.questions.add(question)
            parser.drafts[index] = head
            self.built = index + 1
        finally:
            parser.log, parser.sanitise = told

    def _share(self) -> float:
        return self._line / len(self.parser.lines)

    def finish(self) -> tuple[Question, ...] | Packed:
        """Build the drafts not built yet; the questions (with `pack`, `Packed` past `PACK_FROM`)."""
        apply_key(self.parser)  # a streamed quiz has no key
        for index in range(self.built, len(self.parser.drafts)):
            self.build(index)
        if self.log is not None:
            self.parser.log.extend(self.log)
        return self.questions.result()


def _unique_id(parser, draft: Draft, explicit: str | None, owners: dict[str, Head], head: Head) -> str:
    """The question's `@id`, else `q<n>` (`t<n>` for a text block); an id two questions share is an error."""
    question_id = explicit or (f"q{draft.number}" if draft.number else f"t{draft.block}")
    if question_id in owners:
        line, column, _ = draft.attributes.get("id", (draft.line, 1, ""))
        parser.error("E212", f"{draft.name} has the id {question_id!r}, which {owners[question_id].name} has too", line,
                     column, "give each question its own @id (without one, questions are q1, q2, ... and text "
                     "blocks t1, t2, ...)", len(question_id))
    owners.setdefault(question_id, head)
    return question_id


def _attributes(parser, draft: Draft, header: dict) -> dict:
    values = {"points": header.get("points", 1.0)}
    for key, (line, column, value) in draft.attributes.items():
        if key not in ATTRIBUTES:
            close = difflib.get_close_matches(key, ATTRIBUTES, n=1, cutoff=0.5)
            hint = (f"did you mean @{close[0]}? " if close else "") + f"known: {', '.join('@' + k for k in ATTRIBUTES)}"
            parser.error("E211", f"unknown question attribute @{key}", line, column - len(key) - 3, hint, len(key) + 1)
            continue
        try:
            values[key] = _attribute_value(key, value)
        except ValueError as exc:
            parser.error("E212", f"bad value {value!r} for @{key}", line, column, str(exc), max(1, len(value)))
    return values


def _attribute_value(key: str, value: str):
    if key == "points":
        return _points(value)
    if key in ("id", "lang", "tags", "scoring"):
        return SETTINGS[key](value)
    if key == "case":
        if value.lower() not in ("sensitive", "insensitive"):
            raise ValueError("use sensitive or insensitive")
        return value.lower() == "sensitive"
    if key == "unit":
        if not value or len(value) > UNIT_LENGTH:
            raise ValueError(f"give the unit in {UNIT_LENGTH} characters or fewer, such as m/s² or %")
        return value
    if key == "lines":
        if not value.isdigit() or not 1 <= int(value) <= 100:
            raise ValueError("use a whole number of lines from 1 to 100")
        return int(value)
    if not value:
        raise ValueError("give a title")
    return value


def _points(value: str) -> float:
    """A question's points: 0 or more (a question may count for nothing; the header's default may not)."""
    try:
        points = float(value)
    except ValueError:
        points = math.nan
    if not (math.isfinite(points) and points >= 0):
        raise ValueError("use a number, 0 or more, such as 1 or 2.5")
    return points


def _build(parser, draft: Draft, attributes: dict) -> Question | None:
    """Pick the draft's kind and build it; None (after reporting why) if it cannot be one."""
    common = dict(
        id=attributes["id"],
        title=attributes.get("title"),
        lang=attributes.get("lang"),
        tags=attributes.get("tags", ()),
        points=attributes["points"],
        explanation=_text(parser, draft.explanation),
        correct_feedback=_text(parser, draft.correct_feedback),
        incorrect_feedback=_text(parser, draft.incorrect_feedback),
        source=SourceSpan(parser.source, draft.line, 1),
    )
    prompt = join_lines(draft.prompt)
    if not draft.number:
        return _description(parser, draft, common, prompt)
    if not prompt:
        parser.error("E207", f"{draft.name} has no text", draft.line, hint="write the question after its number")
    if draft.key is not None and (not draft.options or _option_style(draft) != "choice"):
        parser.error("E307", f"the answer key gives options for {draft.name}, which is not a choice question",
                     draft.key[0], hint="the key marks options of choice questions only; remove this answer")
    builder = _kind_builder(parser, draft, prompt)
    if builder is None or not prompt:
        return None
    question = builder(parser, draft, common, prompt, attributes)
    if question is not None and "scoring" in attributes:
        question = _scored(parser, draft, question, attributes["scoring"])
    return None if parser.problems else question


def _scored(parser, draft: Draft, question: Question, policy: str) -> Question | None:
    """The question with its own scoring policy, which only a question of several parts can have."""
    if question.has_parts:
        return dataclasses.replace(question, scoring=policy)
    line, column, value = draft.attributes["scoring"]
    parser.error("E221", f"{draft.name} has one part to get right, so @scoring changes nothing", line, column,
                 "@scoring is for multiple-response (checkbox), matching, ordering and fill-in-the-blanks "
                 "questions; remove it here", max(1, len(value)))
    return None


def _kind_builder(parser, draft: Draft, prompt: str):
    bodies = [name for name, present in (("options", draft.options), ("= answers", draft.answers),
                                         ("an answer box (___)", draft.essay)) if present]
    gaps = bool(GAP.search(prompt))
    if len(bodies) > 1 or (bodies and gaps):
        found = bodies + (["{...} gaps"] if gaps else [])
        parser.error("E214", f"{draft.name} has {' and '.join(found)}: one kind of answer per question",
                     draft.line, hint="see docs/format.md for the kinds of question and how each is written")
        return None
    if draft.options:
        return {"choice": choice, "matching": _matching, "ordering": _ordering}.get(_option_style(draft), _mixed)
    if draft.answers:
        return _typed
    if draft.essay:
        return _essay
    if gaps:
        return _fill_blanks
    parser.error("E202", f"{draft.name} has no options", draft.line,
                 hint="list two options or more under the question (• option), or accepted answers (= answer), "
                      "or a ___ line for an essay; see docs/format.md")
    return None


def _option_style(draft: Draft) -> str:
    styles = {"matching" if _is_pair(o.text) else "ordering" if o.position else "choice" for o in draft.options}
    return styles.pop() if len(styles) == 1 else "mixed"


def _is_pair(option: str) -> bool:
    """Whether an option is a matching pair (`left -> right`); one without an arrow is not tried."""
    return ("->" in option or "→" in option) and MATCH.match(option) is not None


def _mixed(parser, draft, common, prompt, attributes):
    parser.error("E210", f"{draft.name} mixes option styles (plain, `left -> right`, `[n]` positions)",
                 draft.line, hint="use one style for every option of a question")


def _matching(parser, draft, common, prompt, attributes):
    pairs, distractors = [], []
    for option in draft.options:
        match = MATCH.match(option.text)
        left, right = match["left"].strip(), match["right"].strip()
        if not right:
            parser.error("E215", "a matching pair needs a right-hand side after ->", option.line, option.column,
                         "write • left -> right (or • -> extra for a right-hand item that matches nothing)")
        elif left:
            pairs.append(MatchPair(id=letters(len(pairs)), left=parser.text(left), right=parser.text(right),
                                   source=parser.span(option.line, option.column)))
        else:
            distractors.append(parser.text(right))
    if len(pairs) < 2:
        parser.error("E203", f"{draft.name} has fewer than two pairs to match", draft.line,
                     hint="write two pairs or more: • left -> right")
    if parser.problems:
        return None
    return Matching(**common, prompt=parser.text(prompt), pairs=tuple(pairs), distractors=tuple(distractors))


def _ordering(parser, draft, common, prompt, attributes):
    positions = sorted(option.position for option in draft.options)
    if positions != list(range(1, len(positions) + 1)):
        parser.error("E216", f"the positions of {draft.name} are {positions}, not 1 to {len(positions)}",
                     draft.line, hint="number the items [1], [2], ... in their correct order, each once")
        return None
    if len(positions) < 2:
        parser.error("E203", f"{draft.name} has only one item to order", draft.line,
                     hint="list two items or more, each with its position: • [1] first, • [2] second")
        return None
    ordered = sorted(draft.options, key=lambda option: option.position)
    items = tuple(OrderItem(id=letters(i), text=parser.text(o.text), source=parser.span(o.line, o.column))
                  for i, o in enumerate(ordered))
    return Ordering(**common, prompt=parser.text(prompt), items=items)


def _typed(parser, draft, common, prompt, attributes):
    texts = [text for _, _, _, text, _ in draft.answers]
    lowered = {text.lower() for text in texts}
    if len(texts) == 1 and lowered <= TRUE | FALSE:
        if draft.answers[0][4]:
            parser.error("E213", "a true/false question takes >+ and >- feedback, not >>", draft.answers[0][0],
                         hint="use >+ for feedback when right and >- when wrong")
            return None
        return TrueFalse(**common, prompt=parser.text(prompt), answer=lowered <= TRUE)
    fields = numeric_fields(parser, draft, common["lang"] or parser.lang, attributes.get("unit"),
                            lambda lines: _text(parser, lines))
    if fields is None:
        return None
    if fields is not NOT_NUMBERS:
        return _checked(parser, draft, lambda: Numeric(**common, prompt=parser.text(prompt), **fields))
    if "unit" in attributes:
        line, column, value = draft.attributes["unit"]
        parser.error("E231", f"{draft.name} has a @unit, but its answers are not all numbers", line, column,
                     "write each answer as a number (= 9.81), or remove the @unit", max(1, len(value)))
    empty = next(((line, column) for line, column, _, text, _ in draft.answers if not unquote(text).strip()), None)
    if empty is not None:
        parser.error("E222", f"an accepted answer of {draft.name} is empty", *empty,
                     hint='write the answer after the =, such as = Paris (quotes keep spaces: = " Paris ")')
        return None
    answers = tuple(Answer(text=unquote(text), credit=credit, feedback=_text(parser, fb),
                           source=parser.span(line, column, len(text)))
                    for line, column, credit, text, fb in draft.answers)
    case = attributes.get("case", False)
    return _checked(parser, draft, lambda: ShortAnswer(**common, prompt=parser.text(prompt), answers=answers,
                                                      case_sensitive=case))


def _checked(parser, draft: Draft, build):
    """Build, turning the model's refusal (no full-credit answer, bad credit) into a located error."""
    from ...model import ModelError

    if any(not math.isfinite(credit) or not -100 <= credit <= 100 for _, _, credit, _, _ in draft.answers):
        parser.error("E217", f"a credit of {draft.name} is outside -100% to 100%", draft.line,
                     hint="write =50% answer for half credit")
        return None
    try:
        return build()
    except ModelError:
        parser.error("E201", f"{draft.name} has no answer that gives full credit", draft.line,
                     hint="write at least one answer as = answer (or =100% answer)")
        return None


def _essay(parser, draft, common, prompt, attributes):
    return Essay(**common, prompt=parser.text(prompt), lines=attributes.get("lines", ESSAY_LINES))


def _fill_blanks(parser, draft, common, prompt, attributes):
    segments: list[str | Gap] = []
    shown, end = [], 0
    for number, match in enumerate(GAP.finditer(prompt)):
        segments.append(prompt[end:match.start()])
        shown.append(prompt[end:match.start()])
        gap = _gap(parser, draft, f"g{number + 1}", match["body"], parser.find(match.group(), draft.line))
        if gap is None:
            return None
        segments.append(gap)
        shown.append("___")
        end = match.end()
    segments.append(prompt[end:])
    shown.append(prompt[end:])
    return FillBlanks(**common, prompt=Text("".join(shown)), segments=tuple(s for s in segments if s != ""),
                      case_sensitive=attributes.get("case", False))


def _gap(parser, draft: Draft, gap_id: str, body: str, source: SourceSpan) -> Gap | None:
    """The gap `{body}`, written at `source` (each of its answers and choices points there too)."""
    tokens = [(m["sign"], unescape_gap(m["text"]).strip()) for m in GAP_TOKEN.finditer(body)]
    if any(not text for _, text in tokens):
        parser.error("E218", f"an empty answer in the gap {{{body}}} of {draft.name}", draft.line,
                     hint="write {=right} or {=right ~wrong ~wrong}")
        return None
    right = [text for sign, text in tokens if sign == "="]
    if len(right) == len(tokens):
        answers = []
        for text in right:
            credit = CREDIT.match(text)
            if credit and not -100 <= float(credit["credit"]) <= 100:
                parser.error("E217", f"a credit of the gap {{{body}}} of {draft.name} is outside -100% to 100%",
                             draft.line, hint="write =50% answer for half credit")
                return None
            answers.append(Answer(text=credit["text"], credit=float(credit["credit"]), source=source) if credit
                           else Answer(text=text, source=source))
        return _checked(parser, draft, lambda: Gap(id=gap_id, answers=tuple(answers), source=source))
    if len(right) != 1:
        parser.error("E218", f"the gap {{{body}}} of {draft.name} lists choices with {len(right)} right ones",
                     draft.line, hint="a gap with ~choices has exactly one =right choice: {=Paris ~Rome ~Oslo}")
        return None
    choices = (Choice(id=letters(i), text=parser.text(text), correct=sign == "=", source=source)
               for i, (sign, text) in enumerate(tokens))
    return Gap(id=gap_id, choices=tuple(choices), source=source)


def _description(parser, draft, common, prompt):
    if draft.has_body:
        parser.error("E219", f"{draft.name} has options or answers: a Text: block is not a question",
                     draft.line, hint="number it (1. ...) to make it a question")
        return None
    if not prompt:
        parser.error("E207", f"{draft.name} has no text", draft.line, hint="write the text after Text:")
        return None
    return Description(**{**common, "points": 0.0}, prompt=parser.text(prompt))
