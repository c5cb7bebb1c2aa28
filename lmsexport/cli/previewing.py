"""`lmsexport preview` and `lmsexport key`: quizzes as learners see them (served on 127.0.0.1)
and as a teacher prints them (answer keys); the work is `lmsexport.preview`'s (docs/preview.md)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from ..batch.files import source_name
from .console import _echo_diagnostics, _not_a_quiz, _save
from .options import _source_format


def _request_failed(error: BaseException, debug: bool) -> None:
    """A preview request's unexpected error (a bug): one line, as the CLI's own internal error
    (the traceback with --debug); the request fails, the server goes on."""
    if debug:
        import traceback

        click.echo("".join(traceback.format_exception(type(error), error, error.__traceback__)).rstrip("\n"), err=True)
        return
    click.echo(f"lmsexport: internal error answering a preview request: {type(error).__name__}: {error} "
               "(rerun with --debug for the details, and please report it)", err=True)


@click.command()
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
    from ..preview.server import Preview

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


@click.command()
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
    from ..preview.key import answer_keys

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
