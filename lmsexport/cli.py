"""The `lmsexport` command: a thin click layer over the library; the only code that prints.

Exit codes (documented in README.md):
  0  everything built or validated
  1  a source has errors, or a validated file does not conform
  2  usage error (unknown option, missing path, unknown format)
  3  lmsexport wrote output that fails its own schema: a bug, please report it
  4  unexpected internal error (rerun with --debug for the traceback)
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import click

from . import __version__, registry

EXIT_INVALID_OUTPUT = 3
EXIT_INTERNAL = 4


def _echo_diagnostics(diagnostics) -> None:
    for diagnostic in diagnostics:
        click.echo(diagnostic.render(), err=True)


class _Group(click.Group):
    """Turns a broken pipe into a quiet exit and any unexpected error into one line."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except (click.ClickException, click.exceptions.Exit, click.Abort):
            raise
        except BrokenPipeError:
            sys.stderr.close()  # `lmsexport formats | head` is not an error
            raise click.exceptions.Exit(0) from None
        except Exception as exc:
            if ctx.obj and ctx.obj.get("debug"):
                raise
            click.echo(f"lmsexport: internal error: {type(exc).__name__}: {exc}", err=True)
            click.echo("rerun with --debug for the details, and please report it", err=True)
            raise click.exceptions.Exit(EXIT_INTERNAL) from None


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "-V", "--version", prog_name="lmsexport")
@click.option("--debug", is_flag=True, help="Show tracebacks of unexpected errors.")
@click.pass_context
def main(ctx: click.Context, debug: bool) -> None:
    """Turn quiz sources into packages an LMS imports (QTI 2.1, Moodle XML, SCORM),
    each validated against its official schema before it is written."""
    ctx.obj = {"debug": debug}


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def _formats(ctx, param, value: str) -> list[str]:
    names = [name.strip() for name in value.split(",") if name.strip()]
    for name in names:
        if name not in registry.WRITERS:
            raise click.BadParameter(
                f"unknown format {name!r}; choose from {', '.join(registry.WRITERS)} "
                "(see lmsexport formats)"
            )
    return list(dict.fromkeys(names))


@main.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option(
    "-f",
    "--format",
    "format_",
    required=True,
    metavar="FORMAT",
    callback=_formats,
    help="Output format, or a comma-separated list (see `lmsexport formats`).",
)
@click.option(
    "-o",
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("dist"),
    show_default=True,
    help="Folder the packages are written to.",
)
@click.option(
    "--bank",
    metavar="NAME",
    help="With --format moodle: one question bank OUT/NAME.moodle.xml holding every quiz, a category each.",
)
def build(paths: tuple[Path, ...], format_: list[str], out: Path, bank: str | None) -> None:
    """Build packages from quiz files and folders of them.

    Folders are searched for sources (.txt, .quiz, .json, .xml). Each quiz becomes
    OUT/<quiz id><extension>; with several formats, OUT/<format>/<quiz id><extension>.
    A source with errors is reported with file, line and a hint, and nothing is
    written for it; the other sources are still built. With --bank, nothing is
    written unless every source is read.
    """
    from .model import is_identifier
    from .pipeline import OutputInvalid, build as run_build, build_bank, find_sources

    if bank is not None and format_ != ["moodle"]:
        raise click.UsageError("--bank writes one Moodle question bank: use it with --format moodle alone")
    if bank is not None and not is_identifier(bank):
        raise click.BadParameter("it names the file: use ASCII letters, digits, - _ and ., starting with a letter",
                                 param_hint="'--bank'")
    try:
        find_sources(list(paths))
    except FileNotFoundError as exc:
        raise click.UsageError(str(exc)) from None
    started = time.perf_counter()
    counts = {"quizzes": 0, "questions": 0, "written": 0, "failed": 0}
    results = run_build(list(paths), format_, out) if bank is None else build_bank(list(paths), bank, out)
    try:
        for result in results:
            _echo_diagnostics(result.diagnostics)
            if result.failed:
                counts["failed"] += 1
                continue
            counts["quizzes"] += 1
            counts["questions"] += len(result.quiz.questions)
            for target in result.written:
                counts["written"] += 1
                click.echo(f"wrote {target.as_posix()}")
    except OutputInvalid as exc:
        _echo_diagnostics(exc.diagnostics)
        click.echo("lmsexport: the output above fails its schema; this is a bug, please report it", err=True)
        sys.exit(EXIT_INVALID_OUTPUT)
    seconds = time.perf_counter() - started
    summary = (
        f"{counts['quizzes']} built, {counts['failed']} failed: {_plural(counts['questions'], 'question')}, "
        f"{_plural(counts['written'], 'file')} written in {seconds:.2f} s"
    )
    click.echo(summary, err=True)
    if counts["failed"]:
        sys.exit(1)


