"""One QTI 2.1 assessmentItem as a question of the model (the QTI reader's item part).

QTI 2.1 info model: https://www.imsglobal.org/question/qtiv2p1/imsqti_infov2p1.html
Part of the QTI reader (readers/qti21.py). The kind comes from the interactions: none is a
text block; choiceInteraction a choice question (true/false when its two options are
`true` and `false`); a textEntryInteraction alone in the last block of the body a short
answer (string) or numeric (float) question, text entries and inline choices inside the
text a fill-in-the-blanks question; extendedText an essay; match a matching; order an
ordering question. Answers and credits come from the mapping, or from the first-match
rules lmsexport writes when a mapping cannot say it (wildcards, tolerances), else from
the correct response (docs/formats/qti21.md, Reading QTI 2.1).
"""

from __future__ import annotations

import copy
import dataclasses

from .. import names
from ....diagnostics import Log, SourceSpan
from ....model import (
    Choice, Description, Essay, Matching, MatchPair, MultipleChoice, Numeric, NumericAnswer, OrderItem, Ordering,
    Question, ShortAnswer, Text, TrueFalse,
)
from ....text import default_title
from ....xml import NS, replace_with_text
from .feedback import Feedback, picked, variable_of
from .gaps import credit, read_fill_blanks, read_gap_match, score_set, typed_answers
from .responses import correct_values, declaration
from .scoring import policy
from .text import NO_CORRECT_RESPONSE, NoKind, TextReader, Unreadable, html_text, read_number, unindent

_Q = f"{{{NS['qti']}}}"
_LANG = f"{{{NS['xml']}}}lang"
_INTERACTIONS = {"choiceInteraction", "textEntryInteraction", "inlineChoiceInteraction", "extendedTextInteraction",
                 "matchInteraction", "orderInteraction"}


@dataclasses.dataclass
class Item:
    """What reading an item needs besides its root: where it is and what the test says of it."""

    question_id: str
    quiz_lang: str | None
    span: SourceSpan
    reader: TextReader
    weight: str | None = None
    tags: tuple[str, ...] = ()
    log: Log = dataclasses.field(default_factory=Log)
    """Where what the item scores otherwise than the model can say is told (W821)."""


def read_question(root, item: Item) -> Question:
    if root.tag != f"{_Q}assessmentItem":
        raise Unreadable(f"not a QTI 2.1 assessmentItem (root element {root.tag})", root,
                         f"refer here to a QTI 2.1 assessmentItem (namespace {NS['qti']})")
    _has_a_kind(root)
    interactions = interactions_of(root)
    feedback = Feedback(root, item.reader)
    lang = root.get(_LANG)
    common = {"id": item.question_id, "points": points(root, item.weight), "tags": item.tags, "source": item.span,
              "lang": lang if lang != item.quiz_lang else None}
    question = _kind(root, interactions)(root, interactions, common, feedback, item.reader)
    correct, incorrect = feedback.right_wrong()
    question = dataclasses.replace(question, explanation=feedback.always(), correct_feedback=correct,
                                   incorrect_feedback=incorrect)
    feedback.finish()
    question = _scored(root, question, item)
    title = root.get("title")
    return dataclasses.replace(question, title=title) if title and title != default_title(question.prompt, question.id) else question


_GRAPHIC = {"hotspotInteraction", "graphicOrderInteraction", "graphicAssociateInteraction",
            "graphicGapMatchInteraction", "selectPointInteraction", "positionObjectInteraction"}
_CUSTOM = {"customInteraction", "portableCustomInteraction"}


def _has_a_kind(root) -> None:
    """NoKind for an item the model has no kind for, whatever its interactions: adaptive, a
    template, a graphic or a portable custom interaction (QTI 2.1 info model, sections 2 and 5)."""
    if root.get("adaptive") == "true":
        raise NoKind("it is adaptive: the learner answers again after feedback, for a score that changes "
                     "with each attempt, which lmsexport's questions have no place for", root,
                     "make it an item of one attempt (adaptive=\"false\") in the tool that made it")
    template = root.find(f"{_Q}templateDeclaration")
    if template is not None or root.find(f"{_Q}templateProcessing") is not None:
        raise NoKind("it is a template item: its values are drawn at random for each learner, which "
                     "lmsexport's questions cannot do", template if template is not None else root,
                     "write one version of the question, with its values fixed")
    for node in root.iter():
        name = node.tag.rpartition("}")[2] if isinstance(node.tag, str) else ""
        if name in _GRAPHIC:
            raise NoKind(f"its {name} asks for places on an image, for which lmsexport has no kind", node,
                         "make it a choice question whose options name the places")
        if name in _CUSTOM:
            raise NoKind(f"its {name} is run by the tool that made it, which no other format can", node,
                         "make it a question of a kind every LMS has (choice, text entry, match, order)")


