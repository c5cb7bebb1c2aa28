"""Build packages from sources: read, write, validate, and only then put on disk.

The library side of `lmsexport build`; it never prints. For each source: read it
into the model, write every requested format in memory, validate every file of
every package, and only when all of that passed write the packages, atomically.
Sources are independent, so they are built in parallel worker processes; the
parent alone touches the output folder (so two sources can never race for one
file) and keeps the incremental state. A bad source yields its diagnostics and
writes nothing; the other sources still build unless `fail_fast` is set.
"""

from __future__ import annotations

import functools
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterator

from . import config
from .. import formats as registry
from ..chunks import Chunks
from ..diagnostics import Diagnostic, Severity, SourceError, SourceSpan
from .files import SOURCE_LIMIT, disk_name, read_chunks, read_regular, source_name, text_name
from ..memory import return_freed_memory
from .outputs import OutputLock, remove_stale_parts
from ..package import Spilled, Zipping, write_atomic
from .sources import find_sources, looks_like_a_quiz, named_files
from .reading import read_one, unreadable, workers
from .state import BuildState, content_hash, fingerprint

if TYPE_CHECKING:  # a build with nothing to rebuild loads neither the model nor lxml (validation)
    from ..forked import Forked
    from ..model import Quiz


CUT_FROM = 16_000_000
"""Bytes from which a source is read in `Chunks`, if its reader can (`Build._cut`)."""


class OutputInvalid(RuntimeError):
    """A writer produced a package that fails its schema: a bug in lmsexport."""

    def __init__(self, diagnostics: list[Diagnostic]):
        self.diagnostics = diagnostics
        super().__init__("\n".join(d.render() for d in diagnostics))


@dataclass(frozen=True)
class BuildSettings:
    """What to build and how; everything that is not a source path."""

    formats: tuple[str, ...]
    out_dir: Path
    jobs: int = 1
    force: bool = False
    """Rebuild sources whose output is up to date."""
    fail_fast: bool = False
    """Stop at the first source that fails."""
    defaults: dict = field(default_factory=dict)
    """Header defaults for sources with no lmsexport.toml of their own (from --config)."""
    bank: str | None = None
    """Write every quiz into one Moodle question bank `<out>/<bank>.moodle.xml` instead."""
    lint: bool = True
    """Run lint's checks on the quizzes built (findings are warnings)."""
    lint_ignore: tuple[str, ...] = ()
    strict: bool = False
    """Warnings are errors: a source with any gets nothing written."""
    source_format: str | None = None
    """The format every source is read as (`--from`), instead of each file's suffix and content."""
    keep_quizzes: bool = True
    """Each result keeps its quiz (`SourceResult.quiz`). The command line, which needs no quiz
    once its packages are written, lets it go when lint does not need it either (see `make`)."""


@dataclass
class SourceResult:
    """What happened to one source file."""

    source: str
    quiz: Quiz | None = None
    """The quiz read (None if it could not be, or if the build let it go: `BuildSettings.keep_quizzes`)."""
    quiz_id: str | None = None
    """The quiz's id, which outlives the quiz (the report names it)."""
    written: list[Path] = field(default_factory=list)
    skipped: bool = False
    """Up to date: nothing was rebuilt."""
    ignored: bool = False
    """Found by a folder search but no quiz in any format lmsexport reads: not read at all."""
    questions: int = 0
    diagnostics: list[Diagnostic] = field(default_factory=list)
    outputs: dict[Path, bytes | Spilled] = field(default_factory=dict, repr=False)
    """Packages made, path -> bytes (a large one's in a temporary file: `Package.to_output`), not yet on disk."""
    seconds: float = 0.0
    inputs: dict[str, str] = field(default_factory=dict)
    """Other files the source used (its images): path (`files.text_name`) -> content hash, for
    incremental builds."""
    output_invalid: bool = False
    """A package written for it failed its own schema (a bug in lmsexport: exit status 3); its
    findings are among `diagnostics` and nothing is written for it."""
    companions: dict[Path, str] = field(default_factory=dict)
    """Outputs that are not packages but files beside one (a text quiz's images): path -> content
    hash. Sources may share one when its content is the same."""

    @property
    def failed(self) -> bool:
        return any(d.severity == Severity.ERROR for d in self.diagnostics)

    @property
    def warnings(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == Severity.WARNING]


def output_path(out_dir: Path, quiz: Quiz, format_name: str, extension: str, grouped: bool) -> Path:
    """`out/<quiz><ext>`, or `out/<format>/<quiz><ext>` when several formats are built."""
    folder = out_dir / format_name if grouped else out_dir
    return folder / f"{quiz.id}{extension}"


