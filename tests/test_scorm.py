"""SCORM 1.2 and 2004 packages: manifests against the ADL schemas, goldens, package rules,
the pass mark, determinism, the player page's data and language, and the CLI.

How the player behaves in a browser against a real SCORM runtime is in tests/browser/.
"""

from __future__ import annotations

import dataclasses
import io
import json
import zipfile

import pytest
from click.testing import CliRunner
from conftest import GOLDEN, ROOT
from lxml import etree, html

import lmsexport
from lmsexport.formats.scorm import player
from lmsexport.cli import main
from lmsexport.model import Choice, MultipleChoice, Quiz, Settings, Text
from lmsexport.package import MANIFEST, WriteOptions
from lmsexport.validation import validate_bytes, validate_files
from lmsexport.formats.scorm import writer as scorm

ALL_KINDS = ROOT / "examples" / "all-kinds" / "quiz.txt"
POOLS = ROOT / "examples" / "pools" / "quiz.txt"
SOURCES = [*sorted((ROOT / "quizzes").glob("*.txt")), ROOT / "examples" / "features.txt", ALL_KINDS, POOLS,
           ROOT / "examples" / "numbers" / "cs.txt"]
VERSIONS = {"scorm12": "1.2", "scorm2004": "2004"}
STATIC = ROOT / "lmsexport" / "formats" / "scorm" / "templates" / "static"
CP12 = "{http://www.imsproject.org/xsd/imscp_rootv1p1p2}"
CP = "{http://www.imsglobal.org/xsd/imscp_v1p1}"
IMSSS = "{http://www.imsglobal.org/xsd/imsss}"


def write(quiz: Quiz, version: str):
    return scorm.write(quiz, WriteOptions(version))


def small_quiz(**settings) -> Quiz:
    choices = (Choice(id="a", text=Text("yes"), correct=True), Choice(id="b", text=Text("no")))
    return Quiz(id="small", title="Small", lang="en", settings=Settings(**settings),
                questions=(MultipleChoice(id="q1", prompt=Text("Well?"), choices=choices),))


def page_data(files: dict[str, bytes]) -> dict:
    """The quiz as the player's script reads it from the page."""
    document = html.fromstring(files[player.LAUNCH])
    return json.loads(document.get_element_by_id("quiz-data").text)


# ---- Schemas, goldens, package rules, determinism ----

@pytest.mark.parametrize("name", VERSIONS)
@pytest.mark.parametrize("source", SOURCES, ids=lambda p: p.parent.name if p.name == "quiz.txt" else p.stem)
def test_package_validates_and_matches_its_goldens(source, name, goldens):
    quiz = lmsexport.read(source)
    package = write(quiz, VERSIONS[name])
    assert validate_files(package.files, source=f"{quiz.id}{package.extension}") == []
    assert package.extension == f".{name}.zip"
    # The feature fixture and the pools example have an essay and a pass mark: the pass mark stays out, with W603.
    assert [w.code for w in package.warnings] == (["W603"] if source in (ALL_KINDS, POOLS) else [])
    runtime = player.RUNTIMES[VERSIONS[name]]
    media = {player.media_path(asset): asset.data for asset in quiz.assets}
    assert sorted(package.files) == sorted([MANIFEST, player.LAUNCH, *player.STATIC, runtime, *media])
    # Goldens hold what is written per quiz; the static player files must be their sources, byte for byte,
    # and the media the quiz's own files.
    for static in (*player.STATIC, runtime):
        assert package.files[static] == (STATIC / static).read_bytes(), static
    assert {path: package.files[path] for path in media} == media
    pinned = {MANIFEST: package.files[MANIFEST].decode("utf-8"), player.LAUNCH: _readable(package.files[player.LAUNCH])}
    goldens.check_tree(GOLDEN / "writers" / name / quiz.id, pinned)


def _readable(page: bytes) -> str:
    """The page with its quiz data indented (written compact, for speed), escaped as
    tojson escapes it, so that golden diffs read well."""
    from jinja2.utils import htmlsafe_json_dumps

    text = page.decode("utf-8")
    opening = '<script type="application/json" id="quiz-data">'
    start = text.index(opening) + len(opening)
    end = text.index("</script>", start)
    data = json.loads(text[start:end])
    data_text = str(htmlsafe_json_dumps(data, sort_keys=True, ensure_ascii=False, indent=1))
    return text[:start] + data_text + text[end:]


@pytest.mark.parametrize("version", VERSIONS.values())
def test_manifest_lists_every_file_and_launches_the_page(version):
    files = write(lmsexport.read(ROOT / "quizzes" / "fsdp-yo.txt"), version).files
    root = etree.fromstring(files[MANIFEST])
    (resource,) = root.iter("{*}resource")
    assert resource.get("href") == player.LAUNCH
    scorm_type = {"1.2": "{http://www.adlnet.org/xsd/adlcp_rootv1p2}scormtype",
                  "2004": "{http://www.adlnet.org/xsd/adlcp_v1p3}scormType"}[version]
    assert resource.get(scorm_type) == "sco"
    assert sorted(f.get("href") for f in resource.iter("{*}file")) == sorted(set(files) - {MANIFEST})
    (organization,) = root.iter("{*}organization")
    (item,) = organization.iter("{*}item")
    assert item.get("identifierref") == resource.get("identifier")
    assert organization.get("{http://www.w3.org/XML/1998/namespace}lang") == "yo"


