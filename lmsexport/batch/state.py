"""Incremental builds: what each source produced last time, and whether that still holds.

The state lives in `<out>/.lmsexport-state` (JSON): per source, a fingerprint of
everything that decides its output (the source bytes, the formats and options,
the defaults from lmsexport.toml, the lmsexport version), the hash of every other
file it read (its images) and of each package written, with the package's size and
modification time on disk. A source is skipped when its fingerprint is unchanged and
those files are all still there with the same bytes (a package with the size and time
recorded is not read again: hashing 500 packages was most of a no-op rebuild of 100
quizzes); anything else rebuilds it. Paths are kept as `files.text_name` spells them, so a state
written in one locale reads the same in another (`LC_ALL=C` or UTF-8).
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
from collections.abc import Iterable
from pathlib import Path

from .._version import __version__
from ..diagnostics import Diagnostic
from ..jsonout import encoded
from ..package import write_atomic
from .files import SOURCE_LIMIT, disk_name, read_regular, text_name

STATE_FILE = ".lmsexport-state"
_STATE_VERSION = 1


def content_hash(data: bytes | Iterable[bytes]) -> str:
    """The hash of `data`: bytes, or their chunks in order (a package in a temporary file, `package.Spilled`)."""
    if isinstance(data, bytes):
        return hashlib.blake2b(data, digest_size=16).hexdigest()
    hasher = hashlib.blake2b(digest_size=16)
    for chunk in data:
        hasher.update(chunk)
    return hasher.hexdigest()


def fingerprint(source: bytes, settings: dict) -> str:
    """What decides a source's output; `settings` must be JSON-serialisable."""
    recipe = json.dumps({"lmsexport": __version__, "settings": settings}, sort_keys=True, default=str)
    return content_hash(recipe.encode("utf-8") + b"\x00" + source)


def _stamp(path: Path | str) -> list[int] | None:
    """A written file's size and modification time (ns), or None if it cannot be read."""
    try:
        found = os.stat(path)
    except OSError:
        return None
    return [found.st_size, found.st_mtime_ns]


