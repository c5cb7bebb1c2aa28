"""Reading QTI 1.2 (Canvas exports, bank files, other tools' items): through read, build, convert
and validate; what is skipped and refused, with its warning or error.

The reader goldens (tests/golden/readers/qti12/) pin the models of the shared corpus's Canvas files
and of a course export and a Blackboard pool written for lmsexport; the round trip with our
writer is in test_canvas_round_trip.py. The cases here change one thing in a package our writer
made (as test_canvas_validate.py does), so each shows one rule of the reader.
"""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from lxml import etree

import lmsexport
from conftest import GOLDEN, ROOT
from lmsexport import formats as registry
from lmsexport.cli import main
from lmsexport.formats.qti12.reader import read
from lmsexport.model import Numeric, NumericAnswer, Quiz, Text
from lmsexport.package import MANIFEST, zip_bytes
from lmsexport.validation import validate_bytes, validate_files
from qti12_packages import FIXTURES, PACKAGES, files, zipped

Q = "{http://www.imsglobal.org/xsd/ims_qtiasiv1p2}"
GOLDENS = GOLDEN / "readers" / "qti12"
WEBCT = FIXTURES / "5765e02b-cd7a-d073-0066-6ef0b76392b3.4394086651391_R.xml"
ALL_KINDS = ROOT / "examples" / "all-kinds" / "quiz.txt"


def test_the_zipped_goldens_are_their_fixture_folders(goldens):
    for target, folder in PACKAGES.items():
        if goldens.update:
            target.write_bytes(zipped(folder))
        assert target.read_bytes() == zipped(folder), f"rebuild {target.name}: pytest --update-goldens"


def _package(source=ALL_KINDS) -> dict[str, bytes]:
    """The files of the package our writer makes of a source file (or a quiz)."""
    quiz = source if isinstance(source, Quiz) else lmsexport.read(source)
    return dict(lmsexport.write(quiz, "canvas").files)


def _changed(change, source=ALL_KINDS) -> bytes:
    """A package our writer made, its assessment changed by `change(root)`."""
    package = _package(source)
    (path,) = [name for name in package if name.count("/") == 1 and not name.endswith("assessment_meta.xml")
               and name.endswith(".xml")]
    root = etree.fromstring(package[path])
    change(root)
    package[path] = etree.tostring(root, xml_declaration=True, encoding="UTF-8")
    return zip_bytes(package)


def _read(data: bytes, source: str = "export.zip") -> tuple[Quiz, list[tuple[str, str]]]:
    log = lmsexport.Log()
    quiz = read(data, source=source, log=log)
    return quiz, [(d.code, d.message) for d in log.diagnostics]


def _items(root) -> list:
    return list(root.iter(f"{Q}item"))


def _set_field(item, label: str, value: str) -> None:
    for field in item.iter(f"{Q}qtimetadatafield"):
        if field.findtext(f"{Q}fieldlabel") == label:
            field.find(f"{Q}fieldentry").text = value


