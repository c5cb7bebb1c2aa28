"""Numbers by language (docs/format.md, "Numbers"): lmsexport/numbers.py and quantities.py, through the readers.

- tests/fixtures/numbers/readings.txt: answers in many languages, each line read by the shared layer
  (its value, tolerance, unit, and the warning when a reading was in doubt);
- tests/fixtures/numbers/quizzes.txt: text quizzes, their numeric questions and every warning and
  error about their numbers;
- sheets read in their language, with `decimal` as an override and a `unit` column;
- the four examples (examples/numbers/: Czech, Arabic, Hindi, Yoruba) build to every format with
  the right numbers and units; written numbers read back exactly, in any language.
The SCORM player's reading is checked against the same rules in tests/browser/test_scorm_numbers.py.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given, strategies as st
from lxml import etree

import casefile
import lmsexport
from conftest import GOLDEN, ROOT
from lmsexport import Log, SourceError
from lmsexport import formats as registry
from lmsexport.model import Numeric, NumericAnswer, Quiz, Text, quiz_from_data, quiz_to_data
from lmsexport.numbers import read_number, written
from lmsexport.quantities import QuantityError, read_answer

FIXTURES = Path(__file__).parent / "fixtures" / "numbers"
READINGS = FIXTURES / "readings.txt"
QUIZZES = FIXTURES / "quizzes.txt"
EXAMPLES = sorted((ROOT / "examples" / "numbers").glob("*.txt"))
QTI = "{http://www.imsglobal.org/xsd/imsqti_v2p1}"


def _reading(line: str, lang: str | None) -> str:
    try:
        quantity = read_answer(line, lang)
    except QuantityError as exc:
        return f"{line}  ->  error: {exc.message}"
    if quantity is None:
        return f"{line}  ->  no number"
    shown = f"{quantity.value!r}" + (f" ± {quantity.tolerance!r}" if quantity.tolerance else "")
    shown += f" {quantity.unit}" if quantity.unit else ""
    notes = "".join(f"\n    {note.code}: {note.message}\n    hint: {note.hint}" for note in quantity.notes)
    return f"{line}  ->  {shown}{notes}"


def _readings(source: str) -> str:
    """The first line names the language (`lang: cs`, or `lang:` for none); each other line is an answer."""
    first, *lines = source.split("\n")
    lang = first.removeprefix("lang:").strip() or None
    return "\n".join(_reading(line, lang) for line in lines)


@pytest.mark.parametrize("case", casefile.load(READINGS), ids=lambda c: c.id)
def test_readings(case, request):
    actual = _readings(case.input)
    casefile.check(READINGS, case, actual, request)


def _quiz_numbers(source: str) -> str:
    """A text quiz's numeric questions as read, then its warnings, or its errors."""
    log = Log()
    try:
        quiz = lmsexport.read("case.txt", source, log=log)
    except SourceError as exc:
        return "\n".join(d.render() for d in exc.diagnostics)
    lines = []
    for question in quiz.questions:
        if not isinstance(question, Numeric):
            lines.append(f"{question.id}: {question.kind}")
            continue
        answers = "; ".join(f"{a.credit:g}% {a.value!r} ± {a.tolerance!r}" for a in question.answers)
        lines.append(f"{question.id}: numeric{f' in {question.unit}' if question.unit else ''}: {answers}")
    return "\n".join(lines + [d.render() for d in log.diagnostics])


@pytest.mark.parametrize("case", casefile.load(QUIZZES), ids=lambda c: c.id)
def test_quizzes(case, request):
    actual = _quiz_numbers(case.input)
    casefile.check(QUIZZES, case, actual, request)


LANGS = ["cs", "fr", "de", "de-CH", "en", "id", "vi", "ar", "ar-MA", "fa", "hi", "bn", "yo", "ja", "pt-BR", None]


@given(st.floats(allow_nan=False, allow_infinity=False, min_value=-1e300, max_value=1e300), st.sampled_from(LANGS))
def test_a_written_number_reads_back_exactly_and_without_doubt(value, lang):
    found = read_number(written(value, lang), lang)
    assert found is not None and float(found.value) == value and found.note is None


def test_the_text_writer_writes_numbers_and_units_as_the_language_does():
    quiz = Quiz(id="w", title="W", lang="de", questions=(
        Numeric(id="q1", prompt=Text("g?"), unit="m/s²", answers=(NumericAnswer(value=9.81, tolerance=0.01),)),
        Numeric(id="q2", prompt=Text("v?"), unit="km h⁻¹", answers=(NumericAnswer(value=1.125),)),
        Numeric(id="q3", prompt=Text("p?"), unit="%", lang="en", answers=(NumericAnswer(value=70, tolerance=1),)),
    ))
    (text,) = lmsexport.write(quiz, "text").files.values()
    body = text.decode("utf-8")
    assert "= 9,81 m/s² ± 0,01" in body and "@unit: km h⁻¹\n   = 1,125" in body and "= 70 % ± 1" in body
    log = Log()
    assert lmsexport.read("w.txt", body, log=log) == quiz and log.diagnostics == []


