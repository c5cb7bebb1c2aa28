"""Moodle XML question types as the model's kinds: one `read_<type>` per type Moodle exports.

Each reads what the importer of its type reads (moodle/moodle question/format/xml/format.php:
import_multichoice, import_truefalse, import_shortanswer, import_numerical, import_essay,
import_match, import_multianswer, import_description; qtype_ordering::import_from_xml) and
returns the question, or None after reporting what the model cannot hold (E605, E607), with
whether the question lets Moodle shuffle its options (None when it has none).
"""

from __future__ import annotations

import html
import re
import unicodedata
from dataclasses import replace

from . import cloze as moodlecloze
from ...ids import letters
from ...model import (
    Answer, Choice, Description, Essay, FillBlanks, Gap, Matching, MatchPair, ModelError, MultipleChoice, Numeric,
    NumericAnswer, OrderItem, Ordering, Question, ShortAnswer, Text, TrueFalse,
)
from .reader_context import Head, Reading
from .reader_losses import default_unit
from .rules import answer_percent, split_feedback, text_from_html, trans_single, unmark_language
from .scoring import grades, grades_policy, ordering_grading, ordering_policy, wrong_tick
from ...text import number as percent_text

_PLAIN_FORMATS = ("plain_text", "markdown")
_SPACE = re.compile(r"\s+")
_BREAK = re.compile(r"<br\s*/?>", re.IGNORECASE)
_BLOCK_END = re.compile(r"</(?:p|div|li|h[1-6]|tr|pre|blockquote|table|ul|ol)\s*>", re.IGNORECASE)
_TAG = re.compile(r"<[^>]*>")
_BLANK_LINES = re.compile(r"\n{3,}")
_GAP = "\ue000"
"""Stands for a gap while the text around the gaps is read as one."""
Read = tuple[Question | None, bool | None]


def in_lang(text: Text | None, lang: str | None, context: str | None) -> Text | None:
    """`text` in `lang`, recorded on the text only where it differs from its context's language."""
    if text is None:
        return None
    return replace(text, lang=lang if lang != context else None)


def read_multichoice(r: Reading, node) -> Read:
    head = r.head(node)
    single = trans_single(node.findtext("single"), True)
    choices, percents = _choices(r, node, head, single)
    question = r.build(node, MultipleChoice, **head.fields, **_combined(r, node, head), choices=tuple(choices),
                       multiple_response=not single)
    if question is not None and not single and grades_policy(percents) is None:
        _inexact_grades(r, node, question, percents)
    return question, trans_single(node.findtext("shuffleanswers"), False)


def _inexact_grades(r: Reading, node, question: MultipleChoice, percents: list[float]) -> None:
    """The options' grades are no policy of the model: the question reads as partial (right minus wrong)."""
    right = [percent_text(p) for p in percents if p > 0]
    wrong = [percent_text(p) for p in percents if p <= 0]
    share = percent_text(wrong_tick(len(right)))
    exact = ", ".join(percent_text(g) for g in grades([p > 0 for p in percents], True))
    written = f"right options {', '.join(right)} %" + (f", wrong options {', '.join(wrong)} %" if wrong else "")
    r.warn("W671", node, f"{r.subject}: Moodle grades its options as written ({written}), which is "
           f"neither of lmsexport's scoring policies; it is read as partial: each right option ticked earns "
           f"{share} % and each wrong one takes {share} % away",
           f"for the same scores in Moodle, give the options these grades, in order: {exact} %")


def _choices(r: Reading, node, head: Head, single: bool) -> tuple[list[Choice], list[float]]:
    """The answers as options (each one the model cannot hold reported), and their grades in percent."""
    choices, percents = [], []
    for answer in node.iterchildren("answer"):
        text = r.text(answer, head.format, head.lang)
        if text is None or not text.value.strip():
            continue  # qtype_multichoice::save_question_options skips blank answers
        percent = _percent(r, answer)
        if percent is None:
            continue
        if single and 0.001 < percent < 99.999:
            r.problem("E605", answer, f"this answer of the single-answer question {r.name(node)!r} gives "
                      f"partial credit ({percent:g} %), which lmsexport's options cannot hold",
                      "make it worth 100 % or nothing in Moodle, or make the question multiple-answer")
        correct = percent >= 99.999 if single else percent > 0
        choices.append(Choice(id=letters(len(choices)), text=text, correct=correct,
                              feedback=r.text(answer.find("feedback"), head.format, head.lang), source=r.span(answer)))
        percents.append(percent)
    return choices, percents


