"""Read Aiken files (https://docs.moodle.org/en/Aiken_format) into the model.

    The Moodle project was started by:      the question (lines before the first option join)
    A) Petr Skoda                           options: a capital letter, `)` or `.`, the text
    B) Martin Dougiamas
    ANSWER: B                               the correct option's letter ends the question

What is accepted follows Moodle's importer (question/format/aiken/format.php): lines are
trimmed, blank lines are ignored anywhere, the space after `A)` is optional, CR, CRLF and LF
line ends all work. Each question becomes a single-choice question worth one point, its
texts plain. Two things Moodle does differently: a question may run over several lines
before its options (Moodle drops all but the last line, with an error), and everything wrong
in a file is one SourceError with every problem located: option labels out of order, an
`ANSWER:` naming no option, options or an `ANSWER:` with no question, a question that ends
without its `ANSWER:` line. Moodle, with its default "Stop on error", refuses such a file
too; a question with a mistake is never skipped, since the teacher would lose it unseen.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ...diagnostics import Diagnostic, SourceError, SourceSpan
from ...ids import file_stem, letters, slug
from ...model import Choice, MultipleChoice, Quiz, Text
from ...textinput import decode

_OPTION = re.compile(r"(?P<label>[A-Z])[.)][ \t]?(?P<text>.*)\Z")
_LOWER_OPTION = re.compile(r"(?P<label>[a-z])[.)][ \t]+(?P<text>.*)\Z")
_ANSWER = re.compile(r"ANSWER:(?P<rest>.*)\Z")
_ANSWER_ANY_CASE = re.compile(r"answer[ \t]*:(?P<rest>.*)\Z", re.IGNORECASE)
_LETTER = re.compile(r"(?P<letter>[A-Z])[.)]?\Z")


@dataclass
class _Draft:
    """One question being read: its lines so far."""

    line: int
    stem: list[str]
    options: list[tuple[int, str]] = field(default_factory=list)
    """(line, text) of each option, in order."""
    broken: bool = False
    """Already reported: the lines up to its ANSWER: are taken without further messages."""


class _Reader:
    """The questions of one file and every problem found in it."""

    def __init__(self, text: str, source: str):
        self.source = source
        self.lines = text.split("\n")
        self.problems: list[Diagnostic] = []
        self.questions: list[MultipleChoice] = []
        self.draft: _Draft | None = None

    def error(self, code: str, message: str, line: int, hint: str, column: int = 1) -> None:
        span = SourceSpan(self.source, line, column)
        self.problems.append(Diagnostic(code, message, span, hint, source_line=self.lines[line - 1]))

    def read(self) -> None:
        for number, raw in enumerate(self.lines, start=1):
            line = raw.strip()
            if not line:
                continue
            column = len(raw) - len(raw.lstrip()) + 1
            option = _OPTION.match(line) or (self.draft and _LOWER_OPTION.match(line))
            answer = _ANSWER.match(line) or _ANSWER_ANY_CASE.match(line)
            if answer:
                self._answer(number, column, line, answer)
            elif option:
                self._option(number, column, option)
            else:
                self._stem(number, line)
        self._end_of_file()

    def _stem(self, number: int, line: str) -> None:
        draft = self.draft
        if draft is not None and not draft.options:
            draft.stem.append(line)
            return
        if draft is not None and not draft.broken:
            self.error("E943", f"missing ANSWER: line after the options of the question on line {draft.line}",
                       number, "end each question with ANSWER: and the letter of its correct option (ANSWER: B)")
        self.draft = _Draft(number, [line])

    def _option(self, number: int, column: int, match: re.Match) -> None:
        draft = self.draft
        if draft is None:
            self.error("E941", "an option with no question before it", number,
                       "write the question on the line above its first option", column)
            self.draft = _Draft(number, [], broken=True)
            return
        if draft.broken:
            return
        label, expected = match["label"], letters(len(draft.options)).upper()
        if label.islower():
            self.error("E947", f"option label {label}{match.group()[1]} is a small letter", number,
                       f"Aiken options are labelled with capital letters: write {label.upper()}) ...", column)
        elif label != expected:
            self.error("E946", f"option {label} of the question on line {draft.line} should be {expected}",
                       number, "Aiken options are labelled A, B, C, ... in order", column)
        text = match["text"].strip()
        if not text:
            self.error("E948", f"option {label} of the question on line {draft.line} has no text", number,
                       "write the option's text after its label: A) text", column)
        draft.options.append((number, text))

    def _answer(self, number: int, column: int, line: str, match: re.Match) -> None:
        draft, self.draft = self.draft, None
        if draft is None:
            self.error("E942", "an ANSWER: line with no question before it", number,
                       "write the question and its options (A) ...) above its ANSWER: line", column)
            return
        if draft.broken:
            return
        if not line.startswith("ANSWER:"):
            self.error("E947", "the answer line is written ANSWER: in capitals", number,
                       f"write ANSWER:{match['rest']}", column)
        letter = _LETTER.match(match["rest"].strip())
        if len(draft.options) < 2:
            self.error("E944", f"the question on line {draft.line} has {len(draft.options) or 'no'} "
                       f"option{'' if len(draft.options) == 1 else 's'}; it needs two or more", number,
                       "list its options, one to a line, before the ANSWER: line: A) ..., B) ...", column)
        elif letter is None:
            self.error("E945", f"ANSWER: must name one option letter, not {match['rest'].strip()!r}", number,
                       "write ANSWER: and the letter of the correct option (ANSWER: B); Aiken questions "
                       "have exactly one correct option", column)
        elif ord(letter["letter"]) - ord("A") >= len(draft.options):
            last = letters(len(draft.options) - 1).upper()
            self.error("E945", f"ANSWER: {letter['letter']} names no option: the question on line {draft.line} "
                       f"has options A to {last}", number, f"write the letter of one of its options, A to {last}",
                       column)
        else:
            self._build(draft, ord(letter["letter"]) - ord("A"))

    def _end_of_file(self) -> None:
        draft = self.draft
        if not self.questions and not self.problems and draft is not None and not draft.options:
            self.error("E949", "no Aiken questions found: no line is an option (A) ...) or an answer (ANSWER: B)",
                       draft.line, "an Aiken question is a line, its options A) ..., B) ... and ANSWER: with the "
                       "correct letter; if the file is in another format, name it with --from (see lmsexport formats)")
            return
        if draft is None or draft.broken:
            return
        if draft.options:
            self.error("E943", f"missing ANSWER: line after the options of the question on line {draft.line}",
                       draft.options[-1][0], "end each question with ANSWER: and the letter of its correct "
                       "option (ANSWER: B)")
        else:
            self.error("E944", f"the question on line {draft.line} has no options and no ANSWER: line",
                       draft.line, "list its options (A) ..., B) ...) and then ANSWER: with the correct letter")

    def _column(self, line: int) -> int:
        """Where a line's text starts (Aiken lines are read trimmed)."""
        raw = self.lines[line - 1]
        return len(raw) - len(raw.lstrip()) + 1

    def _build(self, draft: _Draft, correct: int) -> None:
        choices = tuple(Choice(id=letters(index), text=Text(text), correct=index == correct,
                               source=SourceSpan(self.source, line, self._column(line)))
                        for index, (line, text) in enumerate(draft.options))
        number = len(self.questions) + 1
        self.questions.append(MultipleChoice(id=f"q{number}", prompt=Text("\n".join(draft.stem)), choices=choices,
                                             source=SourceSpan(self.source, draft.line, 1)))


def read(data: str | bytes, *, source: str) -> Quiz:
    """Read an Aiken file; raises SourceError listing every problem found."""
    reader = _Reader(decode(data, source), source)
    reader.read()
    if reader.problems:
        raise SourceError(reader.problems)
    stem = file_stem(source)
    return Quiz(id=slug(stem), title=stem or "Aiken quiz", questions=tuple(reader.questions))
