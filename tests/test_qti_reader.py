"""The QTI 2.1 reader on packages and items other tools wrote, and on input it must refuse.

Round trips of lmsexport's own packages are in test_qti.py.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

import lmsexport
from conftest import ROOT
from lmsexport import SourceError
from lmsexport.package import zip_bytes

FIXTURES = Path(__file__).parent / "fixtures" / "qti21"
NS = 'xmlns="http://www.imsglobal.org/xsd/imsqti_v2p1"'


def _errors(data: bytes, source: str = "p.zip") -> list[tuple[str, str, str]]:
    """The reader's errors; each says what to do, too."""
    with pytest.raises(SourceError) as caught:
        lmsexport.read(source, data, format='qti21')
    assert all(d.hint for d in caught.value.diagnostics), caught.value
    return [(d.code, str(d.span), d.message) for d in caught.value.diagnostics]


def _features() -> dict[str, bytes]:
    return dict(lmsexport.write(lmsexport.read(ROOT / "examples" / "features.txt"), 'qti').files)


def test_packages_and_item_files_reach_the_reader_through_read():
    package = lmsexport.write(lmsexport.read(ROOT / "examples" / "features.txt"), 'qti').to_bytes()
    assert lmsexport.read("features.qti.zip", package) == lmsexport.read("features.qti.zip", package, format='qti21')
    item = lmsexport.read(FIXTURES / "choice.xml")
    assert item == lmsexport.read("choice.xml", (FIXTURES / "choice.xml").read_bytes(), format='qti21')


def test_an_ims_sample_item_reads_as_a_one_question_quiz():
    quiz = lmsexport.read("choice.xml", (FIXTURES / "choice.xml").read_bytes(), format='qti21')
    (question,) = quiz.questions
    assert (quiz.id, quiz.title, question.title) == ("choice", "Unattended Luggage", "Unattended Luggage")
    assert question.points == 1.0
    assert question.prompt.format == "html" and question.prompt.value == (
        '<p>Look at the text in the picture.</p><p><img src="images/sign.png" alt="NEVER LEAVE LUGGAGE UNATTENDED"></p>'
        "<div>What does it say?</div>"
    )
    assert [(c.id, c.correct) for c in question.choices] == [("ChoiceA", True), ("ChoiceB", False), ("ChoiceC", False)]
    assert str(question.source) == "choice.xml:6"


def test_points_of_a_foreign_item_come_from_its_mapping():
    quiz = lmsexport.read("choice_multiple.xml", (FIXTURES / "choice_multiple.xml").read_bytes(), format='qti21')
    (question,) = quiz.questions
    assert question.multiple_response and question.points == 2.0 and quiz.settings.shuffle
    assert question.prompt.value == "Which of the following elements are used to form water?"
    assert [c.id for c in question.correct_choices] == ["H", "O"]


def test_an_item_the_model_has_no_kind_for_is_refused_when_it_is_all_there_is():
    assert _errors((FIXTURES / "hottext.xml").read_bytes(), "hottext.xml") == [
        ("E807", "hottext.xml:22", "the item 'IMS00004_StemError': it has hottextInteraction, for which lmsexport "
         "has no kind (it reads one choice, text entry, extended text, match, associate, order or gap match "
         "interaction per item, or text entries and inline choices in a text)")]
    assert _errors((FIXTURES / "template.xml").read_bytes(), "template.xml")[0][:2] == ("E807", "template.xml:9")


NO_KIND = {
    "adaptive": ('adaptive="false"', 'adaptive="true"', "it is adaptive"),
    "template": ("<itemBody>", '<templateDeclaration identifier="T" cardinality="single" baseType="integer"/><itemBody>',
                 "it is a template item"),
    "graphic": ("<choiceInteraction ", "<hotspotInteraction ", "its hotspotInteraction asks for places on an image"),
    "custom": ("<choiceInteraction ", "<portableCustomInteraction ", "its portableCustomInteraction is run by the tool"),
}


