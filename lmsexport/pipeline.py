"""Build packages from sources: read, write, validate, and only then put on disk.

The library side of `lmsexport build`; it never prints. Each source is read into
the model, written in every requested format, every file of every package is
validated, and only when all of that passed are the packages written, atomically.
A bad source yields its diagnostics and writes nothing; the other sources still build.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

from . import registry
from .diagnostics import Diagnostic, SourceError, SourceSpan
from .model import Quiz
from .package import Package, write_atomic
from .validation import validate_files


class OutputInvalid(RuntimeError):
    """A writer produced a package that fails its schema: a bug in lmsexport."""

    def __init__(self, diagnostics: list[Diagnostic]):
        self.diagnostics = diagnostics
        super().__init__("\n".join(d.render() for d in diagnostics))


@dataclass
class SourceResult:
    """What happened to one source file."""

    source: str
    quiz: Quiz | None = None
    written: list[Path] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)

    @property
    def failed(self) -> bool:
        return any(d.severity == "error" for d in self.diagnostics)


def find_sources(paths: list[Path]) -> list[Path]:
    """Source files named directly, plus those with a known suffix under named folders."""
    found: list[Path] = []
    for path in paths:
        if path.is_dir():
            for folder, subfolders, files in os.walk(path):
                subfolders[:] = sorted(d for d in subfolders if not d.startswith("."))
                found += sorted(
                    Path(folder, name)
                    for name in files
                    if not name.startswith(".") and Path(name).suffix.lower() in registry.READER_EXTENSIONS
                )
        elif path.exists():
            found.append(path)
        else:
            raise FileNotFoundError(f"{path}: no such file or folder")
    return list(dict.fromkeys(found))


def read_source(path: Path) -> Quiz:
    """Read one file into the model; OS and encoding problems become SourceErrors."""
    source = path.as_posix()
    try:
        data = path.read_bytes()
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise SourceError([Diagnostic("E001", f"cannot read the file: {reason}", SourceSpan(source))]) from None
    return registry.reader_for(path).read(data, source=source)


def output_path(out_dir: Path, quiz: Quiz, format_name: str, package: Package, grouped: bool) -> Path:
    """`out/<quiz><ext>`, or `out/<format>/<quiz><ext>` when several formats are built."""
    folder = out_dir / format_name if grouped else out_dir
    return folder / f"{quiz.id}{package.extension}"


def build(paths: list[Path], formats: list[str], out_dir: Path) -> Iterator[SourceResult]:
    """Build every source under `paths` in every format; yields one result per source."""
    writers = {name: registry.writer(name) for name in formats}
    claimed: dict[Path, str] = {}
    for path in find_sources(paths):
        result = SourceResult(path.as_posix())
        try:
            result.quiz = read_source(path)
        except SourceError as exc:
            result.diagnostics += exc.diagnostics
            yield result
            continue
        except registry.UnknownFormat as exc:
            result.diagnostics.append(Diagnostic("E002", str(exc), SourceSpan(result.source)))
            yield result
            continue
        planned = []
        for name, (module, options) in writers.items():
            package = module.write(result.quiz, options)
            result.diagnostics += package.warnings
            target = output_path(out_dir, result.quiz, name, package, len(writers) > 1)
            findings = validate_files(package.files, source=target.as_posix())
            if findings:
                raise OutputInvalid(findings)
            planned.append((target, package))
        for target, _ in planned:
            owner = claimed.setdefault(target, result.source)
            if owner != result.source:
                result.diagnostics.append(
                    Diagnostic(
                        "E003",
                        f"quiz id {result.quiz.id!r} is also the id of {owner}; both would write {target}",
                        SourceSpan(result.source),
                        "give one of them its own id in its header (id: ...)",
                    )
                )
        if not result.failed:
            for target, package in planned:
                write_atomic(target, package.to_bytes())
                result.written.append(target)
        yield result


def build_bank(paths: list[Path], name: str, out_dir: Path) -> Iterator[SourceResult]:
    """Build every source under `paths` into one Moodle question bank, `out/<name>.moodle.xml`.

    Every source is read first; the bank (a category per quiz) is written only if all of
    them were, since a bank missing a quiz would silently replace a complete one.
    """
    module, options = registry.writer("moodle")
    results = [_read_result(path) for path in find_sources(paths)]
    owners: dict[str, str] = {}
    for result in (r for r in results if r.quiz is not None):
        owner = owners.setdefault(result.quiz.id, result.source)
        if owner != result.source:
            result.diagnostics.append(
                Diagnostic("E003", f"quiz id {result.quiz.id!r} is also the id of {owner}; both would go into "
                           f"the bank {name!r}", SourceSpan(result.source),
                           "give one of them its own id in its header (id: ...)")
            )
    if results and not any(result.failed for result in results):
        package = module.write_bank([result.quiz for result in results], name, options)
        target = out_dir / f"{name}{package.extension}"
        findings = validate_files(package.files, source=target.as_posix())
        if findings:
            raise OutputInvalid(findings)
        by_source = {result.source: result for result in results}
        for warning in package.warnings:
            by_source.get(warning.span.source, results[-1]).diagnostics.append(warning)
        write_atomic(target, package.to_bytes())
        results[-1].written.append(target)
    yield from results


def _read_result(path: Path) -> SourceResult:
    """One source read into the model, or the diagnostics that say why it was not."""
    result = SourceResult(path.as_posix())
    try:
        result.quiz = read_source(path)
    except SourceError as exc:
        result.diagnostics += exc.diagnostics
    except registry.UnknownFormat as exc:
        result.diagnostics.append(Diagnostic("E002", str(exc), SourceSpan(result.source)))
    return result
