"""The registry's contract: what every format must declare and have (Pygments' test_basic_api).

A failure says what to add. A new format needs: its folder under lmsexport/formats/ with the
declaration in `__init__.py`, its name in FORMATS, a docs page, reader goldens under
tests/golden/readers/<name>/ if it reads, writer goldens under tests/golden/writers/<flavour>/
for each flavour it writes, and a `sniff()` that knows its own files from the others'.
"""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import lmsexport
from conftest import GOLDEN, ROOT
from lmsexport import formats as registry
from lmsexport.cli import main
from lmsexport.package import Flavour

NAMES = registry.FORMATS
PAGES = {"text": "docs/format.md", "qti12": "docs/formats/canvas.md"}
"""Docs pages that are not docs/formats/<name>.md: the text format's came first; QTI 1.2 is written
in its Canvas flavour."""


def _reader_goldens(name: str) -> list[Path]:
    folder = GOLDEN / "readers" / name
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir()
                  if p.is_file() and (p.suffix not in (".json", ".log") or not p.with_suffix("").is_file()))


@pytest.mark.parametrize("name", NAMES)
def test_declares_what_a_format_must(name):
    module = registry.declaration(name)
    assert module.NAME == name, f"lmsexport/formats/{name}/__init__.py: NAME must be {name!r}"
    assert isinstance(module.DESCRIPTION, str) and module.DESCRIPTION.strip(), f"{name}: add a one-line DESCRIPTION"
    assert isinstance(module.EXTENSIONS, tuple) and all(
        e.startswith(".") and e == e.lower() for e in module.EXTENSIONS), f"{name}: EXTENSIONS are lower-case '.suffix'es"
    assert isinstance(module.FLAVOURS, tuple) and all(isinstance(f, Flavour) for f in module.FLAVOURS)
    assert module.EXTENSIONS or module.FLAVOURS, f"{name} neither reads nor writes"
    assert callable(module.sniff)
    assert module.__doc__ and module.__doc__.strip(), f"{name}: the declaration's docstring names the format and spec"


@pytest.mark.parametrize("name", NAMES)
def test_has_the_reader_and_writer_it_declares(name):
    module = registry.declaration(name)
    if module.EXTENSIONS:
        assert callable(registry.reader(name).read), f"lmsexport/formats/{name}/reader: define read(data, *, source)"
    for flavour in module.FLAVOURS:
        writer, options = registry.writer(flavour.name)
        assert callable(writer.write) and options.flavour == flavour.flavour


@pytest.mark.parametrize("name", NAMES)
def test_has_a_docs_page(name):
    page = ROOT / PAGES.get(name, f"docs/formats/{name}.md")
    assert page.is_file(), f"write {page.relative_to(ROOT)} for the {name} format"


@pytest.mark.parametrize("name", NAMES)
def test_has_goldens(name):
    module = registry.declaration(name)
    if module.EXTENSIONS:
        assert _reader_goldens(name), f"add source files to tests/golden/readers/{name}/ (pytest --update-goldens)"
    for flavour in module.FLAVOURS:
        folder = GOLDEN / "writers" / flavour.name
        assert folder.is_dir() and any(folder.iterdir()), f"add writer goldens in tests/golden/writers/{flavour.name}/"


def test_flavour_names_are_unique_and_all_builds_the_lms_formats():
    names = [flavour.name for module in registry.declarations() for flavour in module.FLAVOURS]
    assert len(names) == len(set(names))
    assert "json" not in registry.everything() and "qti" in registry.everything()


def _samples() -> list[bytes]:
    generator = random.Random(1848)
    samples = [b"", b"\x00" * 10, b"PK\x03\x04broken", b"<", b"<?xml version='1.0'?>", b"{", "ẹ̀kọ́".encode()]
    samples += [bytes(generator.randrange(256) for _ in range(generator.randrange(1, 400))) for _ in range(40)]
    for name in NAMES:
        samples += [path.read_bytes() for path in _reader_goldens(name)]
    return samples


SAMPLES = _samples()


@pytest.mark.parametrize("name", NAMES)
def test_sniff_answers_between_0_and_1_for_anything(name):
    sniff = registry.declaration(name).sniff
    for data in SAMPLES:
        score = sniff(data)
        assert isinstance(score, float) and 0.0 <= score <= 1.0, f"{name}.sniff gave {score!r}"


@pytest.mark.parametrize("name", [n for n in NAMES if registry.declaration(n).EXTENSIONS])
def test_sniff_prefers_its_own_goldens(name):
    """Each golden of a format sniffs higher for it than for any other format taking that suffix."""
    for path in _reader_goldens(name):
        data = path.read_bytes()
        own = registry.declaration(name).sniff(data)
        for other in registry.candidates(path):
            if other.NAME != name:
                assert other.sniff(data) < own, f"{path.name} sniffs {other.sniff(data)} as {other.NAME}, {own} as {name}"


def test_read_reaches_every_reader_by_name():
    for name in NAMES:
        for path in _reader_goldens(name)[:1]:
            assert lmsexport.read(path, format=name, log=lmsexport.Log()).questions


def test_an_unknown_format_is_a_usage_error():
    result = CliRunner().invoke(main, ["build", "x.txt", "--from", "nope", "-f", "qti"])
    assert result.exit_code == 2 and "unknown input format 'nope'; choose from" in result.output


def test_the_cli_lists_every_format_and_flavour():
    """`lmsexport formats` is the one list; `build --help` points to it instead of a copy."""
    listing = CliRunner().invoke(main, ["formats"]).stdout
    for module in registry.declarations():
        for flavour in module.FLAVOURS:
            assert f"  {flavour.name:<10} {flavour.description}" in listing
        if module.EXTENSIONS:
            assert f"  {module.NAME:<10} {' '.join(module.EXTENSIONS)}" in listing
    helptext = " ".join(CliRunner().invoke(main, ["build", "--help"]).stdout.split())
    assert helptext.count("lmsexport formats") >= 2, "build --help: --format and --from point to lmsexport formats"


def test_listing_the_formats_loads_no_reader_or_writer():
    code = ("import sys, lmsexport.formats as r; [r.declaration(n) for n in r.FORMATS]; "
            "print(sorted(m for m in sys.modules if m.endswith(('.reader', '.writer')) or m in ('lxml', 'jinja2')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert out.stdout.strip() == "[]", out.stdout