@pytest.mark.parametrize("kind", sorted(NO_KIND))
def test_an_item_the_model_has_no_kind_for_is_skipped_with_a_warning_naming_it(kind):
    files = _features()
    before, after, reason = NO_KIND[kind]
    item = files["items/q1.xml"].decode()
    assert before in item
    if kind in ("graphic", "custom"):
        item = item.replace("</choiceInteraction>", "</" + after[1:].strip() + ">")
    files["items/q1.xml"] = item.replace(before, after, 1).encode()
    log = lmsexport.Log()
    quiz = lmsexport.read("p.zip", zip_bytes(files), format='qti21', log=log)
    items = [name for name in files if name.startswith("items/q")]
    assert [q.id for q in quiz.questions] == [f"q{n}" for n in range(2, len(items) + 1)]
    (warning,) = [d for d in log.diagnostics if d.code == "W881"]
    assert warning.message.startswith("question 1 (item ") and reason in warning.message
    assert warning.message.endswith("; the item is skipped") and str(warning.span).startswith("p.zip!items/q1.xml")


def test_close_fits_of_other_tools_are_read_with_a_warning():
    log = lmsexport.Log()
    matching = lmsexport.read("a.xml", (FIXTURES / "associate.xml").read_bytes(), format='qti21', log=log).questions[0]
    assert [(p.left.value, p.right.value) for p in matching.pairs] == [
        ("Antonio", "Prospero"), ("Capulet", "Montague"), ("Demetrius", "Lysander")]
    gaps = lmsexport.read("g.xml", (FIXTURES / "gap_match.xml").read_bytes(), format='qti21', log=log).questions[0]
    assert [next(c.text.value for c in g.choices if c.correct) for g in gaps.gaps] == ["winter", "summer"]
    assert gaps.prompt.value.startswith("Identify the missing words") and "Now is the ___ of our" in gaps.prompt.value
    numbers = lmsexport.read("n.xml", (FIXTURES / "TextEntrynumeric_2040297025.xml").read_bytes(), format='qti21', log=log)
    assert [[a.text for a in g.answers] for g in numbers.questions[0].gaps] == [["4", "4.0"], ["2", "2.0"]]
    order = lmsexport.read("o.xml", (FIXTURES / "Order_913967682.xml").read_bytes(), format='qti21', log=log).questions[0]
    assert [i.text.value for i in order.items][:2] == ["CDU", "Die Linke"]
    # W883 the close fits; W884 feedback left out; W821 mappings that are no scoring policy.
    assert sorted(d.code for d in log.diagnostics) == ["W821"] * 3 + ["W883"] * 4 + ["W884"] * 2


def _one(name: str):
    (question,) = lmsexport.read(name, (FIXTURES / name).read_bytes(), format='qti21').questions
    return question


def test_ims_samples_of_every_other_kind_read():
    typed = _one("text_entry.xml")  # a text entry inside the text: a gap
    assert typed.kind == "fill_blanks" and typed.case_sensitive  # mapEntry caseSensitive defaults to true
    assert [(a.text, a.credit) for a in typed.gaps[0].answers] == [("York", 100.0), ("york", 50.0)]
    assert "sun of\n\t\t\t\t\t___;" in typed.prompt.value and typed.segments[0].endswith("sun of\n\t\t\t\t\t")
    dropdown = _one("inline_choice.xml")
    assert [(c.id, c.correct) for c in dropdown.gaps[0].choices] == [("G", False), ("L", False), ("Y", True)]
    matching = _one("match.xml")
    assert [(p.id, p.right.value) for p in matching.pairs] == [
        ("C", "Romeo and Juliet"), ("D", "A Midsummer-Night's Dream"), ("L", "A Midsummer-Night's Dream"),
        ("P", "TheTempest")]  # two characters of one play: the right item twice
    assert matching.distractors == ()
    ordering = _one("order.xml")
    assert [item.id for item in ordering.items] == ["DriverC", "DriverA", "DriverB"]
    essay = _one("extended_text.xml")
    assert essay.kind == "essay" and essay.lines == 10 and "<object" not in essay.prompt.value  # sanitised


