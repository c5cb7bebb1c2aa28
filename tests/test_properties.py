"""Property tests (Hypothesis): generated quizzes, broken files, random bytes (docs/limits.md).

- Every quiz tests/strategies.py generates (every kind, a dozen scripts, plain and HTML, images,
  math) is written in every format valid, and reads back from JSON, QTI 2.1 and Moodle XML as
  the quiz less the lossy fields each format documents (tests/carried.py); so is every quiz of
  tests/model_strategies.py (texts full of what a format must escape), without the round trip.
- Every corpus file (tests/golden/readers/*/, tests/fixtures/*/), broken at random, and random
  bytes, go through every reader and `validate`: read, a SourceError with each diagnostic in
  that file, or findings; never another exception. What is read is written in every format and
  validates, or the writer refuses it (SourceError): never an invalid package (exit 3).

The examples are fixed (derandomize) so that CI is stable; `LMSEXPORT_EXPLORE=20 pytest -m
properties` tries twenty times as many new ones. What these found is in tests/test_fuzz_findings.py.
"""

from __future__ import annotations

import copy
import io
import json
import os
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings, strategies as st
from lxml import etree

import lmsexport
from carried import carried
from conftest import ROOT
from lmsexport import formats as registry
from lmsexport.cli import main
from lmsexport.diagnostics import Log, SourceError
from model_strategies import quizzes as model_quizzes
from strategies import quizzes

pytestmark = pytest.mark.properties

EXPLORE = int(os.environ.get("LMSEXPORT_EXPLORE", "0"))
"""0: the fixed examples CI runs; N: N times as many, new ones each run."""


