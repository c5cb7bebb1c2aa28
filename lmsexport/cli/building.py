"""`lmsexport build`: quiz sources into packages, incrementally and in parallel, with
`--watch` to build again whatever changes (the work is `lmsexport.batch`'s; this prints it)."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import click

from .. import formats as registry
from ..batch.files import source_name
from ..diagnostics import Severity, SourceError
from .console import EXIT_INVALID_OUTPUT, _echo_diagnostics, _not_a_quiz, _save
from .options import _format_names, _rule_codes, _source_format


def _load_config(path: Path | None):
    from ..batch import config

    path = path or Path(config.FILE_NAME)
    if not path.is_file():
        return config.Config()
    try:
        return config.load(path)
    except SourceError as exc:
        _echo_diagnostics(exc.diagnostics)
        sys.exit(1)


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


@click.command()
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
    from ..batch.pipeline import BuildSettings

    settings_file = _load_config(config_path)
    out_dir = out or settings_file.out or Path("dist")
    formats, sources = _formats_and_sources(paths, formats or list(settings_file.formats), out_dir)
    _check_bank(bank, formats)
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
        keep_quizzes=False,
    )
    started = time.perf_counter()
    results = _build_once(settings, list(paths), len(sources), quiet, verbose, watch)
    _echo_results(results, quiet, verbose)
    _finish(settings, list(paths), results, time.perf_counter() - started, report, quiet, watch)


def _formats_and_sources(paths, formats: list[str], out_dir: Path) -> tuple[list[str], list]:
    """The formats asked for (on the command line, else in lmsexport.toml) and the sources under
    PATHS: no format, an unknown one or a path that is not there is a usage error (exit status 2)."""
    from ..batch.sources import find_sources

    if not formats:
        raise click.UsageError("choose an output format with --format (see lmsexport formats)")
    try:
        return registry.expand_formats(formats), find_sources(list(paths), out_dir)
    except (registry.UnknownFormat, FileNotFoundError) as exc:
        raise click.UsageError(str(exc)) from None


def _check_bank(bank: str | None, formats: list[str]) -> None:
    """--bank names one file of one format that holds banks: a usage error (exit status 2) otherwise."""
    from ..ids import ID_LIMIT
    from ..vocabulary import is_identifier

    if bank is not None and (len(formats) != 1 or formats[0] not in registry.banks()):
        raise click.UsageError(f"--bank writes every quiz into one file: use it with --format "
                               f"{' or '.join(registry.banks())} alone")
    if bank is not None and not (is_identifier(bank) and len(bank) <= ID_LIMIT):
        raise click.BadParameter(f"it names the file: use at most {ID_LIMIT} ASCII letters, digits, - _ and ., "
                                 "starting with a letter", param_hint="'--bank'")


def _build_once(settings, paths: list[Path], count: int, quiet: bool, verbose: bool, watch: bool) -> list:
    """The first build, under a progress bar: output failing its own schema before anything is
    written is exit status 3, or, with --watch, reported and watched past (no results)."""
    from ..batch.builds import builder
    from ..batch.pipeline import OutputInvalid

    progress = _Progress(count, quiet, verbose)
    try:
        results = builder(settings).run(paths, on_made=progress)
    except OutputInvalid as exc:
        progress.close()
        _echo_invalid(exc)
        if not watch:
            sys.exit(EXIT_INVALID_OUTPUT)
        results = []
    progress.close()
    return results


def _echo_results(results, quiet: bool, verbose: bool) -> None:
    """A line per source with its problems; with -q only the problems."""
    if not quiet or any(result.diagnostics for result in results):
        for result in results:
            if quiet:
                _echo_diagnostics(result.diagnostics)
            else:
                _echo_result(result, verbose)


def _finish(settings, paths: list[Path], results, seconds: float, report: Path | None, quiet: bool,
            watch: bool) -> None:
    """After the first build: the --report file and the summary, then the exit status (3 for a
    package written that fails its schema, 1 for a source with errors or a report not written),
    or with --watch no exit but the watching."""
    from ..batch.report import summary

    reported = _write_report(report, results, settings.formats, seconds) if report else True
    if not quiet:
        click.echo(summary(results, seconds), err=True)
    if any(result.output_invalid for result in results):
        _echo_invalid_written()
        if not watch:
            sys.exit(EXIT_INVALID_OUTPUT)
    if watch:
        _rebuild_on_change(settings, paths, report)
    elif not reported or any(result.failed for result in results):
        sys.exit(1)


def _echo_invalid(exc) -> None:
    _echo_diagnostics(exc.diagnostics)
    click.echo("lmsexport: the output above fails its schema; this is a bug, please report it", err=True)


def _echo_invalid_written() -> None:
    click.echo("lmsexport: a package written above fails its own schema; this is a bug, please report it", err=True)


def _write_report(report: Path, results, formats, seconds: float) -> bool:
    from ..batch.report import to_json

    return _save(report, to_json(results, formats, seconds))


def _echo_rebuild(result) -> None:
    """`build --watch`: a rebuilt source's problems, then its one line (with the time of day)."""
    from ..text import counted

    _echo_diagnostics(result.diagnostics)
    now = time.strftime("%H:%M:%S")
    if result.output_invalid:
        _echo_invalid_written()
    if result.failed:
        errors = sum(d.severity == Severity.ERROR for d in result.diagnostics)
        click.echo(f"{now} failed {result.source}: {counted(errors, 'error')}")
        return
    warnings = f" ({counted(len(result.warnings), 'warning')})" if result.warnings else ""
    click.echo(f"{now} rebuilt {result.source} -> {', '.join(source_name(t) for t in result.written)}{warnings}")


def _rebuild_on_change(settings, paths: list[Path], report: Path | None) -> None:
    """`build --watch`: build again after each batch of changes (only what changed is rebuilt:
    the incremental state knows the rest is up to date), whatever went wrong, until Ctrl-C."""
    from ..batch.builds import builder
    from ..batch.pipeline import OutputInvalid
    from ..preview.watch import Watcher

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