def read_truefalse(r: Reading, node) -> Read:
    """import_truefalse(): the `true` answer's fraction decides; texts other than true/false go by order."""
    head = r.head(node)
    value, feedback = None, {}
    for index, answer in enumerate(node.iterchildren("answer")):
        text = (answer.findtext("text") or "").strip()
        is_true = text == "true" if text in ("true", "false") else index == 0
        percent = _percent(r, answer)
        if percent is not None:
            value = (abs(percent - 100) < 0.001) == is_true
        feedback[is_true] = r.text(answer.find("feedback"), head.format, head.lang)
    if value is None:
        r.problem("E605", node, f"the true/false question {r.name(node)!r} has no answers",
                  "export it again: Moodle writes the answers true and false")
        return None, None
    return r.build(node, TrueFalse, **head.fields, answer=value, correct_feedback=feedback.get(value),
                   incorrect_feedback=feedback.get(not value)), None


def read_shortanswer(r: Reading, node) -> Read:
    """import_shortanswer(): plain-text answers, `*` a wildcard; a last `*` worth 0 is the incorrect feedback."""
    head = r.head(node)
    rows, feedback = _typed(r, node, head, "shortanswer")
    answers = tuple(Answer(text=text, credit=percent, feedback=own, source=r.span(answer))
                    for answer, text, percent, own in rows)
    case = (node.findtext("usecase") or "0").strip() not in ("0", "")
    return r.build(node, ShortAnswer, **head.fields, **feedback, answers=answers, case_sensitive=case), None


def read_numerical(r: Reading, node) -> Read:
    """import_numerical(): a number and an absolute tolerance per answer, and the unit of multiplier
    1 (Moodle's default unit, get_default_numerical_unit()); other units are warned about (W687)."""
    head = r.head(node)
    rows, feedback = _typed(r, node, head, "numerical")
    answers = []
    for answer, text, percent, own in rows:
        tolerance = r.number(answer, "tolerance", 0.0) or 0.0
        try:
            value = float(text.replace(",", "."))
        except ValueError:
            r.problem("E605", answer, f"answer {text!r} of the numerical question {r.name(node)!r} is not a number, "
                      "which lmsexport's numeric answers must be", "give the answer as a number, such as 2.5; "
                      "* (any other answer) is read only as the last answer, worth 0: the incorrect feedback")
            continue
        answers.append(NumericAnswer(value=value, tolerance=abs(tolerance), credit=percent, feedback=own,
                                     source=r.span(answer)))
    return r.build(node, Numeric, **head.fields, **feedback, answers=tuple(answers), unit=default_unit(node)), None


def _typed(r: Reading, node, head: Head, kind: str):
    """A shortanswer's or numerical's answers as (node, text, percent, own feedback), and the question's feedback.

    lmsexport joins the question's correct / incorrect feedback to the answers' own
    (moodlerules.join_feedback) and writes the incorrect feedback on a last answer `*` worth 0."""
    rows, feedback = [], {}
    for answer in node.iterchildren("answer"):
        text = (answer.findtext("text") or "").strip()
        if not text:
            continue  # save_question_options() skips blank answers
        percent = _percent(r, answer, kind)
        if percent is None:
            continue
        own, which, joined = _feedback(r, answer.find("feedback"), head)
        if which is not None:
            feedback.setdefault(f"{which}_feedback", joined)
        rows.append((answer, unicodedata.normalize("NFC", text), percent, own))
    if rows and rows[-1][1] == "*" and abs(rows[-1][2]) < 0.001 and rows[-1][3] is not None:
        feedback["incorrect_feedback"] = rows.pop()[3]
    return rows, feedback


def _feedback(r: Reading, node, head: Head) -> tuple[Text | None, str | None, Text | None]:
    """An answer's own feedback, and the question's feedback joined to it (`correct` / `incorrect`)."""
    fragment, lang, text_format = r.fragment(node, head.format)
    if fragment is None:
        return None, None, None
    if text_format in _PLAIN_FORMATS:
        return Text(fragment), None, None
    own, which, joined = split_feedback(fragment)
    if which is None:
        cleaned = r.clean(fragment, node)
        return (None if cleaned is None else in_lang(text_from_html(cleaned), lang, head.lang)), None, None
    return _marked(r, node, own, head), which, _marked(r, node, joined, head)


def _marked(r: Reading, node, fragment: str, head: Head) -> Text | None:
    if not fragment:
        return None
    inner, lang = unmark_language(fragment)
    cleaned = r.clean(inner, node)
    return None if cleaned is None else in_lang(text_from_html(cleaned), lang, head.lang)


def read_essay(r: Reading, node) -> Read:
    """import_essay(): the answer box's size; grader information and a response template are not read."""
    head = r.head(node)
    lines = r.number(node, "responsefieldlines", 15) or 15
    return r.build(node, Essay, **head.fields, lines=min(max(int(lines), 1), 100)), None


