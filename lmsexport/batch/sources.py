"""Which files a build reads: those named, and the quiz sources a folder search finds.

A folder search looks for every suffix some reader takes, skips hidden folders, the output
folder and any folder holding another build's state (a build never reads its own packages
back), and, for the files it finds, those that are no quiz in any format lmsexport reads (a
README.txt), by the registry's `SNIFF_QUIZ`. A file named on the command line is always read.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Callable, Iterator

from .. import formats as registry
from .files import SOURCE_LIMIT, read_regular
from .state import STATE_FILE


def find_files(paths: list[Path], suffixes, skip: Callable[[Path, list[str]], bool] | None = None) -> list[Path]:
    """Files named directly, plus those with one of `suffixes` under named folders (not hidden,
    nor those `skip(folder, file_names)` refuses)."""
    found: list[Path] = []
    for path in paths:
        if path.is_dir():
            for folder, subfolders, files in os.walk(path):
                if skip is not None and skip(Path(folder), files):
                    subfolders[:] = []
                    continue
                subfolders[:] = sorted(d for d in subfolders if not d.startswith("."))
                found += sorted(
                    Path(folder, name)
                    for name in files
                    if not name.startswith(".") and Path(name).suffix.lower() in suffixes
                )
        elif path.exists():
            found.append(path)
        else:
            raise FileNotFoundError(f"{path}: no such file or folder")
    return list(dict.fromkeys(found))


def find_sources(paths: list[Path], out_dir: Path | None = None) -> list[Path]:
    """Quiz sources: files named directly, plus known source suffixes under folders.

    A folder search never enters `out_dir` nor any folder holding a build's state file:
    the packages lmsexport wrote are not read back as sources."""
    out = out_dir.resolve() if out_dir is not None else None

    def built(folder: Path, files: list[str]) -> bool:
        return STATE_FILE in files or folder.resolve() == out

    return find_files(paths, registry.source_suffixes(), built)


def named_files(paths: list[Path]) -> set[Path]:
    """The files named on the command line (always read), as opposed to those a folder search found."""
    return {path for path in paths if not path.is_dir()}


def looks_like_a_quiz(path: Path, data: bytes, source_format: str | None = None) -> bool:
    """Whether a file a folder search found is worth reading: the format it would be read as
    (`--from`, else its suffix and content) sniffs it at `SNIFF_QUIZ` or more. A README.txt or a
    package.json is not, and is skipped; a quiz with mistakes is, and gets its errors."""
    if source_format is not None:
        return registry.declaration(source_format).sniff(data) >= registry.SNIFF_QUIZ
    return registry.detect(path, data)[1] >= registry.SNIFF_QUIZ


def quiz_sources(paths: list[Path], out_dir: Path | None = None, source_format: str | None = None,
                 ignored: Callable[[Path], None] | None = None) -> Iterator[tuple[Path, bytes | None]]:
    """The sources a command reads, in path order, each with its bytes (None when it cannot be
    read: its reader says why): every file named, and those a folder search found that look like
    a quiz (read as `source_format`, when given). `ignored` is told of each found file that does not."""
    named = named_files(paths)
    for path in find_sources(paths, out_dir):
        try:
            data = read_regular(path, SOURCE_LIMIT)
        except OSError:
            data = None
        if path not in named and data is not None and not looks_like_a_quiz(path, data, source_format):
            if ignored is not None:
                ignored(path)
            continue
        yield path, data
