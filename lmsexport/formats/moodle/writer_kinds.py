"""Moodle XML for each question kind: one `write_<kind>` per kind, after the shared header.

Each follows the importer that reads its type: qformat_xml's import_multichoice,
import_truefalse, import_shortanswer, import_numerical, import_essay, import_match,
import_multianswer and import_description (moodle/moodle question/format/xml/format.php), and
qtype_ordering::import_from_xml (core since Moodle 4.4). docs/formats/moodle.md has the table.
"""

from __future__ import annotations

import math
from collections import Counter

from . import cloze as moodlecloze
from ...model import (
    Description, Essay, FillBlanks, Gap, Matching, MultipleChoice, Numeric, Ordering, ShortAnswer, Text,
    TrueFalse,
)
from .rules import join_feedback, mark_language, nearest_grade
from .scoring import ORDERING_GRADINGS, WRONG_TICK, grades
from .writer_context import QuestionWriting
from ...text import counted, html_words, number, words
from ...xml import sub

TRUE_FALSE_PENALTY = 1.0
"""A second try at a two-way question is worth nothing: qtype_truefalse's edit form default."""


def write_multiple_choice(out: QuestionWriting, question: MultipleChoice) -> None:
    out.header()
    node = out.node
    sub(node, "single", text="false" if question.multiple_response else "true")
    sub(node, "shuffleanswers", text=_bool(out.quiz.settings.shuffle))
    sub(node, "answernumbering", text="abc")  # the letters of the source's options and answer key
    sub(node, "showstandardinstruction", text="1")  # "Select one:" / "Select one or more:"
    _combined_feedback(out, shownumcorrect=question.multiple_response)
    policy = out.quiz.scoring_of(question)
    percents = grades([choice.correct for choice in question.choices], question.multiple_response, policy)
    if question.multiple_response:
        _warn_unequal_shares(out, question, percents)
        if policy == "all_or_nothing":
            share = number(next(p for p, c in zip(percents, question.choices, strict=True) if c.correct))
            _cannot(out, "multiple response all or nothing (qtype_multichoice adds up the grades of the options "
                    "ticked)", f"each right option ticked earns {share} % and any wrong tick "
                    f"({number(WRONG_TICK)} % each) scores 0")
    for choice, percent in zip(question.choices, percents, strict=True):
        answer = out.rich(node, "answer", choice.text, {"fraction": number(percent)})
        out.rich(answer, "feedback", choice.feedback)


def write_true_false(out: QuestionWriting, question: TrueFalse) -> None:
    """import_truefalse(): the answers `true` and `false`, each with the feedback shown when picked.

    qtype_truefalse has no combined feedback, so the question's correct feedback goes on the
    right answer and its incorrect feedback on the other."""
    out.header(penalty=TRUE_FALSE_PENALTY)
    for value in (True, False):
        right = value == question.answer
        answer = sub(out.node, "answer", {"fraction": "100" if right else "0"})
        sub(answer, "text", text="true" if value else "false")
        out.rich(answer, "feedback", question.correct_feedback if right else question.incorrect_feedback)


def write_short_answer(out: QuestionWriting, question: ShortAnswer) -> None:
    """import_shortanswer(): plain-text answers, `*` a wildcard and `\\*` a star (as in the model), `usecase`.

    Moodle grades the first answer a response matches, in file order, as the model does."""
    out.header()
    sub(out.node, "usecase", text="1" if question.case_sensitive else "0")
    for answer in question.answers:
        node = sub(out.node, "answer", {"fraction": _grade(out, answer.credit, repr(answer.text), answer)})
        sub(node, "text", text=answer.text)
        out.rich(node, "feedback", fragment=_answer_feedback(out, answer.feedback, answer.credit))
    if not any(answer.text.strip() == "*" for answer in question.answers):
        _catch_all(out)


