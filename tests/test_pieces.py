"""Documents that grow with the bank, written in pieces and checked as they are read
(lmsexport/pieces.py, the streamed check in lmsexport/validation.py).

A bank big enough to take these paths (2,000 entries a batch, 8 MB a document) is too slow for
the suite, so the tests take them on small quizzes: a batch of one entry, every document
"large". A pieced package must be byte for byte the package written whole, pass the streamed
check, and a broken document must get exactly the findings of the whole-tree check.
"""

from __future__ import annotations

import io
import zipfile

import pytest
from hypothesis import HealthCheck, given, settings
from lxml import etree

import lmsexport
from lmsexport import pieces, spool, validation
from lmsexport.formats.moodle import writer as moodle_writer
from lmsexport.model import Choice, MultipleChoice, Pool, Quiz, Text
from lmsexport.xml import NS, TEXT_LIMIT
from model_strategies import quizzes as model_quizzes
from strategies import quizzes

PIECED = ("qti", "canvas")


@pytest.fixture
def streamed(monkeypatch):
    """Every package document checked as it is read; the documents that passed that way."""
    passed = []
    check = validation._streamed

    def spy(files, path, source, documents):
        head = check(files, path, source, documents)
        if head is not None:
            passed.append(path)
        return head

    monkeypatch.setattr(validation, "STREAMED", 0)
    monkeypatch.setattr(validation, "_streamed", spy)
    return passed


def _pieced(quiz, name: str, batch: int = 1):
    whole = lmsexport.write(quiz, name)
    previous, pieces.BATCH = pieces.BATCH, batch
    try:
        return whole, lmsexport.write(quiz, name)
    finally:
        pieces.BATCH = previous


_SETTINGS = settings(max_examples=25, deadline=None, derandomize=True, database=None,
                     suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                            HealthCheck.function_scoped_fixture])


@_SETTINGS
@given(quizzes())
def test_a_pieced_package_is_the_whole_one_and_passes_the_streamed_check(streamed, quiz):
    for name in PIECED:
        whole, pieced = _pieced(quiz, name)
        assert dict(pieced.files) == dict(whole.files)
        del streamed[:]
        assert lmsexport.validate(pieced) == []
        # A document with MathML, whose ids only a whole tree checks, is checked whole.
        documents = {path for path, data in pieced.files.items() if b"/MathML" not in data and (
            path in ("imsmanifest.xml", "test.xml", f"{quiz.id}/{quiz.id}.xml"))}
        assert documents <= set(streamed), (name, documents - set(streamed))


@_SETTINGS
@given(model_quizzes())
def test_texts_full_of_what_xml_escapes_are_pieced_as_written_whole(quiz):
    for name in PIECED:
        whole, pieced = _pieced(quiz, name, batch=2)
        assert dict(pieced.files) == dict(whole.files)


@_SETTINGS
@given(model_quizzes())
def test_the_model_json_written_a_question_at_a_time_is_json_dumps_of_the_whole_model(quiz):
    """The JSON writer's scaffold with each question's own form where its mark stands, put in the
    spool a chunk at a time (on disk): `json.dumps` of the whole model, which reads back as the quiz."""
    import json

    from lmsexport.formats.json import writer as json_writer
    from lmsexport.model import MODEL_VERSION, quiz_to_data

    document = {"lmsexport-model": MODEL_VERSION if quiz.pools else 1, "quiz": quiz_to_data(quiz)}
    whole = (json.dumps(document, ensure_ascii=False, indent=2) + "\n").encode("utf-8")
    saved = json_writer.CHUNK, spool.BUDGET
    json_writer.CHUNK, spool.BUDGET = 1, 0
    try:
        package = lmsexport.write(quiz, "json")
        (name,) = package.files
        assert package.files.spilled() > 0 and package.files[name] == whole
    finally:
        json_writer.CHUNK, spool.BUDGET = saved
    assert lmsexport.read(name, whole, format="json") == quiz


@_SETTINGS
@given(model_quizzes())
def test_a_text_quiz_written_a_line_at_a_time_is_the_whole_one(quiz):
    """The text writer's lines go into the spool a batch at a time, each let go once written:
    a batch of one line, on disk, gives the bytes of its lines written at once."""
    from lmsexport.formats.text import writer as text_writer

    whole = lmsexport.write(quiz, "text")
    saved = text_writer._BATCH, spool.BUDGET
    text_writer._BATCH, spool.BUDGET = 1, 0
    try:
        pieced = lmsexport.write(quiz, "text")
        (name,) = pieced.files
        assert pieced.files.spilled() > 0 and pieced.files[name] == whole.files[name]
    finally:
        text_writer._BATCH, spool.BUDGET = saved


