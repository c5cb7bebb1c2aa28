"""Reading zip archives that any tool wrote, as hostile input: bounded, and every problem located.

`validate` and the readers of packages (QTI, Canvas) take zips from anywhere, so an archive
is read member by member with limits (docs/limits.md) instead of trusting its headers:

- a member's name must stay inside the archive (no `/abs`, `C:`, `\\`, `..` segments) and be
  a regular file (no symlink entries), once (no duplicate names);
- encrypted members, unsupported compression methods and corrupt data are findings about
  that member, and the other members are still read;
- what is inflated is bounded: each member by `MEMBER_LIMIT` and its declared size, the whole
  archive by `TOTAL_LIMIT`, and a member whose data expands more than `RATIO_LIMIT` times
  (past a small floor) is a zip bomb, reported without being inflated.

A problem is a `Diagnostic` (code A1xx) located at `archive.zip!member`; the caller decides
whether it is a validation finding or a reader's error.
"""

from __future__ import annotations

import io
import stat
import zipfile
import zlib
from dataclasses import dataclass, field

from .diagnostics import Diagnostic, SourceSpan
from .paths import unsafe_path

MEMBER_LIMIT = 256 << 20
"""Bytes one member may inflate to (256 MiB)."""
TOTAL_LIMIT = 1 << 30
"""Bytes a whole archive may inflate to (1 GiB)."""
RATIO_LIMIT = 200
"""How many times its compressed size a member may inflate to, once past `_RATIO_FLOOR`."""
_RATIO_FLOOR = 1 << 20
"""Members inflating to less than this (1 MiB) are never called bombs: small, regular files
(XML of repeated markup) compress very well."""
MEMBER_COUNT_LIMIT = 100_000
"""Members an archive may have."""
_CHUNK = 1 << 16


@dataclass
class Archive:
    """The regular members that could be read (name -> bytes), and what was wrong with the rest."""

    files: dict[str, bytes] = field(default_factory=dict)
    problems: list[Diagnostic] = field(default_factory=list)


class _TooLarge(Exception):
    pass


def _problem(code: str, source: str, message: str, hint: str = "") -> Diagnostic:
    return Diagnostic(code, message, SourceSpan(source), hint)


def read_zip(data: bytes, source: str) -> Archive:
    """Every regular, safe member of the zip in `data` that can be read within the limits."""
    archive = Archive()
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as opened:
            infos = opened.infolist()
            if len(infos) > MEMBER_COUNT_LIMIT:
                archive.problems.append(_problem("A101", source, f"the archive has {len(infos):,} members, more than "
                                                 f"the {MEMBER_COUNT_LIMIT:,} lmsexport reads"))
                return archive
            _read_members(opened, infos, source, archive)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, EOFError, UnicodeDecodeError, ValueError) as exc:
        archive.problems.append(_problem("A102", source, f"not a readable zip file: {exc}",
                                         "the file is damaged or not a zip: download or export it again"))
    return archive


def _read_members(opened: zipfile.ZipFile, infos: list[zipfile.ZipInfo], source: str, archive: Archive) -> None:
    seen: set[str] = set()
    total = 0
    for info in infos:
        where = f"{source}!{info.filename}"
        problem = _member_problem(info, seen, where)
        seen.add(info.filename)
        if problem is not None:
            archive.problems.append(problem)
            continue
        if info.is_dir():
            continue
        try:
            content = _inflate(opened, info, min(MEMBER_LIMIT, TOTAL_LIMIT - total))
        except _TooLarge:
            archive.problems.append(_problem("A107", where, "the member inflates past what lmsexport reads "
                                             f"({MEMBER_LIMIT >> 20} MiB a member, {TOTAL_LIMIT >> 20} MiB an archive)"))
            continue
        except (zipfile.BadZipFile, zlib.error, OSError, EOFError) as exc:
            archive.problems.append(_problem("A108", where, f"the member's data is damaged: {exc}"))
            continue
        except NotImplementedError as exc:
            archive.problems.append(_problem("A109", where, f"the member cannot be read: {exc}",
                                             "re-create the zip with the standard deflate (or no) compression"))
            continue
        total += len(content)
        archive.files[info.filename] = content


def _member_problem(info: zipfile.ZipInfo, seen: set[str], where: str) -> Diagnostic | None:
    """What makes a member unreadable or unsafe before any of its data is inflated."""
    reason = unsafe_path(info.filename)
    if reason is not None:
        return _problem("A103", where, f"the member name {info.filename!r} is unsafe: {reason}",
                        "an importer could write it outside its folder: rename it to a relative path inside the package")
    if info.filename in seen:
        return _problem("A104", where, f"the archive holds {info.filename!r} twice; importers keep only one of them")
    if stat.S_ISLNK(info.external_attr >> 16):
        return _problem("A105", where, "the member is a symbolic link; a package holds regular files only")
    if info.flag_bits & 0x1:
        return _problem("A106", where, "the member is encrypted; a package must be readable without a password")
    if info.file_size > _RATIO_FLOOR and info.file_size > RATIO_LIMIT * max(info.compress_size, 1):
        return _problem("A110", where, f"the member would inflate {info.file_size // max(info.compress_size, 1):,} "
                        f"times its size ({info.file_size:,} bytes): a zip bomb, not read")
    return None


def _inflate(opened: zipfile.ZipFile, info: zipfile.ZipInfo, limit: int) -> bytes:
    """The member's bytes, read in chunks and stopped past `limit` (zipfile itself stops at the
    declared size, and a member whose data goes on past it fails its CRC check)."""
    if info.file_size > limit:
        raise _TooLarge
    chunks, size = [], 0
    with opened.open(info) as member:
        while chunk := member.read(_CHUNK):
            size += len(chunk)
            if size > limit:
                raise _TooLarge
            chunks.append(chunk)
    return b"".join(chunks)