def _settings(examples: int):
    return settings(max_examples=examples * (EXPLORE or 1), deadline=None, derandomize=not EXPLORE, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def _is_source(path: Path) -> bool:
    """A file of the corpus, not a golden made from one (`<case>.json`, `<case>.log`) or a README."""
    golden = path.suffix in (".json", ".log") and Path(path.stem).suffix != ""
    return path.is_file() and not golden and path.name != "README.md"


CORPUS = [path for folder in ("golden/readers", "fixtures") for path in sorted((ROOT / "tests" / folder).rglob("*"))
          if _is_source(path)]
READERS = registry.readable()
FLAVOURS = registry.flavours()
ROUND_TRIPS = ("json", "qti21", "moodle")
"""Formats read back here (tests/carried.py knows what each loses); the lmsexport text format
has its own round trip, over quizzes it holds exactly (tests/test_text_writer.py)."""


def _written_valid(quiz, where: str) -> None:
    """Every format writes `quiz` valid, or refuses it with errors located in `where`."""
    for name in FLAVOURS:
        try:
            package = lmsexport.write(quiz, name)
        except SourceError as exc:
            assert exc.diagnostics and all(d.span.file == where for d in exc.diagnostics), exc
            continue
        assert lmsexport.validate(package) == [], f"{name}: {lmsexport.validate(package)[0].render()}"


@_settings(30)
@given(quizzes())
def test_a_generated_quiz_is_written_valid_everywhere_and_read_back(quiz):
    for name, (format_name, _) in FLAVOURS.items():
        package = lmsexport.write(quiz, name)
        assert lmsexport.validate(package) == [], f"{name}: {lmsexport.validate(package)[0].render()}"
        if format_name in ROUND_TRIPS:
            back = lmsexport.read(f"back{package.extension}", package.to_bytes(), format=format_name, log=Log())
            assert back == carried(quiz, format_name), name


@_settings(20)
@given(model_quizzes())
def test_a_quiz_full_of_what_formats_escape_is_written_valid_everywhere_or_refused(quiz):
    """Its texts may be empty, which Moodle XML refuses (E008): a located refusal, not bad output."""
    _written_valid(quiz, quiz.where().file)


def _read_every_way(name: str, data: bytes, folder: Path) -> None:
    for format_name in READERS:
        try:
            quiz = lmsexport.read(name, data, format=format_name, log=Log())
        except SourceError as exc:
            assert exc.diagnostics and all(d.span.file == name for d in exc.diagnostics), exc
            continue
        _written_valid(quiz, name)
    path = folder / name
    path.write_bytes(data)
    for finding in lmsexport.validate(path):
        assert finding.span.file == path.as_posix(), finding.render()


INTERESTING = ["", " ", "0", "-1", "100", "-100", "1e309", "nan", "inf", "1e-400", "9" * 400, "true", "<b>x</b>", "&amp;",
               "é", "\u202e", "x" * 300, "../../x", "a:b", "@@PLUGINFILE@@/x.png", "1,5", "33.33333", "html", "plain",
               "multichoice", "cloze", "{1:SHORTANSWER:=a}", "{:MULTICHOICE:=a~b}", "\\(x\\)", "single", "multiple",
               "RESPONSE", "q1", "items/q1.xml", "img/a.png", "base64", "PT1H", "ar", "x-", "\t\n", "\ufeff", "𝔸"]
"""Values that are numbers, kinds, formats, paths or identifiers in some format, or none of them."""


def _mutate_xml(data: bytes, rng) -> bytes:
    """Texts and attributes changed, elements removed or doubled: still XML, no longer what it was."""
    root = etree.fromstring(data, etree.XMLParser(resolve_entities=False, no_network=True))
    for _ in range(rng.randint(1, 4)):
        nodes = list(root.iter(etree.Element))
        node, value = rng.choice(nodes), rng.choice(INTERESTING)
        step = rng.randrange(5)
        if step == 0:
            node.text = value
        elif step == 1 and node.attrib:
            node.set(rng.choice(list(node.attrib)), value)
        elif step == 2 and node.getparent() is not None:
            node.getparent().remove(node)
        elif step == 3 and node.getparent() is not None:
            node.addnext(copy.deepcopy(node))
        elif node.attrib:
            del node.attrib[rng.choice(list(node.attrib))]
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8")


def _mutate_json(data: bytes, rng) -> bytes:
    document = json.loads(data)
    for _ in range(rng.randint(1, 4)):
        node = document
        while isinstance(node, (dict, list)) and node and rng.random() < 0.8:
            keys = list(node) if isinstance(node, dict) else range(len(node))
            key = rng.choice(list(keys))
            if not isinstance(node[key], (dict, list)) or rng.random() < 0.2:
                node[key] = rng.choice([None, -1, 0, 1e308, 10**30, "", [], {}, True, "html", 2**53 + 1, "x" * 50])
                break
            node = node[key]
    return json.dumps(document).encode()


def _mutate_lines(data: bytes, rng) -> bytes:
    lines = data.decode("utf-8", "replace").split("\n")
    for _ in range(rng.randint(1, 4)):
        index = rng.randrange(len(lines))
        step = rng.randrange(3)
        if step == 0:
            lines.insert(index, rng.choice(lines))
        elif step == 1 and len(lines) > 1:
            del lines[index]
        else:
            at = rng.randint(0, len(lines[index]))
            piece = rng.choice([*INTERESTING, "{", "}", "~", "=", "#", "::", "*", "•", "- [x]", "> ", "1.", "---",
                                "Answers: 1a", "= 1..2", "= 3 ± 1", "%50%", "->", "$", "![x](img/a.png)", "\t"])
            lines[index] = lines[index][:at] + piece + lines[index][at:]
    return "\n".join(lines).encode()


def _mutate_zip(data: bytes, rng) -> bytes:
    """One member changed (an XML one as XML), sometimes one left out; the zip itself stays sound."""
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        members = {info.filename: archive.read(info) for info in archive.infolist()}
    name = rng.choice([n for n in members if n.endswith(".xml")] or list(members))
    members[name] = _structured(name, members[name], rng)
    if rng.random() < 0.1:
        members.pop(rng.choice(list(members)))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        for member, content in members.items():
            archive.writestr(member, content)
    return out.getvalue()


def _structured(name: str, data: bytes, rng) -> bytes:
    """`data` broken in a way that keeps its syntax, so that the reader gets past parsing."""
    try:
        if data.startswith(b"PK"):
            return _mutate_zip(data, rng)
        if name.endswith(".xml"):
            return _mutate_xml(data, rng)
        if name.endswith(".json"):
            return _mutate_json(data, rng)
    except (etree.XMLSyntaxError, ValueError, zipfile.BadZipFile):
        pass
    return _mutate_lines(data, rng)


BYTE_EDITS = st.lists(st.tuples(st.sampled_from(("flip", "insert", "delete", "truncate")), st.floats(0, 1),
                                st.binary(min_size=1, max_size=8)), min_size=1, max_size=4)


def _edit_bytes(data: bytes, edits) -> bytes:
    out = bytearray(data)
    for kind, where, piece in edits:
        at = int(where * len(out))
        if kind == "flip" and out:
            out[min(at, len(out) - 1)] ^= piece[0] or 1
        elif kind == "insert":
            out[at:at] = piece
        elif kind == "delete":
            del out[at:at + piece[0] % 64 + 1]
        else:
            del out[at:]
    return bytes(out)


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("broken")


@_settings(120)
@given(path=st.sampled_from(CORPUS), rng=st.randoms(use_true_random=False))
def test_a_corpus_file_broken_in_its_syntax_is_read_or_refused_with_located_errors(folder, path, rng):
    _read_every_way(f"broken{path.suffix}", _structured(path.name, path.read_bytes(), rng), folder)


@_settings(80)
@given(path=st.sampled_from(CORPUS), edits=BYTE_EDITS)
def test_a_corpus_file_with_bytes_flipped_inserted_deleted_or_cut_is_read_or_refused(folder, path, edits):
    _read_every_way(f"bytes{path.suffix}", _edit_bytes(path.read_bytes(), edits), folder)


SUFFIXES = sorted(registry.source_suffixes() | {".zip", ".xml", ".json"})


@_settings(80)
@given(suffix=st.sampled_from(SUFFIXES), data=st.one_of(
    st.binary(max_size=600), st.text(max_size=300).map(str.encode),
    st.dictionaries(st.sampled_from(["imsmanifest.xml", "items/q1.xml", "test.xml", "../x", "a\\b"]),
                    st.binary(max_size=200), max_size=3).map(lambda members: _zip(members))))
def test_random_bytes_are_read_or_refused_with_located_errors(folder, suffix, data):
    _read_every_way(f"random{suffix}", data, folder)


def _zip(members: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        for name, content in members.items():
            archive.writestr(name, content)
    return out.getvalue()


@_settings(6)
@given(paths=st.lists(st.sampled_from(CORPUS), min_size=1, max_size=3, unique=True),
       rng=st.randoms(use_true_random=False))
def test_a_build_of_broken_sources_exits_0_or_1(tmp_path_factory, paths, rng):
    """The CLI end to end: located errors (exit 1) or packages (exit 0), never exit 3 or 4."""
    source = tmp_path_factory.mktemp("sources")
    for number, path in enumerate(paths):
        (source / f"{number}{path.suffix}").write_bytes(_structured(path.name, path.read_bytes(), rng))
    result = CliRunner().invoke(main, ["build", str(source), "-f", "all,json", "-o", str(source / "out"), "--no-lint",
                                       "-j", "1"])
    assert result.exit_code in (0, 1), result.output
