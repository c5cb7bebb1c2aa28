"""text2qti itself is the oracle: what text2qti 0.8 writes for a file (its QTI 1.2 zip for
Canvas) and what lmsexport reads from the same file mean the same quiz.

For every example of text2qti's README (tests/fixtures/text2qti/readme/) and every reader
golden (tests/golden/readers/text2qti/), text2qti is run in this process and its XML parsed;
both sides are reduced to the same plain form (kind, title, points, visible texts, the key,
feedback) and compared. Files text2qti refuses must be refused by lmsexport too. Where
lmsexport departs from text2qti on purpose, the test says so: file-upload questions are left
out (with warning W951). Question groups are compared as pools: what each draws, at what points,
from how many questions.
"""

from __future__ import annotations

import io
import re
import zipfile
from pathlib import Path

import pytest
from lxml import etree
from lxml import html as lxml_html
from text2qti.config import Config
from text2qti.err import Text2qtiError
from text2qti.qti import QTI
from text2qti.quiz import Quiz as Text2qtiQuiz

import lmsexport
from lmsexport.model import Description, Essay, MultipleChoice, Numeric, ShortAnswer, TrueFalse
from lmsexport.xml import parser

from conftest import GOLDEN, ROOT

README = ROOT / "tests" / "fixtures" / "text2qti" / "readme"
CASES = sorted(README.glob("*.md")) + sorted(p for p in (GOLDEN / "readers" / "text2qti").iterdir()
                                             if p.suffix in (".md", ".txt"))
NS = "{http://www.imsglobal.org/xsd/ims_qtiasiv1p2}"
META = "{http://canvas.instructure.com/xsd/cccv1p0}"
_TYPOGRAPHY = {"’": "'", "‘": "'", "“": '"', "”": '"', "—": "---", "–": "--", "…": "...", "«": "<<",
               "»": ">>"}
"""text2qti's Markdown has `smarty` typography; lmsexport keeps the characters as typed."""
_KINDS = {"multiple_choice_question": "multiple_choice", "multiple_answers_question": "multiple_answers",
          "true_false_question": "true_false", "short_answer_question": "short_answer",
          "numerical_question": "numerical", "essay_question": "essay", "file_upload_question": "upload",
          "text_only_question": "text"}


def visible(fragment: str | None) -> str:
    """What a learner reads in an HTML fragment: its text, math as `\\(tex\\)`, spaces collapsed."""
    if not fragment:
        return ""
    tree = lxml_html.fragment_fromstring(fragment, create_parent="div")
    for image in list(tree.iter("img")):
        tex = image.get("data-equation-content")
        if tex is not None:  # text2qti's Canvas equation image
            image.tail = f"\\({tex}\\){image.tail or ''}"
            image.drop_tree()
    text = tree.text_content()
    for typographic, typed in _TYPOGRAPHY.items():
        text = text.replace(typographic, typed)
    return " ".join(text.split())


def _text2qti(path: Path) -> tuple[dict, list[dict]]:
    """The quiz text2qti writes for `path` (as its command line reads it), reduced."""
    quiz = Text2qtiQuiz(path.read_text(encoding="utf-8-sig"), config=Config(), source_name=path.name)
    with zipfile.ZipFile(io.BytesIO(QTI(quiz).zip_bytes())) as archive:
        names = [name for name in archive.namelist() if name.count("/") == 1 and name.endswith(".xml")]
        meta = etree.fromstring(archive.read(next(n for n in names if n.endswith("/assessment_meta.xml"))), parser())
        root = etree.fromstring(archive.read(next(n for n in names if not n.endswith("/assessment_meta.xml"))),
                                parser())
    head = {"title": " ".join(meta.findtext(f"{META}title").split()),
            "description": visible(meta.findtext(f"{META}description")),
            "shuffle": meta.findtext(f"{META}shuffle_answers") == "true"}
    head["groups"] = [_group(section) for section in root.iter(f"{NS}section")
                      if section.find(f"{NS}selection_ordering") is not None]
    return head, [_item(item) for item in root.iter(f"{NS}item")]


def _group(section) -> dict:
    selection = section.find(f"{NS}selection_ordering/{NS}selection")
    return {"draw": int(selection.findtext(f"{NS}selection_number")),
            "points": float(selection.findtext(f"{NS}selection_extension/{NS}points_per_item")),
            "questions": len(section.findall(f"{NS}item"))}


