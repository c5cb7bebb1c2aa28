"""`lmsexport validate`: packages and files, ours or any tool's, against the official schemas."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from ..batch.files import source_name
from .console import _echo_diagnostics


@click.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True, path_type=Path))
@click.option("-j", "--jobs", type=click.IntRange(min=1), help="Files checked in parallel.  [default: the number of cores]")
@click.option("-q", "--quiet", is_flag=True, help="Print only problems.")
def validate(paths: tuple[Path, ...], jobs: int | None, quiet: bool) -> None:
    """Check packages and files against the official schemas.

    Takes QTI 2.1, Canvas QTI 1.2 and SCORM packages (.zip), QTI 2.1 and QTI 1.2 XML,
    IMS manifests, Moodle XML and lmsexport model JSON, written by lmsexport or by any
    other tool; folders are searched for .zip, .xml and .json files.
    """
    from ..batch.reading import validate_paths
    from ..text import counted

    failed = 0
    for path, findings in validate_paths(list(paths), jobs or os.cpu_count() or 1):
        if findings:
            failed += 1
            _echo_diagnostics(findings)
            click.echo(f"invalid: {source_name(path)} ({counted(len(findings), 'problem')})")
        elif not quiet:
            click.echo(f"valid: {source_name(path)}")
    if failed:
        sys.exit(1)
