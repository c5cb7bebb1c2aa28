"""lmsexport: quiz sources to QTI 2.1, Moodle XML and SCORM packages, schema-validated.

The Python API in six calls:

    import lmsexport
    quiz = lmsexport.read("quizzes/fsdp-yo.txt")          # -> Quiz (the model)
    package = lmsexport.write(quiz, "json")                # -> Package (files in memory)
    problems = lmsexport.validate(package)                 # -> [] when valid
    results = lmsexport.build(["quizzes"], ["qti"], "dist")  # read, write, validate, lint, save
    path = lmsexport.convert("bank.moodle.xml", "text")    # one file in, one file out: bank.txt

Errors in sources raise `SourceError`, whose `diagnostics` say file, line and what to do.
"""

from __future__ import annotations

import importlib
import warnings
from pathlib import Path
from typing import TYPE_CHECKING

from ._version import __version__

if TYPE_CHECKING:
    from .diagnostics import ConversionWarning, Diagnostic, Log, SourceError
    from .model import Quiz
    from .package import Package

__all__ = ["ConversionWarning", "Diagnostic", "Log", "Package", "Quiz", "SourceError", "__version__", "build",
           "convert", "read", "validate", "write"]

_LAZY = {"ConversionWarning": "diagnostics", "Diagnostic": "diagnostics", "Log": "diagnostics",
         "SourceError": "diagnostics", "Quiz": "model", "Package": "package"}
"""The API's classes, imported when first asked for (PEP 562): every `lmsexport` command
imports this package, and `lmsexport --version` or `--help` needs none of the model."""


def __getattr__(name: str):
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


def read(path: str | Path, data: str | bytes | None = None, *, format: str | None = None,
         log: Log | None = None) -> Quiz:
    """Read a quiz from a file (or from `data`, with `path` naming it in messages).

    The reader is the one `format` names (`lmsexport formats`), else the one the file's
    suffix and content call for: a `.xml` may be Moodle XML or a QTI 2.1 item, a `.zip` a
    QTI 2.1 package. What the source holds that the model cannot (a question of an unknown
    type, a dropped feature) is a warning in `log`; without a log each is issued as a
    `ConversionWarning` (Python's `warnings`), never dropped."""
    from .batch.files import source_name
    from .batch.reading import read_source
    from .diagnostics import Log
    from .formats import reader, reader_for

    path = Path(path)
    caught = Log() if log is None else log
    if data is None:
        quiz = read_source(path, format=format, log=caught)
    else:
        sniffed = data.encode("utf-8") if isinstance(data, str) else data
        chosen = reader(format) if format else reader_for(path, sniffed)
        accepted = getattr(chosen, "READ_OPTIONS", ())
        # From memory: no folder to load images from.
        quiz = chosen.read(data, source=source_name(path), **({"log": caught} if "log" in accepted else {}))
    _warn(caught, log)
    return quiz


def _warn(caught: Log, log: Log | None) -> None:
    """Without a log of the caller's, each warning is issued as a ConversionWarning."""
    from .diagnostics import ConversionWarning

    if log is None:
        for diagnostic in caught.diagnostics:
            warnings.warn(diagnostic.render(), ConversionWarning, stacklevel=3)


def write(quiz: Quiz, format: str) -> Package:
    """Write a quiz in a format named as on the command line (`lmsexport formats`)."""
    from .formats import writer

    module, options = writer(format)
    return module.write(quiz, options)


def convert(path: str | Path, to: str, out: str | Path | None = None, *, data: str | bytes | None = None,
            format: str | None = None, log: Log | None = None) -> Path:
    """Convert one quiz file into one file in the format `to` (a `--format` name, `text`
    included), as `lmsexport convert` does, and return the path written.

    The file goes to `out`, or into `out` if it is a folder, else to `<quiz id><extension>` in
    the current folder; a text quiz's images go beside it. It is validated before it is written,
    atomically. `data` and `format` are as for `read()`; what the source or the target format
    cannot carry is a warning in `log` (else a `ConversionWarning`). Raises SourceError for a bad
    source."""
    from .batch.conversion import convert_data, save, target
    from .diagnostics import Log

    path = Path(path)
    caught = Log() if log is None else log
    content = data.encode("utf-8") if isinstance(data, str) else data
    conversion = convert_data(content, to, path=path, chosen=format, log=caught)
    caught.diagnostics += conversion.package.warnings
    written = target(conversion, None if out is None else Path(out))
    save(conversion, written, path if data is None else None)
    _warn(caught, log)
    return written


def validate(package: Package | str | Path) -> list[Diagnostic]:
    """Check a package in memory, or a file on disk, against the official schemas."""
    from .package import Package
    from .validation import validate_bytes, validate_files

    if isinstance(package, Package):
        return validate_files(package.files, source="<package>")
    from .batch.files import SOURCE_LIMIT, read_regular, source_name

    path = Path(package)
    return validate_bytes(read_regular(path, SOURCE_LIMIT), source=source_name(path))


def build(paths, formats, out_dir, **options):
    """Build every source under `paths` into `out_dir`: one result per source.

    `options` are those of `lmsexport.batch.pipeline.BuildSettings` (jobs, force, fail_fast,
    bank, lint, lint_ignore, strict, defaults, source_format)."""
    from .batch.builds import build as run_build

    return run_build([Path(p) for p in paths], list(formats), Path(out_dir), **options)
