"""`build --bank NAME`: every quiz of a run in one file, `<out>/NAME<extension>`, written by a
format whose flavour says it can (`Flavour.bank`; Moodle XML, one question bank of categories).

A bank is all or nothing: it is written only when every source was read, because a bank
missing a quiz would silently replace a complete one on import. It is always rebuilt (no
incremental state): its one file depends on every source.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Callable

from .. import formats as registry
from ..diagnostics import Diagnostic, SourceError, SourceSpan
from ..package import Package, write_atomic
from .files import source_name
from .outputs import OutputLock, remove_stale_parts
from .pipeline import Build, OutputInvalid, SourceResult, unwritable
from .sources import find_sources, named_files


class BankBuild(Build):
    """A `Build` that reads every source, lints them, then writes them into one bank."""

    def run(self, paths: list[Path], on_made: Callable[[SourceResult], None] | None = None) -> list[SourceResult]:
        if len(self.settings.formats) != 1:
            raise registry.UnknownFormat(f"a bank is one file in one format: choose one of "
                                         f"{', '.join(registry.banks())}")
        write_bank, options = registry.bank_writer(self.settings.formats[0])
        self.settings = replace(self.settings, formats=(), force=True)
        results = []
        owners: dict[str, str] = {}
        for result, _ in self._make_all(find_sources(paths, self.settings.out_dir), named_files(paths)):
            if result.quiz is not None:
                owner = owners.setdefault(result.quiz.id, result.source)
                if owner != result.source:
                    result.diagnostics.append(Diagnostic(
                        "E003", f"quiz id {result.quiz.id!r} is also the id of {owner}; both would go into the "
                        f"bank {self.settings.bank!r}", SourceSpan(result.source),
                        "give one of them its own id in its header (id: ...)"))
            results.append(result)
            if on_made:
                on_made(result)
        self._finish(results)
        quizzes = [result for result in results if not result.ignored]
        if quizzes and not any(result.failed for result in quizzes):
            try:
                package = write_bank([result.quiz for result in quizzes], self.settings.bank, options)
            except SourceError as exc:  # a quiz is more than the bank's format holds: nothing is written
                _attribute(quizzes, exc.diagnostics)
            else:
                self._write_bank(quizzes, package)
        return results

    def _write_bank(self, results: list[SourceResult], package: Package) -> None:
        from ..validation import validate_files  # loads lxml: not for a build with nothing to rebuild

        target = self.settings.out_dir / f"{self.settings.bank}{package.extension}"
        findings = validate_files(package.files, source=source_name(target))
        if findings:
            raise OutputInvalid(findings)
        _attribute(results, package.warnings)
        try:
            with OutputLock(self.settings.out_dir):
                remove_stale_parts(self.settings.out_dir)
                write_atomic(target, package.to_bytes())
        except OSError as exc:
            results[-1].diagnostics.append(unwritable(results[-1].source, target, exc))
            return
        results[-1].written.append(target)


def _attribute(results: list[SourceResult], diagnostics: list[Diagnostic]) -> None:
    """Each diagnostic of the bank's writer to the source it is about (else the last)."""
    by_source = {result.source: result for result in results}
    for diagnostic in diagnostics:
        by_source.get(diagnostic.span.file, results[-1]).diagnostics.append(diagnostic)
