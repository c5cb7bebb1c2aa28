"""The `lmsexport` command: a thin click layer over the library; the only code that prints.

Exit codes (documented in README.md):
  0  everything built or validated
  1  a source has errors, or a validated file does not conform
  2  usage error (unknown option, missing path, unknown format)
  3  lmsexport wrote output that fails its own schema: a bug, please report it
  4  unexpected internal error (rerun with --debug for the traceback)
"""

from __future__ import annotations

import gc
import os
import sys
import time
from pathlib import Path

import click

from . import formats as registry
from ._version import __version__
from .batch.files import source_name
from .diagnostics import Severity, SourceError

EXIT_INVALID_OUTPUT = 3
EXIT_INTERNAL = 4


def run() -> None:
    """The console script and `python -m lmsexport`: `main()`, with the cyclic garbage collector
    run less often (in a build of 2,000 questions it ran 206 times to free 1,500 objects of
    the hundreds of thousands it walked: ~15 ms of a 0.6 s run),
    then an exit that skips the interpreter's teardown: a build of 2,000 questions leaves
    ~100,000 objects, which the OS reclaims at once and Python would free one by one (~35 ms)."""
    gc.set_threshold(100_000, 50, 50)  # as mypy does: a run makes objects in the 100,000s, few cycles
    try:
        main(prog_name="lmsexport")
        code = 0
    except SystemExit as exc:
        code = exc.code
    if code is not None and not isinstance(code, int):
        print(code, file=sys.stderr)  # what Python does with sys.exit("message")
        code = 1
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass  # closed, or a reader that went away (`lmsexport formats | head`)
    os._exit(code or 0)


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
    """Turn quiz sources into packages an LMS imports (QTI 2.1, Canvas QTI 1.2, Moodle XML,
    SCORM), each validated against its official schema before it is written."""
    ctx.obj = {"debug": debug}


def _format_names(ctx, param, values: tuple[str, ...]) -> list[str]:
    names = [name.strip() for value in values for name in value.split(",") if name.strip()]
    try:
        return registry.expand_formats(names)
    except registry.UnknownFormat as exc:
        raise click.BadParameter(f"{exc} (see lmsexport formats)") from None


def _source_format(ctx, param, value: str | None) -> str | None:
    if value is None:
        return None
    readable = registry.readable()
    if value not in readable:
        raise click.BadParameter(f"unknown input format {value!r}; choose from {', '.join(readable)} "
                                 "(see lmsexport formats)")
    return value


def _load_config(path: Path | None):
    from .batch import config

    path = path or Path(config.FILE_NAME)
    if not path.is_file():
        return config.Config()
    try:
        return config.load(path)
    except SourceError as exc:
        _echo_diagnostics(exc.diagnostics)
        sys.exit(1)


def _rule_codes(ctx, param, values: tuple[str, ...]) -> list[str]:
    if not values:
        return []  # without importing the rules: a build lints in a child process
    from .rules.runner import BY_CODE, unknown_codes

    codes = [code.strip().upper() for value in values for code in value.split(",") if code.strip()]
    unknown = unknown_codes(codes)
    if unknown:
        raise click.BadParameter(
            f"no lint rule {', '.join(unknown)}; the rules are {', '.join(BY_CODE)} (see docs/lint.md)"
        )
    return codes


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


class _Progress:
    """A progress bar on a terminal while sources are made (not with -q or -v)."""

    def __init__(self, total: int, quiet: bool, verbose: bool):
        self.bar = None
        if not quiet and not verbose and sys.stderr.isatty() and total > 1:
            self.bar = click.progressbar(length=total, label="building", file=sys.stderr)
            self.bar.__enter__()

    def __call__(self, result) -> None:
        if self.bar is not None:
            self.bar.update(1)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.__exit__(None, None, None)


def _not_a_quiz(source: str) -> str:
    return f"skipped {source}: not a quiz in any format lmsexport reads (name it on the command line to see why)"


def _echo_result(result, verbose: bool) -> None:
    """What happened to one source: its problems, then one line (not for failures)."""
    _echo_diagnostics(result.diagnostics)
    if result.failed:
        return
    if result.ignored:
        click.echo(_not_a_quiz(result.source))
        return
    if result.skipped:
        click.echo(f"up to date {result.source}")
        return
    timing = f" in {result.seconds:.2f} s" if verbose else ""
    click.echo(f"built {result.source} -> {', '.join(source_name(t) for t in result.written)}{timing}")