@_SETTINGS
@given(model_quizzes())
def test_a_moodle_bank_and_a_scorm_page_put_in_the_spool_a_piece_at_a_time_are_the_whole_ones(quiz):
    """Moodle's bank a chunk after every question, the SCORM page a piece per question, every
    piece on disk (a spool of no budget): the bytes written whole; the bank, read back through
    the spool, passes the check a bank past 8 MB gets."""
    names = ("moodle", "scorm12", "scorm2004")
    wholes = {name: _written(quiz, name) for name in names}
    saved = moodle_writer.CHUNK, spool.BUDGET, validation.STREAMED
    moodle_writer.CHUNK, spool.BUDGET, validation.STREAMED = 1, 0, 0
    try:
        for name in names:
            whole, pieced = wholes[name], _written(quiz, name)
            if isinstance(whole, list):  # refused (a text Moodle drops): refused the same
                assert pieced == whole, name
                continue
            assert pieced.files.spilled() > 0 and dict(pieced.files) == dict(whole.files), name
            assert pieced.to_bytes() == whole.to_bytes()
            if name == "moodle":
                assert validation.validate_files(pieced.files, source="bank") == []
    finally:
        moodle_writer.CHUNK, spool.BUDGET, validation.STREAMED = saved


def _written(quiz, name: str):
    """The package, or the refusals (rendered) of a quiz the format cannot hold."""
    try:
        return lmsexport.write(quiz, name)
    except lmsexport.SourceError as refused:
        return [d.render() for d in refused.diagnostics]


def _quiz(prompt: str = "Which?", title: str = "T", pooled: bool = True) -> Quiz:
    questions = tuple(MultipleChoice(id=f"q{n}", prompt=Text(prompt if n == 2 else f"Which {n}?"), choices=(
        Choice(id="a", text=Text("x"), correct=True), Choice(id="b", text=Text("y")))) for n in range(1, 6))
    pools = (Pool(id="p1", draw=1, questions=("q3", "q4")),) if pooled else ()
    return Quiz(id="big", title=title, questions=questions, pools=pools)


@pytest.mark.parametrize("name", PIECED)
@pytest.mark.parametrize("texts", [{"prompt": "w" * (TEXT_LIMIT + 1)}, {"title": '"' * 2_000_000},
                                   {"prompt": "w" * (TEXT_LIMIT + 1), "title": '"' * 2_000_000}])
def test_a_pieced_document_refuses_too_long_a_text_as_a_whole_one_does(name, texts):
    refusals = []
    for batch in (pieces.BATCH, 1):
        previous, pieces.BATCH = pieces.BATCH, batch
        try:
            with pytest.raises(lmsexport.SourceError) as refused:
                lmsexport.write(_quiz(**texts), name)
        finally:
            pieces.BATCH = previous
        refusals.append([(d.code, d.message, d.span) for d in refused.value.diagnostics])
    assert refusals[0] == refusals[1] and refusals[0]


def _broken(package, path: str, old: bytes, new: bytes) -> bytes:
    """The package's zip with `old` replaced by `new` in the file at `path`."""
    files = dict(package.files)
    assert old in files[path]
    files[path] = files[path].replace(old, new, 1)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return buffer.getvalue()


BREAKAGES = [
    ("qti", "imsmanifest.xml", b'<file href="items/q3.xml"/>', b'<file href="items/q3.xml"/><bogus/>', ("V103",)),
    ("qti", "imsmanifest.xml", b'identifierref="RES-big-q2"', b'identifierref="RES-big-q9"', ("V203",)),
    ("qti", "imsmanifest.xml", b'identifier="RES-big-q4"', b'identifier="RES-big-q3"',
     ("V201", "V103", "V203")),
    ("qti", "imsmanifest.xml", b'<file href="items/q4.xml"/>', b'<file href="items/q44.xml"/>', ("V202",)),
    ("qti", "imsmanifest.xml", b'href="test.xml">\n      <file href="test.xml"/>',
     b'href="items/q1.xml">\n      <file href="items/q1.xml"/>', ("V204", "V402")),
    ("qti", "imsmanifest.xml", b'href="items/q4.xml">', b'href="items/q5.xml">', ("V401",)),
    ("qti", "imsmanifest.xml", b'identifier="RES-big-q4" type="imsqti_item_xmlv2p1"',
     b'identifier="RES-big-q4" type="imsqti_test_xmlv2p1"', ("V401", "V402")),
    ("qti", "items/q2.xml", b'identifier="big-q2"', b'identifier="big-q1"', ("V403", "V405")),
    ("qti", "test.xml", b'identifier="big-q5" href="items/q5.xml"', b'identifier="big-q5" href="items/q6.xml"',
     ("V404",)),
    ("qti", "test.xml", b'identifier="big-q1"', b'identifier="big-q7"', ("V405",)),
    ("canvas", "big/big.xml", b'ident="big-q2"', b'ident="big-q1"', ("V502",)),
    ("canvas", "big/big.xml", b'<varequal respident="response1">20001', b'<varequal respident="response1">20009',
     ("V504",)),
    ("canvas", "big/big.xml", b'<fieldentry>multiple_choice_question</fieldentry>',
     b'<fieldentry>riddle_question</fieldentry>', ("V503",)),
]