@pytest.mark.parametrize("version", VERSIONS.values())
def test_package_rules_catch_a_missing_launch_file_and_an_unlisted_file(version):
    files = write(small_quiz(), version).files
    missing = {path: data for path, data in files.items() if path != player.LAUNCH}
    codes = [finding.code for finding in validate_files(missing, source="p.zip")]
    assert codes == ["V202", "V202"]        # the resource's href and its <file> entry
    extra = {**files, "notes.txt": b"x"}
    assert [finding.code for finding in validate_files(extra, source="p.zip")] == ["V204"]


@pytest.mark.parametrize("version, element", [("1.2", b"adlcp:masteryscore"), ("2004", b"lom:language")])
def test_the_schemas_reject_a_misspelt_element(version, element):
    files = write(small_quiz(pass_mark=50), version).files
    broken = files[MANIFEST].replace(element, element + b"s")
    assert broken != files[MANIFEST]
    codes = [finding.code for finding in validate_files({**files, MANIFEST: broken}, source="p.zip")]
    assert codes and set(codes) == {"V103"}


@pytest.mark.parametrize("pass_mark, mastery, measure", [(60, "60", "0.6"), (33.5, "33.5", "0.335"),
                                                         (0, "0", "0"), (100, "100", "1")])
def test_pass_mark_becomes_masteryscore_and_min_normalized_measure(pass_mark, mastery, measure):
    quiz = small_quiz(pass_mark=pass_mark)
    manifest12 = etree.fromstring(write(quiz, "1.2").files[MANIFEST])
    assert manifest12.findtext(".//{http://www.adlnet.org/xsd/adlcp_rootv1p2}masteryscore") == mastery
    manifest2004 = etree.fromstring(write(quiz, "2004").files[MANIFEST])
    (objective,) = manifest2004.iter(f"{IMSSS}primaryObjective")
    assert objective.get("satisfiedByMeasure") == "true"
    assert objective.findtext(f"{IMSSS}minNormalizedMeasure") == measure
    assert page_data(write(quiz, "2004").files)["passMark"] == pass_mark


def test_no_pass_mark_means_no_mastery_score_and_no_objective():
    quiz = small_quiz()
    assert b"masteryscore" not in write(quiz, "1.2").files[MANIFEST]
    manifest = etree.fromstring(write(quiz, "2004").files[MANIFEST])
    assert list(manifest.iter(f"{IMSSS}objectives")) == []
    controls = manifest.find(f".//{IMSSS}deliveryControls")
    assert (controls.get("completionSetByContent"), controls.get("objectiveSetByContent")) == ("true", "true")
    assert "passMark" not in page_data(write(quiz, "2004").files)


@pytest.mark.parametrize("version", VERSIONS.values())
def test_same_quiz_gives_the_same_bytes(version):
    quiz = lmsexport.read(ALL_KINDS)
    assert write(quiz, version).to_bytes() == write(lmsexport.read(ALL_KINDS), version).to_bytes()


def test_unknown_flavour_is_refused():
    with pytest.raises(ValueError, match="unknown SCORM version"):
        write(small_quiz(), "1.3")


# ---- What the writer cannot say, it says so ----

def test_long_title_is_shortened_in_the_scorm12_manifest_with_a_warning():
    quiz = dataclasses.replace(small_quiz(), title="T" * 250)
    package = write(quiz, "1.2")
    (warning,) = package.warnings
    assert warning.code == "W601" and warning.severity == "warning"
    titles = [node.text for node in etree.fromstring(package.files[MANIFEST]).iter(f"{CP12}title")]
    assert titles == ["T" * 199 + "…"] * 2
    assert validate_files(package.files, source="p.zip") == []
    package = write(quiz, "2004")
    assert [warning.code for warning in package.warnings] == ["W608"]  # carried whole, but an LMS may cut it
    assert {node.text for node in etree.fromstring(package.files[MANIFEST]).iter(f"{CP}title")} == {"T" * 250}


# ---- The page: data, escaping, language ----

NASTY = '</script><script>alert(1)</script> & "quotes" \u2028'


def test_page_escapes_the_title_and_carries_the_data_intact():
    quiz = dataclasses.replace(small_quiz(), title=NASTY, description=Text(NASTY))
    files = write(quiz, "1.2").files
    page = files[player.LAUNCH].decode("utf-8")
    assert "<script>alert" not in page and "&lt;/script&gt;&lt;script&gt;alert(1)" in page
    assert page_data(files) == json.loads(json.dumps(player.player_data(quiz, "1.2")))
    assert page_data(files)["description"]["value"] == NASTY


@pytest.mark.parametrize("source", [POOLS, ALL_KINDS, ROOT / "quizzes" / "data-parallel-vi.txt"],
                         ids=lambda p: p.parent.name if p.name == "quiz.txt" else p.stem)