@main.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("-f", "--format", "formats", multiple=True, metavar="FORMAT", callback=_format_names,
              help="Output format (lmsexport formats lists them), or all; repeat or use a comma list. "
                   "Default: `formats` in lmsexport.toml.")
@click.option("-o", "--out", type=click.Path(file_okay=False, path_type=Path),
              help="Folder the packages are written to.  [default: `out` in lmsexport.toml, else dist]")
@click.option("-j", "--jobs", type=click.IntRange(min=1),
              help="Sources built in parallel.  [default: the number of cores]")
@click.option("--force", is_flag=True, help="Rebuild sources whose packages are up to date.")
@click.option("--fail-fast", is_flag=True, help="Stop at the first source with errors.")
@click.option("--report", type=click.Path(dir_okay=False, path_type=Path),
              help="Write a JSON account of the run (per source: outputs, hashes, warnings, errors, timings).")
@click.option("--config", "config_path", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="Settings file.  [default: ./lmsexport.toml if there is one]")
@click.option("--strict", is_flag=True, help="Warnings (lint findings included) fail a source: nothing is written for it.")
@click.option("--ignore", multiple=True, metavar="CODES", callback=_rule_codes,
              help="Lint rules to switch off for this run, comma-separated (L012,L031).")
@click.option("--no-lint", is_flag=True, help="Do not run lmsexport lint's checks.")
@click.option("--bank", metavar="NAME",
              help="With --format moodle: one question bank OUT/NAME.moodle.xml holding every quiz, a category each.")
@click.option("--from", "source_format", metavar="FORMAT", callback=_source_format,
              help="Read every source as this format (lmsexport formats lists them) instead of by its "
                   "suffix and content.")
@click.option("-q", "--quiet", is_flag=True, help="Print only problems.")
@click.option("-v", "--verbose", is_flag=True, help="One line per source even on a terminal, with its timing.")
@click.option("--watch", is_flag=True,
              help="After building, watch the sources and rebuild each one that changes (one line per rebuild), "
                   "until Ctrl-C.")
def build(paths, formats, out, jobs, force, fail_fast, report, config_path, strict, ignore, no_lint, bank,
          source_format, quiet, verbose, watch) -> None:
    """Build packages from quiz files and folders of them.

    Folders are searched for sources (the suffixes lmsexport formats lists), never the
    output folder nor another build's; a file's content decides its format where a suffix
    is shared (a .xml is Moodle XML or a QTI item, a .txt lmsexport text or GIFT), unless
    --from names it. A file found in a folder that is no quiz at all (a README.txt) is
    skipped with a note. Each quiz becomes
    OUT/<quiz id><extension>; with several formats, OUT/<format>/<quiz id><extension>.
    A source with errors is reported with file, line and a hint, and nothing is
    written for it; the other sources are still built (exit status 1). Sources
    whose text, settings and lmsexport version are unchanged since the last build
    into OUT are not rebuilt (see --force). With --bank, nothing is written
    unless every source is read. With --watch, build keeps running: each time a
    source (or an image or lmsexport.toml it uses) changes, what changed is built
    again, errors included, until Ctrl-C (exit status 0).
    """
    from .ids import ID_LIMIT
    from .model import is_identifier
    from .batch.builds import builder
    from .batch.pipeline import BuildSettings, OutputInvalid
    from .batch.report import summary
    from .batch.sources import find_sources

    settings_file = _load_config(config_path)
    formats = formats or list(settings_file.formats)
    if not formats:
        raise click.UsageError("choose an output format with --format (see lmsexport formats)")
    try:
        formats = registry.expand_formats(formats)
        out_dir = out or settings_file.out or Path("dist")
        sources = find_sources(list(paths), out_dir)
    except (registry.UnknownFormat, FileNotFoundError) as exc:
        raise click.UsageError(str(exc)) from None
    if bank is not None and (len(formats) != 1 or formats[0] not in registry.banks()):
        raise click.UsageError(f"--bank writes every quiz into one file: use it with --format "
                               f"{' or '.join(registry.banks())} alone")
    if bank is not None and not (is_identifier(bank) and len(bank) <= ID_LIMIT):
        raise click.BadParameter(f"it names the file: use at most {ID_LIMIT} ASCII letters, digits, - _ and ., "
                                 "starting with a letter", param_hint="'--bank'")
    settings = BuildSettings(
        formats=tuple(formats),
        out_dir=out_dir,
        jobs=jobs or settings_file.jobs or os.cpu_count() or 1,
        force=force,
        fail_fast=fail_fast,
        defaults=settings_file.defaults,
        bank=bank,
        lint=not no_lint,
        lint_ignore=tuple(ignore),
        strict=strict,
        source_format=source_format,
    )
    started = time.perf_counter()
    progress = _Progress(len(sources), quiet, verbose)
    try:
        results = builder(settings).run(list(paths), on_made=progress)
    except OutputInvalid as exc:
        progress.close()
        _echo_invalid(exc)
        if not watch:
            sys.exit(EXIT_INVALID_OUTPUT)
        results = []
    progress.close()
    if not quiet or any(result.diagnostics for result in results):
        for result in results:
            if quiet:
                _echo_diagnostics(result.diagnostics)
            else:
                _echo_result(result, verbose)
    seconds = time.perf_counter() - started
    reported = _write_report(report, results, formats, seconds) if report else True
    if not quiet:
        click.echo(summary(results, seconds), err=True)
    if any(result.output_invalid for result in results):
        _echo_invalid_written()
        if not watch:
            sys.exit(EXIT_INVALID_OUTPUT)
    if watch:
        _rebuild_on_change(settings, list(paths), report)
    elif not reported or any(result.failed for result in results):
        sys.exit(1)


