"""Canvas QTI 1.2 packages (`--format canvas`): goldens, schemas, what Canvas's importer takes, determinism.

Sources as in test_qti.py: the three quizzes/, examples/features.txt, examples/all-kinds/quiz.txt
and the two QTI fixtures (every model field; the corners of each kind). What Canvas's importer
takes from a package is modelled by tests/canvas_import.py (docs/formats/canvas.md says why);
broken packages and other tools' packages are in test_canvas_validate.py.
"""

from __future__ import annotations

import io
import unicodedata
import zipfile
from pathlib import Path
from urllib.parse import unquote

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import etree, html

import canvas_import
import lmsexport
from conftest import GOLDEN, ROOT
from lmsexport.cli import main
from lmsexport.model import (Answer, Choice, Essay, Matching, MatchPair, MultipleChoice, Numeric, NumericAnswer, Pool,
                             Quiz, Settings, ShortAnswer, Text)
from lmsexport.package import MANIFEST
from lmsexport.schemas import load_schema
from lmsexport.validation import validate_bytes, validate_files

FIXTURES = ROOT / "tests" / "fixtures" / "qti21"
SOURCES = [
    *sorted((ROOT / "quizzes").glob("*.txt")), ROOT / "examples" / "features.txt",
    ROOT / "examples" / "all-kinds" / "quiz.txt", FIXTURES / "model-fields.json", FIXTURES / "kinds.json",
    ROOT / "examples" / "pools" / "quiz.txt",
    ROOT / "examples" / "numbers" / "cs.txt",
]
WARNINGS = {
    "cisla-cs": ["W853", "W864", "W853", "W864", "W864", "W864"],
    "features": ["W861", "W861"],
    "all-kinds": ["W853", "W853", "W860", "W851", "W852", "W861", "W861"],
    "model-fields": ["W861"],
    "pools": ["W851", "W861"],
    "kinds": ["W856", "W859", "W855", "W853", "W853", "W853", "W853", "W853", "W854", "W853", "W853", "W860", "W856",
              "W851", "W852", "W853", "W854", "W856", "W856", "W861"],
}
"""On purpose: all-kinds has partial-credit typed answers (W853), an essay box size (W860), an
ordering (W851), mixed gaps (W852), a pass mark and tags (W861); kinds adds a French true/false
(W859), wildcards (W854), case-sensitive answers (W855) and feedback Canvas drops (W856); the
Czech numbers example partial-credit numbers (W853) and units, which end the question text (W864)."""
Q = canvas_import.Q


def _write(source: Path):
    quiz = lmsexport.read(source)
    return quiz, lmsexport.write(quiz, "canvas")


def _assessment(package) -> etree._Element:
    (path,) = [name for name in package.files if name.endswith(".xml") and name.count("/") == 1
               and not name.endswith("assessment_meta.xml")]
    return etree.fromstring(package.files[path])


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: p.stem)
def test_golden_package(source, goldens):
    quiz, package = _write(source)
    assert package.extension == ".canvas.zip" and package.zipped
    assert [w.code for w in package.warnings] == WARNINGS.get(quiz.id, [])
    images = {f"web_resources/{asset.path}": asset.data for asset in quiz.assets}
    assert {name: package.files[name] for name in images} == images  # the quiz's own bytes
    files = {name: content.decode("utf-8") for name, content in package.files.items() if name not in images}
    assert set(files) == {MANIFEST, f"{quiz.id}/{quiz.id}.xml", f"{quiz.id}/assessment_meta.xml"}
    goldens.check_tree(GOLDEN / "writers" / "canvas" / quiz.id, files)


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: p.stem)
def test_every_file_is_valid_and_the_package_keeps_canvas_rules(source):
    quiz, package = _write(source)
    assessment = etree.fromstring(package.files[f"{quiz.id}/{quiz.id}.xml"])
    assert load_schema("qti12").validate(assessment), load_schema("qti12").error_log
    manifest = etree.fromstring(package.files[MANIFEST])
    assert load_schema("qti21_manifest").validate(manifest), load_schema("qti21_manifest").error_log
    assert validate_files(package.files, source="p.canvas.zip") == []


