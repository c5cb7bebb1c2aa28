"""Which kind of build a run is: a package per quiz and format, or one question bank.

Above both kinds (pipeline.Build, bank.BankBuild) so that neither needs to know the other.
"""

from __future__ import annotations

from pathlib import Path

from .bank import BankBuild
from .pipeline import Build, BuildSettings, SourceResult


def builder(settings: BuildSettings) -> Build:
    """The build that `settings` asks for: `--bank` writes one bank, anything else a package each."""
    return BankBuild(settings) if settings.bank else Build(settings)


def build(paths: list[Path], formats: list[str], out_dir: Path, **options) -> list[SourceResult]:
    """Build every source under `paths` in every format into `out_dir` (see BuildSettings)."""
    settings = BuildSettings(tuple(formats), out_dir, **options)
    return builder(settings).run(paths)
