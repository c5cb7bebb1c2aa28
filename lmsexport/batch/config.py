"""`lmsexport.toml`: settings for a folder of quizzes.

    formats = ["qti", "moodle"]     # what `lmsexport build` writes (default: --format is required)
    out = "dist"                    # output folder, relative to this file
    jobs = 2                        # parallel workers

    [defaults]                      # header defaults for every quiz below this folder
    lang = "yo"
    shuffle = true
    pass = 60
    feedback = "end"
    points = 1
    messages = "cs-messages.json"   # the player's words for these quizzes (relative to this file)

Run settings come from `./lmsexport.toml` (or `--config FILE`); `[defaults]` come from
the nearest `lmsexport.toml` in a source's folder or above it, so a course can keep one
file per language folder. A quiz's own header wins over `[defaults]`, and options on
the command line win over the file. Unknown keys are errors, as in quiz headers. `[defaults]`
takes a quiz header's keys, checked as a header's are: by lmsexport.settings, the settings
vocabulary that every source with settings shares, so no format's module is needed here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from ..diagnostics import Diagnostic, SourceError, SourceSpan
from .files import read_regular
from ..settings import KEYS as HEADER_KEYS, OWN
from .files import source_name

if TYPE_CHECKING:  # a build reads a messages file only when a lmsexport.toml names one (start-up: 6 ms)
    from ..interface.custom import MessagesFile

FILE_NAME = "lmsexport.toml"
RUN_KEYS = ("formats", "out", "jobs", "defaults")


@dataclass(frozen=True)
class Config:
    """Settings read from one lmsexport.toml (empty when there is none)."""

    path: Path | None = None
    formats: tuple[str, ...] = ()
    out: Path | None = None
    jobs: int | None = None
    defaults: dict = field(default_factory=dict)
    """Quiz header values, already checked and converted like header lines."""


def _problem(path: Path, message: str, hint: str = "") -> Diagnostic:
    return Diagnostic("E701", message, SourceSpan(source_name(path)), hint)


def _unknown(path: Path, key: str, known) -> Diagnostic:
    import difflib

    close = difflib.get_close_matches(key, known, n=1, cutoff=0.5)
    hint = (f"did you mean {close[0]}? " if close else "") + f"known keys: {', '.join(known)}"
    return _problem(path, f"unknown key {key!r}", hint)


def _defaults(path: Path, table, problems: list) -> dict:
    if not isinstance(table, dict):
        problems.append(_problem(path, "[defaults] must be a table of quiz header keys"))
        return {}
    values = {}
    for key, value in table.items():
        if key not in HEADER_KEYS or key in OWN:
            problems.append(_unknown(path, key, [k for k in HEADER_KEYS if k not in OWN]))
            continue
        text = ", ".join(value) if isinstance(value, list) else str(value).lower() if isinstance(value, bool) else str(value)
        try:
            values[key] = HEADER_KEYS[key](text)
        except ValueError as exc:
            problems.append(_problem(path, f"bad value {value!r} for defaults.{key}", str(exc)))
    if "messages" in values:
        values["messages"] = _messages_file(path, values["messages"], problems)
    return values


def _messages_file(path: Path, relative: str, problems: list) -> MessagesFile | None:
    """The messages file `[defaults]` names, relative to the lmsexport.toml; each quiz checks it
    against its own language when it is read."""
    from ..interface.custom import LIMIT, MessagesFile

    target = path.parent / relative
    try:
        return MessagesFile(target.as_posix(), read_regular(target, LIMIT))
    except OSError as exc:
        problems.append(_problem(path, f"defaults.messages: cannot read {target.as_posix()}: {exc.strerror or exc}",
                                 "give the path of a JSON file relative to this lmsexport.toml"))
        return None


def load(path: Path) -> Config:
    """Read and check one lmsexport.toml; raises SourceError listing every problem."""
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        import tomli as tomllib

    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise SourceError([_problem(path, f"cannot read the file: {exc}")]) from None
    except tomllib.TOMLDecodeError as exc:
        raise SourceError([_problem(path, f"not valid TOML: {exc}")]) from None
    problems: list[Diagnostic] = [_unknown(path, key, RUN_KEYS) for key in data if key not in RUN_KEYS]
    formats = data.get("formats", [])
    if isinstance(formats, str):
        formats = [formats]
    if not isinstance(formats, list) or not all(isinstance(f, str) for f in formats):
        problems.append(_problem(path, "formats must be a list of format names", 'formats = ["qti", "moodle"]'))
        formats = []
    jobs = data.get("jobs")
    if jobs is not None and (not isinstance(jobs, int) or isinstance(jobs, bool) or jobs < 1):
        problems.append(_problem(path, "jobs must be a whole number of 1 or more"))
    out = data.get("out")
    if out is not None and not isinstance(out, str):
        problems.append(_problem(path, "out must be a folder name", 'out = "dist"'))
    defaults = _defaults(path, data.get("defaults", {}), problems)
    if problems:
        raise SourceError(problems)
    return Config(
        path=path,
        formats=tuple(formats),
        out=path.parent / out if out else None,
        jobs=jobs,
        defaults=defaults,
    )


def nearest(folder: Path) -> Config:
    """The lmsexport.toml that applies to sources in `folder`: there or in a folder above."""
    for candidate in (folder, *folder.parents):
        if (candidate / FILE_NAME).is_file():
            return load(candidate / FILE_NAME)
    return Config()
