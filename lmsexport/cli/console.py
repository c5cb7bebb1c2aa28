"""What every command prints the same way: diagnostics, skipped files, files it was told
to write, and the exit codes beyond 0-2 (the list is in `lmsexport.cli`'s docstring)."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import click

from ..batch.files import source_name

EXIT_INVALID_OUTPUT = 3
EXIT_INTERNAL = 4


def _echo_diagnostics(diagnostics) -> None:
    for diagnostic in diagnostics:
        click.echo(diagnostic.render(), err=True)


def _not_a_quiz(source: str) -> str:
    return f"skipped {source}: not a quiz in any format lmsexport reads (name it on the command line to see why)"


def _save(path: Path, content: bytes | Iterable[bytes]) -> bool:
    """Write a file the command line named (a report, an answer key, a conversion): one that
    cannot be written (a folder in the way, no permission, a full disk) is one line and exit
    status 1, as a package that cannot be written is, not an internal error."""
    from ..package import write_atomic

    try:
        write_atomic(path, content)
    except OSError as exc:
        click.echo(f"lmsexport: cannot write {source_name(path)}: {exc.strerror or exc}", err=True)
        return False
    return True