def _item(item) -> dict:
    fields = {f.findtext(f"{NS}fieldlabel"): f.findtext(f"{NS}fieldentry") for f in item.iter(f"{NS}qtimetadatafield")}
    kind = _KINDS[fields["question_type"]]
    feedback = {fb.get("ident"): visible(fb.findtext(f".//{NS}mattext")) for fb in item.iter(f"{NS}itemfeedback")}
    title = item.get("title")
    group = item.getparent().find(f"{NS}selection_ordering")
    points = group.findtext(f".//{NS}points_per_item") if group is not None else fields["points_possible"]
    reduced = {"kind": kind, "title": None if title in ("Question", "") else title,
               "points": float(points),  # in a group, what it is worth is the group's
               "prompt": visible(item.findtext(f"{NS}presentation/{NS}material/{NS}mattext")),
               "explanation": feedback.pop("general_fb", ""), "correct": feedback.pop("correct_fb", ""),
               "incorrect": feedback.pop("general_incorrect_fb", "")}
    scoring = [c for c in item.iter(f"{NS}respcondition") if c.findtext(f"{NS}setvar") == "100"]
    labels = [(label.get("ident"), visible(label.findtext(f".//{NS}mattext")))
              for label in item.iter(f"{NS}response_label") if label.find(f".//{NS}mattext") is not None]
    right = {v.text for c in scoring for v in c.iter(f"{NS}varequal") if v.getparent().tag != f"{NS}not"}
    if kind in ("multiple_choice", "multiple_answers"):
        reduced["choices"] = [(text, ident in right, feedback.get(f"{ident}_fb", "")) for ident, text in labels]
    elif kind == "true_false":
        (correct, answer), (wrong, _) = sorted(labels, key=lambda label: label[0] not in right)
        reduced["answer"] = answer.lower() == "true"
        reduced["correct"] = reduced["correct"] or feedback.get(f"{correct}_fb", "")
        reduced["incorrect"] = reduced["incorrect"] or feedback.get(f"{wrong}_fb", "")
    elif kind == "short_answer":
        reduced["answers"] = [v.text for c in scoring for v in c.iter(f"{NS}varequal")]
    elif kind == "numerical":
        (condition,) = scoring
        reduced["range"] = (float(condition.findtext(f".//{NS}vargte")), float(condition.findtext(f".//{NS}varlte")))
    return reduced


def _ours(quiz: lmsexport.Quiz) -> tuple[dict, list[dict]]:
    """The quiz lmsexport read, reduced the same way."""
    head = {"title": quiz.title, "description": visible(quiz.description.html()) if quiz.description else "",
            "shuffle": quiz.settings.shuffle,
            "groups": [{"draw": pool.draw, "points": pool.points, "questions": len(pool.questions)}
                       for pool in quiz.pools]}
    return head, [_question(question) for question in quiz.questions]


def _question(question) -> dict:
    def shown(text):
        return visible(text.html()) if text is not None else ""

    reduced = {"kind": None, "title": question.title, "points": question.points, "prompt": shown(question.prompt),
               "explanation": shown(question.explanation), "correct": shown(question.correct_feedback),
               "incorrect": shown(question.incorrect_feedback)}
    if isinstance(question, MultipleChoice):
        reduced["kind"] = "multiple_answers" if question.multiple_response else "multiple_choice"
        reduced["choices"] = [(shown(c.text), c.correct, shown(c.feedback)) for c in question.choices]
    elif isinstance(question, TrueFalse):
        reduced.update(kind="true_false", answer=question.answer)
    elif isinstance(question, ShortAnswer):
        reduced.update(kind="short_answer", answers=[answer.text.replace("\\*", "*") for answer in question.answers])
    elif isinstance(question, Numeric):
        (answer,) = question.answers
        low, high = answer.value - answer.tolerance, answer.value + answer.tolerance
        reduced.update(kind="numerical", range=(round(low, 4), round(high, 4)))
    elif isinstance(question, Essay):
        reduced["kind"] = "essay"
    elif isinstance(question, Description):
        reduced.update(kind="text", title=question.title)
    return reduced


def _read(path: Path) -> tuple[lmsexport.Quiz, list[lmsexport.Diagnostic]]:
    log = lmsexport.Log()
    return lmsexport.read(path, format="text2qti", log=log), log.diagnostics


@pytest.mark.parametrize("path", CASES, ids=[p.name for p in CASES])
def test_lmsexport_reads_what_text2qti_writes(path, monkeypatch):
    monkeypatch.chdir(path.parent)
    try:
        head, items = _text2qti(path)
    except Text2qtiError:
        with pytest.raises(lmsexport.SourceError):
            _read(path)
        return
    uploads = [item for item in items if item["kind"] == "upload"]
    items = [item for item in items if item["kind"] != "upload"]
    if not items:
        with pytest.raises(lmsexport.SourceError):
            _read(path)
        return
    quiz, warnings = _read(path)
    ours_head, ours = _ours(quiz)
    assert [d.code for d in warnings].count("W951") == len(uploads), "each file-upload question is warned about"
    assert ours == items
    if head["title"] != "Quiz":  # text2qti's title for a quiz without one; lmsexport names it after its file
        assert ours_head["title"] == head["title"]
    assert (ours_head["description"], ours_head["shuffle"]) == (head["description"], head["shuffle"])
    assert ours_head["groups"] == head["groups"]


def test_the_readme_example_is_read_right():
    """What issue 13 found read wrong when text2qti files were taken for lmsexport text."""
    quiz, _ = _read(README / "01-addition.md")
    (question,) = quiz.questions
    assert quiz.title == "Addition" and question.title == "An addition question" and question.points == 2
    assert [choice.text.value for choice in question.choices] == ["6", "1", "5"]
    assert question.incorrect_feedback.value == "Feedback for incorrect answer."
    numeric, _ = _read(README / "03-numerical.md")
    assert isinstance(numeric.questions[1], Numeric)
    assert numeric.questions[1].answers[0].value == pytest.approx(1.2599)


def test_every_readme_example_is_compared():
    assert len(list(README.glob("*.md"))) == 14 and re.search(r"\b01-addition\.md\b", " ".join(p.name for p in CASES))