def _scored(root, question: Question, item: Item) -> Question:
    """The question with the item's scoring policy (the quiz's is partial), warning when it is not exact."""
    if not question.has_parts:
        return question
    found, instead = policy(root, question)
    if instead is not None:
        item.log.warn("W821", f"{item.reader.subject}: it scores {instead}, which is neither of "
                      f"lmsexport's scoring policies; it is read as {found}", item.span,
                      "every output scores it by that policy (docs/scoring.md); give the question the policy you "
                      "want (in a quiz text, @scoring)")
    return dataclasses.replace(question, scoring=found) if found != "partial" else question


def interactions_of(root) -> list:
    body = root.find(f"{_Q}itemBody")
    return [] if body is None else [n for n in body.iter() if isinstance(n.tag, str) and n.tag.endswith("Interaction")]


def _kind(root, interactions: list):
    names_ = {node.tag.rpartition("}")[2] for node in interactions}
    if not interactions:
        return _description
    if names_ <= {"textEntryInteraction", "inlineChoiceInteraction"} and not _alone(interactions):
        return read_fill_blanks
    single = {"choiceInteraction": _choice, "textEntryInteraction": _typed, "extendedTextInteraction": _essay,
              "matchInteraction": _matching, "orderInteraction": _ordering, "associateInteraction": read_associate,
              "gapMatchInteraction": read_gap_match}
    if len(interactions) == 1 and names_ <= set(single):
        return single[names_.pop()]
    known = ", ".join(sorted(names_))
    raise NoKind(f"it has {known}, for which lmsexport has no kind (it reads one choice, text entry, extended "
                 "text, match, associate, order or gap match interaction per item, or text entries and inline "
                 "choices in a text)", interactions[0],
                 "split it into items of one interaction each, or make it one of those kinds")


def _alone(interactions: list) -> bool:
    """One text entry that is all there is of the last block of the body: a short answer box."""
    if len(interactions) != 1 or not interactions[0].tag.endswith("textEntryInteraction"):
        return False
    holder = interactions[0].getparent()
    body = holder.getparent()
    unit = unit_span(interactions[0])
    return (body is not None and body.tag == f"{_Q}itemBody" and holder is body[-1]
            and len(holder) == 1 + (unit is not None) and not (holder.text or "").strip()
            and not (interactions[0].tail or "").strip())


def unit_span(interaction):
    """The `<span class="unit">` lmsexport writes right after a numeric item's answer box, last in
    its block, or None."""
    unit = interaction.getnext()
    if (unit is None or unit.tag != f"{_Q}span" or unit.get("class") != names.UNIT_CLASS or len(unit)
            or not (unit.text or "").strip() or unit.getnext() is not None or (unit.tail or "").strip()
            or (interaction.tail or "").strip()):
        return None
    return unit


def points(root, weight: str | None) -> float:
    """MAXSCORE (written by lmsexport, read by New Quizzes), else SCORE's normalMaximum, else the
    mapping's upper bound, else the test's weight, else 1."""
    maximum = root.find(f"{_Q}outcomeDeclaration[@identifier='{names.MAXSCORE}']/{_Q}defaultValue/{_Q}value")
    if maximum is not None:
        return read_number(maximum.text, maximum, "MAXSCORE")
    score = root.find(f"{_Q}outcomeDeclaration[@identifier='{names.SCORE}']")
    if score is not None and score.get("normalMaximum"):
        return read_number(score.get("normalMaximum"), score, "SCORE's normalMaximum")
    mapping = root.find(f"{_Q}responseDeclaration/{_Q}mapping[@upperBound]")
    if mapping is not None:
        return read_number(mapping.get("upperBound"), mapping, "the mapping's upperBound")
    return read_number(weight, root, "the item's weight in the test") if weight is not None else 1.0


def _choice(root, interactions, common: dict, feedback: Feedback, reader: TextReader) -> Question:
    interaction = interactions[0]
    response = interaction.get("responseIdentifier", "")
    declared = declaration(root, response)
    correct = set(correct_values(declared))
    if not correct:
        raise Unreadable("the response declaration has no correctResponse", declared,
                         "lmsexport (and Canvas) take the correct options from <correctResponse>")
    nodes = interaction.findall(f"{_Q}simpleChoice")
    ids = [node.get("identifier", "") for node in nodes]
    prompt = _prompt(root, interaction, reader)
    if sorted(ids) == [names.FALSE, names.TRUE] and declared.get("cardinality") == "single":
        return TrueFalse(**common, prompt=prompt, answer=names.TRUE in correct)
    shown = feedback.per_answer(lambda test: picked(test, response)) | feedback.echoed_choices(ids)
    if (correct | set(shown)) - set(ids):
        raise Unreadable(f"no option is identified as {', '.join(sorted((correct | set(shown)) - set(ids)))}",
                         interaction, "name the identifiers of the item's simpleChoices in its correctResponse "
                         "and its feedback rules")
    choices = tuple(Choice(id=i, text=reader.text(node), correct=i in correct, feedback=shown.get(i))
                    for i, node in zip(ids, nodes, strict=True))
    return MultipleChoice(**common, prompt=prompt, choices=choices,
                          multiple_response=declared.get("cardinality") == "multiple")


