"""SCORM packages with every kind of question and rich text: the page's data for each kind,
math as MathML, images in the package, and the warnings for what SCORM cannot carry.

How the player shows, scores and records each kind is tested in a browser in tests/browser/.
"""

from __future__ import annotations

import dataclasses
import json

import pytest
from lxml import etree, html

from lmsexport.formats.scorm import player
from lmsexport.model import (
    Answer, Asset, Choice, Description, Essay, FillBlanks, Gap, Matching, MatchPair, MultipleChoice, Numeric,
    NumericAnswer, Ordering, OrderItem, Quiz, Settings, ShortAnswer, Text, TrueFalse,
)
from lmsexport.package import MANIFEST, WriteOptions
from lmsexport.validation import validate_files
from lmsexport.formats.scorm import writer as scorm

VERSIONS = ("1.2", "2004")
PNG = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010806000000"
                    "1f15c4890000000d49444154789c6360f8cfc0000003010100c9fe92ef0000000049454e44ae426082")
RICH = Text('<p>Look at <img src="img/a b.png" alt="A red dot"> and \\(x^2 + \\frac{a}{b}\\):</p>'
            '<pre><code class="language-python">print("\\\\(not math\\\\)")</code></pre>'
            '<table><tr><th>n</th></tr><tr><td>1</td></tr></table>\\[\\sum_{i=1}^{n} i\\]', "html")


def kinds_quiz(**settings) -> Quiz:
    """One question of every kind, with rich text in the first one."""
    two = (Choice(id="a", text=Text("yes"), correct=True, feedback=Text("Good.")), Choice(id="b", text=Text("no")))
    return Quiz(id="kinds", title="Kinds", lang="en", settings=Settings(**settings),
                assets=(Asset(path="img/a b.png", media_type="image/png", data=PNG),), questions=(
        Description(id="t1", points=0, prompt=Text("Read this.")),
        MultipleChoice(id="q1", prompt=RICH, choices=two, correct_feedback=Text("Right!"),
                       incorrect_feedback=Text("No.")),
        TrueFalse(id="q2", prompt=Text("The sky is blue."), answer=True),
        ShortAnswer(id="q3", prompt=Text("Capital of France?"), case_sensitive=True, answers=(
            Answer(text="Paris"), Answer(text="Par*", credit=50, feedback=Text("Spell it out.")))),
        Numeric(id="q4", prompt=Text("Pi?"), points=3, answers=(
            NumericAnswer(value=3.14, tolerance=0.005), NumericAnswer(value=3, tolerance=0.5, credit=50))),
        Essay(id="q5", prompt=Text("Why?"), lines=4, explanation=Text("Because.")),
        Matching(id="q6", prompt=Text("Match."), distractors=(Text("lava"),), pairs=(
            MatchPair(id="a", left=Text("H2O"), right=Text("water")),
            MatchPair(id="b", left=Text("ice"), right=Text("water")),
            MatchPair(id="c", left=Text("NaCl"), right=Text("salt")))),
        Ordering(id="q7", prompt=Text("Order."), items=(
            OrderItem(id="a", text=Text("one")), OrderItem(id="b", text=Text("two")))),
        FillBlanks(id="q8", prompt=Text("Paris is in ___, Rome in ___."), segments=(
            "Paris is in ", Gap(id="g1", answers=(Answer(text="France"),)), ", Rome in ",
            Gap(id="g2", choices=(Choice(id="a", text=Text("Italy"), correct=True), Choice(id="b", text=Text("Spain")))),
            ".")),
    ))


def write(quiz: Quiz, version: str):
    return scorm.write(quiz, WriteOptions(version))


def page_data(files: dict[str, bytes]) -> dict:
    return json.loads(html.fromstring(files[player.LAUNCH]).get_element_by_id("quiz-data").text)


def questions(quiz: Quiz, version: str = "2004") -> dict[str, dict]:
    return {question["id"]: question for question in page_data(write(quiz, version).files)["questions"]}


# ---- Every kind reaches the page with what the player needs ----

def test_every_kind_reaches_the_page_with_its_key():
    data = questions(kinds_quiz())
    assert [q["kind"] for q in data.values()] == [
        "description", "multiple_choice", "true_false", "short_answer", "numeric", "essay", "matching", "ordering",
        "fill_blanks"]
    assert "interaction" not in data["t1"] and "description" not in data["t1"]
    assert data["q1"]["correctFeedback"] == {"value": "Right!", "format": "plain"}
    assert data["q1"]["choices"][0]["feedback"]["value"] == "Good."
    assert data["q2"]["answer"] is True
    assert data["q3"]["caseSensitive"] is True
    assert data["q3"]["answers"][1] == {"text": "Par*", "credit": 50, "feedback": {"value": "Spell it out.",
                                                                                 "format": "plain"}}
    assert data["q4"]["answers"] == [{"value": 3.14, "tolerance": 0.005, "credit": 100},
                                     {"value": 3, "tolerance": 0.5, "credit": 50}]
    assert (data["q4"]["points"], data["q5"]["lines"], data["q5"]["scored"]) == (3, 4, False)
    assert [item["id"] for item in data["q7"]["items"]] == ["a", "b"]
    assert [part.get("gap") for part in data["q8"]["segments"]] == [None, "g1", None, "g2", None]
    assert data["q8"]["segments"][3]["choices"][0]["label"] == "Italy"
    assert all("scored" not in q for key, q in data.items() if key not in ("t1", "q5"))


