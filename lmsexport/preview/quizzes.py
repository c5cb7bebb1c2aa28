"""What the preview shows: each source given, read, written in every LMS format, linted.

A source is read as `build` reads it (its suffix and content, or `--from`; the nearest
lmsexport.toml's `[defaults]`), then written in every flavour of every format the registry
knows (`registry.flavours()`), and linted (`rules.runner.check`). The SCORM packages are kept in
memory: their files are what the preview serves, exactly as the package carries them,
launched as an LMS launches them (the manifest's resource `href`, its pass mark and time
limit handed to the runtime). A source that cannot be read keeps its located errors.

`refresh()` looks again (folders are searched anew, so new files appear) and redoes only
the sources whose bytes, defaults or images changed: a fingerprint of those, as the
incremental build keeps (batch/state.py); the images are the files the reader loaded, not the
quiz's assets (a Moodle bank's images are inside it, with no file of their own to compare).
Files are read as a build reads them (`batch.files.read_regular`): a named pipe or a device
in a watched folder is an error of that source, never a read that waits forever. It is
called at start and by the watcher's thread while the server's threads read; each source's
result is immutable and the table of them is replaced whole, so a page is rendered from one
consistent state.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass, field
from pathlib import Path

from .. import formats as registry
from ..batch import config
from ..batch.files import ASSET_LIMIT, SOURCE_LIMIT, disk_name, read_regular
from ..batch.reading import read_source
from ..batch.sources import find_sources
from ..batch.sources import looks_like_a_quiz, named_files
from ..batch.state import content_hash, fingerprint
from ..diagnostics import Diagnostic, Log, SourceError, SourceSpan
from ..model import Quiz
from ..package import MANIFEST
from ..xml import local_name

PLAYER_FORMAT = "scorm"
"""The format whose packages carry a player the preview can host (one per flavour: SCORM 1.2, 2004)."""


@dataclass(frozen=True)
class Player:
    """One SCORM package of a quiz, as the preview serves it."""

    version: str
    """The writer's flavour: `1.2` or `2004` (which runtime hosts it)."""
    files: dict[str, bytes] = field(repr=False)
    launch: str
    """The launch file: the href of the manifest's resource."""
    preload: dict
    """What an LMS takes from the manifest into the runtime's data model before launch."""


@dataclass(frozen=True)
class Shown:
    """One source as the preview shows it."""

    slug: str
    """Its name in the preview's addresses (`/quiz/<slug>/`), from the file name, unique."""
    source: Path
    fingerprint: str
    quiz: Quiz | None = None
    errors: tuple[Diagnostic, ...] = ()
    """Why the source could not be read (a SourceError's diagnostics); empty when it was."""
    reading: tuple[Diagnostic, ...] = ()
    """The reader's warnings: what the source holds that the model cannot."""
    lint: tuple[Diagnostic, ...] = ()
    writers: dict[str, tuple[Diagnostic, ...]] = field(default_factory=dict)
    """`--format` name -> that writer's warnings, for every format written."""
    failures: dict[str, str] = field(default_factory=dict)
    """`--format` name -> the exception a writer raised (a bug in lmsexport)."""
    players: dict[str, Player] = field(default_factory=dict, repr=False)
    """`--format` name -> the SCORM package of that flavour."""
    inputs: dict[str, str] = field(default_factory=dict)
    """Other files the quiz read (its images): path -> content hash."""

    @property
    def warnings(self) -> int:
        return len(self.reading) + len(self.lint) + sum(len(found) for found in self.writers.values())


def _slug(path: Path, taken: set[str]) -> str:
    base = re.sub(r"[^a-z0-9]+", "-", path.stem.lower()).strip("-") or "quiz"
    slug, number = base, 1
    while slug in taken:
        number += 1
        slug = f"{base}-{number}"
    return slug


def _launch(files: dict[str, bytes], version: str) -> tuple[str, dict]:
    """The launch file and the runtime data an LMS takes from the manifest (SCORM CAM:
    masteryscore and maxtimeallowed for 1.2; minNormalizedMeasure and
    attemptAbsoluteDurationLimit for 2004, as cmi.scaled_passing_score and cmi.max_time_allowed)."""
    from lxml import etree

    from ..xml import parser

    root = etree.fromstring(files[MANIFEST], parser())
    nodes = {}
    for node in root.iter():
        nodes.setdefault(local_name(node), node)
    launch = nodes["resource"].get("href")
    if version == "1.2":
        data = {"mastery_score": nodes.get("masteryscore"), "max_time_allowed": nodes.get("maxtimeallowed")}
        found = {name: node.text for name, node in data.items() if node is not None}
        return launch, ({"student_data": found} if found else {})
    measure, limits = nodes.get("minNormalizedMeasure"), nodes.get("limitConditions")
    preload = {"scaled_passing_score": measure.text if measure is not None else None,
               "max_time_allowed": limits.get("attemptAbsoluteDurationLimit") if limits is not None else None}
    return launch, {name: value for name, value in preload.items() if value}