def test_a_model_without_units_reads_as_before_and_one_with_a_unit_keeps_it():
    """The JSON form gains an optional `unit`: left out when there is none, so every document
    written before reads (and writes) the same, and no version bump is needed."""
    old = json.loads((GOLDEN / "writers" / "json" / "data-parallel-vi.json").read_text(encoding="utf-8"))
    assert quiz_to_data(quiz_from_data(old["quiz"])) == old["quiz"]
    quiz = lmsexport.read(ROOT / "examples" / "numbers" / "cs.txt")
    data = quiz_to_data(quiz)
    assert [q.get("unit") for q in data["questions"]] == [None, "m/s²", "%", "m", None, "Kč"]
    assert quiz_from_data(data) == quiz


# ---- Sheets ----

def _sheet(text: str):
    log = Log()
    quiz = lmsexport.read("bank.csv", text, log=log)
    found = [(q.answers[0].value, q.answers[0].tolerance, q.unit) for q in quiz.questions]
    return found, [d.code for d in log.diagnostics]


def test_a_sheet_reads_numbers_in_its_language():
    found = _sheet("lang,cs\ntype,question,correct,tolerance,unit\nnumeric,g?,\"9,81\",\"0,01\",m/s²\n"
                   "numeric,e?,\"2,718\",,\nnumeric,Voda?,71 %,,\nnumeric,Range?,\"1,5..2,5\",,\n")
    assert found == ([(9.81, 0.01, "m/s²"), (2.718, 0.0, None), (71.0, 0.0, "%"), (2.0, 0.5, None)], [])


def test_a_rows_language_decides_its_numbers_and_decimal_overrides_both():
    assert _sheet("lang,en\nquestion,correct,lang\ng?,\"9,81\",de\nh?,1.5,\n") == (
        [(9.81, 0.0, None), (1.5, 0.0, None)], [])
    # A CSV file saved by a German spreadsheet for an English quiz: its numbers are German.
    assert _sheet("lang,en\ndecimal,comma\npoints,\"1,5\"\nquestion,correct\ng?,\"9,81\"\n") == (
        [(9.81, 0.0, None)], [])


def test_a_sheet_number_that_reads_two_ways_is_a_warning_with_the_reading():
    assert _sheet("question,correct\nHow many?,\"1,000\"\nHalf?,\"2,5\"\n") == (
        [(1000.0, 0.0, None), (2.5, 0.0, None)], ["W131", "W132"])


def test_a_sheet_setting_that_reads_two_ways_is_an_error():
    with pytest.raises(SourceError) as caught:
        lmsexport.read("bank.csv", "lang,en\npoints,\"1,000\"\nquestion,correct\nq?,1\n")
    (problem,) = caught.value.diagnostics
    assert problem.code == "E976" and "reads two ways" in problem.hint


def test_a_sheet_with_two_units_for_one_question_is_an_error():
    with pytest.raises(SourceError) as caught:
        lmsexport.read("bank.csv", "question,correct,unit\ng?,9.81 m/s² | 50% 10 m/s,m/s²\n")
    assert [d.code for d in caught.value.diagnostics] == ["E982"]
    assert "different units" in caught.value.diagnostics[0].message


# ---- The examples: every format, the right numbers and units ----

EXPECTED = {
    "cisla-cs": [(78.9, 0.1, None), (9.81, 0.01, "m/s²"), (71.0, 0.0, "%"), (1000.0, 0.0, "m"), (2.0, 0.5, None),
                 (3.5, 0.0, "Kč")],
    "arqam-ar": [(3.14, 0.005, None), (9.81, 0.01, "m/s²"), (71.0, 0.0, "%"), (1000.0, 0.0, "م"), (2.0, 0.5, None)],
    "sankhya-hi": [(100.0, 0.0, None), (9.81, 0.01, "m/s²"), (100000.0, 0.0, "सेमी"), (71.0, 0.0, "%"),
                   (3.14, 0.005, None)],
    "onka-yo": [(9.81, 0.01, "m/s²"), (1000.0, 0.0, "m"), (71.0, 0.0, "%"), (2.0, 0.5, None), (350.0, 0.0, "₦")],
}
"""The first answer of each question of each example: value, tolerance, unit."""


def _first_answers(quiz: Quiz) -> list[tuple]:
    return [(q.answers[0].value, q.answers[0].tolerance, q.unit) for q in quiz.questions]


@pytest.mark.parametrize("source", EXAMPLES, ids=lambda p: p.stem)
def test_an_example_reads_its_numbers_without_a_warning(source):
    log = Log()
    quiz = lmsexport.read(source, log=log)
    assert _first_answers(quiz) == EXPECTED[quiz.id] and log.diagnostics == []