def _echo_invalid(exc) -> None:
    _echo_diagnostics(exc.diagnostics)
    click.echo("lmsexport: the output above fails its schema; this is a bug, please report it", err=True)


def _echo_invalid_written() -> None:
    click.echo("lmsexport: a package written above fails its own schema; this is a bug, please report it", err=True)


def _save(path: Path, content: bytes) -> bool:
    """Write a file the command line named (a report, an answer key, a conversion): one that
    cannot be written (a folder in the way, no permission, a full disk) is one line and exit
    status 1, as a package that cannot be written is, not an internal error."""
    from .package import write_atomic

    try:
        write_atomic(path, content)
    except OSError as exc:
        click.echo(f"lmsexport: cannot write {source_name(path)}: {exc.strerror or exc}", err=True)
        return False
    return True


def _write_report(report: Path, results, formats, seconds: float) -> bool:
    from .batch.report import to_json

    return _save(report, to_json(results, formats, seconds).encode("utf-8"))


def _echo_rebuild(result) -> None:
    """`build --watch`: a rebuilt source's problems, then its one line (with the time of day)."""
    _echo_diagnostics(result.diagnostics)
    now = time.strftime("%H:%M:%S")
    if result.output_invalid:
        _echo_invalid_written()
    if result.failed:
        errors = sum(d.severity == Severity.ERROR for d in result.diagnostics)
        click.echo(f"{now} failed {result.source}: {_plural(errors, 'error')}")
        return
    warnings = f" ({_plural(len(result.warnings), 'warning')})" if result.warnings else ""
    click.echo(f"{now} rebuilt {result.source} -> {', '.join(source_name(t) for t in result.written)}{warnings}")


def _rebuild_on_change(settings, paths: list[Path], report: Path | None) -> None:
    """`build --watch`: build again after each batch of changes (only what changed is rebuilt:
    the incremental state knows the rest is up to date), whatever went wrong, until Ctrl-C."""
    from .batch.builds import builder
    from .batch.pipeline import OutputInvalid
    from .preview.watch import Watcher

    watcher = Watcher(paths, ignore=(settings.out_dir,))
    click.echo(f"watching {', '.join(source_name(p) for p in paths)} for changes (Ctrl-C to stop)", err=True)
    try:
        for _ in watcher:
            started = time.perf_counter()
            try:
                results = builder(settings).run(paths)
            except OutputInvalid as exc:
                _echo_invalid(exc)
                continue
            except OSError as exc:  # a source folder removed, an output folder not writable
                click.echo(f"lmsexport: {exc}", err=True)
                continue
            for result in results:
                if not result.skipped:
                    _echo_rebuild(result)
            if report:
                _write_report(report, results, settings.formats, time.perf_counter() - started)
    except KeyboardInterrupt:
        pass
    finally:
        watcher.stop()
    click.echo("stopped watching", err=True)