def test_matching_lists_each_right_item_once_numbered_with_its_distractors():
    data = questions(kinds_quiz())["q6"]
    assert data["options"] == [{"id": "1", "text": {"value": "water", "format": "plain"}, "label": "water"},
                               {"id": "2", "text": {"value": "salt", "format": "plain"}, "label": "salt"},
                               {"id": "3", "text": {"value": "lava", "format": "plain"}, "label": "lava"}]
    assert [(pair["id"], pair["option"]) for pair in data["pairs"]] == [("a", "1"), ("b", "1"), ("c", "2")]


@pytest.mark.parametrize("version", VERSIONS)
def test_every_kind_builds_a_valid_package(version):
    package = write(kinds_quiz(), version)
    assert validate_files(package.files, source="p.zip") == []
    assert package.warnings == []


# ---- Math and images ----

def test_math_becomes_mathml_and_code_keeps_its_tex():
    prompt = questions(kinds_quiz())["q1"]["prompt"]["value"]
    fragment = html.fragment_fromstring(prompt, create_parent="div")
    maths = fragment.findall(".//math")
    assert [m.get("display") for m in maths] == ["inline", "block"]
    assert maths[0].find(".//mfrac") is not None and maths[1].find(".//munderover") is not None
    assert "xmlns" not in prompt                       # the HTML parser puts <math> in MathML itself
    assert fragment.findtext(".//code") == 'print("\\\\(not math\\\\)")'
    assert fragment.find(".//code").get("class") == "language-python"


@pytest.mark.parametrize("version", VERSIONS)
def test_images_are_in_the_package_listed_and_pointed_to(version):
    files = write(kinds_quiz(), version).files
    assert files["media/img/a b.png"] == PNG
    manifest = etree.fromstring(files[MANIFEST])
    assert "media/img/a b.png" in [f.get("href") for f in manifest.iter("{*}file")]
    prompt = html.fragment_fromstring(page_data(files)["questions"][1]["prompt"]["value"], create_parent="div")
    (image,) = prompt.iter("img")
    assert (image.get("src"), image.get("alt")) == ("media/img/a%20b.png", "A red dot")


def test_an_image_that_is_not_a_quiz_file_and_bad_tex_are_kept_with_warnings():
    prompt = Text('<p><img src="img/missing.png" alt="gone"> <img src="https://example.org/x.png" alt="x"> '
                  '\\(x^\\) and \\(y\\)</p>', "html")
    quiz = dataclasses.replace(kinds_quiz(), questions=(
        dataclasses.replace(kinds_quiz().questions[1], prompt=prompt),))
    package = write(quiz, "2004")
    assert [w.code for w in package.warnings] == ["W605", "W606"]
    assert all(w.severity == "warning" and w.span.source == "kinds" for w in package.warnings)
    value = page_data(package.files)["questions"][0]["prompt"]["value"]
    assert 'src="img/missing.png"' in value and 'src="https://example.org/x.png"' in value
    assert "\\(x^\\)" in value and value.count("<math") == 1


# ---- What SCORM cannot carry, said ----

@pytest.mark.parametrize("version", VERSIONS)
def test_an_essay_leaves_pass_or_fail_to_the_teacher(version):
    package = write(kinds_quiz(pass_mark=60), version)
    (warning,) = package.warnings
    assert warning.code == "W603" and "question 5 is an essay" in warning.message and "(60%)" in warning.message
    manifest = package.files[MANIFEST]
    assert b"masteryscore" not in manifest and b"minNormalizedMeasure" not in manifest
    data = page_data(package.files)
    assert data["pending"] is True and "passMark" not in data
    assert validate_files(package.files, source="p.zip") == []


def test_without_an_essay_the_pass_mark_stays():
    quiz = kinds_quiz(pass_mark=60)
    quiz = dataclasses.replace(quiz, questions=tuple(q for q in quiz.questions if q.kind != "essay"))
    package = write(quiz, "2004")
    assert package.warnings == [] and b"<imsss:minNormalizedMeasure>0.6<" in package.files[MANIFEST]
    assert page_data(package.files)["passMark"] == 60 and "pending" not in page_data(package.files)


def test_more_blanks_than_a_scorm_2004_fill_in_holds_warn():
    segments = tuple(part for n in range(11) for part in (f"w{n} ", Gap(id=f"g{n}", answers=(Answer(text="x"),))))
    quiz = dataclasses.replace(kinds_quiz(), questions=(
        FillBlanks(id="q1", prompt=Text("many blanks"), segments=segments),))
    (warning,) = write(quiz, "2004").warnings
    assert warning.code == "W604" and "11 blanks" in warning.message
    assert write(quiz, "1.2").warnings == []
