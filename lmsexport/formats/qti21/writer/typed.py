"""The QTI 2.1 items of typed answers: short answer, numeric, fill in the blanks (part 2).

QTI 2.1 info model: https://www.imsglobal.org/question/qtiv2p1/imsqti_infov2p1.html
Part of the QTI writer (writer/__init__.py; part 1 is kinds.py). A typed answer is a
textEntryInteraction. Accepted strings are a `mapping` (`caseSensitive` per the question)
scored by `map_response`; an answer with Moodle's `*` wildcard needs a pattern, which a
mapping cannot hold, so such a question is scored by explicit rules: `stringMatch` /
`patternMatch` per answer, the first that matches giving its credit (Moodle's rule).
Numbers are compared with `equal` (absolute tolerance) in the same first-match way.
Drop-down gaps are inlineChoiceInteractions.
"""

from __future__ import annotations

import copy

from .. import names
from ....model import Answer, FillBlanks, Gap, Numeric, ShortAnswer, Text
from ....xml import sub
from .body import gap_token
from .kinds import Context, Parts, declaration
from .processing import (
    all_counted, condition, counted_share, credit_value, float_outcome, set_outcome, show, value, variable, x,
)


def write_short_answer(context: Context) -> Parts:
    question: ShortAnswer = context.question
    answers, case_sensitive = question.answers, question.case_sensitive
    response = _typed_declaration(names.RESPONSE, answers, case_sensitive, context.points)
    parts = Parts([response], [x("div", None, _text_entry(names.RESPONSE))], interactions=("textEntryInteraction",))
    if any(names.has_wildcard(answer.text) for answer in answers):
        values = [set_outcome(names.SCORE, value("float", credit_value(context.points, a.credit))) for a in answers]
        parts.scoring = [_first_match(names.RESPONSE, answers, case_sensitive, values,
                                      otherwise=[set_outcome(names.SCORE, value("float", "0"))])]
    else:
        parts.scoring = "map_response"
    _feedback_chain(parts, answers, lambda n: _matches(names.RESPONSE, answers[n], case_sensitive),
                    names.choice_feedback_identifier, _unanswered(names.RESPONSE))
    return parts


def write_numeric(context: Context) -> Parts:
    """`equal` with toleranceMode absolute (or exact), the answers tried in order."""
    question: Numeric = context.question
    if any(answer.tolerance for answer in question.answers):
        context.canvas_advice("W811", f"{context.label} accepts numbers within a tolerance: Canvas imports "
                          "the QTI 2.1 item as a typed answer compared as text, so only the exact number is right",
                          "for Canvas, build --format canvas, which keeps the tolerance; QTI engines keep it too")
    written = [(context.text.number(a.value, "an answer", a),
                context.text.number(a.tolerance, "a tolerance", a) if a.tolerance else None)
               for a in question.answers]
    full = next(n for n, answer in enumerate(question.answers) if answer.credit == 100)
    response = declaration(names.RESPONSE, "single", "float", [written[full][0]])
    scores = [[set_outcome(names.SCORE, value("float", credit_value(context.points, a.credit)))]
              for a in question.answers]
    tests = [_equal(*pair) for pair in written]
    scoring = condition(*zip(tests, scores, strict=True), (None, [set_outcome(names.SCORE, value("float", "0"))]))
    parts = Parts([response], [_number_entry(context, question)], [scoring], interactions=("textEntryInteraction",))
    _feedback_chain(parts, question.answers, lambda n: _equal(*written[n]), names.choice_feedback_identifier)
    return parts


def _number_entry(context: Context, question: Numeric):
    """The answer box, and the question's unit after it (`<span class="unit">`, which the reader
    reads back): QTI 2.1 has no units, so a response is the number alone."""
    entry = _text_entry(names.RESPONSE)
    if question.unit is None:
        return x("div", None, entry)
    context.text.warn("W812", f"{context.label}: QTI 2.1 has no units: {question.unit} is shown after the "
                      "answer box, and learners type the number alone (a response with the unit is no number to a "
                      "QTI engine)", "say so in the question if learners may not expect it; Moodle XML and SCORM "
                      "packages take the number with or without its unit")
    entry.tail = " "
    return x("div", None, entry, x("span", {"class": names.UNIT_CLASS}, text=question.unit))