def read_matching(r: Reading, node) -> Read:
    """import_match(): each subquestion a pair; one with an empty text a right-hand item matching nothing."""
    head = r.head(node)
    pairs, distractors = [], []
    for sub in node.iterchildren("subquestion"):
        left = r.text(sub, head.format, head.lang)
        right = unicodedata.normalize("NFC", (sub.findtext("answer/text") or "").strip())
        if left is not None and not right:
            r.problem("E605", sub, f"a subquestion of the matching question {r.name(node)!r} has nothing to match",
                      "give it an answer, or leave its text empty to make the answer match nothing")
        elif left is None:
            distractors += [Text(right)] if right else []
        else:
            pairs.append(MatchPair(id=letters(len(pairs)), left=left, right=Text(right), source=r.span(sub)))
    question = r.build(node, Matching, **head.fields, **_combined(r, node, head), pairs=tuple(pairs),
                       distractors=tuple(distractors))
    return question, trans_single(node.findtext("shuffleanswers"), True)


def read_ordering(r: Reading, node) -> Read:
    """qtype_ordering::import_from_xml(): the answers in document order are the right order; the
    grading type ALL_OR_NOTHING or ABSOLUTE_POSITION is a policy, the others read as partial."""
    head = r.head(node)
    texts = [(r.text(answer, head.format, head.lang), answer) for answer in node.iterchildren("answer")]
    items = [OrderItem(id=letters(i), text=text, source=r.span(answer))
             for i, (text, answer) in enumerate(pair for pair in texts if pair[0] is not None)]
    grading = ordering_grading(node.findtext("gradingtype"))
    policy = ordering_policy(grading)
    if policy is None:
        r.warn("W671", node, f"{r.subject}: Moodle grades its order {grading}, which is neither of "
               "lmsexport's scoring policies; it is read as partial: each item in its right place earns its share",
               "grade it ABSOLUTE_POSITION (or ALL_OR_NOTHING) in Moodle for the same scores there")
    scoring = "all_or_nothing" if policy == "all_or_nothing" else None
    return r.build(node, Ordering, **head.fields, **_combined(r, node, head), items=tuple(items),
                   scoring=scoring), None


def read_description(r: Reading, node) -> Read:
    """import_description(): the header alone, worth nothing."""
    return r.build(node, Description, **r.head(node, points=0.0).fields), None


def read_cloze(r: Reading, node) -> Read:
    """import_multianswer(): the gaps of the question text, parsed as qtype_multianswer does."""
    questiontext = node.find("questiontext")
    fragment, lang, text_format = r.fragment(questiontext, "html")
    if fragment is not None and text_format in _PLAIN_FORMATS:
        fragment = Text(fragment).html()
    pieces, found = moodlecloze.parse(fragment or "")
    problems = moodlecloze.problems(found)
    for problem in problems:
        r.problem("E607", questiontext, f"Moodle cannot read the Cloze question {r.name(node)!r}: {problem}",
                  "fix the gap in Moodle's question editor, or leave the question out of the export")
    gaps = None if problems else _gaps(r, node, found)
    if gaps is None:
        return None, None
    parts = gap_parts(r, questiontext, [piece.replace(moodlecloze.ESCAPED_BRACE, "{") for piece in pieces])
    segments = [s for i, part in enumerate(parts) for s in ([part] if part else []) + gaps[i:i + 1]]
    head = r.head(node, prompt=(Text("___".join(parts)), lang), points=sum(g.weight for g in found))
    case = any(g.kind == "shortanswer_c" for g in found)
    question = r.build(node, FillBlanks, **head.fields, segments=tuple(segments), case_sensitive=case)
    votes = [g.kind == "multichoice_s" for g in found if g.kind.startswith("multichoice")]
    return question, (all(votes) if votes else None)


def gap_parts(r: Reading, node, pieces: list[str]) -> list[str]:
    """The HTML around a question's gaps, sanitised, as the plain texts the model's gap questions
    hold, the loss of any formatting beyond paragraphs and line breaks warned (W689)."""
    joined = r.clean(_GAP.join(pieces), node) or ""
    text = text_from_html(joined)
    if text.format == "plain":
        return text.value.split(_GAP)
    if _FORMATTED.search(_KEPT.sub("", joined)):
        r.warn("W689", node, f"{r.subject}: the text around its gaps loses its formatting (emphasis, images, "
               "math, links): the text of lmsexport's gap questions is plain", "put what needs formatting in "
               "the question's feedback, or in a text block before the question")
    return _plain(joined).split(_GAP)


_KEPT = re.compile(r"</?(?:p|br|div)\b[^>]*>", re.IGNORECASE)
_FORMATTED = re.compile(r"<|\\\(|\\\[")
"""Markup or math left once paragraphs and breaks are taken out: formatting a plain text loses."""


