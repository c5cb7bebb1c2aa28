"""A test model of Moodle's grading, for the question types lmsexport writes with parts.

Not part of the product. It grades a response to a `<question>` of a Moodle XML file the way
Moodle grades the question that file imports to, as its code says (moodle/moodle, read through
the public sources):

    multichoice, <single>false   question/type/multichoice/question.php,
                                 qtype_multichoice_multi_question::grade_response(): the
                                 fractions of the answers ticked, added up, then
                                 min(max(0, fraction), 1.0); nothing ticked is not gradable
                                 (is_gradable_response()), which a quiz marks 0
    matching                     question/type/match/question.php, grade_response():
                                 get_num_parts_right() / count(stems); a subquestion with an
                                 empty text is no stem (qtype_match::save_question_options()
                                 keeps it as a choice only); stems left unanswered are not right
    ordering                     question/type/ordering/question.php, grade_response(): the
                                 correct order is the answers' order (fraction 1, 2, ...);
                                 ABSOLUTE_POSITION counts items where current == correct over
                                 the items, ALL_OR_NOTHING makes that 0 unless all are
    cloze (multianswer)          question/type/multianswer/question.php, grade_response():
                                 sum(subfraction x defaultmark) / sum(defaultmark), a gap that
                                 is not gradable adding 0; a SHORTANSWER gap's fraction is the
                                 first answer matching (shortanswer/question.php,
                                 compare_string_with_wildcard(): NFC, the trimmed response, `*`
                                 any run of characters, case ignored unless _C), a MULTICHOICE
                                 gap's the fraction of the choice picked

The mark is the fraction times the question's mark: `<defaultgrade>`, or for Cloze the sum of
its gap weights (qtype_multianswer sets defaultmark from them). Cloze texts are split with
lmsexport's own reading of qtype_multianswer_extract_question() (formats/moodle/cloze.py,
tested against Moodle's regular expressions in test_moodle_writer.py), since the grading, not
the parsing, is what this model checks.
"""

from __future__ import annotations

import re
import unicodedata

from lmsexport.formats.moodle import cloze


def mark(question, response) -> float:
    """The points Moodle gives `response` to `question` (an lxml `<question>` element)."""
    kind = question.get("type")
    fraction = {"multichoice": _multichoice, "matching": _match, "ordering": _ordering, "cloze": _cloze}[kind](
        question, response)
    if kind == "cloze":
        _, gaps = cloze.parse(question.findtext("questiontext/text"))
        return fraction * sum(gap.weight for gap in gaps)
    return fraction * float(question.findtext("defaultgrade"))


def _multichoice(question, ticked: set[int]) -> float:
    """`ticked`: the positions (from 0, in file order) of the answers the learner ticked."""
    assert question.findtext("single") == "false", "single-answer questions have one part"
    fractions = [float(answer.get("fraction")) / 100 for answer in question.iterchildren("answer")]
    if not ticked:
        return 0.0
    return min(max(0.0, sum(fractions[position] for position in ticked)), 1.0)


def _match(question, chosen: dict[int, str]) -> float:
    """`chosen`: stem position (from 0, stems in file order) -> the answer text picked for it."""
    stems = [(sub.findtext("text") or "", sub.findtext("answer/text") or "") for sub in question.iterchildren("subquestion")]
    stems = [right for text, right in stems if text.strip()]
    right = sum(1 for position, answer in enumerate(stems) if chosen.get(position) == answer)
    return right / len(stems)


def _ordering(question, order: list[int]) -> float:
    """`order`: the learner's order, as positions (from 0) of the answers in the file."""
    correct = list(range(len(list(question.iterchildren("answer")))))
    count = sum(1 for position, answer in enumerate(correct) if position < len(order) and order[position] == answer)
    grading = question.findtext("gradingtype")
    if grading == "ALL_OR_NOTHING":
        return 1.0 if count == len(correct) else 0.0
    assert grading == "ABSOLUTE_POSITION", f"this model grades what lmsexport writes, not {grading}"
    return count / len(correct)


def _cloze(question, given: dict[int, str]) -> float:
    """`given`: gap position (from 0) -> the text typed, or the text of the choice picked."""
    _, gaps = cloze.parse(question.findtext("questiontext/text"))
    total = sum(gap.weight for gap in gaps)
    earned = 0.0
    for position, gap in enumerate(gaps):
        response = given.get(position, "")
        if not response.strip():
            continue
        if gap.kind.startswith("multichoice"):
            picked = [a for a in gap.alternatives if a.text == response]
            earned += gap.weight * (picked[0].percent / 100 if picked else 0.0)
        else:
            matched = next((a for a in gap.alternatives if _wildcard(response, a.text, gap.kind == "shortanswer")), None)
            earned += gap.weight * (matched.percent / 100 if matched else 0.0)
    return earned / total


def _wildcard(response: str, pattern: str, ignore_case: bool) -> bool:
    """qtype_shortanswer_question::compare_string_with_wildcard(), the response trimmed."""
    pattern, response = (unicodedata.normalize("NFC", value) for value in (pattern, response.strip()))
    bits = [re.escape(bit.replace("\\*", "*")) for bit in re.split(r"(?<!\\)\*+", pattern)]
    return re.fullmatch(".*".join(bits), response, re.IGNORECASE if ignore_case else 0) is not None
