"""Readers and writers by name: plain tables, modules imported on first use.

Adding a format is one module plus one line here (pandoc's `Readers.hs` list,
Pygments' `_mapping.py`). Each reader module defines `NAME`, `EXTENSIONS`,
and `read(data, *, source) -> Quiz`; each writer module
`NAME` and `write(quiz, options: WriteOptions) -> Package`.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from types import ModuleType

from ..package import WriteOptions

READERS = {
    "text": "lmsexport.formats.text.reader",
    "json": "lmsexport.formats.json.reader",
    "moodle": "lmsexport.formats.moodle.reader",
    "qti21": "lmsexport.formats.qti21.reader",
}
"""Reader name -> module."""

READER_EXTENSIONS = {
    ".txt": "text",
    ".quiz": "text",
    ".json": "json",
    ".xml": "moodle",
}
"""File suffix -> reader name; `build` looks for these suffixes in folders."""

WRITERS = {
    "qti": ("lmsexport.formats.qti21.writer", "", "IMS QTI 2.1 content package (.qti.zip) for Canvas, Blackboard, QTI engines"),
    "moodle": ("lmsexport.formats.moodle.writer", "", "Moodle XML question bank (.moodle.xml) for Question bank > Import"),
    "scorm12": ("lmsexport.formats.scorm.writer", "1.2", "SCORM 1.2 package (.scorm12.zip) with a self-contained quiz player"),
    "scorm2004": ("lmsexport.formats.scorm.writer", "2004", "SCORM 2004 4th edition package (.scorm2004.zip) with a self-contained quiz player"),
    "json": ("lmsexport.formats.json.writer", "", "the lmsexport model as JSON (for tools and tests)"),
}
"""Writer name (the `--format` value) -> (module, flavour, one-line description).

Flavours of one format share a module (pandoc's epub2/epub3): the flavour reaches
the writer as `WriteOptions.flavour`."""


ALL = ("qti", "moodle", "scorm12", "scorm2004")
"""What `--format all` builds: every LMS format (not the JSON model)."""


class UnknownFormat(LookupError):
    """No reader or writer by that name or for that file."""


def reader(name: str) -> ModuleType:
    if name not in READERS:
        raise UnknownFormat(f"unknown input format {name!r}; known: {', '.join(READERS)}")
    return importlib.import_module(READERS[name])


def writer(name: str) -> tuple[ModuleType, WriteOptions]:
    """The writer module for a `--format` name, and the options that select its flavour."""
    if name not in WRITERS:
        raise UnknownFormat(f"unknown output format {name!r}; known: {', '.join(WRITERS)}")
    module, flavour, _ = WRITERS[name]
    return importlib.import_module(module), WriteOptions(flavour=flavour)


def reader_for(path: str | Path) -> ModuleType:
    """The reader for a file, by its suffix."""
    suffix = Path(path).suffix.lower()
    if suffix not in READER_EXTENSIONS:
        known = ", ".join(sorted(READER_EXTENSIONS))
        raise UnknownFormat(f"{path}: no reader for {suffix or 'files without a suffix'} (known: {known})")
    return reader(READER_EXTENSIONS[suffix])


def expand_formats(names: list[str]) -> list[str]:
    """Writer names from `--format` values (`all`, comma lists), in order, each once."""
    expanded = []
    for name in names:
        expanded += ALL if name == "all" else [name]
    for name in expanded:
        if name not in WRITERS:
            raise UnknownFormat(f"unknown format {name!r}; choose from {', '.join([*WRITERS, 'all'])}")
    return list(dict.fromkeys(expanded))
