"""`convert`: one quiz file in, one file out, in any format that has a writer (docs/convert.md).

The library side of `lmsexport convert` and `lmsexport.convert()`; it never prints. A source is
read as `build` reads it (its format from `--from`, else its suffix and content; the nearest
lmsexport.toml's `[defaults]`), written in memory, validated like a build's packages, and only
then put on disk atomically: the file, and beside it the images a text quiz shows
(`Package.companions`). Standard input has no name, so its content alone decides its format.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from .. import formats as registry
from ..diagnostics import Diagnostic, Log, SourceError, SourceSpan
from ..model import Quiz
from ..package import Package, write_atomic
from ..validation import validate_files
from . import config
from .files import SOURCE_LIMIT, read_regular, source_name
from .pipeline import OutputInvalid, unspooled
from .reading import read_source, unreadable

STDIN = "<stdin>"
"""How standard input is named in messages."""


class NotConvertible(ValueError):
    """A conversion that cannot be made as asked (a usage error, not a problem of the source)."""


@dataclass
class Conversion:
    """A quiz written in memory, valid, with every warning of its reading and writing."""

    source: str
    quiz: Quiz
    package: Package
    warnings: list[Diagnostic] = field(default_factory=list)


def source_format(data: bytes, path: Path | None, chosen: str | None) -> str:
    """The format to read: `chosen` (--from), else the file's suffix and content, else (standard
    input) the content alone, which must be clearly of one format."""
    if chosen is not None:
        registry.reader(chosen)  # an unknown name is refused here, before anything is read
        return chosen
    if path is not None:
        return registry.detect(path, data)[0]
    name, score = registry.detect_content(data)
    if score < registry.SNIFF_QUIZ:
        raise NotConvertible("cannot tell the format of standard input: name it with --from "
                             f"({', '.join(registry.readable())})")
    return name


def convert_data(data: bytes | None, to: str, *, path: Path | None = None, chosen: str | None = None,
                 log: Log | None = None) -> Conversion:
    """Read `data` (or the file at `path` when None; standard input has no path), write it as
    `to` (a `--format` name) and validate it. Raises SourceError for a bad source, NotConvertible,
    registry.UnknownFormat, and OutputInvalid when lmsexport's own output fails its schema."""
    module, options = registry.writer(to)
    if data is None:
        try:
            data = read_regular(path, SOURCE_LIMIT)
        except OSError as exc:
            raise unreadable(source_name(path), exc) from None
    name = path if path is not None else Path(STDIN)
    folder = (path.parent if path is not None else Path.cwd()).resolve()
    log = Log() if log is None else log
    quiz = read_source(name, data, config.nearest(folder).defaults, source_format(data, path, chosen), log)
    del data  # read from `path`, a 200 MB bank's bytes, let go before the quiz is written
    try:
        package = module.write(quiz, options)
    except OSError as exc:
        raise SourceError([unspooled(source_name(name) if path is not None else STDIN, to, exc)]) from None
    findings = validate_files(package.files, source=f"{quiz.id}{package.extension}")
    if findings:
        raise OutputInvalid(findings)
    return Conversion(source_name(name) if path is not None else STDIN, quiz, package,
                      [*log.diagnostics, *package.warnings])


def target(conversion: Conversion, out: Path | None) -> Path:
    """Where the file goes: `out`, inside `out` if it is a folder, else `<quiz id><extension>` here."""
    name = f"{conversion.quiz.id}{conversion.package.extension}"
    if out is None:
        return Path(name)
    return out / name if out.is_dir() else out


def save(conversion: Conversion, path: Path, source: Path | None) -> list[Path]:
    """Write the converted file to `path`, and its companions beside it; the paths written.

    Refuses to write over the source itself (a conversion is a new file), and over a file
    beside it that holds other content than a companion of that name (a SourceError naming
    each, before anything is written), as a build refuses two images of one name (E003); an
    identical one is left alone."""
    if source is not None and path.resolve() == source.resolve():
        raise NotConvertible(f"{path.as_posix()} is the file being converted: name another with -o")
    companions = sorted((path.parent / relative, relative, content)
                        for relative, content in conversion.package.companions.items())
    clashes = [_clash(conversion, companion, relative) for companion, relative, content in companions
               if not _holds(companion, content)]
    if clashes:
        raise SourceError(clashes)
    write_atomic(path, conversion.package.to_bytes())
    for companion, _, content in companions:
        if not companion.exists():
            write_atomic(companion, content)
    return [path, *(companion for companion, _, _ in companions)]


def _holds(path: Path, content: bytes) -> bool:
    """Whether `path` is free for `content`: nothing there yet, or a file with exactly those bytes."""
    if not path.exists() and not path.is_symlink():
        return True
    return path.is_file() and path.stat().st_size == len(content) and path.read_bytes() == content


def _clash(conversion: Conversion, companion: Path, relative: str) -> Diagnostic:
    """Why a companion is not written: located where the source first mentions it (an image), else at the source."""
    mentions = {asset.path: asset.source for asset in conversion.quiz.assets if asset.source is not None}
    return Diagnostic("E003", f"{source_name(companion)} is already there with other content, and this conversion "
                      f"would write its {relative} over it", mentions.get(relative, SourceSpan(conversion.source)),
                      "move or rename that file, or write the conversion into another folder with -o")
