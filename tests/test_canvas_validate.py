"""`lmsexport validate` on QTI 1.2 (Canvas) packages: other tools' packages pass, broken ones say why.

Each broken package is a good one (examples/all-kinds/quiz.txt as `--format canvas`) with one thing
changed, so each test shows one rule of formats/qti12/validation.py firing with its code.
"""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner
from lxml import etree

import lmsexport
from conftest import ROOT
from lmsexport.cli import main
from lmsexport.package import MANIFEST, zip_bytes
from lmsexport.validation import validate_bytes, validate_files, validate_xml

HERE = ROOT / "tests" / "fixtures" / "qti12"
Q = "{http://www.imsglobal.org/xsd/ims_qtiasiv1p2}"
C = "{http://canvas.instructure.com/xsd/cccv1p0}"
ASSESSMENT = "all-kinds/all-kinds.xml"
META = "all-kinds/assessment_meta.xml"


def _package() -> dict[str, bytes]:
    return dict(lmsexport.write(lmsexport.read(ROOT / "examples" / "all-kinds" / "quiz.txt"), "canvas").files)


def _changed(path: str, change) -> dict[str, bytes]:
    files = _package()
    root = etree.fromstring(files[path])
    change(root)
    files[path] = etree.tostring(root, xml_declaration=True, encoding="UTF-8")
    return files


def _codes(files: dict[str, bytes]) -> list[tuple[str, str]]:
    """The findings of the package; each of lmsexport's own rules (V5xx) says what to do, too."""
    findings = validate_files(files, source="p.canvas.zip")
    assert all(d.hint for d in findings if d.code.startswith("V5")), findings
    return [(d.code, d.message) for d in findings]


def _item(root, number: int):
    return list(root.iter(f"{Q}item"))[number]


def test_other_tools_packages_are_valid():
    export = {p.relative_to(HERE / "canvas-export").as_posix(): p.read_bytes()
              for p in (HERE / "canvas-export").rglob("*") if p.is_file()}
    assert validate_files(export, source="canvas-export.zip") == []
    assert validate_xml((HERE / "all_canvas_simple_1.2.xml").read_bytes(), source="all_canvas_simple_1.2.xml") == []
    assert validate_bytes((HERE / "all-kinds-t2q.zip").read_bytes(), source="all-kinds-t2q.zip") == []


def test_a_label_that_does_not_exist():
    def change(root):
        _item(root, 1).find(f".//{Q}respcondition[@continue='No']//{Q}varequal").text = "99"
    found = _codes(_changed(ASSESSMENT, change))
    assert [code for code, _ in found] == ["V504"]
    assert found[0][1] == "item 'all-kinds-q1': <varequal> names '99', which is no response_label of 'response1'"


def test_a_response_that_does_not_exist():
    def change(root):
        _item(root, 4).find(f".//{Q}varequal").set("respident", "response9")
    assert [code for code, _ in _codes(_changed(ASSESSMENT, change))] == ["V504"]


def test_a_choice_question_without_a_right_answer():
    def change(root):
        for setvar in _item(root, 2).iter(f"{Q}setvar"):
            setvar.text = "0"
    found = _codes(_changed(ASSESSMENT, change))
    assert found == [("V506", "item 'all-kinds-q2': a multiple_answers_question has no right answer (no condition "
                              "setting SCORE above 0 names one)")]


def test_a_blank_without_a_right_answer_and_one_missing_from_the_text():
    def change(root):
        item = _item(root, 10)
        item.find(f".//{Q}respcondition/{Q}setvar").set("action", "Set")
        mattext = item.find(f"{Q}presentation/{Q}material/{Q}mattext")
        mattext.text = mattext.text.replace("[g2]", "[gap two]")
    found = _codes(_changed(ASSESSMENT, change))
    assert [code for code, _ in found] == ["V506", "V507"]
    assert "'response_g2' has no [g2] in the question text" in found[1][1]


def test_identifiers_that_repeat_and_feedback_that_is_missing():
    def change(root):
        _item(root, 2).set("ident", "all-kinds-q1")
        _item(root, 1).find(f"{Q}itemfeedback").set("ident", "elsewhere")
        labels = list(_item(root, 3).iter(f"{Q}response_label"))
        labels[1].set("ident", labels[0].get("ident"))
    found = _codes(_changed(ASSESSMENT, change))
    assert [code for code, _ in found] == ["V505", "V502", "V502"]
    assert found[1][1].startswith("item ident 'all-kinds-q1' is also on line")


