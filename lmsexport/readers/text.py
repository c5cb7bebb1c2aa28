"""The lmsexport quiz text format (docs/format.md), read into the model.

    ---                         optional header: key: value lines
    id: fsdp-yo
    lang: yo
    ---
    Quiz title                  first non-blank line
    Description paragraph.      everything before the first question

    1. Question prompt          a number and `.` or `)`; following lines continue it
       • option                 bullet (• - ◦ ▪ ‣) or label (a) A. b.)
       *• correct option        `*` right before the bullet or label marks it correct
       • [x] / • [ ]            checkboxes make a multiple-response question
       > explanation            after the options; shown once answered

    Answers: 1a 2b 3ac          optional key at the end; letters count options in order

Lines are classified by a table of named patterns (as text2qti does); the parse
collects every problem of the file before raising one SourceError.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..diagnostics import Diagnostic, SourceError, SourceSpan
from ..ids import letters, slug
from ..model import Choice, MultipleChoice, Quiz, Settings, Text
from .header import parse_header
from .textinput import decode

NAME = "text"
EXTENSIONS = (".txt", ".quiz")
HEADER_DEFAULTS = True
"""`read` takes `defaults`: header values (from lmsexport.toml) a quiz's own header overrides."""

_PATTERNS = {
    "question": re.compile(r"(?P<indent>[ \t]*)(?P<number>\d{1,4})[.)](?:[ \t]+(?P<rest>.*))?\Z"),
    "option": re.compile(
        r"(?P<indent>[ \t]*)(?P<star>\*)?(?:(?P<bullet>[•◦▪‣●○■□–-])|(?P<label>[A-Za-z])[.)])"
        r"(?:[ \t]+(?P<rest>.*))?\Z"
    ),
    "explanation": re.compile(r"[ \t]*>[ \t]?(?P<rest>.*)\Z"),
    "key": re.compile(r"[ \t]*(?:answers?|answer key)[ \t]*:(?P<rest>.*)\Z", re.IGNORECASE),
    "stray_star": re.compile(r"[ \t]*\*[ \t]+\S"),
}
_CHECKBOX = re.compile(r"\[(?P<mark>[ xX])\][ \t]*")
_KEY_TOKEN = re.compile(r"(?P<number>\d+)[.):-]?(?P<letters>[A-Za-z]+)\Z")
_KEY_SPLIT = re.compile(r"[^\s,;]+")
_MARK_HINT = (
    "mark the correct option with * right before its bullet or label (*• text, *b) text), "
    "or add an answer key after the last question: Answers: {n}a"
)


@dataclass
class _Option:
    line: int
    column: int
    indent: int
    star: bool
    checkbox: bool | None
    text: str


@dataclass
class _Draft:
    number: int
    line: int
    prompt: list[str]
    options: list[_Option] = field(default_factory=list)
    explanation: list[str] = field(default_factory=list)
    key: tuple[int, set[int]] | None = None
    """(line, option indices) from the answer key."""


def _classify(line: str) -> tuple[str, re.Match | None]:
    if not line.strip():
        return "blank", None
    for kind, pattern in _PATTERNS.items():
        match = pattern.match(line)
        if match:
            return kind, match
    return "text", None


def _join(lines: list[str]) -> str:
    """Lines to text: surrounding blank lines dropped, runs of blank lines kept as one."""
    text = "\n".join(line.strip() for line in lines).strip("\n")
    return re.sub(r"\n{3,}", "\n\n", text)