def write_numeric(out: QuestionWriting, question: Numeric) -> None:
    """import_numerical(): each answer a number with an absolute `<tolerance>`, first match first.

    The unit is Moodle's "units are optional" (qtype_numerical::UNITOPTIONAL): one unit of
    multiplier 1, typed in the answer box after the number or left out, never graded, as the
    model means it; without one, UNITNONE."""
    out.header()
    for answer in question.answers:
        node = sub(out.node, "answer", {"fraction": _grade(out, answer.credit, _exact(answer.value), answer)})
        sub(node, "text", text=_exact(answer.value))
        out.rich(node, "feedback", fragment=_answer_feedback(out, answer.feedback, answer.credit))
        sub(node, "tolerance", text=_exact(answer.tolerance))
    _catch_all(out, numerical=True)
    if question.unit is not None:
        unit = sub(sub(out.node, "units"), "unit")
        sub(unit, "multiplier", text="1")
        sub(unit, "unit_name", text=question.unit)
    sub(out.node, "unitgradingtype", text="0")
    sub(out.node, "unitpenalty", text="0.1")
    # qtype_numerical::UNITINPUT (0) with unitgradingtype 0 is the editor's "units are optional";
    # UNITNONE (3): no unit asked for.
    sub(out.node, "showunits", text="3" if question.unit is None else "0")
    sub(out.node, "unitsleft", text="0")
    out.rich(out.node, "instructions")


def write_essay(out: QuestionWriting, question: Essay) -> None:
    """import_essay(): an HTML editor of `lines` lines, no attachments; marked by a person."""
    out.header()
    _no_combined_feedback(out, "qtype_essay")
    for name, value in (("responseformat", "editor"), ("responserequired", "1"),
                        ("responsefieldlines", str(question.lines)), ("minwordlimit", ""), ("maxwordlimit", ""),
                        ("attachments", "0"), ("attachmentsrequired", "0"), ("maxbytes", "0"),
                        ("filetypeslist", "")):
        sub(out.node, name, text=value)
    out.rich(out.node, "graderinfo")
    out.rich(out.node, "responsetemplate")


def write_matching(out: QuestionWriting, question: Matching) -> None:
    """import_match(): a subquestion per pair; a distractor is a subquestion with an empty text.

    Moodle shows the right-hand items as plain text in drop-downs (format_string), so their
    markup cannot come through. qtype_match gives each pair its share: partial scoring exactly."""
    out.header()
    if out.quiz.scoring_of(question) == "all_or_nothing":
        _cannot(out, "matching all or nothing (qtype_match grades right pairs / pairs)",
                f"each of the {len(question.pairs)} pairs matched right earns its share of the points")
    sub(out.node, "shuffleanswers", text=_bool(out.quiz.settings.shuffle))
    _combined_feedback(out, shownumcorrect=True)
    rows = [(pair.left, pair.right, pair) for pair in question.pairs] + [(None, d, None) for d in question.distractors]
    for left, right, pair in rows:
        node = out.rich(out.node, "subquestion", left)
        sub(sub(node, "answer"), "text", text=_plain(out, right, pair))


def write_ordering(out: QuestionWriting, question: Ordering) -> None:
    """qtype_ordering::import_from_xml() (Moodle 4.4+ core): the answers in their right order,
    graded as the policy says (ABSOLUTE_POSITION for partial, ALL_OR_NOTHING)."""
    out.header()
    grading = ORDERING_GRADINGS[out.quiz.scoring_of(question)]
    for name, value in (("layouttype", "VERTICAL"), ("selecttype", "ALL"), ("selectcount", str(len(question.items))),
                        ("gradingtype", grading), ("showgrading", "SHOW"), ("numberingstyle", "none")):
        sub(out.node, name, text=value)
    _combined_feedback(out, shownumcorrect=None)
    sub(out.node, "shownumcorrect", text="1")  # read as a value here, not a presence flag
    for position, item in enumerate(question.items, 1):
        out.rich(out.node, "answer", item.text, {"fraction": str(position)})


