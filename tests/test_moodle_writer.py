"""writers/moodle.py: goldens, schema validity, the grade scheme, text fidelity, names and banks."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import ClassVar

import pytest
from lxml import etree

import lmsexport
from conftest import GOLDEN, ROOT
from lmsexport.formats.moodle import cloze as moodlecloze
from lmsexport.model import (
    Answer, Asset, Choice, Description, Essay, FillBlanks, Gap, Matching, MatchPair, MultipleChoice, Numeric,
    NumericAnswer, OrderItem, Ordering, Question, Quiz, Settings, ShortAnswer, Text, TrueFalse,
)
from lmsexport.formats.moodle.rules import GRADES, adds_up, grade
from lmsexport.formats.moodle.reader import read as read_moodle
from lmsexport.validation import validate_files
from lmsexport.formats.moodle import writer as moodle

SOURCES = sorted((ROOT / "quizzes").glob("*.txt")) + [ROOT / "examples" / "features.txt",
                                                     ROOT / "examples" / "all-kinds" / "quiz.txt",
                                                     ROOT / "examples" / "pools" / "quiz.txt",
                                                     ROOT / "examples" / "numbers" / "cs.txt"]


def _quiz(*questions: Question, **fields) -> Quiz:
    return Quiz(id=fields.pop("id", "t"), title=fields.pop("title", "T"), questions=questions, **fields)


def _mc(qid: str = "q1", prompt: str = "Pick one?", correct: str = "a", options: str = "ab", **fields) -> MultipleChoice:
    choices = tuple(Choice(id=o, text=Text(f"option {o}"), correct=o in correct) for o in options)
    return MultipleChoice(id=qid, prompt=Text(prompt), choices=choices, multiple_response=len(correct) > 1, **fields)


def _root(package: lmsexport.Package):
    (content,) = package.files.values()
    return etree.fromstring(content)


def _texts(package: lmsexport.Package, path: str) -> list[str]:
    return [node.text or "" for node in _root(package).iterfind(path)]


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: p.parent.name if p.stem == "quiz" else p.stem)
def test_golden_and_valid(source, goldens):
    quiz = lmsexport.read(source)
    package = lmsexport.write(quiz, 'moodle')
    assert list(package.files) == [f"{quiz.id}.moodle.xml"]
    assert package.zipped is False and package.extension == ".moodle.xml"
    expected = ["W660"] if quiz.settings.pass_mark is not None else []  # quiz settings, not bank ones
    expected += ["W662"] * len(quiz.pools)  # what the teacher adds to the quiz for each pool
    assert [warning.code for warning in package.warnings] == expected
    assert validate_files(package.files, source=source.name) == []
    (content,) = package.files.values()
    goldens.check(GOLDEN / "writers" / "moodle" / f"{quiz.id}.moodle.xml", content.decode("utf-8"))


def test_golden_files_also_pass_the_other_validator():
    """The schema is XSD 1.0 that xmlschema reads the same way as libxml2 (no lxml-only leniency)."""
    import xmlschema

    schema = xmlschema.XMLSchema10(str(ROOT / "schemas" / "moodle" / "moodle-xml.xsd"))
    for path in sorted((GOLDEN / "writers" / "moodle").glob("*.moodle.xml")):
        assert schema.is_valid(str(path)), path.name


def test_writing_twice_gives_identical_bytes():
    quiz = lmsexport.read(ROOT / "examples" / "all-kinds" / "quiz.txt")
    assert lmsexport.write(quiz, 'moodle').files == lmsexport.write(quiz, 'moodle').files


@pytest.mark.parametrize("right", range(1, 13))
@pytest.mark.parametrize("wrong", range(6))
def test_multiple_response_grades_are_moodle_grades_that_add_up(right, wrong):
    percents = moodle.grades([True] * right + [False] * wrong, multiple_response=True)
    assert all(grade(p) == p for p in percents), percents
    positives = percents[:right]
    assert all(p > 0 for p in positives) and adds_up(positives)
    assert all(p < 0 for p in percents[right:])
    equal = right <= 10
    assert (len(set(positives)) == 1) == equal
    if equal:
        # Right minus wrong (the partial policy): a wrong tick costs what a right one earns.
        assert set(percents[right:]) <= {-positives[0]}


def test_all_or_nothing_multiple_response_costs_everything_per_wrong_tick():
    assert moodle.grades([True, True, False, False], True, "all_or_nothing") == [50, 50, -100, -100]


def test_splits_without_an_equal_share_are_ten_and_five_then_five_and_zero():
    assert moodle.grades([True] * 11, True) == [10] * 9 + [5] * 2
    assert moodle.grades([True] * 19, True) == [10] + [5] * 18
    assert moodle.grades([True] * 20, True) == [5] * 20
    assert moodle.grades([True] * 25, True) == [5] * 20 + [0] * 5


def test_thirds_and_penalties_are_written_with_moodles_decimals():
    question = _mc(correct="abc", options="abcdef")
    fractions = [a.get("fraction") for a in _root(lmsexport.write(_quiz(question), 'moodle')).iter("answer")]
    assert fractions == ["33.33333"] * 3 + ["-33.33333"] * 3
    two = [a.get("fraction") for a in _root(lmsexport.write(_quiz(_mc(correct="ab", options="abcdef")), 'moodle')).iter("answer")]
    assert two == ["50", "50"] + ["-50"] * 4


def test_single_answer_grades():
    assert moodle.grades([False, True, False], multiple_response=False) == [0, 100, 0]
    assert moodle.grades([True, False], multiple_response=True) == [100, -100]
    assert set(GRADES) >= {100, 0, -100, 33.33333, -14.28571}


def test_an_unequal_split_is_a_warning_naming_the_question():
    question = _mc("q7", correct="abcdefghijk", options="abcdefghijkl")
    package = lmsexport.write(_quiz(question), 'moodle')
    (warning,) = package.warnings
    assert warning.code == "W651" and warning.severity == "warning"
    assert "question 1 has 11 right options" in warning.message
    assert "9 worth 10 % and 2 worth 5 %" in warning.message
    assert validate_files(package.files, source="x") == []


TRICKY = "1 < 2 && 3 > 2, ]]> and <![CDATA[x]]> then ]]]]><![CDATA[> 🎓 \"q\" 'a'"


def test_markup_characters_and_cdata_terminators_come_through_as_written():
    question = MultipleChoice(
        id="q1",
        prompt=Text(TRICKY),
        explanation=Text(f"why: {TRICKY}"),
        choices=(Choice(id="a", text=Text("<b>not bold</b>"), correct=True, feedback=Text(TRICKY)),
                 Choice(id="b", text=Text("x ]]> y"))),
    )
    package = lmsexport.write(_quiz(question, description=Text(TRICKY)), 'moodle')
    (content,) = package.files.values()
    assert b"<![CDATA[" not in content and b"]]>" not in content  # lxml escapes; no CDATA to break
    assert validate_files(package.files, source="x") == []
    html_prompt = "1 &lt; 2 &amp;&amp; 3 &gt; 2, ]]&gt; and &lt;![CDATA[x]]&gt; then ]]]]&gt;&lt;![CDATA[&gt; 🎓 \"q\" 'a'"
    assert _texts(package, "question/questiontext/text") == [html_prompt]  # HTML Moodle shows as the source says
    assert _texts(package, "question/info/text") == [html_prompt]
    assert _texts(package, "question/answer/text") == ["&lt;b&gt;not bold&lt;/b&gt;", "x ]]&gt; y"]
    assert read_moodle(content, source="t.moodle.xml") == _quiz(question, description=Text(TRICKY))


def test_languages_are_marked_in_the_html():
    question = MultipleChoice(
        id="q1", prompt=Text("Bonjour ?"), lang="fr",
        choices=(Choice(id="a", text=Text("<i>oui</i>", "html"), correct=True),
                 Choice(id="b", text=Text("yes", lang="en"), feedback=Text("نعم", lang="ar"))),
    )
    package = lmsexport.write(_quiz(question, _mc("q2"), lang="yo"), 'moodle')
    assert _texts(package, "question/questiontext/text") == [
        '<span lang="fr">Bonjour ?</span>', '<span lang="yo">Pick one?</span>']
    assert _texts(package, "question/answer/text")[:2] == ['<div lang="fr"><i>oui</i></div>', '<span lang="en">yes</span>']
    assert _texts(package, "question/answer/feedback/text")[1] == '<div lang="ar" dir="rtl">نعم</div>'
    assert _texts(lmsexport.write(_quiz(_mc()), 'moodle'), "question/questiontext/text") == ["Pick one?"]


def test_right_to_left_quizzes_get_a_direction():
    package = lmsexport.write(_quiz(_mc(prompt="ما هو؟"), lang="ar"), 'moodle')
    assert _texts(package, "question/questiontext/text") == ['<div lang="ar" dir="rtl">ما هو؟</div>']
    assert _texts(lmsexport.write(_quiz(_mc(), lang="az-Arab"), 'moodle'), "question/questiontext/text")[0].endswith('dir="rtl">Pick one?</div>')


def test_names_are_short_unique_and_kept_by_moodle():
    long = "Which of these collective operations does a fully sharded data parallel step use first?"
    quiz = _quiz(_mc("q1", long), _mc("q2", long), _mc("q3", "Is a<b when\n\na=1?"), _mc("q4", "<br>", ),
                 _mc("q5", "ignored", title="Sharding basics"))
    names = _texts(lmsexport.write(quiz, 'moodle'), "question/name/text")
    assert names[0] == "Which of these collective operations does a fully sharded…"
    assert names[1] == names[0] + " (2)"
    assert names[2] == "Is a\u2039b when a=1?"  # PHP strip_tags() would eat "<b when ..."
    assert names[3] == "\u2039br>"
    assert names[4] == "Sharding basics"
    assert len(names[0]) <= 60


def test_a_title_moodle_would_change_is_a_warning():
    quiz = _quiz(_mc(title="x" * 300), _mc("q2", title="a<b"))
    package = lmsexport.write(quiz, 'moodle')
    assert [w.code for w in package.warnings] == ["W652", "W652"]
    names = _texts(package, "question/name/text")
    assert len(names[0]) == 255 and names[0].endswith("…") and names[1] == "a\u2039b"


def test_idnumbers_are_stable_and_fit_moodles_column():
    assert _texts(lmsexport.write(_quiz(_mc("q3"), id="fsdp-yo"), 'moodle'), "question/idnumber") == ["fsdp-yo", "fsdp-yo-q3"]
    long_id = "quiz-" + "x" * 95  # as long as a quiz id may be (ids.ID_LIMIT): its questions' are longer
    idnumbers = _texts(lmsexport.write(_quiz(_mc("q1"), _mc("q2"), id=long_id), 'moodle'), "question/idnumber")
    assert all(len(i) <= 100 for i in idnumbers) and len(set(idnumbers)) == 3
    assert idnumbers == _texts(lmsexport.write(_quiz(_mc("q1"), _mc("q2"), id=long_id), 'moodle'), "question/idnumber")


def test_category_holds_title_description_and_id():
    quiz = _quiz(_mc(), title="Parts 1/2", description=Text("About <this>"), lang="en")
    root = _root(lmsexport.write(quiz, 'moodle'))
    category = root.find("question")
    assert category.get("type") == "category"
    assert category.findtext("category/text") == "$course$/top/Parts 1//2"
    assert category.findtext("info/text") == '<span lang="en">About &lt;this&gt;</span>'
    assert category.find("info").get("format") == "html" and category.findtext("idnumber") == "t"


def test_a_pool_is_a_sub_category_and_a_warning_says_what_to_add_to_the_quiz():
    quiz = lmsexport.read(ROOT / "examples" / "pools" / "quiz.txt")
    package = lmsexport.write(quiz, "moodle")
    root = _root(package)
    placed = []
    for node in root.iterfind("question"):
        if node.get("type") == "category":
            category = node.findtext("category/text").removeprefix(f"$course$/top/{quiz.title}")
        else:
            placed.append((node.findtext("idnumber").removeprefix("pools-"), category))
    assert placed == [("q1", ""), *((f"q{n}", "/Warm-up") for n in range(2, 6)),
                      *((f"q{n}", "/Harder") for n in range(6, 9)), ("q9", "")]
    assert not root.xpath("//question[@type='random']")  # Moodle imports no random questions
    warnings = [w for w in package.warnings if w.code == "W662"]
    assert [w.span.line for w in warnings] == [quiz.members(pool)[0].source.line for pool in quiz.pools]
    assert 'add 2 random questions from the category "' in warnings[0].hint and "/ Warm-up\", each worth 2" in \
        warnings[0].hint
    assert "add 1 random question from" in warnings[1].hint
    info = root.xpath("//question[@type='category'][contains(category/text, 'Warm-up')]/info/text")[0].text
    assert info.startswith("<p>In the quiz, add 2 random questions")


def test_a_title_starting_with_a_slash_cannot_be_a_category_name():
    package = lmsexport.write(_quiz(_mc(), title="/etc"), 'moodle')
    assert _texts(package, "question/category/text") == ["$course$/top/etc"]
    assert [w.code for w in package.warnings] == ["W652"]


def test_settings_and_points():
    quiz = _quiz(_mc(points=2.5), _mc("q2", correct="ab", options="abc"), settings=Settings(shuffle=True))
    root = _root(lmsexport.write(quiz, 'moodle'))
    first, second = root.findall("question")[1:]
    assert [first.findtext(n) for n in ("defaultgrade", "penalty", "single", "shuffleanswers", "answernumbering",
                                        "showstandardinstruction")] == ["2.5", "0.3333333", "true", "true", "abc", "1"]
    assert first.find("shownumcorrect") is None and second.find("shownumcorrect") is not None
    assert second.findtext("single") == "false" and first.find("hidden") is None


def test_tags_are_the_quizs_then_the_questions():
    quiz = _quiz(_mc(tags=("hard", "week 1")), _mc("q2"), tags=("week 1", "ml"))
    root = _root(lmsexport.write(quiz, 'moodle'))
    tags = [[t.text for t in q.iterfind("tags/tag/text")] for q in root.findall("question")[1:]]
    assert tags == [["week 1", "ml", "hard"], ["week 1", "ml"]]


def test_a_tag_moodle_would_change_is_a_warning():
    package = lmsexport.write(_quiz(_mc(tags=("<script>", "t" * 60, "fine"))), 'moodle')
    assert [w.code for w in package.warnings] == ["W653", "W653"]


@dataclass(frozen=True, slots=True, kw_only=True)
class _Hotspot(Question):
    kind: ClassVar[str] = "hotspot"


def test_a_kind_moodle_output_does_not_support_is_left_out_with_a_warning():
    package = lmsexport.write(_quiz(_mc(), _Hotspot(id="q2", prompt=Text("Click."))), 'moodle')
    assert [q.get("type") for q in _root(package).iter("question")] == ["category", "multichoice"]
    (warning,) = package.warnings
    assert warning.code == "W654" and "question 2 is of kind 'hotspot'" in warning.message


def test_a_bank_holds_each_quiz_in_its_own_category():
    quizzes = [lmsexport.read(source) for source in SOURCES[:3]]
    package = moodle.write_bank(quizzes, "course-101")
    assert list(package.files) == ["course-101.moodle.xml"]
    assert all(warning.code == "W660" for warning in package.warnings)
    assert validate_files(package.files, source="bank") == []
    paths = _texts(package, "question/category/text")
    assert paths == [f"$course$/top/course-101/{quiz.title}" for quiz in quizzes]
    names = _texts(package, "question/name/text")
    assert len(names) == 24 == len(set(names))


def test_a_bank_tells_apart_quizzes_with_one_title():
    package = moodle.write_bank([_quiz(_mc(), id="a"), _quiz(_mc(), id="b")], "bank")
    assert _texts(package, "question/category/text") == ["$course$/top/bank/T", "$course$/top/bank/T (2)"]
    assert _texts(package, "question/name/text") == ["Pick one?", "Pick one? (2)"]
    (warning,) = package.warnings
    assert warning.code == "W652" and "'T (2)'" in warning.message


def test_an_empty_bank_is_refused():
    with pytest.raises(ValueError):
        moodle.write_bank([], "bank")


def _question(package: lmsexport.Package, qtype: str):
    return next(q for q in _root(package).iter("question") if q.get("type") == qtype)


def test_true_false_puts_the_questions_feedback_on_its_answers():
    question = TrueFalse(id="q1", prompt=Text("Is it?"), answer=False, correct_feedback=Text("Right"),
                         incorrect_feedback=Text("Wrong"))
    node = _question(lmsexport.write(_quiz(question), 'moodle'), "truefalse")
    answers = [(a.findtext("text"), a.get("fraction"), a.findtext("feedback/text")) for a in node.iter("answer")]
    assert answers == [("true", "0", "Wrong"), ("false", "100", "Right")]
    assert node.findtext("penalty") == "1" and node.find("correctfeedback") is None


def test_short_answers_in_written_order_on_the_grade_list_then_a_catch_all():
    """Moodle grades the first answer a response matches, in file order, as the model does."""
    question = ShortAnswer(id="q1", prompt=Text("City?"), case_sensitive=True, incorrect_feedback=Text("No"),
                           answers=(Answer(text="Lyon", credit=33), Answer(text="Paris"),
                                    Answer(text="Pa*", credit=45)))
    package = lmsexport.write(_quiz(question), 'moodle')
    node = _question(package, "shortanswer")
    assert node.findtext("usecase") == "1"
    assert [(a.findtext("text"), a.get("fraction")) for a in node.iter("answer")] == [
        ("Lyon", "33.33333"), ("Paris", "100"), ("Pa*", "50"), ("*", "0")]
    assert [w.code for w in package.warnings] == ["W655", "W655"]
    assert "answer 'Pa*' of question 1 is worth 45 %" in package.warnings[1].message
    assert validate_files(package.files, source="x") == []


def test_numbers_are_written_exactly_with_their_tolerance():
    question = Numeric(id="q1", prompt=Text("Small?"), answers=(
        NumericAnswer(value=1e-09, tolerance=2.5e-10), NumericAnswer(value=256, tolerance=1, credit=50)))
    node = _question(lmsexport.write(_quiz(question), 'moodle'), "numerical")
    assert [(a.findtext("text"), a.findtext("tolerance"), a.get("fraction")) for a in node.iter("answer")] == [
        ("1e-09", "2.5e-10", "100"), ("256", "1", "50")]
    assert [node.findtext(n) for n in ("showunits", "unitgradingtype", "unitsleft")] == ["3", "0", "0"]


def test_essay_and_description_have_no_place_for_right_or_wrong_feedback():
    essay = Essay(id="q1", prompt=Text("Discuss."), lines=6, correct_feedback=Text("Good"))
    text = Description(id="t1", points=0, prompt=Text("Read."), incorrect_feedback=Text("x"))
    package = lmsexport.write(_quiz(essay, text), 'moodle')
    node = _question(package, "essay")
    assert [node.findtext(n) for n in ("responseformat", "responsefieldlines", "responserequired", "attachments")] == [
        "editor", "6", "1", "0"]
    assert _question(package, "description").findtext("defaultgrade") == "0"
    assert [(w.code, w.message.split(",")[0]) for w in package.warnings] == [
        ("W656", "question 1 has correct feedback"), ("W656", "text block 1 has incorrect feedback")]


def test_matching_pairs_distractors_and_plain_right_hand_items():
    question = Matching(id="q1", prompt=Text("Match."), correct_feedback=Text("All right"), pairs=(
        MatchPair(id="a", left=Text("<H2O>", "plain"), right=Text("water")),
        MatchPair(id="b", left=Text("<b>NaCl</b>", "html"), right=Text("<em>salt</em> &amp; more", "html"))),
        distractors=(Text("sand"),))
    package = lmsexport.write(_quiz(question), 'moodle')
    node = _question(package, "matching")
    subs = [(s.findtext("text"), s.findtext("answer/text")) for s in node.iter("subquestion")]
    assert subs == [("&lt;H2O&gt;", "water"), ("<b>NaCl</b>", "salt & more"), ("", "sand")]
    assert node.findtext("correctfeedback/text") == "All right" and node.find("shownumcorrect") is not None
    (warning,) = package.warnings
    assert warning.code == "W657" and "'salt & more'" in warning.message


def test_ordering_writes_the_items_in_order_with_moodles_options():
    question = Ordering(id="q1", prompt=Text("Order."), items=tuple(
        OrderItem(id=i, text=Text(t)) for i, t in zip("abc", ["one", "two", "three"], strict=True)))
    node = _question(lmsexport.write(_quiz(question), 'moodle'), "ordering")
    assert [(a.get("fraction"), a.findtext("text")) for a in node.iter("answer")] == [
        ("1", "one"), ("2", "two"), ("3", "three")]
    options = ("layouttype", "selecttype", "selectcount", "gradingtype", "showgrading", "numberingstyle",
               "shownumcorrect")
    assert [node.findtext(n) for n in options] == ["VERTICAL", "ALL", "3", "ABSOLUTE_POSITION", "SHOW", "none", "1"]
    strict = dataclasses.replace(question, scoring="all_or_nothing")
    assert _question(lmsexport.write(_quiz(strict), 'moodle'), "ordering").findtext("gradingtype") == "ALL_OR_NOTHING"


def _cloze(*segments, points=2.0, **fields) -> FillBlanks:
    shown = "".join(s if isinstance(s, str) else "___" for s in segments)
    return FillBlanks(id="q1", prompt=Text(shown), points=points, segments=segments, **fields)


def test_fill_blanks_become_cloze_gaps_weighted_by_points():
    question = _cloze("Paris is in ", Gap(id="g1", answers=(Answer(text="France"),)), " near ",
                      Gap(id="g2", choices=(Choice(id="a", text=Text("Spain")), Choice(id="b", text=Text("Italy"),
                                                                                        correct=True))), ".", points=4)
    package = lmsexport.write(_quiz(question, settings=Settings(shuffle=False)), 'moodle')
    node = _question(package, "cloze")
    assert node.findtext("questiontext/text") == (
        "Paris is in {2:SHORTANSWER:=France} near {2:MULTICHOICE:Spain~=Italy}.")
    assert node.find("defaultgrade") is None and package.warnings == []
    assert validate_files(package.files, source="x") == []


def test_cloze_marks_that_are_not_whole_and_one_choice_drop_downs_are_warnings():
    question = _cloze(Gap(id="g1", answers=(Answer(text="a"), Answer(text="b", credit=33.3))), " and ",
                      Gap(id="g2", choices=(Choice(id="a", text=Text("<b>only</b>", "html"), correct=True),)), points=3)
    package = lmsexport.write(_quiz(question), 'moodle')
    assert _question(package, "cloze").findtext("questiontext/text") == (
        "{1:SHORTANSWER:=a~%33%b} and {1:SHORTANSWER:=only}")
    assert [w.code for w in package.warnings] == ["W658", "W655", "W658"]
    assert "is worth 2 in Moodle" in package.warnings[0].message


@pytest.mark.parametrize("answer", ["}", "#", "~", "\\", "a\\", "/", '"', "=x", "%50%y", "a&", "&amp;", "&#35;",
                                    "<b>", "{1:SA:=x}", " spaced ", "é ü 中"])
def test_cloze_answers_come_back_from_moodles_parser_as_written(answer):
    gap = moodlecloze.write_gap(1, "SHORTANSWER", [(100, answer, f"fb {answer}"), (0, "other", "")])
    pieces, (parsed,) = moodlecloze.parse(f"before {gap} after")
    assert pieces == ["before ", " after"] and moodlecloze.problems([parsed]) == []
    assert [(a.text, a.percent, a.feedback) for a in parsed.alternatives] == [
        (answer, 100, f"fb {answer}"), ("other", 0, "")]


def test_images_travel_as_files_of_the_texts_that_show_them():
    png = Asset(path="img/a.png", media_type="image/png", data=b"\x89PNG one")
    other = Asset(path="other/a.png", media_type="image/png", data=b"\x89PNG two")
    odd = Asset(path="it's.png", media_type="image/png", data=b"\x89PNG odd")
    show = '<img src="{}" alt="x">'.format
    question = MultipleChoice(id="q1", prompt=Text(show("img/a.png") + show("other/a.png") + show("img/a.png"), "html"),
                              choices=(Choice(id="a", text=Text(show("it&#x27;s.png"), "html"), correct=True),
                                       Choice(id="b", text=Text(show("img/a.png"), "html"))))
    quiz = _quiz(question, description=Text(show("img/a.png"), "html"), assets=(png, other, odd))
    package = lmsexport.write(quiz, 'moodle')
    node = _question(package, "multichoice")
    prompt = node.find("questiontext")
    assert prompt.findtext("text") == (show("@@PLUGINFILE@@/img/a.png") + show("@@PLUGINFILE@@/other/a.png")
                                       + show("@@PLUGINFILE@@/img/a.png"))
    assert [(f.get("path"), f.get("name"), f.text) for f in prompt.iter("file")] == [
        ("/img/", "a.png", "iVBORyBvbmU="), ("/other/", "a.png", "iVBORyB0d28=")]
    first, second = node.iter("answer")
    assert first.findtext("text") == show("@@PLUGINFILE@@/its.png")  # PARAM_FILE drops the apostrophe
    assert [f.get("name") for f in first.iter("file")] == ["its.png"]
    assert [f.get("name") for f in second.iter("file")] == ["a.png"]
    assert _root(package).find("question/info").find("file") is None  # a category's info keeps no files
    assert [w.code for w in package.warnings] == ["W659", "W659"]
    assert validate_files(package.files, source="x") == []
