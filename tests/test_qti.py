"""QTI 2.1 packages: goldens, official schemas, round trips, determinism, text, identifiers.

Sources: the three quizzes/, examples/features.txt (every feature of the text format),
examples/all-kinds/quiz.txt (every kind, Markdown, math, images), and two JSON models:
tests/fixtures/qti21/model-fields.json (every model field the text format cannot write:
HTML, per-option feedback, languages, titles, tags, zero points, feedback at the end) and
tests/fixtures/qti21/kinds.json (the corners of each kind: wildcards, negative credit,
tolerances, distractors, HTML gaps, a text block with an image). Scoring is checked in
test_qti_scoring.py, rich content in test_qti_content.py, bad packages and other tools'
packages in test_qti_validate.py and test_qti_reader.py.
"""

from __future__ import annotations

import dataclasses
import io
import re
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner
from lxml import etree

import lmsexport
from conftest import GOLDEN, ROOT
from lmsexport.cli import main
from lmsexport.diagnostics import SourceSpan
from lmsexport.formats.qti21 import names as names
from lmsexport.model import MultipleChoice, Quiz, ShortAnswer, Text
from lmsexport.package import MANIFEST
from lmsexport.schemas import load_schema
from lmsexport.validation import validate_bytes, validate_files

FIXTURES = Path(__file__).parent / "fixtures" / "qti21"
SOURCES = [
    *sorted((ROOT / "quizzes").glob("*.txt")), ROOT / "examples" / "features.txt",
    ROOT / "examples" / "all-kinds" / "quiz.txt", FIXTURES / "model-fields.json", FIXTURES / "kinds.json",
    ROOT / "examples" / "pools" / "quiz.txt",
    ROOT / "examples" / "numbers" / "cs.txt",
]
WARNINGS = {
    "model-fields": ["W803"],
    "cisla-cs": ["W811", "W811", "W812", "W811", "W812", "W812", "W811", "W812"],
    "kinds": ["W810", "W811", "W806", "W809", "W807"],
    "all-kinds": ["W810", "W811", "W811", "W809", "W807", "W810"],
    "pools": ["W809", "W813"],
}
"""On purpose: model-fields q3 is a checkbox question with one correct option, kinds q6 an
essay with right / wrong feedback; kinds q9 and all-kinds q10 mix typed and drop-down gaps.
What Canvas cannot take from QTI 2.1 (each warning points at --format canvas): text blocks
(W810), numeric tolerances (W811), ordering (W809), a pool that shuffles (W813). The Czech numbers
example has units, which QTI 2.1 shows after the answer box but cannot take in a response (W812)."""
QTI = "{http://www.imsglobal.org/xsd/imsqti_v2p1}"
DOC = (ROOT / "docs" / "formats" / "qti21.md").read_text(encoding="utf-8")
NCNAME = re.compile(r"[A-Za-z_][\w.-]*\Z")


def _write(source: Path):
    quiz = lmsexport.read(source)
    return quiz, lmsexport.write(quiz, 'qti')


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: p.stem)
def test_golden_package(source, goldens):
    quiz, package = _write(source)
    assert package.extension == ".qti.zip" and package.zipped
    assert [w.code for w in package.warnings] == WARNINGS.get(quiz.id, [])
    images = {f"{names.MEDIA_FOLDER}{asset.path}": asset.data for asset in quiz.assets}
    assert {name: package.files[name] for name in images} == images  # the quiz's own bytes
    files = {name: content.decode("utf-8") for name, content in package.files.items() if name not in images}
    goldens.check_tree(GOLDEN / "writers" / "qti" / quiz.id, files)


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: p.stem)
def test_every_file_is_valid_against_the_official_schemas(source):
    _, package = _write(source)
    for name, content in package.files.items():
        if not name.endswith(".xml"):
            continue
        schema = load_schema("qti21_manifest" if name == MANIFEST else "qti21")
        root = etree.fromstring(content)
        assert schema.validate(root), f"{name}: {schema.error_log}"
    assert validate_files(package.files, source="package.qti.zip") == []


