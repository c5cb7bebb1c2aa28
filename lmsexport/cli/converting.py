"""`lmsexport convert`: one quiz file into one file in another format (docs/convert.md)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from .. import formats as registry
from ..batch.files import source_name
from ..diagnostics import SourceError
from .console import EXIT_INVALID_OUTPUT, _echo_diagnostics
from .options import _source_format


def _one_format(ctx, param, value: str) -> str:
    known = registry.flavours()
    if value not in known:
        raise click.BadParameter(f"unknown output format {value!r}; choose one of {', '.join(known)} "
                                 "(see lmsexport formats)")
    return value


@click.command()
@click.argument("source", metavar="IN", type=click.Path(exists=True, dir_okay=False, allow_dash=True, path_type=Path))
@click.option("-t", "--to", "target_format", required=True, metavar="FORMAT", callback=_one_format,
              help="Output format: qti, canvas, moodle, scorm12, scorm2004, json or text (see lmsexport formats).")
@click.option("--from", "source_format", metavar="FORMAT", callback=_source_format,
              help="Read IN as this format (lmsexport formats lists them) instead of by its suffix and "
                   "content (needed for standard input that does not tell).")
@click.option("-o", "--output", type=click.Path(allow_dash=True, path_type=Path),
              help="File (or folder) to write; - for standard output (text, json, moodle).  "
                   "[default: <quiz id><extension> in the current folder]")
def convert(source: Path, target_format: str, source_format: str | None, output: Path | None) -> None:
    """Convert one quiz file into one file in another format.

    IN is a quiz in any format lmsexport reads (- for standard input); the output is one
    file in any format it writes, `text` included, which makes any import an editable quiz
    (docs/convert.md). It is validated before it is written; what a format cannot carry is
    warned about. A text quiz's images are written beside it. Exit status 1 when the source
    has errors.
    """
    from ..batch.conversion import NotConvertible, convert_data, save, target
    from ..batch.pipeline import OutputInvalid

    stdin = source.as_posix() == "-"
    try:
        data = click.get_binary_stream("stdin").read() if stdin else None
        conversion = convert_data(data, target_format, path=None if stdin else source, chosen=source_format)
    except (NotConvertible, registry.UnknownFormat) as exc:
        raise click.UsageError(str(exc)) from None
    except SourceError as exc:
        _echo_diagnostics(exc.diagnostics)
        sys.exit(1)
    except OutputInvalid as exc:
        _echo_diagnostics(exc.diagnostics)
        click.echo("lmsexport: the output above fails its schema; this is a bug, please report it", err=True)
        sys.exit(EXIT_INVALID_OUTPUT)
    package = conversion.package
    if output is not None and output.as_posix() == "-":
        if package.zipped:
            raise click.UsageError(f"a {target_format} package is a zip: write it to a file with -o FILE "
                                   "(standard output takes text, json and moodle)")
        _echo_diagnostics(conversion.warnings)
        if package.companions:
            click.echo(f"lmsexport: {', '.join(sorted(package.companions))} not written (standard output takes "
                       "one file): write to a file with -o FILE to get the images beside it", err=True)
        click.get_binary_stream("stdout").write(package.to_bytes())
        return
    _echo_diagnostics(conversion.warnings)
    path = target(conversion, output)
    try:
        written = save(conversion, path, None if stdin else source)
    except NotConvertible as exc:
        raise click.UsageError(str(exc)) from None
    except SourceError as exc:
        _echo_diagnostics(exc.diagnostics)
        sys.exit(1)
    except OSError as exc:
        click.echo(f"lmsexport: cannot write {source_name(path)}: {exc.strerror or exc}", err=True)
        sys.exit(1)
    click.echo(f"converted {conversion.source} -> {', '.join(source_name(path) for path in written)}", err=True)