def test_every_kind_lands_as_the_same_kind_with_its_key_and_points():
    quiz, package = _write(ROOT / "examples" / "all-kinds" / "quiz.txt")
    found = canvas_import.questions(package.to_bytes())
    assert [q["points"] for q in found] == [q.points for q in quiz.questions]
    assert [(q["type"], q.get("key")) for q in found] == [
        ("text_only_question", None),
        ("multiple_choice_question", ["All-reduce"]),
        ("multiple_answers_question", ["Gradients", "Optimizer states", "Parameters"]),
        ("true_false_question", ["True"]),
        ("short_answer_question", ["NCCL"]),  # the 50% answer is left out (W853)
        ("numerical_question", [(256.0, 0.0)]),
        ("numerical_question", [(0.25, 0.0125)]),  # 5% of 0.25, kept as the margin
        ("essay_question", None),
        ("matching_question", {"Data parallelism": "the batch", "Tensor parallelism": "the layers' matrices",
                               "Pipeline parallelism": "the layers, in stages"}),
        ("matching_question", {"backward pass": "2", "forward pass": "1", "optimizer step": "3"}),  # ordering
        ("fill_in_multiple_blanks_question", {"g1": ["reduce-scatter", "reduce scatter"], "g2": ["all-gather"]}),
        ("multiple_choice_question", ["75 %"]),
        ("multiple_choice_question", ["dist.all_reduce(tensor)"]),
        ("text_only_question", None),
    ]
    assert [q["title"] for q in found][1:3] == ["Single choice", "Multiple response"]


def test_drop_downs_and_true_false_keep_their_kind():
    quiz = lmsexport.read(FIXTURES / "kinds.json")
    gaps = quiz.questions[9]
    only_choices = type(gaps)(id="q1", prompt=gaps.prompt, segments=("Pick ", gaps.gaps[1], "."))
    found = canvas_import.questions(lmsexport.write(Quiz(id="d", title="D", questions=(only_choices,)),
                                                    "canvas").to_bytes())
    assert found[0]["type"] == "multiple_dropdowns_question"
    assert found[0]["key"] == {"g2": next(c.text.value for c in gaps.gaps[1].choices if c.correct)}
    package = lmsexport.write(quiz, "canvas")
    assert [q["type"] for q in canvas_import.questions(package.to_bytes())][1:3] == ["true_false_question"] * 2