def test_a_foreign_package_reads_with_its_images():
    quiz = lmsexport.read("wdt.zip", (FIXTURES / "WebDeveloperTest1.zip").read_bytes(), format='qti21')
    assert [q.kind for q in quiz.questions] == ["multiple_choice"] * 7 + ["fill_blanks", "multiple_choice"]
    assert [(a.path, a.media_type) for a in quiz.assets] == [("directory.jpg", "image/jpeg")]
    assert 'src="directory.jpg"' in quiz.questions[3].prompt.value
    assert [len(gap.choices) for gap in quiz.questions[7].gaps] == [3, 4]


def test_a_broken_item_refuses_the_package_and_an_unreadable_one_is_skipped():
    files = _features()
    files["items/q2.xml"] = files["items/q2.xml"].replace(b"</itemBody>", b"")
    files["items/q5.xml"] = files["items/q5.xml"].replace(b"<correctResponse>", b"<!---->").replace(
        b"</correctResponse>", b"")
    files = {k: v.replace(b"<value>a</value>\n    ", b"") if k == "items/q5.xml" else v for k, v in files.items()}
    assert [(code, where) for code, where, _ in _errors(zip_bytes(files))] == [("E802", "p.zip!items/q2.xml:30:18")]
    files["items/q2.xml"] = _features()["items/q2.xml"]
    log = lmsexport.Log()
    quiz = lmsexport.read("p.zip", zip_bytes(files), format='qti21', log=log)
    assert "q5" not in [q.id for q in quiz.questions]
    (warning,) = log.diagnostics
    assert (warning.code, str(warning.span)) == ("W882", "p.zip!items/q5.xml:3")
    assert warning.message.endswith("the response declaration has no correctResponse; the item is skipped")
    assert "<correctResponse>" in warning.hint


def test_a_missing_item_is_reported_where_the_test_refers_to_it():
    files = {name: content for name, content in _features().items() if name != "items/q3.xml"}
    assert _errors(zip_bytes(files)) == [
        ("E805", "p.zip!test.xml:22", "'items/q3.xml' is referred to here but is not in the package")]


def test_feedback_on_full_marks_is_read_and_feedback_on_other_conditions_warned():
    item = f"""<assessmentItem {NS} identifier="i" title="t" adaptive="false" timeDependent="false">
  <responseDeclaration identifier="RESPONSE" cardinality="single" baseType="identifier">
    <correctResponse><value>A</value></correctResponse></responseDeclaration>
  <outcomeDeclaration identifier="FEEDBACK" cardinality="single" baseType="identifier"/>
  <outcomeDeclaration identifier="SCORE" cardinality="single" baseType="float"/>
  <itemBody><choiceInteraction responseIdentifier="RESPONSE" maxChoices="1">
    <simpleChoice identifier="A">a</simpleChoice><simpleChoice identifier="B">b</simpleChoice>
  </choiceInteraction></itemBody>
  <responseProcessing><responseCondition><responseIf>
    <match><variable identifier="RESPONSE"/><correct identifier="RESPONSE"/></match>
    <setOutcomeValue identifier="FEEDBACK"><baseValue baseType="identifier">correct_fb</baseValue></setOutcomeValue>
  </responseIf></responseCondition></responseProcessing>
  <modalFeedback outcomeIdentifier="FEEDBACK" identifier="correct_fb" showHide="show">Right</modalFeedback>
</assessmentItem>""".encode()
    (question,) = lmsexport.read("i.xml", item, format='qti21').questions  # match(RESPONSE, correct): full marks
    assert question.correct_feedback.value == "Right" and question.incorrect_feedback is None
    full_marks = b'<match><variable identifier="RESPONSE"/><correct identifier="RESPONSE"/></match>'
    scored = b'<gt><variable identifier="SCORE"/><baseValue baseType="float">0</baseValue></gt>'
    shown_when_scored = item.replace(full_marks, scored)
    log = lmsexport.Log()
    (question,) = lmsexport.read("i.xml", shown_when_scored, format='qti21', log=log).questions
    assert question.correct_feedback is None
    assert [(d.code, d.message) for d in log.diagnostics] == [("W884", "the item 'i': its modalFeedback 'correct_fb' "
                                                               "is left out: it is shown on a condition the model has no place for")]