def write_fill_blanks(out: QuestionWriting, question: FillBlanks) -> None:
    """import_multianswer(): the text with each gap written in Moodle's Cloze syntax.

    Each gap weighs points / gaps; Cloze weights are whole numbers (the question's mark is
    their sum, so no `<defaultgrade>` is written, as Moodle's exporter does). qtype_multianswer
    gives each gap its share: partial scoring exactly."""
    if out.quiz.scoring_of(question) == "all_or_nothing":
        _cannot(out, "fill-in-the-blanks all or nothing (qtype_multianswer grades each gap on its own)",
                f"each of the {len(question.gaps)} gaps earns its share of the points")
    weight = question.points / len(question.gaps)
    if weight < 1 or weight != int(weight):
        out.warn("W658", f"{out.label} is worth {counted(question.points, 'point')} over "
                 f"{counted(len(question.gaps), 'gap')}, but Moodle's Cloze gaps weigh whole marks: each gap weighs 1, "
                 f"so the question is worth {len(question.gaps)} in Moodle (set its mark in the quiz)")
        weight = 1
    parts = [moodlecloze.protect(Text(part).html()) if isinstance(part, str)  # the model's pieces are plain
             else _cloze_gap(out, part, int(weight)) for part in question.segments]
    lang = question.prompt.lang or out.lang
    out.header(mark_language("".join(parts), lang, block=False), points=False)
    _no_combined_feedback(out, "qtype_multianswer")


def _cloze_gap(out: QuestionWriting, gap: Gap, weight: int) -> str:
    """One gap: typed answers as SHORTANSWER, a drop-down as MULTICHOICE (MULTICHOICE_S when shuffled)."""
    if gap.answers:
        kind = "SHORTANSWER_C" if out.question.case_sensitive else "SHORTANSWER"
        # A gap earns at least 0 (docs/scoring.md); qtype_multianswer would take a negative
        # credit from the other gaps, so such an answer is written as worth 0, which is the same.
        alternatives = [(max(_whole(out, a.credit, repr(a.text), a), 0.0), a.text, _bare_html(a.feedback))
                        for a in gap.answers]
        return moodlecloze.write_gap(weight, kind, alternatives)
    if len(gap.choices) < 2:  # the model allows it; Moodle's MULTICHOICE needs two answers
        (choice,) = gap.choices
        out.warn("W658", f"gap {gap.id} of {out.label} is a drop-down with one choice, which Moodle "
                 "refuses; it is written as a typed gap accepting that choice", gap)
        return moodlecloze.write_gap(weight, "SHORTANSWER", [(100, words(choice.text), "")])
    kind = "MULTICHOICE_S" if out.quiz.settings.shuffle else "MULTICHOICE"
    return moodlecloze.write_gap(weight, kind, [(100 if c.correct else 0, c.text.html(), _bare_html(c.feedback))
                                                for c in gap.choices])


def write_description(out: QuestionWriting, question: Description) -> None:
    """import_description(): the header alone; Moodle forces its mark to 0."""
    out.header()
    _no_combined_feedback(out, "qtype_description")


KIND_WRITERS = {
    MultipleChoice.kind: ("multichoice", write_multiple_choice),
    TrueFalse.kind: ("truefalse", write_true_false),
    ShortAnswer.kind: ("shortanswer", write_short_answer),
    Numeric.kind: ("numerical", write_numeric),
    Essay.kind: ("essay", write_essay),
    Matching.kind: ("matching", write_matching),
    Ordering.kind: ("ordering", write_ordering),
    FillBlanks.kind: ("cloze", write_fill_blanks),
    Description.kind: ("description", write_description),
}
"""Model kind -> (Moodle question type, writer)."""


def _combined_feedback(out: QuestionWriting, *, shownumcorrect: bool | None) -> None:
    """import_combined_feedback(): right, partly right (less than full marks: the incorrect feedback), wrong."""
    question = out.question
    out.rich(out.node, "correctfeedback", question.correct_feedback)
    out.rich(out.node, "partiallycorrectfeedback", question.incorrect_feedback)
    out.rich(out.node, "incorrectfeedback", question.incorrect_feedback)
    if shownumcorrect:
        sub(out.node, "shownumcorrect")  # its presence means true: "You have correctly selected 1."


def _no_combined_feedback(out: QuestionWriting, qtype: str) -> None:
    question = out.question
    for field, text in (("correct", question.correct_feedback), ("incorrect", question.incorrect_feedback)):
        if text is not None:
            out.warn("W656", f"{out.label} has {field} feedback, but Moodle's {qtype} has no place for "
                     "it; it is left out (put it in the explanation, shown to everyone)")


