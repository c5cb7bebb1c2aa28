"""The registry: every format, known from its own declaration.

A format is one package `lmsexport/formats/<name>/` whose `__init__.py` declares it and
nothing more (so listing the formats imports no reader, writer, lxml or Jinja2):

- `NAME`: the folder's name, used by `--from` and `lmsexport.read(..., format=NAME)`;
- `DESCRIPTION`: one line for `lmsexport formats`;
- `EXTENSIONS`: the file suffixes its reader takes (`()` when it has no reader);
- `FLAVOURS`: what its writer writes, one `Flavour` per `--format` name (`()` when none); a
  flavour with `bank=True` also writes many quizzes into one file (`write_bank`, `--bank`);
- `sniff(data: bytes) -> float`: how sure (0..1) it is that `data` is one of its files, for
  suffixes several formats share (`.txt`, `.xml`, `.zip`).

Its reader is `<name>/reader` (`read(data, *, source, ...) -> Quiz`), its writer `<name>/writer`
(`write(quiz, options) -> Package`), its part of `validate` `<name>/validation` (see
lmsexport/validation.py for what that module offers).
Adding a format is its folder plus its name in `FORMATS` (Pygments' `_mapping.py`, pandoc's
`Readers.hs`). Everything above the formats (the batch layer, the CLI, the public API) reaches
them only through the functions here.

Limits: a format whose target cuts or loses text beyond some length declares it once, as
`LIMITS` (a tuple of `package.Limit`) in `<name>/limits.py`; its writer warns with those
numbers, and lint asks `limits(name)` for them (lmsexport/rules/limits.py).
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
from pathlib import Path
from types import ModuleType
from typing import Callable

from ..package import Flavour, Limit, Package, WriteOptions

FORMATS = ("qti21", "qti12", "moodle", "scorm", "json", "text", "gift", "aiken", "text2qti", "sheet")
"""Every format, in the order `lmsexport formats` lists them and sniffing breaks ties."""


SNIFF_QUIZ = 0.3
"""The least a file found by a folder search must sniff as in some format to be read as a quiz.