def test_built_packages_carry_the_answer_keys_and_validate(tmp_path):
    result = CliRunner().invoke(main, ["build", str(ROOT / "quizzes"), "--format", "canvas", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.stderr
    built = sorted(tmp_path.glob("[!.]*"))
    assert [p.name for p in built] == ["data-parallel-vi.canvas.zip", "fsdp-yo.canvas.zip", "zero-id.canvas.zip"]
    for path in built:
        data = path.read_bytes()
        keys = [f"{n}{'abcd'[q['options'].index(q['key'][0])]}" for n, q in enumerate(canvas_import.questions(data), 1)]
        assert keys == ["1a", "2b", "3c", "4d", "5a", "6b", "7c", "8d"], path.name
        assert validate_bytes(data, source=path.name) == []
    assert CliRunner().invoke(main, ["validate", *map(str, built)]).exit_code == 0


def test_format_all_includes_canvas(tmp_path):
    result = CliRunner().invoke(main, ["build", str(ROOT / "examples" / "features.txt"), "-f", "all",
                                       "-o", str(tmp_path), "--no-lint"])
    assert result.exit_code == 0, result.stderr
    assert (tmp_path / "canvas" / "features.canvas.zip").is_file()


def test_building_twice_gives_identical_bytes(tmp_path, monkeypatch):
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    runs = {}
    for run in ("one", "two"):
        source = str(ROOT / "examples" / "all-kinds" / "quiz.txt")
        CliRunner().invoke(main, ["build", source, "-f", "canvas", "-o", str(tmp_path / run), "--no-lint"])
        runs[run] = (tmp_path / run / "all-kinds.canvas.zip").read_bytes()
    assert runs["one"] == runs["two"]
    with zipfile.ZipFile(io.BytesIO(runs["one"])) as archive:
        assert archive.namelist()[0] == MANIFEST
        assert {info.date_time for info in archive.infolist()} == {(1980, 1, 1, 0, 0, 0)}


def test_a_pool_is_a_question_group_drawing_its_count_at_its_points():
    quiz, package = _write(ROOT / "examples" / "pools" / "quiz.txt")
    content = package.to_bytes()
    assert canvas_import.groups(content) == [
        {"title": "Warm-up", "pick_count": 2, "question_points": 2.0, "items": [f"pools-q{n}" for n in (2, 3, 4, 5)]},
        {"title": "Harder", "pick_count": 1, "question_points": 3.0, "items": [f"pools-q{n}" for n in (6, 7, 8)]}]
    assert [q["title"] for q in canvas_import.questions(content)] == [
        canvas_import.question(item)["title"] for item in _assessment(package).iter(f"{Q}item")]
    meta = etree.fromstring(package.files["pools/assessment_meta.xml"])
    assert meta.findtext("{*}points_possible") == "9"  # 1 + 2 × 2 + 1 × 3 + 1: what one attempt is worth


def test_a_pool_canvas_cannot_hold_as_written_is_a_warning():
    questions = tuple(MultipleChoice(id=f"q{n}", prompt=Text(f"Pick {n}?"), points=float(n), choices=(
        Choice(id="a", text=Text("x"), correct=True), Choice(id="b", text=Text("y")))) for n in (1, 2, 3))
    quiz = Quiz(id="t", title="T", questions=questions,
                pools=(Pool(id="p", draw=2, shuffle=False, questions=("q1", "q2", "q3")),))
    package = lmsexport.write(quiz, "canvas")
    assert [w.code for w in package.warnings] == ["W865", "W866"]
    assert "worth 1 to 3 points" in package.warnings[0].message and "2, their mean" in package.warnings[0].message
    assert canvas_import.groups(package.to_bytes())[0]["question_points"] == 2.0


def test_settings_go_to_assessment_meta_in_canvas_units():
    quiz = lmsexport.read(ROOT / "quizzes" / "zero-id.txt")
    timed = Quiz(id="t", title="Timed", questions=quiz.questions[:1],
                 settings=Settings(shuffle=True, attempts=3, time_limit=90))
    package = lmsexport.write(timed, "canvas")
    meta = etree.fromstring(package.files["t/assessment_meta.xml"])
    values = {node.tag.rpartition("}")[2]: node.text for node in meta}
    assert meta.get("identifier") == "t"
    assert {k: values[k] for k in ("shuffle_answers", "allowed_attempts", "time_limit", "points_possible")} == {
        "shuffle_answers": "true", "allowed_attempts": "3", "time_limit": "2", "points_possible": "1"}
    fields = {f.findtext(f"{Q}fieldlabel"): f.findtext(f"{Q}fieldentry")
              for f in _assessment(package).find(f"{Q}assessment/{Q}qtimetadata")}
    assert fields == {"qmd_timelimit": "2", "cc_maxattempts": "3"}
    assert [w.message for w in package.warnings] == ["Canvas time limits are whole minutes: 90 seconds become 2 minutes"]


def test_images_are_in_the_package_and_referred_to_as_canvas_resolves_them():
    quiz, package = _write(ROOT / "examples" / "all-kinds" / "quiz.txt")
    manifest = etree.fromstring(package.files[MANIFEST])
    listed = [f.get("href") for f in manifest.iter("{*}file")]
    assert {f"web_resources/{a.path}" for a in quiz.assets} <= set(listed)
    sources = [img.get("src") for text in _assessment(package).iter(f"{Q}mattext") if text.get("texttype") == "text/html"
               for img in html.fragment_fromstring(text.text, create_parent="div").iter("img")
               if "equation_image" not in (img.get("class") or "")]
    assert sources == ["$IMS-CC-FILEBASE$/img/throughput.png", "$IMS-CC-FILEBASE$/img/ring.svg"]


def test_formulas_are_canvas_equation_images_that_keep_the_tex():
    quiz, package = _write(ROOT / "examples" / "all-kinds" / "quiz.txt")
    images = [img for text in _assessment(package).iter(f"{Q}mattext") if text.get("texttype") == "text/html"
              for img in html.fragment_fromstring(text.text, create_parent="div").iter("img")
              if img.get("class") == "equation_image"]
    contents = [img.get("data-equation-content") for img in images]
    assert contents[:3] == ["N", "S(N) = \\frac{T_1}{T_N}", "E = S/N"]
    assert "\\displaystyle E(N) = \\frac{S(N)}{N}" in contents  # display math, drawn in display style
    for img in images:
        content = img.get("data-equation-content")
        assert img.get("alt") == f"LaTeX: {content}" and img.get("title") == content  # readable without Canvas
        assert unquote(unquote(img.get("src").removeprefix("/equation_images/").removesuffix("?scale=1"))) == content


def test_code_is_never_taken_for_math():
    question = Essay(id="q1", prompt=Text("<p><code>\\(x\\)</code> and \\(y\\)</p>", "html"))
    package = lmsexport.write(Quiz(id="c", title="C", questions=(question,)), "canvas")
    stem = _assessment(package).find(f".//{Q}presentation/{Q}material/{Q}mattext").text
    assert "<code>\\(x\\)</code>" in stem and 'data-equation-content="y"' in stem


def test_typed_answers_are_written_as_canvas_accepts_them():
    question = ShortAnswer(id="q1", prompt=Text("Name it"), case_sensitive=True, answers=(
        Answer(text="ring*"), Answer(text="a\\*b"), Answer(text="tree", credit=50)))
    package = lmsexport.write(Quiz(id="s", title="S", questions=(question,)), "canvas")
    assert canvas_import.questions(package.to_bytes())[0]["key"] == ["ring", "a*b"]
    assert [w.code for w in package.warnings] == ["W855", "W853", "W854"]


def test_text_is_escaped_once_and_plain_where_canvas_wants_plain():
    quiz, package = _write(ROOT / "examples" / "features.txt")
    raw = package.files["features/features.xml"]
    assert "1 &lt; 2 &amp;amp;&amp;amp; 3 &gt; 2".encode() in raw or "1 &lt; 2 &amp;&amp; 3 &gt; 2".encode() in raw
    assert b"CDATA" not in raw
    labels = [label.find(f".//{Q}mattext") for label in _assessment(package).iter(f"{Q}response_label")]
    assert {label.get("texttype") for label in labels} == {"text/plain"}
    question = quiz.questions[4]
    item = list(_assessment(package).iter(f"{Q}item"))[4]
    assert [label.find(f".//{Q}mattext").text for label in item.iter(f"{Q}response_label")] == [
        c.text.value for c in question.choices]


def test_identifiers_are_stable_and_answer_ids_integers():
    for source in SOURCES:
        quiz, package = _write(source)
        items = list(_assessment(package).iter(f"{Q}item"))
        assert [item.get("ident") for item in items] == [f"{quiz.id}-{q.id}" for q in quiz.questions]
        for item in items:
            entry = next(f.findtext(f"{Q}fieldentry") for f in item.iter(f"{Q}qtimetadatafield")
                         if f.findtext(f"{Q}fieldlabel") == "original_answer_ids")
            assert all(ident.isdigit() for ident in filter(None, entry.split(",")))


def test_every_kind_of_feedback_has_canvas_identifiers():
    quiz, package = _write(ROOT / "examples" / "all-kinds" / "quiz.txt")
    first = next(_assessment(package).iter(f"{Q}item"))
    items = list(_assessment(package).iter(f"{Q}item"))
    assert [f.get("ident") for f in items[1].iter(f"{Q}itemfeedback")] == [
        "general_fb", "correct_fb", "general_incorrect_fb", "20001_fb", "20002_fb"]
    assert first.find(f"{Q}resprocessing") is None  # a text block has none
    shown = [d.get("linkrefid") for d in items[1].iter(f"{Q}displayfeedback")]
    assert shown == ["general_fb", "20001_fb", "20002_fb", "correct_fb", "general_incorrect_fb"]


_WORDS = st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc", "Zl", "Zp")) | st.sampled_from("<&>\"']]"),
                 min_size=1, max_size=12).map(lambda text: unicodedata.normalize("NFC", text)).filter(str.strip)


