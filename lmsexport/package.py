"""What a writer produces, and how it reaches the disk: deterministically, atomically.

A `Package` is an ordered mapping of archive paths to bytes. Zips get fixed entry
order (manifest first, the rest sorted), fixed timestamps (`SOURCE_DATE_EPOCH` or
1980-01-01, the zip epoch) and fixed permissions, so the same quiz always gives the
same bytes (as Sphinx's EPUB builder and flit's wheels do). Files are written to a
temporary name in the target folder and renamed into place, so an interrupted or
failed build never leaves a half-written package and keeps the previous one.

A writer (`write(quiz, options) -> Package`) reports what its format carries differently
as warnings in `Package.warnings`, and refuses a quiz its format cannot hold at all (a text
past what XML parsers read, see `xml.TEXT_LIMIT`) by raising `SourceError` with every reason,
each located at the source line that caused it, rather than return a package that fails its
schema or its LMS's importer.
"""

from __future__ import annotations

import errno
import io
import os
import tempfile
import threading
import time
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO, Callable, Iterable, Iterator, Mapping

_ZIP_EPOCH = (1980, 1, 1, 0, 0, 0)
MANIFEST = "imsmanifest.xml"


@dataclass(frozen=True)
class Flavour:
    """One thing `--format` names: a format's writer in one flavour (SCORM `1.2` / `2004`)."""

    name: str
    """The `--format` value, the output subfolder of a multi-format build and the golden folder."""
    description: str
    flavour: str = ""
    """What the writer receives as `WriteOptions.flavour`."""
    in_all: bool = True
    """Whether `--format all` builds it (every LMS format; not the JSON model)."""
    bank: bool = False
    """Whether its writer also puts many quizzes into one file, `build --bank NAME`: it then has
    `write_bank(quizzes, name, options) -> Package` beside `write()` (Moodle's question bank)."""


@dataclass(frozen=True)
class Limit:
    """How long a text may be in a format's target before it is cut or lost, declared once by
    the format (`LIMITS` in its `limits.py`): its writer warns when it cuts, and lint warns
    about it for quizzes not (yet) built for that format (lmsexport/rules/limits.py)."""

    field: str
    """What is measured: `quiz_title`, `question_title` or `tag` (characters), or `options`
    (the options of a choice question)."""
    size: int
    """The most the target keeps."""
    reason: str
    """Who keeps no more, for messages: `Moodle cuts tags at 50`."""


@dataclass(frozen=True)
class WriteOptions:
    """How to write: the flavour of a format that has several (SCORM `1.2` / `2004`)."""

    flavour: str = ""
    built_with: frozenset[str] = frozenset()
    """The other `--format`s the same build writes. A writer leaves out the advice to build one
    of them (QTI 2.1's "for Canvas, build --format canvas") when the build already does."""
    on_document: Callable[[str, object, bytes], None] | None = field(default=None, compare=False)
    """Told of each XML file as the writer finishes it (its path, lxml tree and bytes), so that a
    build checks the tree in hand instead of parsing the bytes again (validation.TreeChecks).
    A writer that does not call it loses nothing: its files are parsed and checked (a document
    written in pieces, which has no whole tree, is checked as it is read back: pieces.py)."""


@dataclass(frozen=True)
class Package:
    """A writer's output: `files` maps archive paths to bytes (a dict, or for a package of many
    files a `spool.SpooledFiles`, which keeps them on disk past a budget).

    `zipped` packages become one zip; otherwise `files` holds exactly one entry,
    written as it is (a Moodle XML bank, a JSON model).
    """

    files: Mapping[str, bytes]
    zipped: bool = True
    extension: str = ".zip"
    """File name suffix of the written package, e.g. `.qti.zip` or `.json`."""
    warnings: list = field(default_factory=list)
    """Diagnostics for what the format could not express (never silently dropped)."""
    companions: dict[str, bytes] = field(default_factory=dict)
    """Files written beside an unzipped package, by their path relative to its folder: the
    images a quiz text shows, which it refers to by these paths."""

    def to_bytes(self, *, timestamp: tuple[int, ...] | None = None) -> bytes:
        """The package as the bytes that go to disk."""
        if not self.zipped:
            (content,) = self.files.values()
            return content
        return zip_bytes(self.files, timestamp or zip_timestamp())

    def size(self) -> int:
        """Bytes of its files, unzipped."""
        sizes = getattr(self.files, "size", None)
        return sum(sizes(path) if sizes else len(self.files[path]) for path in self.files)

    def to_output(self) -> bytes | Spilled:
        """`to_bytes()`, or past `SPILLED` bytes of files the same bytes in a temporary file,
        for a build that holds every package until all its sources are made (a 100,000-question
        bank's Moodle XML is 200 MB, its QTI zip 90 MB)."""
        if self.size() <= SPILLED:
            return self.to_bytes()
        handle = tempfile.TemporaryFile(prefix="lmsexport-")
        if self.zipped:
            zip_into(self.files, handle, zip_timestamp())
        else:
            (path,) = self.files
            for chunk in self.files.chunks(path) if hasattr(self.files, "chunks") else (self.files[path],):
                handle.write(chunk)
        return Spilled(handle)