Below it (a README.txt, notes, a package.json: 0.0-0.2) the file is no quiz in any format
lmsexport reads, and a folder build skips it with a note; a quiz with mistakes still sniffs
above it (a text quiz's numbered questions asked with `?`, its marked options) and gets its errors.
A file named on the command line is always read."""


class UnknownFormat(LookupError):
    """No reader or writer by that name or for that file."""


def declaration(name: str) -> ModuleType:
    """The package of the format `name` (its declaration; readers and writers load on use)."""
    if name not in FORMATS:
        raise UnknownFormat(f"unknown format {name!r}; known: {', '.join(FORMATS)}")
    return importlib.import_module(f"{__name__}.{name}")


def declarations() -> list[ModuleType]:
    return [declaration(name) for name in FORMATS]


def readable() -> list[str]:
    """The formats that have a reader, in registry order."""
    return [module.NAME for module in declarations() if module.EXTENSIONS]


def reader(name: str) -> ModuleType:
    """The reader module of the format `name` (as `--from` names it)."""
    if name not in FORMATS or not declaration(name).EXTENSIONS:
        raise UnknownFormat(f"unknown input format {name!r}; choose from {', '.join(readable())}")
    return importlib.import_module(f"{__name__}.{name}.reader")


def flavours() -> dict[str, tuple[str, Flavour]]:
    """Every `--format` name -> (its format, its flavour), in registry order."""
    return {flavour.name: (module.NAME, flavour) for module in declarations() for flavour in module.FLAVOURS}


def everything() -> tuple[str, ...]:
    """What `--format all` builds: every flavour meant for an LMS (not the JSON model)."""
    return tuple(name for name, (_, flavour) in flavours().items() if flavour.in_all)


def writer(name: str) -> tuple[ModuleType, WriteOptions]:
    """The writer module for a `--format` name, and the options that select its flavour."""
    known = flavours()
    if name not in known:
        raise UnknownFormat(f"unknown output format {name!r}; known: {', '.join(known)}")
    format_name, flavour = known[name]
    return importlib.import_module(f"{__name__}.{format_name}.writer"), WriteOptions(flavour=flavour.flavour)


def banks() -> list[str]:
    """The `--format` names whose writers put many quizzes into one file (`build --bank`)."""
    return [name for name, (_, flavour) in flavours().items() if flavour.bank]


def bank_writer(name: str) -> tuple[Callable[..., Package], WriteOptions]:
    """`write_bank(quizzes, name, options) -> Package` for a `--format` name, and its options."""
    if name not in banks():
        raise UnknownFormat(f"--format {name} writes one file per quiz, not a bank of many; "
                            f"a bank is written by {', '.join(banks())}")
    module, options = writer(name)
    return module.write_bank, options


def limits(name: str) -> tuple[Limit, ...]:
    """What the target of the format `name` keeps at most: its `limits` module's `LIMITS`, else none."""
    declaration(name)
    module = f"{__name__}.{name}.limits"
    return importlib.import_module(module).LIMITS if importlib.util.find_spec(module) else ()


def expand_formats(names: list[str]) -> list[str]:
    """Writer names from `--format` values (`all`, comma lists), in order, each once."""
    known = flavours()
    expanded: list[str] = []
    for name in names:
        expanded += everything() if name == "all" else [name]
    for name in expanded:
        if name not in known:
            raise UnknownFormat(f"unknown format {name!r}; choose from {', '.join([*known, 'all'])}")
    return list(dict.fromkeys(expanded))


def source_suffixes() -> frozenset[str]:
    """Every suffix some reader takes: what a folder search looks for."""
    return frozenset(suffix for module in declarations() for suffix in module.EXTENSIONS)


def candidates(path: str | Path) -> list[ModuleType]:
    """The declarations of the formats whose readers take files with this suffix."""
    suffix = Path(path).suffix.lower()
    return [module for module in declarations() if suffix in module.EXTENSIONS]


def detect(path: str | Path, data: bytes) -> tuple[str, float]:
    """The format that reads `data` (named `path`), and how sure its sniff is (0..1).

    Of the formats that take the suffix, the one whose sniff is surest wins; on a tie, the
    first in FORMATS (a file no sniff recognises goes to the first, whose reader says why)."""
    found = candidates(path)
    if not found:
        known = ", ".join(sorted(source_suffixes()))
        suffix = Path(path).suffix.lower() or "files without a suffix"
        raise UnknownFormat(f"{Path(path).as_posix()}: no reader for {suffix} (known: {known}); "
                            "name the format with --from")
    if len(found) == 1:
        return found[0].NAME, found[0].sniff(data)
    scores = [(module.sniff(data), -index, module.NAME) for index, module in enumerate(found)]
    score, _, name = max(scores)
    return name, score


@functools.cache
def validators() -> list[ModuleType]:
    """The `validation` modules of the formats that have one, in registry order (for `validate`)."""
    found = []
    for name in FORMATS:
        try:
            found.append(importlib.import_module(f"{__name__}.{name}.validation"))
        except ModuleNotFoundError as exc:
            if exc.name != f"{__name__}.{name}.validation":
                raise
    return found


def detect_content(data: bytes) -> tuple[str, float]:
    """The format that reads `data` whatever its name (standard input), and how sure its sniff
    is; the most confident reader, registry order breaking ties."""
    scores = [(module.sniff(data), -position, module.NAME)
              for position, module in enumerate(declarations()) if module.EXTENSIONS]
    score, _, name = max(scores)
    return name, score


def reader_for(path: str | Path, data: bytes) -> ModuleType:
    """The reader for a file: by its suffix, then by its content where suffixes are shared."""
    return reader(detect(path, data)[0])