def _typed(root, interactions, common: dict, feedback: Feedback, reader: TextReader) -> Question:
    interaction = interactions[0]
    response = interaction.get("responseIdentifier", "")
    declared = declaration(root, response)
    prompt = _prompt(root, interaction, reader)
    if declared.get("baseType") in ("float", "integer"):
        answers = _numeric_answers(root, declared, common["points"])
        shown = feedback.per_answer(lambda test: _numeric_match(test, response, answers))
        answers = tuple(dataclasses.replace(a, feedback=shown.get(n)) for n, a in enumerate(answers))
        unit = unit_span(interaction)
        return Numeric(**common, prompt=prompt, answers=answers, unit=None if unit is None else unit.text.strip())
    answers, case_sensitive = typed_answers(root, declared, common["points"], feedback)
    return ShortAnswer(**common, prompt=prompt, answers=answers, case_sensitive=case_sensitive)


def _numeric_answers(root, declared, full: float) -> tuple[NumericAnswer, ...]:
    """From the first-match `equal` rules (lmsexport), else the correct response."""
    response = declared.get("identifier")
    processing = root.find(f"{_Q}responseProcessing")
    for rule in [] if processing is None else processing.iterfind(f"{_Q}responseCondition"):
        found = []
        for branch in rule:
            test = branch[0] if len(branch) and branch.tag != f"{_Q}responseElse" else None
            score = score_set(branch)
            if test is not None and test.tag == f"{_Q}equal" and variable_of(test) == response and score is not None:
                value, tolerance = _equal_operands(test)
                found.append(NumericAnswer(value=value, tolerance=tolerance, credit=credit(score, full)))
        if found:
            return tuple(found)
    values = correct_values(declared)
    if not values:
        raise Unreadable("the response declaration has no correctResponse", declared, NO_CORRECT_RESPONSE)
    return (NumericAnswer(value=read_number(values[0], declared, "the correct response")),)


def _equal_operands(test) -> tuple[float, float]:
    value = test.find(f"{_Q}baseValue")
    if value is None or test.get("toleranceMode", "exact") not in ("exact", "absolute"):
        raise Unreadable("lmsexport reads numbers compared exactly or within an absolute tolerance", test,
                         "compare the number exactly, or with toleranceMode=\"absolute\"")
    tolerances = test.get("tolerance", "0").split() if test.get("toleranceMode") == "absolute" else ["0"]
    if len(set(tolerances)) != 1:
        raise Unreadable("a tolerance that differs below and above the number has no place in the model", test,
                         "give one tolerance, the same below and above the number")
    return read_number(value.text, value, "the number compared"), read_number(tolerances[0], test, "the tolerance")


def _numeric_match(test, response: str, answers) -> int | None:
    if test.tag != f"{_Q}equal" or variable_of(test) != response:
        return None
    value, tolerance = _equal_operands(test)
    return next((n for n, a in enumerate(answers) if (a.value, a.tolerance) == (value, tolerance)), None)


def _essay(root, interactions, common: dict, feedback: Feedback, reader: TextReader) -> Question:
    interaction = interactions[0]
    lines = read_number(interaction.get("expectedLines", "10"), interaction, "expectedLines")
    return Essay(**common, prompt=_prompt(root, interaction, reader), lines=round(min(max(lines, 1), 100)))


def _matching(root, interactions, common: dict, feedback: Feedback, reader: TextReader) -> Question:
    interaction = interactions[0]
    sets = interaction.findall(f"{_Q}simpleMatchSet")
    if len(sets) != 2:
        raise Unreadable("a matchInteraction needs two simpleMatchSets", interaction,
                         "give it two simpleMatchSets: the items on the left, then those they match")
    left, right = ({n.get("identifier"): n for n in s.iterfind(f"{_Q}simpleAssociableChoice")} for s in sets)
    values = [value.split() for value in correct_values(declaration(root, interaction.get("responseIdentifier", "")))]
    if any(len(pair) != 2 for pair in values):
        raise Unreadable("a correct response of a matchInteraction is not a pair of identifiers", interaction,
                         "write each value of the correctResponse as two identifiers, left then right (\"C R\")")
    pairs = dict(values)
    if set(pairs) - set(left) or set(pairs.values()) - set(right):
        raise Unreadable("the correct response pairs identifiers the match sets do not have", interaction,
                         "pair an identifier of the first simpleMatchSet with one of the second")
    matched = tuple(MatchPair(id=i, left=reader.text(node), right=reader.text(right[pairs[i]]))
                    for i, node in left.items() if i in pairs)
    distractors = tuple(reader.text(node) for i, node in right.items() if i not in set(pairs.values()))
    return Matching(**common, prompt=_prompt(root, interaction, reader), pairs=matched, distractors=distractors)