@dataclass
class Work:
    """A source to make: its bytes (read once, for its fingerprint and its quiz) until it is read."""

    path: Path
    data: bytes | Chunks | None = field(repr=False)
    defaults: dict
    print_: str
    format: str | None = None
    """The format a source in `Chunks` is read as (a sniff needs bytes): see `Build._cut`."""

    def take(self) -> bytes | Chunks:
        """The source's bytes, which this work no longer holds: a 200 MB bank is not kept
        through its writing (its model and packages are what the build needs from then on)."""
        data, self.data = self.data, None
        return data


def make(work: Work, settings: BuildSettings, on_read: Callable[[Quiz], None] | None = None) -> SourceResult:
    """Read, write and validate one source, in memory (runs in a worker process); `on_read`
    is given the quiz once it is read, before it is written.

    Unless the settings keep it, or lint (which runs after every source is made) will read it,
    the quiz goes once its last package is written, before that package is checked: the check
    reads only the package, and 100,000 questions' model (~290 MB) no longer adds to its peak."""
    from ..validation import TreeChecks, validate_files

    started = time.perf_counter()
    path = work.path
    result = SourceResult(source_name(path))
    loaded: dict[str, bytes] = {}
    # Lint reads the questions a dozen times: packed, each would unpack them all again.
    result.quiz, result.diagnostics = read_one(path, work.take(), work.defaults, work.format or settings.source_format,
                                               loaded, pack=not settings.lint)
    if result.quiz is not None and on_read is not None:
        on_read(result.quiz)
    if result.quiz is not None:
        result.quiz_id, result.questions = result.quiz.id, len(result.quiz.questions)
        last = settings.formats[-1] if settings.formats and not settings.keep_quizzes and not settings.lint else None
        result.inputs = {f"{text_name(path.parent)}/{relative}": content_hash(content)
                         for relative, content in loaded.items()}
        grouped = len(settings.formats) > 1
        for name in settings.formats:
            module, options = registry.writer(name)
            checked = TreeChecks()
            options = replace(options, built_with=frozenset(settings.formats) - {name}, on_document=checked.take)
            try:
                package = module.write(result.quiz, options)
            except SourceError as exc:  # the quiz is more than the format holds: the source fails
                result.diagnostics += exc.diagnostics
                continue  # the other formats still say what they cannot hold
            except OSError as exc:  # its files found no room in the temporary folder (spool.py)
                result.diagnostics.append(unspooled(result.source, name, exc))
                continue
            result.diagnostics += package.warnings
            target = output_path(settings.out_dir, result.quiz, name, package.extension, grouped)
            if name == last:
                result.quiz = None
            return_freed_memory()  # what the write (and the quiz) freed: the check's peak does not stack on it
            try:
                zipping = Zipping(package)
                findings = validate_files(package.files, source=source_name(target), checked=checked)
                data = zipping.result()
            except OSError as exc:  # a large package found no room in the temporary folder (Package.to_output)
                result.diagnostics.append(unspooled(result.source, name, exc))
                continue
            if findings:
                result.diagnostics += findings
                result.output_invalid, result.outputs = True, {}
                break
            result.outputs[target] = data
            for relative, content in package.companions.items():
                result.outputs[target.parent / relative] = content
                result.companions[target.parent / relative] = content_hash(content)
            del package, zipping, checked  # its files and warnings are taken: free them before the next format
            return_freed_memory()
        if result.failed:
            result.outputs, result.companions = {}, {}
    result.seconds = time.perf_counter() - started
    return result


def _claim(result: SourceResult, claimed: dict[Path, tuple[str, str | None]]) -> None:
    """Two sources that would write the same package (or one file beside their packages with
    different content): the later one fails."""
    for target in (*result.outputs, *(result.written if result.skipped else ())):
        content = result.companions.get(target)
        owner, owned = claimed.setdefault(target, (result.source, content))
        if owner == result.source or (content is not None and content == owned):
            continue
        if content is None:
            message = f"{target.name} would be written by {owner} and by this source (same quiz id)"
            hint = "give one of them its own id in its header (id: ...)"
        else:
            message = f"{source_name(target)} would be written by {owner} and by this source, with other content"
            hint = "give the images of one of them other names, or build them into other folders"
        result.diagnostics.append(Diagnostic("E003", message, SourceSpan(result.source), hint))