def read_quiz(path: Path, data: bytes | None = None, defaults: dict | None = None,
              source_format: str | None = None, loaded: dict[str, bytes] | None = None,
              ) -> tuple[Quiz | None, list[Diagnostic]]:
    """Read a source as `build` does: the quiz and its reader's warnings, or None and every problem.

    Without `defaults`, those of the nearest lmsexport.toml apply (its own problems are the source's).
    The files beside the source that the reader loads (its images) go into `loaded`."""
    if defaults is None:
        try:
            defaults = config.nearest(path.parent.resolve()).defaults
        except SourceError as exc:
            return None, list(exc.diagnostics)
    log = Log()
    try:
        return read_source(path, data, defaults, source_format, log, loaded), log.diagnostics
    except SourceError as exc:
        return None, list(exc.diagnostics)
    except registry.UnknownFormat as exc:
        return None, [Diagnostic("E002", str(exc), SourceSpan(path.as_posix()))]


def _write_all(quiz: Quiz) -> tuple[dict, dict, dict]:
    """Every writer's warnings (each `--format` name), the writers that failed, and the SCORM players."""
    writers, failures, players = {}, {}, {}
    known = registry.flavours()
    for name in known:
        module, options = registry.writer(name)
        try:
            package = module.write(quiz, options)
        except Exception as exc:  # a writer's bug: shown in the page, the preview goes on
            failures[name] = f"{type(exc).__name__}: {exc}"
            continue
        writers[name] = tuple(package.warnings)
        format_name, flavour = known[name]
        if format_name == PLAYER_FORMAT:
            launch, preload = _launch(package.files, flavour.flavour)
            players[name] = Player(flavour.flavour, package.files, launch, preload)
    return writers, failures, players


class Quizzes:
    """The sources under `paths`, each as the preview shows it, kept up to date by `refresh()`."""

    def __init__(self, paths: list[Path], source_format: str | None = None):
        self.paths = list(paths)
        self.source_format = source_format
        self._shown: dict[str, Shown] = {}
        self._slugs: dict[Path, str] = {}
        self._lock = threading.Lock()
        self.ignored: list[Path] = []
        """The files a folder search found at the last look that are no quiz, and are not shown."""

    def all(self) -> list[Shown]:
        return list(self._shown.values())

    def get(self, slug: str) -> Shown | None:
        return self._shown.get(slug)

    def _sources(self) -> list[Path]:
        """The files to show: each file given (even once deleted: it then shows why), and
        the sources found in each folder given, now."""
        found: list[Path] = []
        for path in self.paths:
            found += find_sources([path]) if path.is_dir() else [path]
        return list(dict.fromkeys(found))

    def refresh(self) -> list[str]:
        """Look again; redo what changed. Returns the slugs whose page changed (new, changed, gone).

        A file a folder search found that is no quiz is not shown (it goes to `ignored`), as a
        build skips it; one named is always shown, with its errors if it has any."""
        with self._lock:
            shown: dict[str, Shown] = {}
            changed, ignored, named = [], [], named_files(self.paths)
            for path in self._sources():
                key = path.resolve()
                slug = self._slugs.get(key)
                old = self._shown.get(slug) if slug is not None else None
                data, defaults, print_ = self._fingerprint(path, old)
                if old is not None and old.fingerprint == print_:
                    shown[slug] = old
                    continue
                if path not in named and data is not None and not looks_like_a_quiz(path, data, self.source_format):
                    ignored.append(path)
                    continue
                if slug is None:
                    slug = self._slugs[key] = _slug(path, set(self._slugs.values()))
                shown[slug] = self._show(path, slug, data, defaults, print_)
                changed.append(slug)
            changed += sorted(set(self._shown) - set(shown))
            self._shown, self.ignored = shown, ignored
            return changed

    def _fingerprint(self, path: Path, old: Shown | None) -> tuple[bytes | None, dict | SourceError, str]:
        """The source's bytes, its defaults (or why its lmsexport.toml is wrong), and their
        fingerprint with the images the source read last time."""
        try:
            data = read_regular(path, SOURCE_LIMIT)
        except OSError:
            data = None  # read_source reads it again, and says why it cannot
        try:
            defaults: dict | SourceError = config.nearest(path.parent.resolve()).defaults
        except SourceError as exc:
            defaults = exc
        inputs = {}
        for name in old.inputs if old is not None else ():
            try:
                inputs[name] = content_hash(read_regular(Path(name), ASSET_LIMIT))
            except OSError:
                inputs[name] = ""
        return data, defaults, self._print(data, defaults, inputs)

    def _print(self, data: bytes | None, defaults: dict | SourceError, inputs: dict[str, str]) -> str:
        settings = {"defaults": defaults if isinstance(defaults, dict) else str(defaults),
                    "from": self.source_format, "inputs": inputs, "readable": data is not None}
        return fingerprint(data or b"", settings)

    def _show(self, path: Path, slug: str, data: bytes | None, defaults, print_: str) -> Shown:
        if isinstance(defaults, SourceError):
            return Shown(slug, path, print_, errors=tuple(defaults.diagnostics))
        loaded: dict[str, bytes] = {}
        quiz, found = read_quiz(path, data, defaults, self.source_format, loaded)
        if quiz is None:
            return Shown(slug, path, print_, errors=tuple(found))
        from ..rules.runner import check

        lint = tuple(check([quiz], sources=[path.as_posix()]))
        writers, failures, players = _write_all(quiz)
        # The files this reading loaded, as it saw them: the next refresh compares them with these.
        inputs = {(path.parent / disk_name(name)).as_posix(): content_hash(content) for name, content in loaded.items()}
        print_ = self._print(data, defaults, inputs)
        return Shown(slug, path, print_, quiz, (), tuple(found), lint, writers, failures, players, inputs)

