"""`lmsexport lint`: the checks of `lmsexport.rules` over sources, as text, JSON or SARIF (docs/lint.md)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from ..batch.files import source_name
from .console import _not_a_quiz, _save
from .options import _rule_codes


@click.command()
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
    from ..rules.runner import check
    from ..rules.report import RENDERERS, counts
    from ..batch.reading import read_paths
    from ..memory import uncollected
    from ..text import counted

    quizzes, names, diagnostics, sources = [], [], [], []
    def ignored(path: Path) -> None:
        click.echo(_not_a_quiz(source_name(path)), err=True)

    with uncollected():
        try:
            for path, quiz, problems in read_paths(list(paths), jobs or os.cpu_count() or 1, ignored):
                sources.append(path)
                diagnostics += problems
                if quiz is not None:
                    quizzes.append(quiz)
                    names.append(source_name(path))
        except FileNotFoundError as exc:
            raise click.UsageError(str(exc)) from None
        diagnostics += check(quizzes, ignore=ignore, sources=names, split=True)
    order = {source_name(path): position for position, path in enumerate(sources)}
    diagnostics.sort(key=lambda d: order.get(d.span.file, len(order)))
    report = RENDERERS[format_](diagnostics)
    if output is None:
        for piece in report:
            click.echo(piece, nl=False)
    elif not _save(output, (piece.encode("utf-8") for piece in report)):
        sys.exit(1)
    found = counts(diagnostics)
    click.echo(
        f"{counted(len(sources), 'source')} checked: "
        f"{counted(found['error'], 'error')}, {counted(found['warning'], 'warning')}",
        err=True,
    )
    if found["error"] or (strict and found["warning"]):
        sys.exit(1)