def read_associate(root, interactions, common: dict, feedback: Feedback, reader: TextReader) -> Question:
    """An associateInteraction whose right pairs share no choice, as a matching: the first of each
    pair on the left, the second on the right, the choices in no pair right-hand distractors."""
    interaction = interactions[0]
    choices = {n.get("identifier"): n for n in interaction.iterfind(f"{_Q}simpleAssociableChoice")}
    pairs = [value.split() for value in correct_values(declaration(root, interaction.get("responseIdentifier")))]
    used = [identifier for pair in pairs for identifier in pair]
    if any(len(pair) != 2 for pair in pairs) or len(set(used)) != len(used) or set(used) - set(choices):
        raise NoKind("its right associations share choices, which a matching (each left item matched with one "
                     "right item) cannot hold", interaction,
                     "make it a matchInteraction, each item on the left matched with one on the right")
    matched = tuple(MatchPair(id=left, left=reader.text(choices[left]), right=reader.text(choices[right]))
                    for left, right in pairs)
    distractors = tuple(reader.text(node) for identifier, node in choices.items() if identifier not in used)
    reader.log.warn("W883", f"{reader.subject}: its associateInteraction is read as a matching: the first choice "
                    "of each right pair on the left, the other choices on the right", reader.span,
                    "nothing to do if that is how learners should pair them")
    return Matching(**common, prompt=_prompt(root, interaction, reader), pairs=matched, distractors=distractors)


def _ordering(root, interactions, common: dict, feedback: Feedback, reader: TextReader) -> Question:
    interaction = interactions[0]
    nodes = {node.get("identifier", ""): node for node in interaction.iterfind(f"{_Q}simpleChoice")}
    order = correct_values(declaration(root, interaction.get("responseIdentifier", "")))
    if sorted(order) != sorted(nodes):
        raise Unreadable("the correct response does not put every item of the orderInteraction in order", interaction,
                         "list every simpleChoice of the orderInteraction once in the correctResponse, in order")
    items = tuple(OrderItem(id=i, text=reader.text(nodes[i])) for i in order)
    return Ordering(**common, prompt=_prompt(root, interaction, reader), items=items)


def _description(root, interactions, common: dict, feedback: Feedback, reader: TextReader) -> Question:
    body = root.find(f"{_Q}itemBody")
    if body is None:
        raise Unreadable("the item has no itemBody", root, "give the item an <itemBody> holding its question")
    return Description(**{**common, "points": 0.0}, prompt=_stem(copy.deepcopy(body), reader))


def _prompt(root, interaction, reader: TextReader) -> Text:
    """The stem: lmsexport's one div, or else everything around the interaction plus its prompt."""
    body = copy.deepcopy(root.find(f"{_Q}itemBody"))
    unindent(body)
    nested = next(node for node in body.iter(interaction.tag)
                  if node.get("responseIdentifier") == interaction.get("responseIdentifier"))
    prompt = nested.find(f"{_Q}prompt")
    holder = nested.getparent()
    unit = unit_span(nested)
    if unit is not None:
        _remove(unit)
    _remove(nested)
    if holder is not body and not len(holder) and not (holder.text or "").strip():
        _remove(holder)
    if prompt is None:
        return _stem(body, reader)
    if not len(body) and not (body.text or "").strip():
        return reader.text(prompt)
    return html_text("".join(reader.html(node) for node in body) + f"<div>{reader.inner_html(prompt)}</div>",
                     clean=reader.clean)


def _stem(body, reader: TextReader) -> Text:
    stem = list(body)
    lone = len(stem) == 1 and not (body.text or "").strip()
    if lone and stem[0].tag == f"{_Q}div" and set(stem[0].attrib) <= {_LANG}:
        return reader.text(stem[0])
    return html_text("".join(reader.html(node) for node in stem), clean=reader.clean) if stem else Text("")


def _remove(node) -> None:
    """Take `node` out of its parent, keeping the text that followed it."""
    if node.tail and node.tail.strip():
        replace_with_text(node)
    else:
        node.getparent().remove(node)