def test_feedback_set_to_the_response_itself_is_per_option_feedback():
    item = f"""<assessmentItem {NS} identifier="i" title="t" adaptive="false" timeDependent="false">
  <responseDeclaration identifier="RESPONSE" cardinality="single" baseType="identifier">
    <correctResponse><value>A</value></correctResponse></responseDeclaration>
  <outcomeDeclaration identifier="FEEDBACK" cardinality="single" baseType="identifier"/>
  <itemBody><p>Q?</p><choiceInteraction responseIdentifier="RESPONSE" maxChoices="1">
    <simpleChoice identifier="A">a</simpleChoice><simpleChoice identifier="B">b</simpleChoice>
  </choiceInteraction></itemBody>
  <responseProcessing template="http://www.imsglobal.org/question/qti_v2p1/rptemplates/match_correct">
    <setOutcomeValue identifier="FEEDBACK"><variable identifier="RESPONSE"/></setOutcomeValue>
  </responseProcessing>
  <modalFeedback outcomeIdentifier="FEEDBACK" identifier="B" showHide="show"><p>Not <b>b</b></p></modalFeedback>
</assessmentItem>""".encode()
    (question,) = lmsexport.read("i.xml", item, format='qti21').questions
    assert question.choices[1].feedback.value == "<p>Not <b>b</b></p>" and question.choices[0].feedback is None


@pytest.mark.parametrize("data, expected", [
    (b"PK\x03\x04 not really a zip", "A102"),
    (zip_bytes({"items/q1.xml": b"<x/>"}), "E801"),
    (b"<assessmentItem", "E802"),
    (b"<quiz/>", "E803"),
])
def test_what_is_not_a_qti_package_is_refused(data, expected):
    assert [code for code, _, _ in _errors(data)] == [expected]


GOLDENS = sorted(p for p in (ROOT / "tests" / "golden" / "readers" / "qti21").iterdir() if p.suffix in (".xml", ".zip"))


@pytest.mark.parametrize("source", GOLDENS, ids=lambda p: p.name)
def test_what_other_tools_wrote_comes_back_through_our_writer(source):
    """Another tool's item, read, written by lmsexport and read again, is the same quiz."""
    quiz = lmsexport.read(source, log=lmsexport.Log())
    back = lmsexport.read("back.qti.zip", lmsexport.write(quiz, 'qti').to_bytes(), format='qti21', log=lmsexport.Log())
    assert back == quiz


@pytest.mark.parametrize("value", ["²", "two"])
def test_a_selection_that_is_no_number_draws_one_with_a_warning(value):
    """`select` is an xs:int; a file that says otherwise (², which str.isdigit() takes) is read, warned."""
    golden = zipfile.ZipFile(ROOT / "tests" / "golden" / "readers" / "qti21" / "selection.zip")
    files = {name: golden.read(name) for name in golden.namelist()}
    files["test.xml"] = files["test.xml"].replace(b'select="2"', f'select="{value}"'.encode(), 1)
    log = lmsexport.Log()
    quiz = lmsexport.read("selection.zip", zip_bytes(files), log=log)
    assert quiz.pools[0].draw == 1
    assert any(d.code == "W885" and f"draws {value!r} items, which is no whole number" in d.message
               for d in log.diagnostics)
