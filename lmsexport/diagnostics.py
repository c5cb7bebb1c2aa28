"""Where a problem is, what it is, and what to do about it.

Every reader reports bad input as one `SourceError` carrying all the problems it
found in a file, so a course designer fixes them in one pass instead of one per run.
Rendering follows the compiler convention `file:line:col: severity: message`, then
the source line with a `^~~` marker and a hint (as packaging's tokenizer does).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import Enum

from .ids import letters


class Severity(str, Enum):
    ERROR = "error"
    WARNING = "warning"


_PLAIN_SHEET_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.]*\Z")


@dataclass(frozen=True, slots=True)
class SourceSpan:
    """A place in a source: 1-based line and column; `length` characters marked.

    In a workbook (`sheet` set) the line is the row and the column the column's number,
    and the place reads as a spreadsheet cell: `bank.xlsx:Sheet1!D14`."""

    source: str
    line: int = 0
    column: int = 0
    length: int = 1
    sheet: str | None = None
    """The worksheet's name, for places in a workbook."""

    def __reduce__(self):
        """Pickled as its constructor's arguments: dataclasses' own way for a frozen class with
        slots walks `fields()` for every span, and a quiz has one per question and option."""
        return type(self), (self.source, self.line, self.column, self.length, self.sheet)

    @property
    def file(self) -> str:
        """The file on disk the span is in: `source` up to a `!member` inside an archive
        (`bank.zip!items/q3.xml` is in `bank.zip`)."""
        return self.source.partition("!")[0]

    def __str__(self) -> str:
        if self.sheet is not None:
            return f"{self.source}:{self._cell()}"
        if not self.line:
            return self.source
        if not self.column:
            return f"{self.source}:{self.line}"
        return f"{self.source}:{self.line}:{self.column}"

    def _cell(self) -> str:
        """Excel's reference: `Sheet1!D14`, `'Week 1'!D14`; a whole row is `Sheet1!14:14`."""
        sheet = self.sheet if _PLAIN_SHEET_NAME.match(self.sheet) else "'{}'".format(self.sheet.replace("'", "''"))
        if not self.line:
            return sheet
        if not self.column:
            return f"{sheet}!{self.line}:{self.line}"
        return f"{sheet}!{column_letters(self.column)}{self.line}"


def column_letters(column: int) -> str:
    """A spreadsheet column's letters from its 1-based number: 1 -> A, 27 -> AA (an option's
    letters, `ids.letters`, in capitals)."""
    return letters(column - 1).upper()


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One finding: a source error, a lint finding or a lossy-conversion warning."""

    code: str
    message: str
    span: SourceSpan
    hint: str = ""
    severity: Severity = Severity.ERROR
    source_line: str | None = field(default=None, compare=False)
    """The text of the line the span points into, for the marker under it."""

    def render(self) -> str:
        """The human form: location, message, the line with a marker, the hint."""
        out = [f"{self.span}: {self.severity.value}: {self.message} [{self.code}]"]
        if self.source_line is not None and self.span.column:
            line = self.source_line.expandtabs(1)
            indent = " " * (self.span.column - 1)
            marker = "^" + "~" * max(0, min(self.span.length, len(line) - self.span.column + 1) - 1)
            out += [f"    {line}", f"    {indent}{marker}"]
        if self.hint:
            out.append(f"  hint: {self.hint}")
        return "\n".join(out)

    @classmethod
    def from_dict(cls, data: dict) -> Diagnostic:
        span = SourceSpan(data["source"], data.get("line", 0), data.get("column", 0), sheet=data.get("sheet"))
        severity = Severity(data.get("severity", "error"))
        return cls(data["code"], data["message"], span, data.get("hint", ""), severity)

    def as_dict(self) -> dict:
        return {
            "code": self.code,
            "severity": self.severity.value,
            "message": self.message,
            "hint": self.hint,
            "source": self.span.source,
            "line": self.span.line,
            "column": self.span.column,
            **({"sheet": self.span.sheet} if self.span.sheet is not None else {}),
        }


class SourceError(Exception):
    """A source could not be read, or its quiz cannot be written in a format; `diagnostics`
    holds every problem found, each located in the source.

    Readers raise it for bad input. Writers raise it for a quiz their format cannot hold at
    all (an image past what a Moodle XML file carries, a time limit SCORM 1.2 cannot say):
    a writer never returns a package its own schema, or the LMS reading it, would refuse,
    and what it can carry differently is a warning instead (`Package.warnings`). A build
    fails that source (exit status 1) and builds the others."""

    def __init__(self, diagnostics: list[Diagnostic]):
        self.diagnostics = sorted(
            diagnostics, key=lambda d: (d.span.source, d.span.line, d.span.column)
        )
        super().__init__("\n".join(d.render() for d in self.diagnostics))


class ConversionWarning(UserWarning):
    """A `Log` entry issued through Python's `warnings` where the caller gave no log."""


class Log:
    """The warnings of one read or one write: what a format could not carry, or carried differently.

    Every reader and writer reports through one of these (pandoc's `report`), so every such
    message has the same shape: where (`span`), which question, what, and what to do. Nothing a
    format cannot carry is dropped without an entry here; `--strict` makes entries fatal. An
    entry equal to one already made (the same formula broken in two texts of a question) is
    made once. Writers hand theirs on as `Package.warnings`; `Quiz.where()` gives the span.
    Entries that say the same at other places share their texts: a 200 MB bank's 270,000
    warnings are a few messages over and over (`HTML <div> dir='rtl' left out ...`)."""

    __slots__ = ("diagnostics", "_made", "_texts")

    def __init__(self) -> None:
        self.diagnostics: list[Diagnostic] = []
        self._made: set[Diagnostic] = set()
        self._texts: dict[str, str] = {}

    def warn(self, code: str, message: str, span: SourceSpan, hint: str = "") -> None:
        texts = self._texts
        message, hint = texts.setdefault(message, message), texts.setdefault(hint, hint)
        self._add(Diagnostic(code, message, span, hint, Severity.WARNING))

    def extend(self, other: Log) -> None:
        """Take `other`'s entries after this log's own, as if they had been made here."""
        for diagnostic in other.diagnostics:
            self._add(diagnostic)

    def _add(self, diagnostic: Diagnostic) -> None:
        if diagnostic not in self._made:
            self._made.add(diagnostic)
            self.diagnostics.append(diagnostic)

    def unsupported(self, code: str, span: SourceSpan, *, format: str, feature: str, instead: str,
                    question: str | None = None, hint: str = "") -> None:
        """`format` cannot carry `feature` (of `question`, e.g. "question 3"); the learner gets `instead`."""
        subject = f"{question}: " if question else ""
        self.warn(code, f"{subject}{format} cannot carry {feature}; {instead}", span, hint)