def test_read_build_and_convert_reach_the_reader_by_content(tmp_path):
    export = tmp_path / "canvas-export.zip"
    export.write_bytes(zipped(FIXTURES / "canvas-export"))
    assert [q.kind for q in lmsexport.read(export).questions] == ["true_false", "multiple_choice",
                                                                  "multiple_choice", "essay"]
    result = CliRunner().invoke(main, ["build", str(tmp_path), "-f", "qti,moodle", "-o", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    built = sorted(p.name for p in (tmp_path / "out").rglob("*") if p.is_file() and not p.name.startswith("."))
    assert built == ["i00f37ac2af026e5a607e4a5d9a70b1d5.moodle.xml", "i00f37ac2af026e5a607e4a5d9a70b1d5.qti.zip"]
    text = lmsexport.convert(GOLDENS / "g195e078fb6e3c4054e38e5c9226287ba.xml.qti", "text", tmp_path / "bank.txt")
    assert text.read_text(encoding="utf-8").count("Name a letter after X") == 1


def test_qti_2_1_packages_sniff_as_qti21_and_canvas_packages_as_qti12():
    quiz = lmsexport.read(ALL_KINDS)
    qti, canvas = lmsexport.write(quiz, "qti").to_bytes(), lmsexport.write(quiz, "canvas").to_bytes()
    assert registry.detect("quiz.zip", qti) == ("qti21", 1.0)
    assert registry.detect("quiz.zip", canvas) == ("qti12", 1.0)
    assert registry.declaration("qti12").sniff(qti) == 0.0
    no_manifest = zip_bytes({"q1/assessment_meta.xml": b"<quiz/>", "q1/q1.xml": b"<questestinterop/>"})
    assert registry.detect("export.zip", no_manifest)[0] == "qti12"
    assert registry.detect("x.xml", (FIXTURES / "all_canvas_simple_1.2.xml").read_bytes()) == ("qti12", 1.0)
    assert registry.detect("x.xml", b"<quiz><question type='truefalse'/></quiz>")[0] == "moodle"
    assert registry.declaration("qti12").sniff(zip_bytes({"readme.txt": b"hello"})) == 0.0


def test_a_zip_without_a_manifest_is_read_for_its_qti_documents():
    package = _package()
    del package[MANIFEST]
    quiz, _ = _read(zip_bytes(package))
    assert quiz.title == "Every kind of question" and len(quiz.questions) == 14 and quiz.settings.attempts is None


def test_questions_the_model_cannot_hold_are_skipped_with_a_warning_naming_them():
    def change(root):
        items = _items(root)
        _set_field(items[1], "question_type", "calculated_question")
        _set_field(items[2], "question_type", "hot_spot_question")
        _set_field(items[3], "question_type", "likert_question")
        for setvar in items[5].iter(f"{Q}setvar"):
            setvar.text = "0"
    quiz, notes = _read(_changed(change))
    assert [q.id for q in quiz.questions][:3] == ["t1", "q4", "q6"]
    assert notes == [
        ("W871", "question 1 (item 'all-kinds-q1') is left out: it is a calculated_question, and lmsexport has no "
                 "calculated questions (numbers drawn from formulas)"),
        ("W871", "question 2 (item 'all-kinds-q2') is left out: it is a hot_spot_question, and lmsexport has no "
                 "questions answered by clicking on an image"),
        ("W871", "question 3 (item 'all-kinds-q3') is left out: its question_type 'likert_question' is not one "
                 "lmsexport knows"),
        ("W872", "question 5 (item 'all-kinds-q5') is left out: it has no accepted number"),
    ]


def test_a_file_of_which_no_question_reads_is_refused_with_the_reasons():
    with pytest.raises(lmsexport.SourceError) as raised:
        lmsexport.read(WEBCT, log=lmsexport.Log())
    assert [(d.code, d.span.line) for d in raised.value.diagnostics] == [("E826", 3), ("W872", 99)]
    assert "the itemref names the item '4388459047391', which is not in the file" in str(raised.value)


@pytest.mark.parametrize("data, expected", [
    (b"<questestinterop><assessment", ("E821", "x.xml:1:29", "not well-formed XML")),
    (b'<!DOCTYPE q [<!ENTITY e "x">]><questestinterop>&e;</questestinterop>', ("E822", "x.xml:1", "&e;")),
    (b"<quiz><question/></quiz>", ("E823", "x.xml:1", "the root element is <quiz>, not QTI 1.2's")),
    (b"<questestinterop/>", ("E823", "x.xml", "holds no assessment or objectbank")),
    (zip_bytes({MANIFEST: b"<manifest><resources/></manifest>", "a.txt": b"x"}),
     ("E824", "x.xml!imsmanifest.xml", "holds no QTI 1.2 assessment")),
    (zip_bytes({MANIFEST: b'<manifest><resources><resource identifier="a" type="imsqti_xmlv1p2">'
                          b'<file href="a/a.xml"/></resource></resources></manifest>'}),
     ("E825", "x.xml!imsmanifest.xml:1", "the assessment 'a/a.xml' is listed in the manifest but not in the package")),
    (b"PK\x03\x04broken", ("A102", "x.xml", "not a readable zip file")),
])
def test_what_is_broken_is_refused_at_its_place(data, expected):
    with pytest.raises(lmsexport.SourceError) as raised:
        read(data, source="x.xml")
    (found,) = raised.value.diagnostics
    code, where, words = expected
    assert (found.code, str(found.span)) == (code, where) and words in found.message, found.render()


def test_question_groups_are_read_as_pools():
    quiz, notes = _read((GOLDENS / "canvas-course.imscc").read_bytes(), "course.imscc")
    assert [message for code, message in notes if code == "W873"] == [
        "the question group 'Elsewhere' draws 3 questions from the question bank 'inotexported', which the package "
        "does not hold, so nothing is read for it",
    ]
    assert [(q.id, q.points) for q in quiz.questions] == [
        ("iq1", 2.0), ("iq2", 1.0), ("ib1a", 2.0), ("ib1b", 2.0), ("ig1", 1.5), ("ig2", 1.5), ("ig3", 1.5)]
    assert [(p.title, p.draw, p.points, p.questions) for p in quiz.pools] == [
        ("From the bank", 1, 2.0, ("ib1a", "ib1b")), ("Two of three", 2, 1.5, ("ig1", "ig2", "ig3"))]


def test_a_course_export_reads_canvas_s_own_qti_with_its_images_and_formulas():
    quiz, notes = _read((GOLDENS / "canvas-course.imscc").read_bytes(), "course.imscc")
    first = quiz.questions[0]
    assert "\\(\\lambda = v/f\\)" in first.prompt.value and '<img src="Quiz Files/wave.png"' in first.prompt.value
    assert [a.path for a in quiz.assets] == ["Quiz Files/wave.png"]
    image = FIXTURES / "course-export" / "web_resources" / "Quiz Files" / "wave.png"
    assert quiz.assets[0].data == image.read_bytes()
    assert "<script" not in first.choices[2].feedback.value and "style" not in first.prompt.value
    assert (quiz.settings.shuffle, quiz.settings.attempts, quiz.settings.time_limit) == (True, 2, 1200)
    assert ("W876", "the quiz: Canvas settings that lmsexport has no place for are left out: scoring_policy "
                    "keep_latest, quiz_type practice_quiz, one_question_at_a_time true, due_at 2024-10-04T21:59:59"
            ) in notes


def test_html_from_canvas_goes_through_the_sanitiser_and_images_it_lacks_are_warned():
    hostile = ('<div><p onclick="steal()">Hi <a href="javascript:alert(1)">there</a><script>alert(2)</script>'
               '<img src="$IMS-CC-FILEBASE$/gone.png" alt="gone"> <a href="$IMS-CC-FILEBASE$/notes.pdf">notes</a>'
               '<img class="equation_image" alt="LaTeX: x^2" src="/equation_images/x%255E2"></p></div>')

    def change(root):
        _items(root)[1].find(f"{Q}presentation/{Q}material/{Q}mattext").text = hostile
    quiz, notes = _read(_changed(change))
    assert quiz.questions[1].prompt == Text("<p>Hi <a rel=\"noopener noreferrer\">there</a> notes\\(x^2\\)</p>", "html")
    assert notes == [
        ("W877", "question 1 (item 'all-kinds-q1'): the image '$IMS-CC-FILEBASE$/gone.png' is left out: the package "
                 "does not hold it"),
        ("W877", "question 1 (item 'all-kinds-q1'): the link to the package's file 'notes.pdf' is left out (its text "
                 "is kept): lmsexport carries a quiz's images only"),
        ("W010", "question 1 (item 'all-kinds-q1'): removed <script>, the onclick attribute, a javascript: link from "
                 "the prompt"),
    ]


def test_a_question_whose_text_the_sanitiser_empties_is_skipped():
    def change(root):
        _items(root)[1].find(f"{Q}presentation/{Q}material/{Q}mattext").text = "<script>alert(1)</script>"
    quiz, notes = _read(_changed(change))
    assert "q1" not in [q.id for q in quiz.questions]
    assert notes == [("W010", "question 1 (item 'all-kinds-q1'): removed <script> from the prompt"),
                     ("W872", "question 1 (item 'all-kinds-q1') is left out: the prompt has nothing left to show once "
                              "<script> is removed")]


def test_several_quizzes_of_one_package_are_read_as_one_with_a_warning():
    first, second = _package(), _package(ROOT / "examples" / "features.txt")
    manifest = etree.fromstring(first[MANIFEST])
    resources = manifest.find("{*}resources")
    for resource in etree.fromstring(second[MANIFEST]).find("{*}resources"):
        resources.append(resource)
    merged = {**second, **first, MANIFEST: etree.tostring(manifest)}
    quiz, notes = _read(zip_bytes(merged))
    assert len(quiz.questions) == 14 + 6 and quiz.title == "Every kind of question"
    assert notes[0][0] == "W878" and "the file holds 2 quizzes or banks ('Every kind of question', " in notes[0][1]


def test_numbers_read_as_exact_margin_range_and_precision():
    quiz = Quiz(id="n", title="N", questions=(Numeric(id="q1", prompt=Text("x"), answers=(
        NumericAnswer(value=0.25, tolerance=0.0125), NumericAnswer(value=3.0))),))

    def change(root):
        conditions = [c for c in root.iter(f"{Q}respcondition") if c.find(f"{Q}setvar") is not None]
        conditions[1].find(f"{Q}conditionvar").clear()
        var = conditions[1].find(f"{Q}conditionvar")
        etree.SubElement(var, f"{Q}vargt", respident="response1").text = "2.995"
        etree.SubElement(var, f"{Q}varlte", respident="response1").text = "3.005"
    read_back, notes = _read(_changed(change, quiz))
    assert [(a.value, a.tolerance) for a in read_back.questions[0].answers] == [(0.25, 0.0125), (3.0, 0.005)]
    assert notes == [("W875", "question 1 (item 'n-q1'): its answer from 2.995 to 3.005, a bound excluded (Canvas's "
                              "precision answer), is read as 3 ± 0.005, bounds included")]


def test_blackboard_style_items_read_where_they_have_canvas_s_structure():
    quiz = lmsexport.read(GOLDENS / "blackboard-pool.xml", log=(log := lmsexport.Log()))
    assert [(q.kind, q.points) for q in quiz.questions] == [
        ("multiple_choice", 5.0), ("true_false", 1.0), ("short_answer", 2.0), ("essay", 10.0)]
    assert quiz.questions[0].correct_feedback == Text("Yes, Paris.")
    assert [d.code for d in log.diagnostics] == ["W871"] and "Blackboard Hot Spot" in log.diagnostics[0].message


def test_validate_judges_the_corpus_and_flags_what_is_broken():
    bank = GOLDENS / "g195e078fb6e3c4054e38e5c9226287ba.xml.qti"
    assert validate_bytes(bank.read_bytes(), source="b.xml.qti") == []
    assert validate_files(files(FIXTURES / "course-export"), source="course.imscc") == []
    (found,) = validate_bytes(WEBCT.read_bytes(), source="webct.xml")
    assert (found.code, found.span.line) == ("V508", 99)
    course = files(FIXTURES / "course-export")
    course["non_cc_assessments/i1quiz.xml.qti"] = course["non_cc_assessments/i1quiz.xml.qti"].replace(
        b'<section ident="igroup2"', b'<sectionref linkrefid="nowhere"/><section ident="igroup2"')
    assert [(d.code, str(d.span)) for d in validate_files(course, source="course.imscc")] == [
        ("V508", "course.imscc!non_cc_assessments/i1quiz.xml.qti:137")]
    broken = files(FIXTURES / "course-export")  # Canvas's own QTI inside a course export is checked too
    broken["non_cc_assessments/ibank2.xml.qti"] = broken["non_cc_assessments/ibank2.xml.qti"].replace(
        b"<presentation>", b"<presentations>").replace(b"</presentation>", b"</presentations>")
    assert [d.code for d in validate_files(broken, source="course.imscc")] == ["V103"]


def test_the_cli_lists_qti12_as_a_format_it_reads():
    listing = CliRunner().invoke(main, ["formats"]).stdout
    assert "qti12      .zip .imscc .xml .qti" in listing


def test_a_course_export_without_canvas_s_own_qti_reads_the_common_cartridge_profile():
    course = files(FIXTURES / "course-export")
    del course["non_cc_assessments/i1quiz.xml.qti"]
    quiz, _ = _read(zip_bytes(course), "course.imscc")
    assert [(q.id, q.kind, q.title) for q in quiz.questions] == [("iq1", "multiple_choice", "Wavelength")]
    assert quiz.title == "Week 3: waves" and quiz.settings.time_limit == 1200


@pytest.mark.parametrize("value", ["²", "①"])
def test_attempts_of_a_digit_that_is_no_number_are_warned_not_a_crash(value):
    package = _package()
    (meta,) = [name for name in package if name.endswith("assessment_meta.xml")]
    root = etree.fromstring(package[meta])
    node = root.find("{http://canvas.instructure.com/xsd/cccv1p0}allowed_attempts")
    if node is None:
        node = etree.SubElement(root, "{http://canvas.instructure.com/xsd/cccv1p0}allowed_attempts")
    node.text = value
    package[meta] = etree.tostring(root, xml_declaration=True, encoding="UTF-8")
    log = lmsexport.Log()
    quiz = lmsexport.read("export.zip", zip_bytes(package), log=log)
    assert quiz.settings.attempts is None
    assert any(d.code == "W876" and repr(value) in d.message for d in log.diagnostics)
