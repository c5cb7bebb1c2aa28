"""lmsexport: quiz sources to QTI 2.1, Moodle XML and SCORM packages, schema-validated.

The Python API in five calls:

    import lmsexport
    quiz = lmsexport.read("quizzes/fsdp-yo.txt")          # -> Quiz (the model)
    package = lmsexport.write(quiz, "json")                # -> Package (files in memory)
    problems = lmsexport.validate(package)                 # -> [] when valid
    results = lmsexport.build(["quizzes"], ["qti"], "dist")  # read, write, validate, lint, save

Errors in sources raise `SourceError`, whose `diagnostics` say file, line and what to do.
"""

from __future__ import annotations

from pathlib import Path

from .diagnostics import Diagnostic, SourceError
from .model import Quiz
from ._version import __version__
from .package import Package

__all__ = ["Diagnostic", "Package", "Quiz", "SourceError", "build", "read", "validate", "write"]


def read(path: str | Path, data: str | bytes | None = None, *, format: str | None = None) -> Quiz:
    """Read a quiz from a file (or from `data`, with `path` naming it in messages).

    The reader is the one `format` names (`lmsexport formats`), else the one the file's
    suffix and content call for: a `.xml` may be Moodle XML or a QTI 2.1 item, a `.zip` a
    QTI 2.1 package."""
    from .batch.pipeline import read_source
    from .formats import reader, reader_for

    path = Path(path)
    if data is None:
        return read_source(path, format=format)
    sniffed = data.encode("utf-8") if isinstance(data, str) else data
    chosen = reader(format) if format else reader_for(path, sniffed)
    return chosen.read(data, source=path.as_posix())  # from memory: no folder to load images from


def write(quiz: Quiz, format: str) -> Package:
    """Write a quiz in a format named as on the command line (`lmsexport formats`)."""
    from .formats import writer

    module, options = writer(format)
    return module.write(quiz, options)


def validate(package: Package | str | Path) -> list[Diagnostic]:
    """Check a package in memory, or a file on disk, against the official schemas."""
    from .validation import validate_bytes, validate_files

    if isinstance(package, Package):
        return validate_files(package.files, source="<package>")
    path = Path(package)
    return validate_bytes(path.read_bytes(), source=path.as_posix())


def build(paths, formats, out_dir, **options):
    """Build every source under `paths` into `out_dir`: one result per source.

    `options` are those of `lmsexport.batch.pipeline.BuildSettings` (jobs, force, fail_fast,
    bank, lint, lint_ignore, strict, defaults)."""
    from .batch.pipeline import build as run_build

    return run_build([Path(p) for p in paths], list(formats), Path(out_dir), **options)