def test_metadata_canvas_does_not_know():
    def change(root):
        entries = _item(root, 1).findall(f".//{Q}fieldentry")
        entries[0].text, entries[1].text = "ordering_question", "-2"
    found = _codes(_changed(ASSESSMENT, change))
    assert [code for code, _ in found] == ["V503", "V503"]


def test_an_assessment_the_schema_refuses():
    def change(root):
        etree.SubElement(_item(root, 1), f"{Q}unknown")
    assert [code for code, _ in _codes(_changed(ASSESSMENT, change))] == ["V103"]


@pytest.mark.parametrize("field, value, problem", [
    ("shuffle_answers", "yes", "Canvas reads true or false"),
    ("allowed_attempts", "0", "a number of attempts of 1 or more, or -1 for no limit"),
    ("scoring_policy", "keep_best", "Canvas knows 'keep_highest', 'keep_latest', 'keep_average'"),
    ("points_possible", "-1", "a number of 0 or more"),
    ("time_limit", "1.5", "minutes, 1 or more"),
    ("allowed_attempts", "²", "a number of attempts of 1 or more, or -1 for no limit"),
    ("allowed_attempts", "--5", "a number of attempts of 1 or more, or -1 for no limit"),
    ("time_limit", "²", "minutes, 1 or more"),
])
def test_quiz_settings_out_of_range(field, value, problem):
    def change(root):
        node = root.find(f"{C}{field}")
        if node is None:
            node = etree.SubElement(root, f"{C}{field}")
        node.text = value
    assert _codes(_changed(META, change)) == [("V512", f"<{field}> is {value!r}: {problem}")]


def test_quiz_settings_without_identifier_or_title_or_for_another_quiz():
    def change(root):
        root.remove(root.find(f"{C}title"))
        del root.attrib["identifier"]
    found = _codes(_changed(META, change))
    assert [code for code, _ in found] == ["V511", "V511", "V523"]
    files = _changed(META, lambda root: root.set("identifier", "other"))
    assert _codes(files) == [("V523", "the quiz settings are for 'other', the assessment is 'all-kinds'")]


def test_quiz_settings_where_canvas_does_not_look():
    files = _package()
    files["settings/assessment_meta.xml"] = files.pop(META)
    manifest = files[MANIFEST].replace(META.encode(), b"settings/assessment_meta.xml")
    files[MANIFEST] = manifest
    assert [code for code, _ in _codes(files)] == ["V522"]


def test_an_image_the_package_does_not_carry():
    files = _package()
    del files["web_resources/img/ring.svg"]
    files[MANIFEST] = etree.tostring(_without_resource(etree.fromstring(files[MANIFEST]), "web_resources/img/ring.svg"))
    found = _codes(files)
    assert found == [("V524", "the image '$IMS-CC-FILEBASE$/img/ring.svg' names no file of the package")]


def _without_resource(manifest, href: str):
    for resource in list(manifest.iter("{*}resource")):
        if resource.get("href") == href:
            resource.getparent().remove(resource)
    return manifest


def test_an_assessment_resource_that_is_something_else():
    files = _package()
    files[ASSESSMENT] = files[META]
    assert "V521" in [code for code, _ in _codes(files)]


def test_a_questestinterop_with_nothing_to_import():
    document = b'<questestinterop xmlns="http://www.imsglobal.org/xsd/ims_qtiasiv1p2"/>'
    assert [d.code for d in validate_xml(document, source="x.xml")] == ["V103", "V501"]


def test_the_command_line_says_where(tmp_path: Path):
    path = tmp_path / "broken.canvas.zip"
    files = _changed(META, lambda root: root.find(f"{C}shuffle_answers").__setattr__("text", "yes"))
    path.write_bytes(zip_bytes(files))
    result = CliRunner().invoke(main, ["validate", str(path)])
    assert result.exit_code == 1
    assert f"{path.as_posix()}!all-kinds/assessment_meta.xml:6: error: <shuffle_answers> is 'yes'" in result.output
    with zipfile.ZipFile(io.BytesIO(path.read_bytes())) as archive:
        assert archive.namelist()[0] == MANIFEST


def test_validate_searches_a_folder_for_canvas_course_exports_and_assessments_too(tmp_path):
    """A folder search finds `.imscc` course exports and `.xml.qti` assessments, as named files are."""
    files = _package()
    (tmp_path / "course.imscc").write_bytes(zip_bytes(files, (1980, 1, 1, 0, 0, 0)))
    assessment = next(path for path in files if path.endswith(".xml") and path != MANIFEST and "meta" not in path)
    (tmp_path / "quiz.xml.qti").write_bytes(files[assessment])
    result = CliRunner().invoke(main, ["validate", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "course.imscc" in result.output and "quiz.xml.qti" in result.output