@pytest.mark.parametrize(("name", "path", "old", "new", "codes"), BREAKAGES)
def test_a_broken_large_document_gets_the_findings_of_the_whole_check(tmp_path, monkeypatch, name, path, old, new,
                                                                      codes):
    _, pieced = _pieced(_quiz(), name)
    package = tmp_path / "big.zip"
    package.write_bytes(_broken(pieced, path, old, new))
    whole = lmsexport.validate(package)
    monkeypatch.setattr(validation, "STREAMED", 0)
    assert whole and lmsexport.validate(package) == whole
    assert {f.code for f in whole} == set(codes)


def _documents(files) -> dict:
    """What the package rules keep of each document but the manifest, read whole."""
    return {path: validation._whole(files, path, path)[1] for path in files if path != "imsmanifest.xml"}


def test_a_streamed_manifest_lets_go_of_the_resources_its_rules_took(monkeypatch):
    """What the package rules keep of a large QTI 2.1 manifest: none of its QTI resources, whose
    rules ran as each was read, and no lines (a finding sends it to the whole check)."""
    monkeypatch.setattr(validation, "STREAMED", 0)
    _, pieced = _pieced(_quiz(), "qti")
    head = validation._streamed(pieced.files, "imsmanifest.xml", "big.zip", _documents(pieced.files))
    assert head is not None and head.get("identifier") == "MANIFEST-big"
    assert list(head.iter("{*}resource")) == [] and {node.sourceline for node in head.iter()} == {None}


def test_a_streamed_manifest_keeps_one_string_for_a_repeated_value(monkeypatch):
    """The resources no format's rules take (web content) are kept as `thin.Thin`: every
    resource's `type` and a resource's `href` and its file's are one string."""
    monkeypatch.setattr(validation, "STREAMED", 0)
    files = _large_package(count=5)
    head = validation._streamed(files, "imsmanifest.xml", "big.zip", {})
    kept = list(head.iter("{*}resource"))
    assert len(kept) == 5 and all(node.get("type") is kept[0].get("type") for node in kept)
    assert all(node.findall(f"{{{NS['imscp']}}}file")[0].get("href") is node.get("href") for node in kept)


def _large_package(encoding: str = "UTF-8", count: int = 40_000) -> dict[str, bytes]:
    """A content package whose manifest, past 10 MB, lists 40,000 files (`count`)."""
    manifest = etree.Element(f"{{{NS['imscp']}}}manifest", identifier="M", nsmap={None: NS["imscp"]})
    etree.SubElement(manifest, f"{{{NS['imscp']}}}organizations")
    resources = etree.SubElement(manifest, f"{{{NS['imscp']}}}resources")
    files = {}
    for n in range(count):
        path = f"web_resources/{'folder/' * 30}image{n}.png"
        resource = etree.SubElement(resources, f"{{{NS['imscp']}}}resource", identifier=f"R{n}", type="webcontent",
                                    href=path)
        etree.SubElement(resource, f"{{{NS['imscp']}}}file", href=path)
        files[path] = b""
    files = {"imsmanifest.xml": etree.tostring(manifest, xml_declaration=True, encoding=encoding), **files}
    assert len(files["imsmanifest.xml"]) > 10_000_000 or count < 40_000
    return files


def test_a_large_document_held_in_memory_is_read_in_slices(streamed, monkeypatch):
    """A file in memory comes as one chunk: libxml2 refuses 10 MB fed at once, and the parser
    would build the whole tree before anything could be dropped."""
    monkeypatch.setattr(validation, "STREAMED", 8_000_000)
    assert lmsexport.validate(lmsexport.Package(_large_package())) == [] and streamed == ["imsmanifest.xml"]


@pytest.mark.parametrize("encoding", ["UTF-16", "ISO-8859-1"])
def test_a_large_document_in_another_encoding_is_checked_whole(streamed, monkeypatch, encoding):
    """The names only a whole tree's check sees (`xml:id`) are looked for in the bytes, which
    in UTF-16 are not the ASCII ones (and other declared encodings are left alone too)."""
    monkeypatch.setattr(validation, "STREAMED", 8_000_000)
    assert lmsexport.validate(lmsexport.Package(_large_package(encoding))) == [] and streamed == []