def _one_format(ctx, param, value: str) -> str:
    known = registry.flavours()
    if value not in known:
        raise click.BadParameter(f"unknown output format {value!r}; choose one of {', '.join(known)} "
                                 "(see lmsexport formats)")
    return value


@main.command()
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
    from .batch.conversion import NotConvertible, convert_data, save, target
    from .batch.pipeline import OutputInvalid

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


@main.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True, path_type=Path))
@click.option("-j", "--jobs", type=click.IntRange(min=1), help="Files checked in parallel.  [default: the number of cores]")
@click.option("-q", "--quiet", is_flag=True, help="Print only problems.")
def validate(paths: tuple[Path, ...], jobs: int | None, quiet: bool) -> None:
    """Check packages and files against the official schemas.

    Takes QTI 2.1, Canvas QTI 1.2 and SCORM packages (.zip), QTI 2.1 and QTI 1.2 XML,
    IMS manifests, Moodle XML and lmsexport model JSON, written by lmsexport or by any
    other tool; folders are searched for .zip, .xml and .json files.
    """
    from .batch.pipeline import validate_paths

    failed = 0
    for path, findings in validate_paths(list(paths), jobs or os.cpu_count() or 1):
        if findings:
            failed += 1
            _echo_diagnostics(findings)
            click.echo(f"invalid: {source_name(path)} ({len(findings)} problem(s))")
        elif not quiet:
            click.echo(f"valid: {source_name(path)}")
    if failed:
        sys.exit(1)


@main.command()
def formats() -> None:
    """List the output formats (for --format) and the source formats read."""
    click.echo("Output formats (--format):")
    for name, (_, flavour) in registry.flavours().items():
        click.echo(f"  {name:<10} {flavour.description}")
    click.echo(f"  {'all':<10} {', '.join(registry.everything())}")
    click.echo("Source formats (--from), by file suffix; where formats share a suffix, the content decides:")
    readers = [module for module in registry.declarations() if module.EXTENSIONS]
    width = max(len(" ".join(module.EXTENSIONS)) for module in readers)
    for module in readers:
        click.echo(f"  {module.NAME:<10} {' '.join(module.EXTENSIONS):<{width}} {module.DESCRIPTION}")


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
@click.option("-j", "--jobs", type=click.IntRange(min=1), help="Sources read in parallel.  [default: the number of cores]")
def lint(paths: tuple[Path, ...], format_: str, ignore: list[str], strict: bool, output: Path | None,
         jobs: int | None) -> None:
    """Check quizzes for what breaks them before a learner sees it.

    Leaked translation placeholders, text left in English, answer patterns a learner
    can guess, repeated questions, text an LMS cuts, and more: every rule, with an
    example, is in docs/lint.md. Folders are searched for sources as by build (files in them
    that are no quiz are skipped with a note); a source that cannot be read is reported and
    the others are still checked.
    Exit status 1 when there are errors (with --strict, warnings too).
    """
    from .rules.runner import check
    from .rules.report import RENDERERS, counts
    from .batch.pipeline import read_paths

    quizzes, names, diagnostics, sources = [], [], [], []
    def ignored(path: Path) -> None:
        click.echo(_not_a_quiz(source_name(path)), err=True)

    try:
        for path, quiz, problems in read_paths(list(paths), jobs or os.cpu_count() or 1, ignored):
            sources.append(path)
            diagnostics += problems
            if quiz is not None:
                quizzes.append(quiz)
                names.append(source_name(path))
    except FileNotFoundError as exc:
        raise click.UsageError(str(exc)) from None
    diagnostics += check(quizzes, ignore=ignore, sources=names)
    order = {source_name(path): position for position, path in enumerate(sources)}
    diagnostics.sort(key=lambda d: order.get(d.span.file, len(order)))
    report = RENDERERS[format_](diagnostics)
    if output is None:
        click.echo(report, nl=False)
    elif not _save(output, report.encode("utf-8")):
        sys.exit(1)
    found = counts(diagnostics)
    click.echo(
        f"{_plural(len(sources), 'source')} checked: "
        f"{_plural(found['error'], 'error')}, {_plural(found['warning'], 'warning')}",
        err=True,
    )
    if found["error"] or (strict and found["warning"]):
        sys.exit(1)