@main.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False, path_type=Path))
def validate(files: tuple[Path, ...]) -> None:
    """Check packages and files against the official schemas.

    Takes QTI 2.1 and SCORM packages (.zip), QTI 2.1 XML, IMS manifests, Moodle XML
    and lmsexport model JSON, written by lmsexport or by any other tool.
    """
    from .validation import validate_bytes

    failed = 0
    for path in files:
        findings = validate_bytes(path.read_bytes(), source=path.as_posix())
        if findings:
            failed += 1
            _echo_diagnostics(findings)
            click.echo(f"invalid: {path.as_posix()} ({len(findings)} problem(s))")
        else:
            click.echo(f"valid: {path.as_posix()}")
    if failed:
        sys.exit(1)


@main.command()
def formats() -> None:
    """List the output formats (for --format) and the source formats read."""
    click.echo("Output formats:")
    for name, (_, _, description) in registry.WRITERS.items():
        click.echo(f"  {name:<10} {description}")
    click.echo("Source files read:")
    for suffix, name in registry.READER_EXTENSIONS.items():
        click.echo(f"  {suffix:<10} {name}")


def _rule_codes(ctx, param, values: tuple[str, ...]) -> list[str]:
    from .check import BY_CODE, unknown_codes

    codes = [code.strip().upper() for value in values for code in value.split(",") if code.strip()]
    unknown = unknown_codes(codes)
    if unknown:
        raise click.BadParameter(
            f"no lint rule {', '.join(unknown)}; the rules are {', '.join(BY_CODE)} (see docs/lint.md)"
        )
    return codes


@main.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option(
    "-f",
    "--format",
    "format_",
    type=click.Choice(["text", "json", "sarif"]),
    default="text",
    show_default=True,
    help="Report format; sarif is for code-scanning annotations in CI.",
)
@click.option(
    "--ignore",
    multiple=True,
    metavar="CODES",
    callback=_rule_codes,
    help="Rules to switch off for this run, comma-separated (L012,L031); may be repeated.",
)
@click.option("--strict", is_flag=True, help="Exit 1 on warnings too, not only on errors.")
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write the report to this file instead of standard output.",
)
def lint(paths: tuple[Path, ...], format_: str, ignore: list[str], strict: bool, output: Path | None) -> None:
    """Check quizzes for what breaks them before a learner sees it.

    Leaked translation placeholders, text left in English, answer patterns a learner
    can guess, repeated questions, text an LMS cuts, and more: every rule, with an
    example, is in docs/lint.md. Folders are searched for sources as by build; a
    source that cannot be read is reported and the others are still checked.
    Exit status 1 when there are errors (with --strict, warnings too).
    """
    from .check import check
    from .diagnostics import Diagnostic, SourceError, SourceSpan
    from .lintreport import RENDERERS, counts
    from .pipeline import find_sources, read_source

    try:
        sources = find_sources(list(paths))
    except FileNotFoundError as exc:
        raise click.UsageError(str(exc)) from None
    quizzes, names, diagnostics = [], [], []
    for path in sources:
        try:
            quizzes.append(read_source(path))
            names.append(path.as_posix())
        except SourceError as exc:
            diagnostics += exc.diagnostics
        except registry.UnknownFormat as exc:
            diagnostics.append(Diagnostic("E002", str(exc), SourceSpan(path.as_posix())))
    diagnostics += check(quizzes, ignore=ignore, sources=names)
    order = {path.as_posix(): position for position, path in enumerate(sources)}
    diagnostics.sort(key=lambda d: order.get(d.span.source, len(order)))
    report = RENDERERS[format_](diagnostics)
    if output is None:
        click.echo(report, nl=False)
    else:
        output.write_text(report, encoding="utf-8")
    found = counts(diagnostics)
    click.echo(
        f"{_plural(len(sources), 'source')} checked: "
        f"{_plural(found['error'], 'error')}, {_plural(found['warning'], 'warning')}",
        err=True,
    )
    if found["error"] or (strict and found["warning"]):
        sys.exit(1)