def _equal(number_: str, tolerance: str | None):
    """RESPONSE equals the number, within the tolerance on either side (QTI 2.1 equal)."""
    if tolerance is None:
        return x("equal", {"toleranceMode": "exact"}, variable(names.RESPONSE), value("float", number_))
    return x("equal", {"toleranceMode": "absolute", "tolerance": f"{tolerance} {tolerance}"},
             variable(names.RESPONSE), value("float", number_))


def write_fill_blanks(context: Context) -> Parts:
    """The text with its gaps in one div. Each gap's mapping gives its credit as a fraction
    (1 = right), added up in GAPS. Partial: SCORE = MAXSCORE * GAPS / number of gaps, so the
    gaps share the points equally and all gaps right give exactly the points (no sum of rounded
    shares). All or nothing: SCORE = MAXSCORE when GAPS is the number of gaps (each credit is
    at most 1, so only when every gap is right in full), else 0."""
    question: FillBlanks = context.question
    parts = Parts(stem=False, interactions=_gap_interactions(question), outcomes=[float_outcome(names.GAPS, "0")])
    if len(parts.interactions) > 1:
        # Canvas guesses the type from the first interaction it finds: textEntry wins, and each
        # gap's correctResponse becomes its accepted text (fill_in_the_blank.rb process_text_entry).
        context.canvas_advice("W807", f"{context.label} mixes typed and drop-down gaps: Canvas classic "
                          "quizzes import every gap as typed, a drop-down keyed by its choice's identifier",
                          "for Canvas, build --format canvas, or make every gap typed or every gap a drop-down; "
                          "QTI engines keep both")
    parts.scoring = []
    interactions = {}
    for gap in question.gaps:
        identifier = names.response_identifier(gap.id)
        if gap.answers:
            parts.declarations.append(_typed_declaration(identifier, gap.answers, question.case_sensitive, "1"))
            interactions[gap.id] = _text_entry(identifier)
            parts.scoring.append(_typed_gap_score(identifier, gap, question.case_sensitive))
            _feedback_chain(parts, gap.answers,
                            lambda n, gap=gap, at=identifier: _matches(at, gap.answers[n], question.case_sensitive),
                            lambda n, gap=gap: names.gap_feedback_identifier(gap.id, n), _unanswered(identifier))
        else:
            parts.declarations.append(_choice_gap_declaration(identifier, gap))
            interactions[gap.id] = _inline_choice(context, identifier, gap)
            parts.scoring.append(_mapped_gap_score(identifier))
            _choice_gap_feedback(parts, identifier, gap)
    if context.scoring == "all_or_nothing":
        parts.scoring.append(all_counted(names.GAPS, len(question.gaps)))
    else:
        parts.scoring.append(counted_share(names.GAPS, len(question.gaps)))
    marked = "".join(part if isinstance(part, str) else gap_token(part.id) for part in question.segments)
    stem = x("div")
    # The segments are plain text (model.FillBlanks), whatever the prompt's format.
    context.text.put_with_gaps(stem, Text(marked, "plain", question.prompt.lang), interactions)
    parts.body.append(stem)
    return parts


def _gap_interactions(question: FillBlanks) -> tuple[str, ...]:
    kinds = {"textEntryInteraction" if gap.answers else "inlineChoiceInteraction" for gap in question.gaps}
    return tuple(sorted(kinds, reverse=True))


def _typed_gap_score(identifier: str, gap: Gap, case_sensitive: bool):
    if not any(names.has_wildcard(answer.text) for answer in gap.answers):
        return _mapped_gap_score(identifier)
    adds = [set_outcome(names.GAPS, x("sum", None, variable(names.GAPS), value("float", credit_value("1", a.credit))))
            for a in gap.answers]
    return _first_match(identifier, gap.answers, case_sensitive, adds)


def _mapped_gap_score(identifier: str):
    """GAPS += the gap's mapped value, when the gap was filled (mapResponse of nothing is no number)."""
    filled = x("not", None, x("isNull", None, variable(identifier)))
    added = x("sum", None, variable(names.GAPS), x("mapResponse", {"identifier": identifier}))
    return condition((filled, [set_outcome(names.GAPS, added)]))