SPILLED = 64_000_000
"""Bytes of files past which a package is made into a temporary file (`Package.to_output`)."""


class Spilled:
    """A package's bytes in an anonymous temporary file (removed by the operating system even if
    the build is killed), read back a chunk at a time: `len()` is their number, iterating gives
    them in order. Pickled (from a worker process), they are spilled again on the other side."""

    def __init__(self, handle):
        handle.flush()
        self._handle = handle
        self._size = handle.seek(0, os.SEEK_END)

    def __len__(self) -> int:
        return self._size

    def __iter__(self) -> Iterator[bytes]:
        from .spool import read_back  # only a large package's build needs it (start-up: formats import this)

        return read_back(self._handle, 0, self._size, "a package")

    def __reduce__(self):
        return _spill, (b"".join(self),)


def _spill(content: bytes) -> Spilled:
    handle = tempfile.TemporaryFile(prefix="lmsexport-")
    handle.write(content)
    return Spilled(handle)


class Zipping:
    """`package.to_output()` made on a thread while the caller validates the package: zlib
    deflates without the GIL, and validation is mostly lxml's C code, so with a core free
    the zip of 2,000 questions (50 ms) costs next to nothing. A bank needs no thread, and a
    package past `SPILLED` bytes of files is zipped once it is checked: a zip keeps a record
    of each entry until it ends (~300 B: 30 MB of 100,000 QTI items), which stacked on the
    check's peak (200 MB against 186 for those items)."""

    def __init__(self, package: Package):
        self._data: bytes | Spilled | None = None if package.zipped else package.to_output()
        self._error: BaseException | None = None
        self._thread = None
        spooled = hasattr(package.files, "size")  # a writer's files that may be many: only these are large
        self._later = package if package.zipped and spooled and package.size() > SPILLED else None
        if package.zipped and self._later is None:
            self._thread = threading.Thread(target=self._zip, args=(package,), name="lmsexport-zip", daemon=True)
            self._thread.start()

    def _zip(self, package: Package) -> None:
        try:
            self._data = package.to_output()
        except BaseException as exc:  # re-raised by result(), in the caller's thread
            self._error = exc

    def result(self) -> bytes | Spilled:
        if self._later is not None:
            self._data, self._later = self._later.to_output(), None
        if self._thread is not None:
            self._thread.join()
        if self._error is not None:
            raise self._error
        return self._data


def zip_timestamp() -> tuple[int, ...]:
    """The date stamped on every zip entry: `SOURCE_DATE_EPOCH` if set, else 1980-01-01."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if not epoch:
        return _ZIP_EPOCH
    stamp = time.gmtime(max(int(epoch), 315532800))  # zip cannot store dates before 1980
    return tuple(stamp[:6])


def _entry_order(path: str) -> tuple[int, str]:
    return (0 if path == MANIFEST else 1, path)


def zip_bytes(files: Mapping[str, bytes], timestamp: tuple[int, ...] = _ZIP_EPOCH) -> bytes:
    """The files deflated at zlib's default level, 6: level 9 took 9% longer on a QTI package of
    2,000 questions for 0.4% fewer bytes, and 2.8x as long on its SCORM package for 10% fewer."""
    buffer = io.BytesIO()
    zip_into(files, buffer, timestamp)
    return buffer.getvalue()


def zip_into(files: Mapping[str, bytes], out: BinaryIO, timestamp: tuple[int, ...]) -> None:
    """`zip_bytes()` written to `out`, a seekable binary file (so the bytes are the same)."""
    with zipfile.ZipFile(out, "w") as archive:
        for path in sorted(files, key=_entry_order):
            info = zipfile.ZipInfo(path, date_time=timestamp)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            info.create_system = 3  # Unix, so the mode bits mean the same everywhere
            chunks = getattr(files, "chunks", None)
            if chunks is None:
                archive.writestr(info, files[path], compresslevel=6)
                continue
            # A spooled file is deflated as it is read back, never held whole: what writestr()
            # does (its size first, then open(), level 6 being zlib's default), a piece at a time.
            info.file_size = files.size(path)
            with archive.open(info, mode="w") as entry:
                for chunk in chunks(path):
                    entry.write(chunk)


def write_atomic(path: Path, content: bytes | Iterable[bytes]) -> None:
    """Write `content` (bytes, or their chunks: a `Spilled` package, a state encoded as it is
    written) to `path` so that readers see the old file or the new one, never half."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except FileExistsError:  # a file where a folder of the path should be: say so, not "File exists"
        raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), str(path.parent)) from None
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent)
    try:
        with os.fdopen(handle, "wb") as out:
            for chunk in (content,) if isinstance(content, bytes) else content:
                out.write(chunk)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(temporary, 0o644)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
