"""The GIFT reader (lmsexport/formats/gift/, docs/formats/gift.md) through the public interface.

Its goldens (every corpus file and edge case -> model, warnings) are in tests/golden/readers/gift/
(tests/test_reader_goldens.py); here: its errors (tests/fixtures/gift/errors.txt), sniffing
against the other text formats, images read from memory, and that no input raises anything
but a SourceError.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import casefile
import lmsexport
from conftest import GOLDEN, ROOT
from lmsexport import SourceError
from lmsexport.formats import detect, gift

ERRORS = Path(__file__).parent / "fixtures" / "gift" / "errors.txt"
TEXT_QUIZZES = sorted([*ROOT.glob("quizzes/*.txt"), *ROOT.glob("examples/**/*.txt"),
                       *(GOLDEN / "readers" / "text").glob("*.txt")])
GIFT_CASES = sorted(p for p in (GOLDEN / "readers" / "gift").iterdir() if p.suffix in (".gift", ".txt"))
AIKEN = "What is the capital of France?\nA. Paris\nB. Lyon\nC) Nice\nANSWER: A\n\nIs 2 > 1?\nA) Yes\nB) No\nANSWER: A\n"
TEXT2QTI = ("Quiz title: Addition\nQuiz description: Checking addition.\n\n1.  What is 2+3?\na)  6\n*b)  5\nc)  4\n\n"
            "2.  What is 2+4?\n= 6\n\n3.  Which are even?\n[*] 2\n[ ] 3\n")


@pytest.mark.parametrize("case", casefile.load(ERRORS), ids=lambda c: c.id)
def test_errors(case, request):
    with pytest.raises(SourceError) as caught:
        lmsexport.read("case.gift", case.input, log=lmsexport.Log())
    actual = "\n".join(d.render() for d in caught.value.diagnostics)
    casefile.check(ERRORS, case, actual, request)


@pytest.mark.parametrize("path", TEXT_QUIZZES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_lmsexport_text_quizzes_never_sniff_as_gift(path):
    data = path.read_bytes()
    assert gift.sniff(data) < 0.5
    assert detect(path, data)[0] == "text"


@pytest.mark.parametrize("path", GIFT_CASES, ids=lambda p: p.name)
def test_gift_files_sniff_as_gift_with_confidence(path):
    data = path.read_bytes()
    assert gift.sniff(data) >= 0.8
    assert detect(path.with_suffix(".txt"), data)[0] == "gift"


@pytest.mark.parametrize("text", [AIKEN, TEXT2QTI, "Notes for the course.\nBring a pencil.\n", ""],
                         ids=["aiken", "text2qti", "notes", "empty"])
def test_other_text_files_are_not_gift(text):
    assert gift.sniff(text.encode("utf-8")) == 0.0


@pytest.mark.parametrize("name, expected", [("numbered.txt", "gift"), ("ambiguous.txt", "text")])
def test_numbered_questions_are_gift_only_with_marks_only_gift_has(name, expected):
    path = Path(__file__).parent / "fixtures" / "gift" / name
    assert detect(path, path.read_bytes())[0] == expected


def test_a_file_read_from_memory_leaves_its_images_out_with_a_warning():
    log = lmsexport.Log()
    quiz = lmsexport.read("quiz.gift", "[markdown]Which dot? ![dot](img/dot.png){=black ~white}", log=log)
    assert quiz.assets == () and "<img" not in quiz.questions[0].prompt.value
    (warning,) = log.diagnostics
    assert warning.code == "W903" and (warning.span.line, warning.span.column) == (1, 29)


def test_a_file_read_from_its_folder_carries_its_images():
    quiz = lmsexport.read(GOLDEN / "readers" / "gift" / "images.gift", log=lmsexport.Log())
    assert [(asset.path, asset.data[:4]) for asset in quiz.assets] == [("img/dot.png", b"\x89PNG")]


def test_from_gift_reads_a_txt_file_whatever_its_content_looks_like():
    quiz = lmsexport.read("notes.txt", "1. Who wrote Hamlet? {=Shakespeare ~Marlowe}", format="gift",
                          log=lmsexport.Log())
    assert quiz.questions[0].prompt.value == "1. Who wrote Hamlet?"


GIFT_PIECES = st.sampled_from(["{", "}", "~", "=", "#", "####", "%", "%50%", "%-100%", "->", "::", "//", "\\",
                               "\\:", "\\n", "$CATEGORY:", "[html]", "[markdown]", "[plain]", "[moodle]", "T", "..",
                               ":", "\n", "\n\n", " ", "1", "-2.5", "a", "é", "<b>", "<img src='x.png'>", "*"])


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(st.binary(max_size=300), st.text(max_size=200).map(str.encode),
                 st.lists(GIFT_PIECES, max_size=40).map(lambda pieces: "".join(pieces).encode())))
def test_any_input_is_read_or_refused_with_a_source_error(data):
    try:
        lmsexport.read("random.gift", data, log=lmsexport.Log())
    except SourceError as exc:
        assert exc.diagnostics and all(d.span.source == "random.gift" for d in exc.diagnostics)


GIFT_BANK = """$CATEGORY: $course$/top/Physics/Mechanics

::Unit::What is the unit of force?{=newton#Yes. =N}

$CATEGORY: $course$/top/Physics/Optics

::Lens::A lens bends light.{T}
"""
MOODLE_BANK = """<quiz>
<question type="category"><category><text>$course$/top/Physics/Mechanics</text></category></question>
<question type="shortanswer"><name><text>Unit</text></name>
  <questiontext format="moodle_auto_format"><text>What is the unit of force?</text></questiontext>
  <answer fraction="100"><text>newton</text><feedback><text>Yes.</text></feedback></answer>
  <answer fraction="100"><text>N</text></answer></question>
<question type="category"><category><text>$course$/top/Physics/Optics</text></category></question>
<question type="truefalse"><name><text>Lens</text></name>
  <questiontext format="moodle_auto_format"><text>A lens bends light.</text></questiontext>
  <answer fraction="100"><text>true</text></answer><answer fraction="0"><text>false</text></answer></question>
</quiz>"""


def test_categories_read_as_the_moodle_xml_reader_reads_them():
    """The Moodle XML Moodle would export for a GIFT file with two categories reads as the same quiz:
    named after the first category, with the questions of both (the GIFT reader warns about the second)."""
    log = lmsexport.Log()
    from_gift = lmsexport.read("bank.gift", GIFT_BANK, log=log)
    from_moodle = lmsexport.read("bank.xml", MOODLE_BANK, log=lmsexport.Log())
    assert from_gift == from_moodle
    assert from_gift.title == "Mechanics" and len(from_gift.questions) == 2
    assert [d.code for d in log.diagnostics] == ["W906"]