class _Parser:
    def __init__(self, text: str, source: str):
        self.source = source
        self.lines = text.split("\n")
        self.problems: list[Diagnostic] = []
        self.title: str | None = None
        self.description: list[str] = []
        self.drafts: list[_Draft] = []
        self.key_lines: list[tuple[int, str, int]] = []  # line number, text, column offset
        self.previous = "blank"
        self.after_key = False
        """Kind of the previous line, to tell an option's continuation from stray text."""

    def error(self, code: str, message: str, line: int, column: int = 1, hint: str = "", length: int = 1):
        span = SourceSpan(self.source, line, column, length)
        self.problems.append(Diagnostic(code, message, span, hint, source_line=self.lines[line - 1]))

    def parse(self, start: int) -> None:
        for index in range(start, len(self.lines)):
            number = index + 1
            line = self.lines[index]
            kind, match = _classify(line)
            if self.key_lines and kind not in ("blank", "key"):
                if kind == "text":
                    self.key_lines.append((number, line, 0))
                elif not self.after_key:
                    self.after_key = True
                    self.error(
                        "E306",
                        "the answer key must come after the last question",
                        number,
                        hint="move the Answers: line(s) to the end of the file",
                    )
                continue
            self.previous = getattr(self, f"_on_{kind}")(number, line, match) or kind

    def _on_blank(self, number, line, match):
        if self.drafts:
            draft = self.drafts[-1]
            if not draft.options:
                draft.prompt.append("")
        elif self.title is not None:
            self.description.append("")

    def _on_text(self, number, line, match):
        if not self.drafts:
            if self.title is None:
                self.title = line.strip()
            else:
                self.description.append(line)
            return
        draft = self.drafts[-1]
        if draft.explanation:
            draft.explanation.append(line)
        elif not draft.options:
            draft.prompt.append(line)
        elif self._continues_option(draft, line):
            draft.options[-1].text += " " + line.strip()
            return "continuation"
        else:
            self.error(
                "E206",
                f"text after the options of question {draft.number} is not an option or an explanation",
                number,
                len(line) - len(line.lstrip()) + 1,
                "start it with > to make it the explanation, with a bullet to make it an option, "
                "or indent it under the option it continues",
            )

    def _continues_option(self, draft: _Draft, line: str) -> bool:
        """An indented line right under an option (or its continuation) belongs to it."""
        indent = len(line) - len(line.lstrip())
        return self.previous in ("option", "continuation") and indent > draft.options[-1].indent

    def _on_question(self, number, line, match):
        rest = (match["rest"] or "").strip()
        self.drafts.append(_Draft(len(self.drafts) + 1, number, [rest] if rest else []))

    def _on_option(self, number, line, match):
        if not self.drafts:
            if self.title is None:
                self.title = line.strip()
            else:
                self.description.append(line)
            return
        draft = self.drafts[-1]
        if draft.explanation:
            self.error(
                "E208",
                f"an option of question {draft.number} comes after its explanation",
                number,
                hint="put the options first and the > explanation lines after them",
            )
        rest = match["rest"] or ""
        checkbox = None
        box = _CHECKBOX.match(rest)
        if box:
            checkbox = box["mark"] != " "
            rest = rest[box.end():]
        draft.options.append(
            _Option(number, len(match["indent"]) + 1, len(match["indent"]), bool(match["star"]), checkbox, rest.strip())
        )

    def _on_explanation(self, number, line, match):
        if not self.drafts:
            self.description.append(line)
            return
        draft = self.drafts[-1]
        if not draft.options:
            self.error(
                "E208",
                f"the explanation of question {draft.number} comes before its options",
                number,
                hint="put the > explanation lines after the options",
            )
            return
        draft.explanation.append(match["rest"])

    def _on_key(self, number, line, match):
        self.key_lines.append((number, match["rest"], match.start("rest")))

    def _on_stray_star(self, number, line, match):
        column = line.index("*") + 1
        unstarred = line[:column - 1] + " " + line[column:].lstrip()
        kind, option = _classify(unstarred)
        self.error(
            "E209",
            "a * must stand right before a bullet or a label to mark an option correct",
            number,
            column,
            "write *• text or *b) text (no space after the *); use • or - as bullets",
        )
        if kind == "option" and self.drafts:
            self._on_option(number, line, option)
            self.drafts[-1].options[-1].star = True
        else:
            self._on_text(number, line, None)


def read(data: str | bytes, *, source: str, defaults: dict | None = None) -> Quiz:
    """Read a quiz text; raises SourceError listing every problem found."""
    text = decode(data, source)
    parser = _Parser(text, source)
    header, body_start = parse_header(parser.lines, parser.error)
    header = {**(defaults or {}), **header}
    parser.parse(body_start)
    if not parser.drafts and not parser.problems:
        line = body_start + 1
        parser.error(
            "E401",
            "no questions found",
            min(line, len(parser.lines)),
            hint="start each question with its number and a dot (1. What is ...?) "
            "and list its options under it (• option)",
        )
    _apply_key(parser)
    questions = [_build_question(parser, draft, header) for draft in parser.drafts]
    if parser.problems:
        raise SourceError(parser.problems)
    stem = source.replace("\\", "/").rsplit("/", 1)[-1].rsplit(".", 1)[0]
    return Quiz(
        id=header.get("id") or slug(stem),
        title=parser.title or stem,
        description=Text(_join(parser.description)) if _join(parser.description) else None,
        lang=header.get("lang"),
        settings=Settings(
            shuffle=header.get("shuffle", False),
            pass_mark=header.get("pass"),
            feedback=header.get("feedback", "immediate"),
        ),
        tags=header.get("tags", ()),
        lint_ignore=header.get("lint", ()),
        questions=tuple(questions),
    )


