"""Where a problem is, what it is, and what to do about it.

Every reader reports bad input as one `SourceError` carrying all the problems it
found in a file, so a course designer fixes them in one pass instead of one per run.
Rendering follows the compiler convention `file:line:col: severity: message`, then
the source line with a `^~~` marker and a hint (as packaging's tokenizer does).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum


class Severity(str, Enum):
    ERROR = "error"
    WARNING = "warning"


@dataclass(frozen=True, slots=True)
class SourceSpan:
    """A place in a source: 1-based line and column; `length` characters marked."""

    source: str
    line: int = 0
    column: int = 0
    length: int = 1

    @property
    def file(self) -> str:
        """The file on disk the span is in: `source` up to a `!member` inside an archive
        (`bank.zip!items/q3.xml` is in `bank.zip`)."""
        return self.source.partition("!")[0]

    def __str__(self) -> str:
        if not self.line:
            return self.source
        if not self.column:
            return f"{self.source}:{self.line}"
        return f"{self.source}:{self.line}:{self.column}"


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
        span = SourceSpan(data["source"], data.get("line", 0), data.get("column", 0))
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
        }


class SourceError(Exception):
    """A source could not be read; `diagnostics` holds every problem found in it."""

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
    made once. Writers hand theirs on as `Package.warnings`; `Quiz.where()` gives the span."""

    __slots__ = ("diagnostics", "_made")

    def __init__(self) -> None:
        self.diagnostics: list[Diagnostic] = []
        self._made: set[Diagnostic] = set()

    def warn(self, code: str, message: str, span: SourceSpan, hint: str = "") -> None:
        diagnostic = Diagnostic(code, message, span, hint, Severity.WARNING)
        if diagnostic not in self._made:
            self._made.add(diagnostic)
            self.diagnostics.append(diagnostic)

    def unsupported(self, code: str, span: SourceSpan, *, format: str, feature: str, instead: str,
                    question: str | None = None, hint: str = "") -> None:
        """`format` cannot carry `feature` (of `question`, e.g. "question 3"); the learner gets `instead`."""
        subject = f"{question}: " if question else ""
        self.warn(code, f"{subject}{format} cannot carry {feature}; {instead}", span, hint)