def _plain(fragment: str) -> str:
    """HTML as the plain text the model's gap questions hold: breaks and paragraphs as new lines,
    other markup (emphasis, images) dropped, math left as its TeX."""
    text = _BREAK.sub("\n", _SPACE.sub(" ", fragment))
    text = html.unescape(_TAG.sub("", _BLOCK_END.sub("\n\n", text)))
    lines = "\n".join(line.strip(" ") for line in text.split("\n"))
    return unicodedata.normalize("NFC", _BLANK_LINES.sub("\n\n", lines).strip())


def _gaps(r: Reading, node, found: list[moodlecloze.Gap]) -> list[Gap] | None:
    """The sub-questions as the model's gaps, None after reporting one it cannot hold."""
    def refuse(message: str) -> None:
        r.problem("E605", node, f"the Cloze question {r.name(node)!r} cannot be read: {message}",
                  "lmsexport's gaps are SHORTANSWER (all case-sensitive or none) or MULTICHOICE with one right "
                  "answer, all of one weight")

    if len({gap.weight for gap in found}) > 1 or len({g.kind for g in found if g.kind.startswith("shortanswer")}) > 1:
        return refuse("its gaps differ in weight or in letter case")
    gaps = []
    for number, gap in enumerate(found, 1):
        answers = [a for a in gap.alternatives if a.text.strip()]
        try:
            if gap.kind.startswith("shortanswer"):
                _negative_credit(r, node, number, answers)
                gaps.append(Gap(id=f"g{number}", answers=tuple(
                    Answer(text=unicodedata.normalize("NFC", a.text), credit=a.percent,
                           feedback=_cloze_text(r, node, a.feedback)) for a in answers)))
            elif gap.kind.startswith("multichoice") and all(a.percent in (0, 100) for a in answers):
                gaps.append(Gap(id=f"g{number}", choices=tuple(
                    Choice(id=letters(i), text=_cloze_text(r, node, a.text), correct=a.percent == 100,
                           feedback=_cloze_text(r, node, a.feedback)) for i, a in enumerate(answers))))
            else:
                why = _UNHELD.get(gap.kind, "one of its drop-down answers gives partial credit")
                return refuse(f"gap {number} ({gap.type_name}): {why}, which the model's gaps cannot hold")
        except ModelError as exc:
            return refuse(f"gap {number}: {str(exc).removeprefix(f'gap g{number}: ')}")
    return gaps


_UNHELD = {"numerical": "it asks for a number", "multiresponse": "it takes several answers"}


def _negative_credit(r: Reading, node, number: int, answers: list[moodlecloze.Alternative]) -> None:
    """qtype_multianswer takes a gap's negative grade from the other gaps; the model's gap earns at least 0."""
    negative = [a.text for a in answers if a.percent < 0]
    if negative:
        r.warn("W671", node, f"{r.subject}: gap {number} takes credit away in Moodle for "
               f"{', '.join(map(repr, negative))}, from the other gaps; lmsexport's gaps never earn less than "
               "nothing, so that answer scores 0 in every output", "give those answers 0 % in Moodle for the "
               "same scores there")


def _cloze_text(r: Reading, node, value: str) -> Text | None:
    cleaned = r.clean(value, node.find("questiontext")) if value.strip() else None
    return text_from_html(cleaned) if cleaned is not None else None


def _combined(r: Reading, node, head: Head) -> dict:
    """import_combined_feedback(): the incorrect feedback, else the partly correct one (the model has one)."""
    incorrect = r.text(node.find("incorrectfeedback"), head.format, head.lang)
    if incorrect is None:
        incorrect = r.text(node.find("partiallycorrectfeedback"), head.format, head.lang)
    return {"correct_feedback": r.text(node.find("correctfeedback"), head.format, head.lang),
            "incorrect_feedback": incorrect}


def _percent(r: Reading, answer, kind: str = "multichoice") -> float | None:
    percent = answer_percent(answer, kind)
    if percent is None:
        r.problem("E604", answer, f"answer grade {answer.get('fraction')!r} is not a number",
                  "give fraction a percentage, such as 100, 50 or -25")
    return percent


KIND_READERS = {
    "multichoice": read_multichoice,
    "truefalse": read_truefalse,
    "shortanswer": read_shortanswer,
    "numerical": read_numerical,
    "essay": read_essay,
    "matching": read_matching,
    "match": read_matching,
    "ordering": read_ordering,
    "cloze": read_cloze,
    "multianswer": read_cloze,
    "description": read_description,
}
"""Moodle question type -> reader (`match` and `multianswer` are the importer's synonyms)."""