def _apply_key(parser: _Parser) -> None:
    """Attach the `Answers:` key to the drafts, reporting tokens that name nothing."""
    by_number = {draft.number: draft for draft in parser.drafts}
    for line, rest, offset in parser.key_lines:
        for token in _KEY_SPLIT.finditer(rest):
            column = offset + token.start() + 1
            match = _KEY_TOKEN.match(token.group())
            if not match:
                parser.error(
                    "E304",
                    f"{token.group()!r} is not an answer: write the question number, then the letter(s)",
                    line,
                    column,
                    "for example Answers: 1a 2b 3ac",
                    len(token.group()),
                )
                continue
            draft = by_number.get(int(match["number"]))
            if draft is None:
                parser.error(
                    "E302",
                    f"the answer key names question {match['number']}, but the quiz has "
                    f"{len(parser.drafts)} question(s)",
                    line,
                    column,
                    "questions are counted in order from 1; remove or correct this answer",
                    len(token.group()),
                )
                continue
            if draft.key is not None:
                parser.error(
                    "E305",
                    f"the answer key gives question {draft.number} twice",
                    line,
                    column,
                    "keep one answer per question",
                    len(token.group()),
                )
                continue
            chosen = set()
            draft.key = (line, chosen)
            for letter in match["letters"].lower():
                index = ord(letter) - ord("a")
                if index >= len(draft.options):
                    parser.error(
                        "E303",
                        f"the answer key names option {letter} of question {draft.number}, "
                        f"which has {len(draft.options)} option(s)",
                        line,
                        column,
                        "options are lettered in order from a",
                        len(token.group()),
                    )
                    continue
                chosen.add(index)


def _build_question(parser: _Parser, draft: _Draft, header: dict) -> MultipleChoice | None:
    """The model question for a draft, or None after reporting why it cannot be one."""
    prompt = _join(draft.prompt)
    if not prompt:
        parser.error("E207", f"question {draft.number} has no text", draft.line, hint="write the question after its number")
    if len(draft.options) < 2:
        parser.error(
            "E202" if not draft.options else "E203",
            f"question {draft.number} has {'no options' if not draft.options else 'only one option'}",
            draft.line,
            hint="list two options or more under the question, one per line, each starting with • or a)",
        )
        return None
    _check_duplicates(parser, draft)
    boxes = {option.checkbox is not None for option in draft.options}
    if len(boxes) > 1:
        parser.error(
            "E205",
            f"question {draft.number} mixes checkbox options ([x] / [ ]) with plain ones",
            draft.line,
            hint="give every option of a multiple-response question a [x] or [ ]",
        )
    for option in draft.options:
        if option.star and option.checkbox is False:
            parser.error(
                "E205",
                "an option is marked correct with * but unticked with [ ]",
                option.line,
                option.column,
                "use [x] alone for a correct option",
            )
    marked = {i for i, option in enumerate(draft.options) if option.star or option.checkbox}
    correct = marked
    if draft.key is not None:
        key_line, keyed = draft.key
        if marked and keyed != marked:
            parser.error(
                "E301",
                f"the answer key says {_letters(keyed)} for question {draft.number}, "
                f"but the options marked in the question are {_letters(marked)}",
                key_line,
                hint=f"make them agree, or keep only one of the two (question {draft.number} is on line {draft.line})",
            )
        correct = keyed
    if not correct and draft.key is None:
        parser.error(
            "E201",
            f"question {draft.number} has no correct answer marked",
            draft.line,
            hint=_MARK_HINT.format(n=draft.number),
        )
    if parser.problems:
        return None  # the file fails anyway; the checks above ran to report everything
    choices = tuple(
        Choice(id=letters(i), text=Text(option.text), correct=i in correct)
        for i, option in enumerate(draft.options)
    )
    explanation = _join(draft.explanation)
    return MultipleChoice(
        id=f"q{draft.number}",
        prompt=Text(prompt),
        points=header.get("points", 1.0),
        explanation=Text(explanation) if explanation else None,
        choices=choices,
        multiple_response=True in boxes or len(correct) > 1,
        source=SourceSpan(parser.source, draft.line, 1),
    )


def _check_duplicates(parser: _Parser, draft: _Draft) -> None:
    seen: dict[str, _Option] = {}
    for option in draft.options:
        folded = " ".join(option.text.casefold().split())
        first = seen.setdefault(folded, option)
        if first is not option:
            parser.error(
                "E204",
                f"question {draft.number} has two identical options: {option.text!r}",
                option.line,
                option.column,
                f"the same option is on line {first.line}; remove one or reword it",
            )


def _letters(indices: set[int]) -> str:
    return "".join(letters(i) for i in sorted(indices)) or "none"