class BuildState:
    """The state file of one output folder, and what this run changes in it."""

    def __init__(self, out_dir: Path):
        self.path = out_dir / STATE_FILE
        self.entries = self._load()
        self._changes: dict[str, dict | None] = {}
        """Per source this run recorded or forgot: its new entry, or None."""

    def _load(self) -> dict[str, dict]:
        try:
            data = json.loads(self.path.read_bytes(), object_hook=functools.partial(_warning, shared={}))
            if data.get("version") == _STATE_VERSION and isinstance(data.get("sources"), dict):
                return {source: entry for source, entry in data["sources"].items() if _usable(entry)}
        except (OSError, ValueError, AttributeError, RecursionError):
            pass  # no state, or a damaged one: everything is rebuilt and the state rewritten
        return {}

    def fresh(self, source: str, print_: str) -> list[Path] | None:
        """The outputs of `source` if they are up to date, else None."""
        entry = self.entries.get(source)
        if not entry or entry.get("fingerprint") != print_:
            return None
        files = {**entry.get("inputs", {}), **entry.get("outputs", {})}
        stamps = entry.get("stamps", {})
        for path, expected in files.items():  # a no-op rebuild's own work: no Path made
            try:
                if path in stamps and _stamp(disk_name(path)) == stamps[path]:
                    continue
                if content_hash(read_regular(disk_name(path), SOURCE_LIMIT)) != expected:
                    return None
            except OSError:
                return None
        return [Path(disk_name(path)) for path in entry.get("outputs", {})]

    def rebuilding(self, source: str) -> None:
        """`source` is built again: the warnings recorded for it will not be shown, and are let
        go (a bank's 180,000 are 60 MB); `save()` reads the state on disk again anyway."""
        if source in self.entries:
            self.entries[source]["warnings"] = ()

    def record(
        self, source: str, print_: str, outputs: dict[Path, bytes], questions: int, warnings: list,
        inputs: dict[str, str], companions: list[Path] = (),
    ) -> None:
        """Remember a build: the files it read besides the source, what it wrote (and which of
        those are files beside a package), its warnings (a skipped rebuild shows them again)."""
        entry = {
            "fingerprint": print_,
            "inputs": dict(sorted(inputs.items())),
            "outputs": {text_name(path): content_hash(data) for path, data in sorted(outputs.items())},
            "stamps": {text_name(path): stamp for path in sorted(outputs) if (stamp := _stamp(path)) is not None},
            "questions": questions,
            "warnings": tuple(warnings),  # as dicts only as they are written (`jsonout`)
        }
        if companions:
            entry["companions"] = sorted(text_name(path) for path in companions)
        self._change(source, entry)

    def forget(self, source: str) -> None:
        if source in self.entries:
            self._change(source, None)

    def _change(self, source: str, entry: dict | None) -> None:
        self._changes[source] = entry
        if entry is None:
            self.entries.pop(source, None)
        else:
            self.entries[source] = entry

    def save(self) -> None:
        """Merge this run's changes into the state on disk (another build may have written it
        since this one started) and write it, if that changes it. Call it holding the lock.

        Written as it is encoded (`jsonout`): a bank with 180,000 warnings has an 81 MB state."""
        entries = self._load()
        if all(_same(entries.get(source), entry) for source, entry in self._changes.items()):
            return
        for source, entry in self._changes.items():
            if entry is None:
                entries.pop(source, None)
            else:
                entries[source] = entry
        document = {"version": _STATE_VERSION, "sources": dict(sorted(entries.items()))}
        # ASCII with \u escapes: file names that are not UTF-8 (surrogate escapes) round-trip too.
        write_atomic(self.path, encoded(document, "ascii", indent=1))

    @property
    def changed(self) -> bool:
        return bool(self._changes)


def _warning(data: dict, shared: dict[str, str]):
    """A warning of the state as the Diagnostic `record()` keeps, made as JSON reads it, with the
    strings warnings repeat shared: a bank's 180,000 warnings were 154 MB as JSON's dicts, kept
    through the whole build. Any other object as it is."""
    if not _WARNING <= data.keys() <= _WARNING_KEYS:
        return data
    for key in _REPEATED:
        if isinstance(data[key], str):
            data[key] = shared.setdefault(data[key], data[key])
    try:
        return Diagnostic.from_dict(data)
    except (TypeError, ValueError):
        return data  # not a warning after all: `_usable` refuses its entry


_WARNING = frozenset(("code", "severity", "message", "hint", "source"))
_WARNING_KEYS = _WARNING | {"line", "column", "sheet"}
_REPEATED = ("code", "severity", "hint", "source")


def _usable(entry) -> bool:
    """Whether an entry is as this version writes them (else its source is rebuilt); its
    warnings become a tuple, as `record()` keeps them."""
    if not isinstance(entry, dict) or not all(isinstance(entry.get(key, {}), dict) for key in _FILES):
        return False
    warnings = entry.get("warnings", [])
    if not isinstance(warnings, list) or not all(isinstance(warning, Diagnostic) for warning in warnings):
        return False
    entry["warnings"] = tuple(warnings)
    return True


_FILES = ("inputs", "outputs", "stamps")


def _same(written: dict | None, entry: dict | None) -> bool:
    """Whether the state on disk already holds `entry` (None: holds nothing for its source), as
    JSON reads it back (its warnings as the state keeps them: a Diagnostic's length is not)."""
    if written is None or entry is None:
        return written is entry
    if written.keys() != entry.keys():
        return False
    warnings = written["warnings"]
    return (all(written[key] == value for key, value in entry.items() if key != "warnings")
            and len(warnings) == len(entry["warnings"])
            and all(found.as_dict() == warning.as_dict() for found, warning in zip(warnings, entry["warnings"])))