def test_the_page_data_written_question_by_question_is_what_tojson_writes_of_the_whole(source):
    """The page's JSON is written a question at a time (memory); it is the text Jinja's `tojson`
    gives for `player_data` whole, with every key in its sorted place and `<>&'` escaped."""
    from jinja2.utils import htmlsafe_json_dumps

    quiz = lmsexport.read(source)
    quiz = dataclasses.replace(quiz, title="<lmsexport-quiz-data/> & 'it'", description=Text(NASTY),
                               settings=dataclasses.replace(quiz.settings, messages=(("next", "<Next> & 'on'"),)))
    page = write(quiz, "1.2").files[player.LAUNCH].decode("utf-8")
    whole = htmlsafe_json_dumps(player.player_data(quiz, "1.2"), sort_keys=True, ensure_ascii=False)
    assert f'<script type="application/json" id="quiz-data">{whole}</script>' in page
    assert "<title>&lt;lmsexport-quiz-data/&gt; &amp; &#39;it&#39;</title>" in page


def test_page_language_direction_and_interaction_ids():
    quiz = Quiz(id="ar-quiz", title="اختبار", lang="ar", questions=(
        MultipleChoice(id="q1", prompt=Text("سؤال"), choices=small_quiz().questions[0].choices),
        MultipleChoice(id="q2", prompt=Text("<b>Question</b> two", "html"), lang="en",
                       choices=small_quiz().questions[0].choices),
    ))
    files = write(quiz, "2004").files
    document = html.fromstring(files[player.LAUNCH])
    assert (document.get("lang"), document.get("dir")) == ("ar", "rtl")
    data = page_data(files)
    assert data["messages"]["check"] == "تحقّق من الإجابة" and data["lang"] == "ar"
    first, second = data["questions"]
    assert "lang" not in first and (second["lang"], second["dir"]) == ("en", "ltr")
    assert [q["interaction"] for q in data["questions"]] == ["urn:lmsexport:ar-quiz:q1", "urn:lmsexport:ar-quiz:q2"]
    assert second["description"] == "Question two"
    assert [q["interaction"] for q in page_data(write(quiz, "1.2").files)["questions"]] == ["q1", "q2"]


def test_interaction_description_is_cut_to_the_scorm_limit():
    long = dataclasses.replace(small_quiz().questions[0], prompt=Text("word " * 100))
    data = page_data(write(dataclasses.replace(small_quiz(), questions=(long,)), "2004").files)
    description = data["questions"][0]["description"]
    assert len(description) <= player.DESCRIPTION_LIMIT and description.endswith("word…")


def test_wheel_ships_the_player(tmp_path):
    hatchling_wheel = pytest.importorskip("hatchling.builders.wheel")
    built = next(iter(hatchling_wheel.WheelBuilder(str(ROOT)).build(directory=str(tmp_path), versions=["standard"])))
    names = set(zipfile.ZipFile(built).namelist())
    shipped = {f"lmsexport/formats/scorm/templates/{path.relative_to(STATIC.parent).as_posix()}"
               for path in STATIC.parent.rglob("*") if path.is_file()}
    assert "lmsexport/formats/scorm/templates/index.html.jinja" in shipped
    assert shipped <= names
    assert {f"lmsexport/interface/messages/{lang}.json" for lang in ("en", "cs", "yo", "zh")} <= names


# ---- The command line ----

def test_build_and_validate_both_versions_from_the_command_line(tmp_path):
    runner = CliRunner()
    built = runner.invoke(main, ["build", str(ROOT / "quizzes"), "-f", "scorm12,scorm2004", "-o", str(tmp_path)])
    assert built.exit_code == 0, built.stderr
    packages = sorted(tmp_path.rglob("*.zip"))
    assert [p.relative_to(tmp_path).as_posix() for p in packages] == [
        f"{name}/{quiz}.{name}.zip" for name in VERSIONS for quiz in ("data-parallel-vi", "fsdp-yo", "zero-id")]
    checked = runner.invoke(main, ["validate", *map(str, packages)])
    assert checked.exit_code == 0
    assert checked.stdout.splitlines() == [f"valid: {p.as_posix()}" for p in packages]
    with zipfile.ZipFile(packages[0]) as archive:
        assert archive.namelist()[0] == MANIFEST
    assert validate_bytes(packages[0].read_bytes(), source="p") == []


def test_building_twice_gives_identical_zips(tmp_path):
    for run in ("one", "two"):
        result = CliRunner().invoke(main, ["build", str(ALL_KINDS), "-f", "scorm2004", "-o", str(tmp_path / run)])
        assert result.exit_code == 0, result.stderr
    one, two = (tmp_path / "one" / "all-kinds.scorm2004.zip"), (tmp_path / "two" / "all-kinds.scorm2004.zip")
    assert one.read_bytes() == two.read_bytes()
    assert zipfile.ZipFile(io.BytesIO(one.read_bytes())).infolist()[0].date_time == (1980, 1, 1, 0, 0, 0)