class Build:
    """One run of `build`: plan, make (in parallel), check the batch, then write."""

    def __init__(self, settings: BuildSettings):
        self.settings = settings
        self.state = BuildState(settings.out_dir)
        self.configs: dict[Path, config.Config] = {}
        self.forked: tuple[str, Forked] | None = None
        """Lint of the only source (its name, the child), running in a child process while it is written."""

    @functools.cached_property
    def lint_ignore(self) -> tuple[str, ...]:
        """The rules lint skips: the run's own, and the limits of the formats it writes, which
        their writers report once, saying what the LMS gets instead (W652, W653, W601 ...).
        Worked out when lint runs: it loads the rules and the model, which a build with nothing
        to rebuild does without."""
        from ..rules.limits import left_to_writers

        known = registry.flavours()
        written = (known[name][0] for name in self.settings.formats if name in known)
        return (*self.settings.lint_ignore, *left_to_writers(written))

    def run(self, paths: list[Path], on_made: Callable[[SourceResult], None] | None = None) -> list[SourceResult]:
        """Build every source under `paths`; `on_made` sees each source once it is made."""
        results, prints, claimed = [], {}, {}
        try:
            for result, print_ in self._make_all(find_sources(paths, self.settings.out_dir), named_files(paths)):
                results.append(result)
                prints[result.source] = print_
                _claim(result, claimed)
                if on_made:
                    on_made(result)
                if result.failed and self.settings.fail_fast:
                    break
            self._finish(results)
        finally:
            if self.forked is not None:
                self.forked[1].cancel()
                self.forked = None
        self._write_all([result for result in results if not result.skipped and not result.ignored], prints)
        return results

    def _write_all(self, results: list[SourceResult], prints: dict[str, str]) -> None:
        """Under the output folder's lock: clear what killed builds left, write every package
        that passed, then record the state. A folder that cannot be written fails what was to go
        into it, with the reason; what was written before is recorded."""
        for result in results:
            if result.failed:
                self.state.forget(result.source)
        if not any(result.outputs for result in results if not result.failed) and not self.state.changed:
            return  # nothing to write: the output folder is not even created
        try:
            with OutputLock(self.settings.out_dir):
                remove_stale_parts(self.settings.out_dir)
                for result in results:
                    if not result.failed:
                        self._write(result, prints[result.source])
                self.state.save()
        except OSError as exc:
            for result in results:
                if result.outputs and not result.written:
                    result.diagnostics.append(unwritable(result.source, self.settings.out_dir, exc))

    def _finish(self, results: list[SourceResult]) -> None:
        """Lint what was built (findings become warnings of their source), then apply --strict."""
        made = [result for result in results if result.quiz_id is not None and not result.failed]
        if self.settings.lint and made:
            by_source = {result.source: result for result in made}
            findings = self._forked_findings(made)
            if findings is None:
                from ..rules.runner import check

                findings = check([r.quiz for r in made], ignore=self.lint_ignore, sources=list(by_source), split=True)
            for finding in findings:
                by_source[finding.span.file].diagnostics.append(replace(finding, severity=Severity.WARNING))
        if self.settings.strict:
            for result in results:
                result.diagnostics = [
                    replace(d, severity=Severity.ERROR) if d.severity == Severity.WARNING else d
                    for d in result.diagnostics
                ]

    def _forked_findings(self, made: list[SourceResult]) -> list[Diagnostic] | None:
        """The forked lint's findings, if it linted exactly the quizzes made; else None."""
        running, self.forked = self.forked, None
        if running is None:
            return None
        source, child = running
        if len(made) != 1 or made[0].source != source:
            child.cancel()
            return None
        return child.result(otherwise=lambda: None)

    def _make_linting(self, work: Work) -> SourceResult:
        """`make`, with the quiz linted in a child process forked once it is read, while this
        one writes it (forked.py)."""
        from .. import forked

        def lint(quiz: Quiz) -> None:
            source = source_name(work.path)
            self.forked = source, forked.Forked.start(_check, quiz, self.lint_ignore, source)

        return make(work, self.settings, on_read=lint)

    def _plan(self, sources: list[Path], named: set[Path]) -> Iterator[tuple[SourceResult | None, Work]]:
        """Per source: a final result (unreadable, no quiz, or up to date), or the work to do."""
        for path in sources:
            source = source_name(path)
            try:
                data = read_regular(path, SOURCE_LIMIT)
            except OSError as exc:
                yield SourceResult(source, diagnostics=unreadable(source, exc).diagnostics), Work(path, None, {}, "")
                continue
            # A source built last time was a quiz then: it is sniffed again only if it changed.
            built = source in self.state.entries
            if not built and self._no_quiz(path, data, named):
                yield SourceResult(source, ignored=True), Work(path, None, {}, "")
                continue
            try:
                defaults = self._defaults(path.parent.resolve())
            except SourceError as exc:
                yield SourceResult(source, diagnostics=exc.diagnostics), Work(path, None, {}, "")
                continue
            print_ = fingerprint(data, {"formats": list(self.settings.formats), "defaults": defaults,
                                        "from": self.settings.source_format})
            fresh = None if self.settings.force else self.state.fresh(source, print_)
            if fresh is None and built and self._no_quiz(path, data, named):
                yield SourceResult(source, ignored=True), Work(path, None, {}, "")
                continue
            if fresh is None:
                self.state.rebuilding(source)
                data, format = self._cut(path, data)
                yield None, Work(path, data, defaults, print_, format)
                continue
            entry = self.state.entries[source]
            warnings = [warning for warning in entry["warnings"] if self._replays(warning.code)]
            companions = {Path(disk_name(p)): entry["outputs"][p] for p in entry.get("companions", ())}
            skipped = SourceResult(source, written=fresh, skipped=True, diagnostics=warnings,
                                   questions=entry.get("questions", 0), companions=companions)
            yield skipped, Work(path, None, defaults, print_)

    def _cut(self, path: Path, data: bytes) -> tuple[bytes | Chunks, str | None]:
        """The bytes a source is read from, and its format when they are `Chunks`: a source past
        `CUT_FROM` bytes whose reader reads chunks is cut into them (its reader lets each go once
        parsed: a 200 MB bank's bytes are not held through the read), the bytes fingerprinted."""
        if len(data) < CUT_FROM:
            return data, None
        try:
            name = self.settings.source_format or registry.detect(path, data)[0]
        except registry.UnknownFormat:
            return data, None  # the read says so (E002)
        if not getattr(registry.reader(name), "READS_CHUNKS", False):
            return data, None
        return Chunks.of(data), name

    def _no_quiz(self, path: Path, data: bytes, named: set[Path]) -> bool:
        """Whether a file a folder search found is no quiz, and is left alone (named ones are built)."""
        return path not in named and not looks_like_a_quiz(path, data, self.settings.source_format)

    def _replays(self, code: str) -> bool:
        """Whether an up-to-date source shows a recorded warning again: not a lint finding
        this run switches off (`--ignore`, `--no-lint`). The limit rules left to the writers
        need no check: the source was built for the same formats (its fingerprint has them),
        so lint skipped them then."""
        if not code.startswith("L"):
            return True
        return self.settings.lint and code not in self.settings.lint_ignore

    def _defaults(self, folder: Path) -> dict:
        """Header defaults from the lmsexport.toml that applies to `folder` (read once a run)."""
        if folder not in self.configs:
            self.configs[folder] = config.nearest(folder)
        found = self.configs[folder]
        return found.defaults if found.path else self.settings.defaults

    def _make_all(self, sources: list[Path], named: set[Path]) -> Iterator[tuple[SourceResult, str]]:
        plan = list(self._plan(sources, named))
        todo = [work for done, work in plan if done is None]
        executor = workers(self.settings.jobs, len(todo))
        # One source to write and lint: lint it in a child process meanwhile (forked.py).
        fork = False
        if self.settings.lint and self.settings.formats and executor is None and len(todo) == 1:
            from .. import forked  # pickle and signal: not for a build with nothing to make

            fork = forked.available()
        if executor is None:
            make_one = self._make_linting if fork else functools.partial(make, settings=self.settings)
            made = map(make_one, todo)
        else:
            made = executor.map(make, todo, [self.settings] * len(todo))
        try:
            for done, work in plan:
                yield (done if done is not None else next(made)), work.print_
        finally:
            if executor is not None:
                executor.shutdown(cancel_futures=True)

    def _write(self, result: SourceResult, print_: str) -> None:
        """Write one source's packages; if one cannot be, the source fails and is forgotten, so
        the next build makes it again."""
        for target, data in result.outputs.items():
            try:
                if not (target.exists() and content_hash(read_chunks(target, SOURCE_LIMIT)) == content_hash(data)):
                    write_atomic(target, data)  # an identical file is left alone, with its date
            except OSError as exc:
                result.diagnostics.append(unwritable(result.source, target, exc))
                self.state.forget(result.source)
                return
            result.written.append(target)
        self.state.record(result.source, print_, result.outputs, result.questions, result.warnings, result.inputs,
                          list(result.companions))


def _check(quiz: Quiz, ignore: tuple[str, ...], source: str) -> list[Diagnostic]:
    """Lint in the forked child, which imports the rules: the parent, writing, never does."""
    from ..rules.runner import check

    return check([quiz], ignore=ignore, sources=[source])


def unwritable(source: str, target: Path, exc: OSError) -> Diagnostic:
    """Why `source`'s output could not go to `target` (a package, or the output folder)."""
    reason = exc.strerror or str(exc)
    return Diagnostic("E004", f"cannot write {source_name(target)}: {reason}", SourceSpan(source),
                      "check the free space and the permissions of the output folder (--out), then build again")


def unspooled(source: str, format_name: str, exc: OSError) -> Diagnostic:
    """Why `source`'s `format_name` package could not be made: its files, or the package itself,
    did not fit in the temporary file that holds a large package's until it is written
    (spool.py, `Package.to_output`)."""
    reason = exc.strerror or str(exc)
    return Diagnostic("E004", f"cannot make the {format_name} package: its files could not be put in a "
                      f"temporary file ({reason})", SourceSpan(source),
                      "free space in the temporary folder, or set TMPDIR to a folder with room, then build again")