def _request_failed(error: BaseException, debug: bool) -> None:
    """A preview request's unexpected error (a bug): one line, as the CLI's own internal error
    (the traceback with --debug); the request fails, the server goes on."""
    if debug:
        import traceback

        click.echo("".join(traceback.format_exception(type(error), error, error.__traceback__)).rstrip("\n"), err=True)
        return
    click.echo(f"lmsexport: internal error answering a preview request: {type(error).__name__}: {error} "
               "(rerun with --debug for the details, and please report it)", err=True)


@main.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True, path_type=Path))
@click.option("--port", type=click.IntRange(0, 65535), default=0,
              help="Port to serve on, on 127.0.0.1.  [default: a free one, printed]")
@click.option("--open", "open_browser", is_flag=True, help="Open the preview in the default web browser.")
@click.option("--from", "source_format", metavar="FORMAT", callback=_source_format,
              help="Read every source as this format instead of by its suffix and content.")
def preview(paths: tuple[Path, ...], port: int, open_browser: bool, source_format: str | None) -> None:
    """See quizzes as learners will, and what the LMS records, before uploading them.

    Serves the quizzes under PATHS on 127.0.0.1 only: an index, then each quiz in the
    SCORM player its package carries, hosted by a real SCORM runtime (scorm-again), beside
    a panel showing what the LMS receives as you answer (interactions, score, status,
    suspend data), the quiz's lint findings and every format's warnings, each with its
    line. Folders are searched for sources as by build (files in them that are no quiz are
    skipped with a note). Saving a source reloads its page; a source with errors shows them
    instead, until they are fixed. Ctrl-C stops it. See docs/preview.md.
    """
    from .preview.server import Preview

    debug = bool(click.get_current_context().obj.get("debug"))
    try:
        shown = Preview(list(paths), port=port, source_format=source_format,
                        report=lambda error: _request_failed(error, debug))
    except OSError as exc:
        raise click.BadParameter(f"cannot serve on 127.0.0.1:{port}: {exc.strerror or exc}",
                                 param_hint="'--port'") from None
    for path in shown.quizzes.ignored:
        click.echo(_not_a_quiz(source_name(path)))
    count = len(shown.quizzes.all())
    click.echo(f"previewing {count} {'quiz' if count == 1 else 'quizzes'} at {shown.url} (Ctrl-C to stop)")
    if open_browser:
        import webbrowser

        webbrowser.open(shown.url)
    try:
        shown.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        shown.close()
    click.echo("preview stopped", err=True)


@main.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True, path_type=Path))
@click.option("-o", "--out", type=click.Path(file_okay=False, path_type=Path), default=Path("dist"),
              show_default=True, help="Folder the answer keys are written to.")
@click.option("--from", "source_format", metavar="FORMAT", callback=_source_format,
              help="Read every source as this format instead of by its suffix and content.")
def key(paths: tuple[Path, ...], out: Path, source_format: str | None) -> None:
    """Write a printable answer key for each quiz: OUT/<quiz id>.key.html.

    Every question with its options (the correct ones marked), accepted answers and
    their credit, tolerances, points, explanations and feedback, in the quiz's language
    and writing direction; one self-contained HTML file, styled for paper: print it to
    PDF from the browser. Folders are searched for sources as by build (files in them that
    are no quiz are skipped with a note). A source with errors gets no key (exit status 1).
    """
    from .preview.key import answer_keys

    def ignored(path: Path) -> None:
        click.echo(_not_a_quiz(source_name(path)))

    failed = False
    for path, target, page, diagnostics in answer_keys(list(paths), out, source_format, ignored):
        _echo_diagnostics(diagnostics)
        if target is None:
            failed = True
            continue
        if not _save(target, page):
            failed = True
            continue
        click.echo(f"wrote {source_name(path)} -> {source_name(target)}")
    if failed:
        sys.exit(1)