def _qti_numbers(files: dict[str, bytes]) -> list[tuple]:
    found = []
    for name in sorted(n for n in files if n.startswith("items/") and n.endswith(".xml")):
        item = etree.fromstring(files[name])
        value = item.findtext(f".//{QTI}responseCondition/{QTI}responseIf/{QTI}equal/{QTI}baseValue")
        unit = item.find(f".//{QTI}textEntryInteraction/../{QTI}span[@class='unit']")
        found.append((float(value), None if unit is None else unit.text))
    return found


def _moodle_numbers(files: dict[str, bytes]) -> list[tuple]:
    (content,) = files.values()
    bank = etree.fromstring(content)
    return [(float(q.findtext("answer/text")), q.findtext("units/unit/unit_name"))
            for q in bank.iterfind("question[@type='numerical']")]


def _canvas_numbers(files: dict[str, bytes]) -> list[tuple]:
    (name,) = [n for n in files if n.count("/") == 1 and n.endswith(".xml") and not n.endswith("meta.xml")]
    root = etree.fromstring(files[name])
    ns = {"q": "http://www.imsglobal.org/xsd/ims_qtiasiv1p2"}
    found = []
    for item in root.iterfind(".//q:item", ns):
        stem = item.findtext("q:presentation/q:material/q:mattext", namespaces=ns)
        unit = re.search(r"<p>\((.*?)\)</p></div>\Z", stem)
        found.append((float(item.findtext(".//q:respcondition/q:conditionvar/q:or/q:varequal", namespaces=ns)),
                      unit[1] if unit else None))
    return found


def _scorm_numbers(files: dict[str, bytes]) -> list[tuple]:
    from lxml import html

    data = json.loads(html.fromstring(files["index.html"]).get_element_by_id("quiz-data").text)
    return [(q["answers"][0]["value"], q.get("unit")) for q in data["questions"]]


NUMBERS_OF = {"qti": _qti_numbers, "moodle": _moodle_numbers, "canvas": _canvas_numbers,
              "scorm12": _scorm_numbers, "scorm2004": _scorm_numbers}
"""How to find each question's first number and its unit in a package of each LMS format."""


@pytest.mark.parametrize("source", EXAMPLES, ids=lambda p: p.stem)
@pytest.mark.parametrize("format_name", sorted(registry.flavours()))
def test_an_example_builds_to_every_format_with_its_numbers_and_units(source, format_name):
    quiz = lmsexport.read(source)
    package = lmsexport.write(quiz, format_name)
    assert lmsexport.validate(package) == []
    expected = [(value, unit) for value, _, unit in EXPECTED[quiz.id]]
    if format_name in NUMBERS_OF:
        assert NUMBERS_OF[format_name](package.files) == expected
    else:  # json, text: the model comes back whole
        (content,) = package.files.values()
        assert lmsexport.read(f"back{package.extension}", content.decode("utf-8")) == quiz
    units = sum(unit is not None for _, unit in expected)
    lost = {"qti": "W812", "canvas": "W864"}
    assert [w.code for w in package.warnings].count(lost.get(format_name, "-")) == (units if format_name in lost else 0)


# ---- Moodle's units read back ----

def _moodle_bank(replace: tuple[str, str]) -> tuple[Quiz, list]:
    quiz = lmsexport.read(ROOT / "examples" / "numbers" / "cs.txt")
    (content,) = lmsexport.write(quiz, "moodle").files.values()
    log = Log()
    back = lmsexport.read("bank.moodle.xml", content.decode("utf-8").replace(*replace, 1), log=log)
    return back, log.diagnostics


def test_the_moodle_reader_keeps_the_default_unit_and_warns_of_the_others():
    back, warnings = _moodle_bank(("</unit>\n    </units>", "</unit>\n<unit><multiplier>100</multiplier>"
                                   "<unit_name>cm/s²</unit_name></unit>\n    </units>"))
    assert back.questions[1].unit == "m/s²"
    assert [w.code for w in warnings] == ["W687"] and "'cm/s²'" in warnings[0].message


def test_the_moodle_reader_warns_that_a_graded_unit_is_not_graded():
    back, warnings = _moodle_bank(("<unitgradingtype>0</unitgradingtype>\n    <unitpenalty>0.1</unitpenalty>\n"
                                   "    <showunits>0</showunits>", "<unitgradingtype>1</unitgradingtype>\n"
                                   "    <unitpenalty>0.1</unitpenalty>\n    <showunits>0</showunits>"))
    assert back.questions[1].unit == "m/s²"
    assert [w.code for w in warnings] == ["W687"] and "grades its unit" in warnings[0].message


def test_the_moodle_reader_reads_no_unit_where_units_are_not_used():
    back, _ = _moodle_bank(("<showunits>0</showunits>", "<showunits>3</showunits>"))
    assert back.questions[1].unit is None
