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

import click

from .._version import __version__
from .building import build
from .console import EXIT_INTERNAL
from .converting import convert
from .linting import lint
from .listing import formats
from .previewing import key, preview
from .validating import validate


def run() -> None:
    """The console script and `python -m lmsexport`: `main()`, with the cyclic garbage collector
    run less often (in a build of 2,000 questions it ran 206 times to free 1,500 objects of
    the hundreds of thousands it walked: ~15 ms of a 0.6 s run) and OpenBLAS on one thread,
    then an exit that skips the interpreter's teardown: a build of 2,000 questions leaves
    ~100,000 objects, which the OS reclaims at once and Python would free one by one (~35 ms)."""
    gc.set_threshold(100_000, 50, 50)  # as mypy does: a run makes objects in the 100,000s, few cycles
    # numpy (imported by L020 for many texts) starts a thread per core for OpenBLAS, which
    # lmsexport never calls, and they spin: 0.06-0.1 s of CPU. The user's own setting stands.
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
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


for _command in (build, convert, validate, formats, lint, preview, key):
    main.add_command(_command)