def _choice_gap_declaration(identifier: str, gap: Gap):
    correct = next(names.gap_choice_identifier(gap.id, choice.id) for choice in gap.choices if choice.correct)
    response = declaration(identifier, "single", "identifier", [correct])
    mapping = sub(response, "qti:mapping", {"defaultValue": "0"})
    sub(mapping, "qti:mapEntry", {"mapKey": correct, "mappedValue": "1"})
    return response


def _inline_choice(context: Context, identifier: str, gap: Gap):
    interaction = x("inlineChoiceInteraction", {"responseIdentifier": identifier, "shuffle": _flag(context.shuffle)})
    for choice in gap.choices:
        node = sub(interaction, "qti:inlineChoice", {"identifier": names.gap_choice_identifier(gap.id, choice.id)})
        context.text.put_plain(node, choice.text)
    return interaction


def _choice_gap_feedback(parts: Parts, identifier: str, gap: Gap) -> None:
    for n, choice in enumerate(gap.choices):
        if choice.feedback:
            feedback_id = names.gap_feedback_identifier(gap.id, n)
            picked = value("identifier", names.gap_choice_identifier(gap.id, choice.id))
            parts.feedback_rules.append(condition((x("match", None, variable(identifier), picked),
                                                   [show(feedback_id)])))
            parts.feedback.append((feedback_id, choice.feedback))


def _typed_declaration(identifier: str, answers: tuple[Answer, ...], case_sensitive: bool, points):
    """String response; correctResponse = the first full-credit answer (one without a wildcard
    if there is one); a mapping of every answer's credit unless an answer has a wildcard."""
    full = [answer.text for answer in answers if answer.credit == 100]
    best = next((text for text in full if not names.has_wildcard(text)), full[0])
    response = declaration(identifier, "single", "string", [names.literal(best)])
    if any(names.has_wildcard(answer.text) for answer in answers):
        return response
    mapping = sub(response, "qti:mapping", {"lowerBound": "0", "defaultValue": "0"})
    for answer in answers:
        sub(mapping, "qti:mapEntry", {"mapKey": names.literal(answer.text), "caseSensitive": _flag(case_sensitive),
                                      "mappedValue": credit_value(points, answer.credit)})
    return response


def _text_entry(identifier: str):
    return x("textEntryInteraction", {"responseIdentifier": identifier})


def _matches(identifier: str, answer: Answer, case_sensitive: bool):
    """The test "the response is this answer": stringMatch, or patternMatch for a wildcard."""
    if names.has_wildcard(answer.text):
        return x("patternMatch", {"pattern": names.wildcard_pattern(answer.text, case_sensitive)},
                 variable(identifier))
    return x("stringMatch", {"caseSensitive": _flag(case_sensitive)}, variable(identifier),
             value("string", names.literal(answer.text)))


def _first_match(identifier: str, answers, case_sensitive: bool, rules: list, otherwise: list | None = None):
    """if answer 1 matches: rules[0], else if answer 2 matches: rules[1] ... (else: otherwise)."""
    branches = [(_matches(identifier, answer, case_sensitive), [rule])
                for answer, rule in zip(answers, rules, strict=True)]
    unanswered = _unanswered(identifier, copy.deepcopy(otherwise))
    return condition(unanswered, *branches, *([(None, otherwise)] if otherwise else []))


def _unanswered(identifier: str, rules: list | None = None):
    """The first branch of a chain of string tests: nothing typed. QTI gives NULL for a string
    test on NULL anyway; some engines (Citolab qti-components 7) fail on it instead."""
    return (x("isNull", None, variable(identifier)), rules or [])


def _feedback_chain(parts: Parts, answers, test, name, first=None) -> None:
    """The feedback of the first answer that matches (Moodle shows that one): if answer 1
    matches, show its feedback; else if answer 2 matches ... up to the last with feedback.
    `test(n)` is the test for answer n, `name(n)` its feedback identifier; `first` a branch
    to try before them."""
    shown = [n for n, answer in enumerate(answers) if answer.feedback]
    if not shown:
        return
    branches = [first] if first else []
    for n, answer in enumerate(answers[: shown[-1] + 1]):
        branches.append((test(n), [show(name(n))] if answer.feedback else []))
        if answer.feedback:
            parts.feedback.append((name(n), answer.feedback))
    parts.feedback_rules.append(condition(*branches))


def _flag(on: bool) -> str:
    return "true" if on else "false"