LOSSY = {"lint_ignore": ()}
"""What a package does not carry (docs/formats/qti21.md): lint switches are about the source."""


def _as_carried(quiz: Quiz) -> Quiz:
    """The quiz as QTI carries it (docs/formats/qti21.md, lossy in the round trip): no lint
    switches, negative credits as 0, no right / wrong feedback on kinds a person marks."""
    questions = []
    for question in quiz.questions:
        if not question.scored:
            question = dataclasses.replace(question, correct_feedback=None, incorrect_feedback=None)
        if isinstance(question, ShortAnswer):
            answers = tuple(dataclasses.replace(a, credit=max(a.credit, 0.0)) for a in question.answers)
            question = dataclasses.replace(question, answers=answers)
        questions.append(question)
    pools = tuple(dataclasses.replace(pool, points=pool.points if pool.points is not None else _same_points(quiz, pool))
                  for pool in quiz.pools)
    return dataclasses.replace(quiz, questions=tuple(questions), pools=pools, **LOSSY)


def _same_points(quiz, pool) -> float | None:
    """A pool's points as the QTI reader finds them: its questions' when they are all the same."""
    points = {question.points for question in quiz.members(pool)}
    return points.pop() if len(points) == 1 else None


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: p.stem)
def test_round_trip_gives_the_same_model(source):
    quiz, package = _write(source)
    assert lmsexport.read("package.qti.zip", package.to_bytes(), format='qti21') == _as_carried(quiz)


def test_the_lossy_fields_are_the_documented_ones():
    quiz = lmsexport.read(FIXTURES / "model-fields.json")
    assert quiz.lint_ignore == ("L001",)
    assert all(f"`Quiz.{name}`" in DOC for name in LOSSY)
    kinds = lmsexport.read(FIXTURES / "kinds.json")
    assert _as_carried(kinds) != dataclasses.replace(kinds, **LOSSY)  # the fixture has each lossy case
    assert "negative credit" in DOC and "W806" in DOC


def test_read_questions_point_at_their_item_files():
    _, package = _write(ROOT / "examples" / "features.txt")
    quiz = lmsexport.read("f.qti.zip", package.to_bytes(), format='qti21')
    assert [str(q.source) for q in quiz.questions] == [f"f.qti.zip!items/q{n}.xml:2" for n in range(1, 7)]


def test_round_trip_keeps_html_as_its_canonical_serialisation():
    source = lmsexport.read(FIXTURES / "model-fields.json")
    html = ('<p>a <b>b</b> <a href="x.html" rel="noopener noreferrer">c</a><br>d &amp; e &lt; f</p><ol><li>g</li></ol>'
            '<img src="http://x.org/i.png" alt="">\n<p><b>x</b><i>y</i></p>')
    quiz = _with_prompt(source, Text(html, "html", "fr"))
    assert lmsexport.read("p.zip", lmsexport.write(quiz, 'qti').to_bytes(), format='qti21').questions[0].prompt == Text(html, "html", "fr")


def _with_prompt(quiz: Quiz, prompt: Text) -> Quiz:
    first = quiz.questions[0]
    question = MultipleChoice(id=first.id, prompt=prompt, choices=first.choices, source=SourceSpan("<model>", 2))
    return Quiz(id=quiz.id, title=quiz.title, questions=(question,))


def _items(package_bytes: bytes) -> list:
    """The item roots in the test's order."""
    with zipfile.ZipFile(io.BytesIO(package_bytes)) as archive:
        test = etree.fromstring(archive.read("test.xml"))
        return [etree.fromstring(archive.read(ref.get("href"))) for ref in test.iter(f"{QTI}assessmentItemRef")]


