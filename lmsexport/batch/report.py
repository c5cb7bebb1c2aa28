"""The account of a build: the summary line and the `--report` JSON for CI pipelines."""

from __future__ import annotations

from collections.abc import Iterator

from .._version import __version__
from ..diagnostics import Severity
from ..jsonout import encoded
from ..text import counted
from .files import source_name
from .pipeline import SourceResult
from .state import content_hash


def totals(results: list[SourceResult]) -> dict[str, int]:
    ignored = sum(r.ignored for r in results)
    results = [r for r in results if not r.ignored]
    built = [r for r in results if not r.failed and not r.skipped]
    return {
        "sources": len(results),
        "ignored": ignored,
        "built": len(built),
        "skipped": sum(r.skipped and not r.failed for r in results),
        "failed": sum(r.failed for r in results),
        "questions": sum(r.questions for r in results if not r.failed),
        "packages": sum(len(set(r.written) - set(r.companions)) for r in built),
        "warnings": sum(len(r.warnings) for r in results),
    }


def summary(results: list[SourceResult], seconds: float) -> str:
    """`3 built, 1 up to date, 1 failed, 1 not a quiz: 32 questions, 12 packages written, 2 warnings in 0.41 s`
    (counts that are zero, other than built, are left out)."""
    t = totals(results)
    counts = [f"{t['built']} built"]
    counts += [f"{t['skipped']} up to date"] if t["skipped"] else []
    counts += [f"{t['failed']} failed"] if t["failed"] else []
    counts += [f"{t['ignored']} not {'a quiz' if t['ignored'] == 1 else 'quizzes'}"] if t["ignored"] else []
    details = [counted(t["questions"], "question"), f"{counted(t['packages'], 'package')} written"]
    details += [counted(t["warnings"], "warning")] if t["warnings"] else []
    return f"{', '.join(counts)}: {', '.join(details)} in {seconds:.2f} s"


def _entry(result: SourceResult) -> dict:
    status = "failed" if result.failed else "skipped" if result.skipped else "ignored" if result.ignored else "built"
    return {
        "source": result.source,
        "status": status,
        "quiz": result.quiz_id,
        "questions": result.questions,
        "outputs": [
            {"path": source_name(path), "hash": content_hash(result.outputs[path])} if path in result.outputs
            else {"path": source_name(path)}
            for path in result.written
        ],
        "errors": [d.as_dict() for d in result.diagnostics if d.severity == Severity.ERROR],
        "warnings": result.warnings,  # Diagnostics, each a dict only as it is written (`jsonout`)
        "seconds": round(result.seconds, 4),
    }


def to_json(results: list[SourceResult], formats: list[str], seconds: float) -> Iterator[bytes]:
    """The `--report` document in UTF-8, a piece at a time."""
    document = {
        "lmsexport": __version__,
        "formats": formats,
        "summary": {**totals(results), "seconds": round(seconds, 3)},
        "sources": [_entry(result) for result in results],
    }
    return encoded(document, "utf-8", ensure_ascii=False, indent=2)
