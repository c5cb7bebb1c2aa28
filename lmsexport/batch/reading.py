"""Reading sources and checking files, in worker processes when there are several: what
`build`, `lint`, `validate`, `convert`, the preview and the Python API share.

A source is read with the reader its `--from`, suffix and content call for; the files it
refers to are read from its own folder only, and every OS or encoding problem becomes a
located SourceError (E001), never an exception of Python's own.
"""

from __future__ import annotations

import errno
import sys
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterator

from .. import formats as registry
from ..diagnostics import Diagnostic, Log, SourceError, SourceSpan
from .files import ASSET_LIMIT, SOURCE_LIMIT, disk_name, read_regular, source_name
from .sources import find_files, quiz_sources

if TYPE_CHECKING:
    from concurrent.futures import Executor

    from ..model import Quiz


def workers(jobs: int, count: int) -> Executor | None:
    """Worker processes for several sources: forked on Linux so they share what is loaded, but
    spawned when this process has other threads (a fork would copy the locks they hold)."""
    if jobs <= 1 or count <= 1:
        return None
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    method = "fork" if sys.platform == "linux" and threading.active_count() == 1 else "spawn"
    return ProcessPoolExecutor(max_workers=min(jobs, count), mp_context=multiprocessing.get_context(method))


def _validate_path(path: Path) -> list[Diagnostic]:
    try:
        data = read_regular(path, SOURCE_LIMIT)
    except OSError as exc:
        return unreadable(source_name(path), exc).diagnostics
    from ..validation import validate_bytes

    return validate_bytes(data, source=source_name(path))


def read_one(path: Path, data: bytes | None = None, defaults: dict | None = None, format: str | None = None,
             loaded: dict[str, bytes] | None = None, pack: bool = False):
    """The source's quiz and its reader's warnings, or None and every problem found; the files
    beside it that the reader loaded (images, a messages file) go into `loaded`."""
    log = Log()
    try:
        return read_source(path, data, defaults, format, log, loaded, pack), log.diagnostics
    except SourceError as exc:
        return None, exc.diagnostics
    except registry.UnknownFormat as exc:
        return None, [Diagnostic("E002", str(exc), SourceSpan(source_name(path)))]


def read_paths(paths: list[Path], jobs: int = 1, ignored: Callable[[Path], None] | None = None,
               ) -> Iterator[tuple[Path, Quiz | None, list[Diagnostic]]]:
    """Read every source under `paths` (in parallel), in path order: the quiz or why not. Files a
    folder search found that are no quiz are not read: `ignored` is told of each."""
    found = list(quiz_sources(paths, ignored=ignored))
    sources, contents = [path for path, _ in found], [data for _, data in found]
    pool = workers(jobs, len(sources))
    if pool is None:
        yield from ((path, *read_one(path, data)) for path, data in zip(sources, contents))
        return
    with pool:
        yield from ((path, *read) for path, read in zip(sources, pool.map(read_one, sources, contents)))


def validate_paths(paths: list[Path], jobs: int = 1) -> Iterator[tuple[Path, list[Diagnostic]]]:
    """Validate packages and XML/JSON files (folders searched: Canvas's `.imscc` and `.qti`
    too), in parallel, in path order."""
    files = find_files(paths, (".zip", ".imscc", ".xml", ".qti", ".json"))
    pool = workers(jobs, len(files))
    if pool is None:
        yield from ((path, _validate_path(path)) for path in files)
        return
    with pool:
        yield from zip(files, pool.map(_validate_path, files))


def unreadable(source: str, exc: OSError) -> SourceError:
    reason = exc.strerror or str(exc)
    return SourceError([Diagnostic("E001", f"cannot read the file: {reason}", SourceSpan(source))])


def read_source(path: Path, data: str | bytes | None = None, defaults: dict | None = None,
                format: str | None = None, log: Log | None = None, loaded: dict[str, bytes] | None = None,
                pack: bool = False) -> Quiz:
    """Read one file into the model with the reader `format` names, else the one its suffix
    and content call for; OS and encoding problems become SourceErrors, and what the reader
    could not carry into the model goes to `log`. Each file beside the source that the reader
    loads goes into `loaded` (relative path -> bytes), for incremental builds. With `pack`, a
    reader that can holds a large quiz's questions packed (model/packed.py), for a caller that
    reads them once or twice (a build without lint)."""
    source = source_name(path)
    if data is None:
        try:
            data = read_regular(path, SOURCE_LIMIT)
        except OSError as exc:
            raise unreadable(source, exc) from None
    if format is not None:
        reader = registry.reader(format)
    else:
        reader = registry.reader_for(path, data.encode("utf-8") if isinstance(data, str) else data)
    accepted = getattr(reader, "READ_OPTIONS", ())
    options = {"defaults": defaults, "assets": _asset_loader(path.parent, loaded),
               "log": log if log is not None else Log(), "pack": pack}
    return reader.read(data, source=source, **{name: options[name] for name in accepted})


def _asset_loader(folder: Path, loaded: dict[str, bytes] | None = None):
    """Reads the files a quiz refers to, refusing any that leave the quiz's folder; each one
    read goes into `loaded`."""
    root = folder.resolve()

    def load(relative: str) -> bytes:
        target = (root / disk_name(relative)).resolve()
        if root not in target.parents:
            raise PermissionError(errno.EACCES, "it leads out of the quiz's folder (a link?)")
        content = read_regular(target, ASSET_LIMIT)
        if loaded is not None:
            loaded[relative] = content
        return content

    return load