def _answer_feedback(out: QuestionWriting, own: Text | None, credit: float) -> str:
    """An answer's feedback, then the question's correct (full credit) or incorrect feedback.

    shortanswer and numerical have no combined feedback: Moodle shows the matched answer's."""
    combined, which = ((out.question.correct_feedback, "correct") if credit == 100
                       else (out.question.incorrect_feedback, "incorrect"))
    fragment = out.fragment(own)
    return fragment if combined is None else join_feedback(fragment, out.fragment(combined), which)


def _catch_all(out: QuestionWriting, *, numerical: bool = False) -> None:
    """The incorrect feedback as a last answer `*` worth 0 (any other response), Moodle's idiom for it."""
    if out.question.incorrect_feedback is None:
        return
    node = sub(out.node, "answer", {"fraction": "0"})
    sub(node, "text", text="*")
    out.rich(node, "feedback", out.question.incorrect_feedback)
    if numerical:
        sub(node, "tolerance", text="0")


def _grade(out: QuestionWriting, credit: float, what: str, answer: object) -> str:
    """`credit` as a grade Moodle accepts (its list), with a warning when that changes it."""
    grade = nearest_grade(credit)
    if abs(grade - credit) >= 0.001:
        out.warn("W655", f"answer {what} of {out.label} is worth {number(credit)} %, which is not on "
                 f"Moodle's grade list; it is written as {number(grade)} %", answer)
    return number(grade)


def _whole(out: QuestionWriting, credit: float, what: str, answer: object) -> float:
    """A Cloze answer's credit in whole percent (older Moodle Cloze parsers read `%(-?[0-9]+)%` only)."""
    if credit != round(credit):
        out.warn("W655", f"answer {what} of {out.label} is worth {number(credit)} %; Cloze answers "
                 f"are written in whole percent, so it is worth {round(credit)} %", answer)
    return float(round(credit))


def _plain(out: QuestionWriting, text: Text, pair: object | None) -> str:
    """A right-hand matching item as the plain text Moodle shows, with a warning when markup is lost."""
    if text.format == "plain":
        return text.value
    shown = html_words(text.value)
    if Text(shown).html() != text.value or "\\(" in shown or "\\[" in shown:
        out.warn("W657", f"the matching item {shown!r} of {out.label} has formatting, an image or "
                 "math, but Moodle shows right-hand items as plain text; it is written as its words", pair)
    return shown


def _bare_html(text: Text | None) -> str:
    """A Cloze answer's feedback: HTML without language marks (it sits inside the question's)."""
    return "" if text is None else text.html()


def _exact(value: float) -> str:
    """A number as Moodle's numerical type reads it, exactly: `256`, `0.0125`, `1e-09`."""
    text = repr(float(value))
    return text.removesuffix(".0") if math.isfinite(value) else text


def _bool(value: bool) -> str:
    return "true" if value else "false"


def _warn_unequal_shares(out: QuestionWriting, question: MultipleChoice, percents: list[float]) -> None:
    shares = Counter(p for p, choice in zip(percents, question.choices, strict=True) if choice.correct)
    if len(shares) > 1:
        split = " and ".join(f"{count} worth {number(share)} %" for share, count in shares.items())
        total = sum(shares.values())
        wrong = [number(-p) for p, choice in zip(percents, question.choices, strict=True) if not choice.correct]
        cost = f"; each wrong tick costs {wrong[0]} %" if wrong else ""
        out.warn("W651", f"{out.label} has {total} right options and Moodle's grade list has no "
                 f"100/{total} %, so they are not worth the same: {split} (in option order){cost}")


def _cannot(out: QuestionWriting, feature: str, instead: str) -> None:
    """The question's scoring policy is one Moodle cannot grade: what the learner gets instead
    (nothing to say when both policies score the question alike)."""
    if not out.question.scoring_matters:
        return
    out.warn("W661", f"{out.label}: Moodle XML cannot score {feature}; the learner gets partial "
             f"credit instead: {instead}")