@st.composite
def _questions(draw, number: int):
    kind = draw(st.sampled_from(["choice", "short", "numeric"]))
    prompt = Text(draw(_WORDS))
    if kind == "choice":
        texts = draw(st.lists(_WORDS, min_size=2, max_size=5, unique=True))
        right = draw(st.integers(0, len(texts) - 1))
        choices = tuple(Choice(id=f"c{n}", text=Text(t), correct=n == right) for n, t in enumerate(texts))
        return MultipleChoice(id=f"q{number}", prompt=prompt, choices=choices), texts[right]
    if kind == "short":
        answer = draw(_WORDS.filter(lambda t: "*" not in t and t == t.strip()))
        return ShortAnswer(id=f"q{number}", prompt=prompt, answers=(Answer(text=answer),)), answer
    value = draw(st.floats(-1e6, 1e6, allow_nan=False).map(lambda v: round(v, 4)))
    tolerance = draw(st.sampled_from([0.0, 0.5, 0.0125]))
    return Numeric(id=f"q{number}", prompt=prompt, answers=(NumericAnswer(value=value, tolerance=tolerance),)), (
        value, tolerance)


@settings(max_examples=25, deadline=None)
@given(st.integers(1, 4).flatmap(lambda n: st.tuples(*(_questions(k) for k in range(1, n + 1)))))
def test_generated_quizzes_validate_and_keep_their_keys(drawn):
    quiz = Quiz(id="gen", title="Generated", questions=tuple(question for question, _ in drawn))
    package = lmsexport.write(quiz, "canvas")
    assert validate_files(package.files, source="gen.canvas.zip") == []
    found = canvas_import.questions(package.to_bytes())
    for (question, key), imported in zip(drawn, found, strict=True):
        if isinstance(question, MultipleChoice):
            assert imported["key"] == [" ".join(key.split())]
        elif isinstance(question, ShortAnswer):
            assert imported["key"] == [key]
        else:
            exact, margin = imported["key"][0]
            assert exact == key[0] and abs(margin - key[1]) < 1e-9


def test_what_canvas_cannot_take_is_a_warning_naming_the_question():
    only_wildcard = ShortAnswer(id="q1", prompt=Text("Anything"), answers=(Answer(text="*"),))
    matching = Matching(id="q2", prompt=Text('<p>See <img src="lost.png" alt="x"></p>', "html"), pairs=(
        MatchPair(id="a", left=Text("one"), right=Text("<b>1</b>", "html")),
        MatchPair(id="b", left=Text("two"), right=Text("2"))))
    package = lmsexport.write(Quiz(id="w", title="W", questions=(only_wildcard, matching)), "canvas")
    assert [(w.code, w.message.split(":")[0]) for w in package.warnings] == [
        ("W854", "question 1"), ("W862", "question 1"), ("W857", "question 2"), ("W858", "question 2")]
    found = canvas_import.questions(package.to_bytes())
    assert found[0]["type"] == "essay_question" and found[1]["key"] == {"one": "1", "two": "2"}
    assert validate_files(package.files, source="w.canvas.zip") == []