def test_built_packages_carry_the_answer_keys_and_validate(tmp_path):
    result = CliRunner().invoke(main, ["build", str(ROOT / "quizzes"), "--format", "qti", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.stderr
    built = sorted(tmp_path.glob("[!.]*"))
    assert [p.name for p in built] == ["data-parallel-vi.qti.zip", "fsdp-yo.qti.zip", "zero-id.qti.zip"]
    for path in built:
        data = path.read_bytes()
        keys = [
            f"{n}{''.join(v.text for v in item.iter(f'{QTI}value') if v.getparent().tag == f'{QTI}correctResponse')}"
            for n, item in enumerate(_items(data), 1)
        ]
        assert keys == ["1a", "2b", "3c", "4d", "5a", "6b", "7c", "8d"], path.name
        assert validate_bytes(data, source=path.name) == []
    assert CliRunner().invoke(main, ["validate", *map(str, built)]).exit_code == 0


def test_building_twice_gives_identical_bytes(tmp_path, monkeypatch):
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    runs = {}
    for run in ("one", "two"):
        source = str(ROOT / "examples" / "features.txt")
        CliRunner().invoke(main, ["build", source, "-f", "qti", "-o", str(tmp_path / run)])
        runs[run] = (tmp_path / run / "features.qti.zip").read_bytes()
    assert runs["one"] == runs["two"]
    with zipfile.ZipFile(io.BytesIO(runs["one"])) as archive:
        assert archive.namelist()[0] == MANIFEST
        assert {info.date_time for info in archive.infolist()} == {(1980, 1, 1, 0, 0, 0)}


def test_source_date_epoch_dates_the_entries(monkeypatch):
    _, package = _write(ROOT / "examples" / "features.txt")
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    stamped = package.to_bytes()
    assert stamped == lmsexport.write(lmsexport.read(ROOT / "examples" / "features.txt"), 'qti').to_bytes()
    with zipfile.ZipFile(io.BytesIO(stamped)) as archive:
        assert {info.date_time for info in archive.infolist()} == {(2023, 11, 14, 22, 13, 20)}


def test_text_comes_out_as_the_same_characters_escaped_once():
    quiz, package = _write(ROOT / "examples" / "features.txt")
    raw = package.files["items/q5.xml"]
    assert "1 &lt; 2 &amp;&amp; 3 &gt; 2, \"quotes\", 'apostrophes', ]]&gt; and emoji 🎓.".encode() in raw
    assert "&lt;b&gt;this is not bold&lt;/b&gt;".encode() in raw
    assert "café, naïve, Nguyễn, ẹ̀, 中文, العربية".encode() in raw
    assert b"&amp;lt;" not in raw and b"&#" not in raw and b"CDATA" not in raw
    item = etree.fromstring(raw)
    question = quiz.questions[4]
    assert item.find(f"{QTI}itemBody/{QTI}div").text == question.prompt.value
    assert [c.text for c in item.iter(f"{QTI}simpleChoice")] == [c.text.value for c in question.choices]


def test_identifiers_are_stable_ncnames_unique_in_the_package():
    for source in SOURCES:
        quiz, package = _write(source)
        items = [etree.fromstring(package.files[f"items/{q.id}.xml"]) for q in quiz.questions]
        identifiers = [item.get("identifier") for item in items]
        assert identifiers == [f"{quiz.id}-{q.id}" for q in quiz.questions]
        manifest = etree.fromstring(package.files[MANIFEST])
        xml_ids = [node.get("identifier") for node in manifest.iter() if node.get("identifier")]
        assert len(set(xml_ids)) == len(xml_ids) and all(NCNAME.match(i) for i in xml_ids + identifiers)


def test_languages_go_where_they_differ():
    quiz, package = _write(FIXTURES / "model-fields.json")
    item = etree.fromstring(package.files["items/q1.xml"])
    lang = "{http://www.w3.org/XML/1998/namespace}lang"
    assert quiz.lang is None and item.get(lang) == "fr"
    assert [c.get(lang) for c in item.iter(f"{QTI}simpleChoice")] == ["de", None, None]
    _, yoruba = _write(ROOT / "quizzes" / "fsdp-yo.txt")
    assert {etree.fromstring(yoruba.files[f"items/q{n}.xml"]).get(lang) for n in range(1, 9)} == {"yo"}


def test_html_the_format_cannot_hold_is_kept_as_text_with_a_warning():
    source = lmsexport.read(FIXTURES / "model-fields.json")
    html = ('<table><tr><td onclick="x()" align="right">cell</td></tr></table>'
            '<p style="color:red">para <span><div>block</div></span> <u>under</u> <a>no link</a></p>'
            '<script>alert(1)</script><img><img src="http://x.org/i.png" width="100px" height="50%">'
            '<span lang="en-GB!">x</span><blockquote>quoted <b>text</b></blockquote><ol start="3"><li>i</li></ol>')
    package = lmsexport.write(_with_prompt(source, Text(html, "html")), 'qti')
    assert validate_files(package.files, source="p.zip") == []
    stem = etree.fromstring(package.files["items/q1.xml"]).find(f"{QTI}itemBody/{QTI}div")
    assert "".join(stem.itertext()) == "cellpara block under no linkxquoted texti"
    assert stem.find(f"{QTI}table/{QTI}tbody/{QTI}tr/{QTI}td").text == "cell"  # a table needs its tbody
    assert stem.find(f"{QTI}blockquote/{QTI}p/{QTI}b") is not None  # a blockquote holds blocks only
    assert stem.find(f"{QTI}p/{QTI}span").text == "block"
    assert stem.find(f"{QTI}img").attrib == {"src": "http://x.org/i.png", "height": "50%", "alt": ""}
    where = [(w.code, w.severity.value, str(w.span)) for w in package.warnings]
    assert where == [("W801", "warning", "<model>:2")] * 10
    assert [w.message for w in package.warnings] == [
        "HTML <td> onclick='x()', align='right' left out: QTI 2.1 allows no such attribute or value",
        "HTML <p> style='color:red' left out: QTI 2.1 allows no such attribute or value",
        "HTML <div> is not allowed here; its content is kept without it",
        "HTML <u> is not allowed in QTI 2.1; its content is kept without it",
        "HTML <a> without href is not allowed; its content is kept without it",
        "HTML <script> is left out with its content: QTI 2.1 cannot show it",
        "HTML <img> without src is left out: QTI 2.1 cannot show it",
        "HTML <img> width='100px' left out: QTI 2.1 allows no such attribute or value",
        "HTML <span> lang='en-GB!' left out: QTI 2.1 allows no such attribute or value",
        "HTML <ol> start='3' left out: QTI 2.1 allows no such attribute or value",
    ]


def test_warnings_point_at_the_question_in_its_source(tmp_path):
    source = tmp_path / "quiz.txt"
    source.write_text("---\npoints: 0.123456789\npass: 33.333333333%\n---\nQuiz\n\n1. A?\n   *• x\n   • y\n",
                      encoding="utf-8")
    package = lmsexport.write(lmsexport.read(source), 'qti')
    assert [(str(w.span), w.code, w.message) for w in package.warnings] == [
        (f"{source.as_posix()}:7:1", "W802", "points 0.123456789 is written rounded to 0.1234568"),
        (source.as_posix(), "W802", "the total points 0.123456789 is written rounded to 0.1234568"),
        (source.as_posix(), "W802", "the pass mark 33.333333333 is written rounded to 33.3333333"),
    ]


def test_templates_are_used_unless_feedback_needs_rules():
    _, package = _write(ROOT / "examples" / "features.txt")

    def processing(n):
        return etree.fromstring(package.files[f"items/q{n}.xml"]).find(f"{QTI}responseProcessing")

    assert processing(2).get("template").endswith("/rptemplates/map_response")  # 2 points: mapped
    assert processing(1).get("template") is None and len(processing(1)) == 2  # explanation: rules
    _, fsdp = _write(ROOT / "quizzes" / "fsdp-yo.txt")
    item = etree.fromstring(fsdp.files["items/q1.xml"])
    assert item.find(f"{QTI}responseProcessing").get("template").endswith("/rptemplates/match_correct")


def test_a_checkbox_question_with_one_correct_option_warns_about_canvas():
    _, package = _write(FIXTURES / "model-fields.json")
    (warning,) = package.warnings
    assert warning.message == ("question 3 has checkboxes but one correct option: Canvas imports it as a "
                               "multiple-choice (radio button) question")
