"""The QTI 2.1 interaction, response declaration and scoring of each question kind (part 1).

QTI 2.1 info model: https://www.imsglobal.org/question/qtiv2p1/imsqti_infov2p1.html
Part of the QTI writer (writer/__init__.py, which adds the outcomes, the stem and the
feedback around what these return). Choice, true/false, essay, matching, ordering and
text blocks here; typed answers (short answer, numeric, fill in the blanks) in
typed.py. docs/formats/qti21.md has the table of kinds and how each scores.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .. import names
from ....model import Choice, Description, Essay, Matching, MultipleChoice, Ordering, Question, Text, TrueFalse
from ....text import number, words
from ....xml import sub
from .body import TextWriter
from .processing import (
    all_or_nothing, condition, counted_share, float_outcome, set_outcome, share, show, value, variable, x,
)

TRUE_FALSE_LABELS = {
    "en": ("True", "False"), "fr": ("Vrai", "Faux"), "de": ("Wahr", "Falsch"), "es": ("Verdadero", "Falso"),
    "pt": ("Verdadeiro", "Falso"), "it": ("Vero", "Falso"), "nl": ("Waar", "Onwaar"), "vi": ("Đúng", "Sai"),
    "id": ("Benar", "Salah"), "ms": ("Betul", "Salah"), "yo": ("Òótọ́", "Irọ́"), "sw": ("Kweli", "Si kweli"),
    "ar": ("صح", "خطأ"), "zh": ("正确", "错误"), "ja": ("正しい", "誤り"), "ko": ("참", "거짓"),
    "ru": ("Верно", "Неверно"), "pl": ("Prawda", "Fałsz"), "tr": ("Doğru", "Yanlış"),
}
"""The two choices of a true/false item, by language (the primary subtag); English otherwise."""


@dataclass
class Context:
    """What a kind's writer needs: the question, its points as written, the quiz's shuffle, and
    the scoring policy the question is scored by (model.Quiz.scoring_of)."""

    question: Question
    points: str
    shuffle: bool
    lang: str | None
    text: TextWriter
    """Writes its texts and numbers, and its warnings."""
    scoring: str
    """The policy the question is scored by (model.Quiz.scoring_of)."""
    label: str
    """How messages name the question: `question 3` (model.Quiz.label)."""
    advise_canvas: bool = True
    """Warn where Canvas imports the item as less than it is (W803, W807, W809-W811): not when the
    same build writes the Canvas package (`--format canvas`), which carries those kinds."""

    def canvas_advice(self, code: str, message: str, hint: str) -> None:
        if self.advise_canvas:
            self.text.warn(code, message, hint)


@dataclass
class Parts:
    """What a kind adds to its item; writers/qti21.py puts it together."""

    declarations: list = field(default_factory=list)
    body: list = field(default_factory=list)
    """itemBody content after the stem (the whole body when `stem` is False)."""
    scoring: str | list | None = None
    """A standard template's name, explicit rules, or None (not scored by a machine)."""
    feedback_rules: list = field(default_factory=list)
    feedback: list[tuple[str, Text]] = field(default_factory=list)
    """modalFeedback for single options or answers: (identifier, text)."""
    interactions: tuple[str, ...] = ()
    stem: bool = True
    solution: bool = True
    """Whether the item has a correct response (the manifest's solutionAvailable)."""
    outcomes: list = field(default_factory=list)
    """Outcome declarations the kind's rules need besides SCORE, MAXSCORE and FEEDBACK."""


def declaration(identifier: str, cardinality: str, base_type: str, correct: list[str] | None = None):
    node = x("responseDeclaration", {"identifier": identifier, "cardinality": cardinality, "baseType": base_type})
    if correct:
        holder = sub(node, "qti:correctResponse")
        for item in correct:
            sub(holder, "qti:value", text=item)
    return node


def write_multiple_choice(context: Context) -> Parts:
    question: MultipleChoice = context.question
    if question.multiple_response and len(question.correct_choices) == 1:
        # Canvas picks the type from the number of correct options (choice_interaction.rb set_question_type).
        context.canvas_advice("W803", f"{context.label} has checkboxes but one correct option: Canvas "
                          "imports it as a multiple-choice (radio button) question", "mark a second option correct, "
                          "or change its type in Canvas after the import; QTI engines keep the checkboxes")
    return _choices(context, question.choices, question.multiple_response)


def write_true_false(context: Context) -> Parts:
    question: TrueFalse = context.question
    lang = (question.lang or context.lang or "en").split("-")[0].lower()
    labels = TRUE_FALSE_LABELS.get(lang, TRUE_FALSE_LABELS["en"])
    choices = (Choice(id=names.TRUE, text=Text(labels[0]), correct=question.answer),
               Choice(id=names.FALSE, text=Text(labels[1]), correct=not question.answer))
    return _choices(context, choices, False)


def _choices(context: Context, choices: tuple[Choice, ...], multiple: bool) -> Parts:
    """choiceInteraction: `match_correct` for one-point single choice, else `map_response`;
    multiple response scored all or nothing matches the correct response instead."""
    correct = [choice.id for choice in choices if choice.correct]
    if multiple and context.scoring == "all_or_nothing":
        template = all_or_nothing(context.points)
    else:
        template = "match_correct" if not multiple and context.points == "1" else "map_response"
    response = declaration(names.RESPONSE, "multiple" if multiple else "single", "identifier", correct)
    if template == "map_response":
        response.append(_choice_mapping(context.points, choices, multiple))
    interaction = x("choiceInteraction", {
        "responseIdentifier": names.RESPONSE, "shuffle": _flag(context.shuffle),
        "maxChoices": "0" if multiple else "1"})
    for choice in choices:
        context.text.put(sub(interaction, "qti:simpleChoice", {"identifier": choice.id}), choice.text)
    parts = Parts([response], [interaction], template, interactions=("choiceInteraction",))
    for position, choice in enumerate(choices):
        if choice.feedback:
            identifier = names.choice_feedback_identifier(position)
            picked = value("identifier", choice.id)
            test = x("member", None, picked, variable(names.RESPONSE)) if multiple else x(
                "match", None, variable(names.RESPONSE), picked)
            parts.feedback_rules.append(condition((test, [show(identifier)])))
            parts.feedback.append((identifier, choice.feedback))
    return parts


def _choice_mapping(points: str, choices: tuple[Choice, ...], multiple: bool):
    """Single choice: the correct option maps to the points. Multiple response: partial
    credit, +points/n for each correct option ticked and -points/n for each wrong one
    (n = number of correct options, Canvas's own multiple-answers rule), kept within 0..points."""
    if not multiple:
        mapping = x("mapping", {"defaultValue": "0"})
        sub(mapping, "qti:mapEntry", {"mapKey": next(c.id for c in choices if c.correct), "mappedValue": points})
        return mapping
    part = share(points, sum(choice.correct for choice in choices))
    mapping = x("mapping", {"lowerBound": "0", "upperBound": points, "defaultValue": "0"})
    for choice in choices:
        mapped = number(float(part if choice.correct else -part))
        sub(mapping, "qti:mapEntry", {"mapKey": choice.id, "mappedValue": mapped})
    return mapping


def write_essay(context: Context) -> Parts:
    """extendedTextInteraction, no correct response and no score rule: a person marks it."""
    question: Essay = context.question
    interaction = x("extendedTextInteraction", {"responseIdentifier": names.RESPONSE,
                                                "expectedLines": str(question.lines)})
    return Parts([declaration(names.RESPONSE, "single", "string")], [interaction],
                 interactions=("extendedTextInteraction",), solution=False)


def write_matching(context: Context) -> Parts:
    """matchInteraction: left items (the pair ids) in order, right items in an order that does
    not give the answer away; partial: one point share per right pair (`map_response`), no
    penalty; all or nothing: the correct response matched."""
    question: Matching = context.question
    rights = [pair.right for pair in question.pairs] + list(question.distractors)
    right_ids = [f"R{n}" for n in range(1, len(rights) + 1)]
    pairs = [f"{pair.id} {right_ids[n]}" for n, pair in enumerate(question.pairs)]
    response = declaration(names.RESPONSE, "multiple", "directedPair", pairs)
    scoring = all_or_nothing(context.points) if context.scoring == "all_or_nothing" else "map_response"
    if scoring == "map_response":
        part = number(float(share(context.points, len(pairs))))
        mapping = sub(response, "qti:mapping", {"lowerBound": "0", "upperBound": context.points, "defaultValue": "0"})
        for pair in pairs:
            sub(mapping, "qti:mapEntry", {"mapKey": pair, "mappedValue": part})
    interaction = x("matchInteraction", {"responseIdentifier": names.RESPONSE, "shuffle": _flag(context.shuffle),
                                         "maxAssociations": str(len(pairs))})
    left = sub(interaction, "qti:simpleMatchSet")
    for pair in question.pairs:
        context.text.put(sub(left, "qti:simpleAssociableChoice", {"identifier": pair.id, "matchMax": "1"}), pair.left)
    right = sub(interaction, "qti:simpleMatchSet")
    for position in display_order(rights, fixed=len(question.pairs)):
        choice = sub(right, "qti:simpleAssociableChoice", {"identifier": right_ids[position], "matchMax": "0"})
        context.text.put(choice, rights[position])
    return Parts([response], [interaction], scoring, interactions=("matchInteraction",))


def write_ordering(context: Context) -> Parts:
    """orderInteraction. All or nothing: the whole order right gives the points. Partial: PLACED
    counts the items in their right place (`index` picks the response's n-th item; NULL, no
    match, when the response is shorter), and SCORE is that share of MAXSCORE."""
    question: Ordering = context.question
    context.canvas_advice("W809", f"{context.label} is an ordering question: Canvas imports QTI 2.1 "
                      "orderInteraction as an error question (\"No question type used\")",
                      "for Canvas, build --format canvas, which writes it as a matching of items to positions; "
                      "QTI engines keep the ordering")
    response = declaration(names.RESPONSE, "ordered", "identifier", [item.id for item in question.items])
    interaction = x("orderInteraction", {"responseIdentifier": names.RESPONSE, "shuffle": _flag(context.shuffle)})
    for position in display_order([item.text for item in question.items]):
        item = question.items[position]
        context.text.put(sub(interaction, "qti:simpleChoice", {"identifier": item.id}), item.text)
    parts = Parts([response], [interaction], interactions=("orderInteraction",))
    if context.scoring == "all_or_nothing":
        parts.scoring = all_or_nothing(context.points)
        return parts
    parts.outcomes.append(float_outcome(names.PLACED, "0"))
    parts.scoring = [_placed(position, item.id) for position, item in enumerate(question.items, 1)]
    parts.scoring.append(counted_share(names.PLACED, len(question.items)))
    return parts


def _placed(position: int, item_id: str):
    """PLACED + 1 when the response's item at `position` (from 1) is `item_id`."""
    picked = x("index", {"n": str(position)}, variable(names.RESPONSE))
    added = x("sum", None, variable(names.PLACED), value("float", "1"))
    return condition((x("match", None, picked, value("identifier", item_id)), [set_outcome(names.PLACED, added)]))


def write_description(context: Context) -> Parts:
    """A text block: an item with no interaction, no response and no score (QTI 2.1 allows it)."""
    assert isinstance(context.question, Description)
    context.canvas_advice("W810", f"{context.label}: Canvas imports a QTI 2.1 item without an "
                      "interaction (a text block) as an error question (\"No question type used\")",
                      "for Canvas, build --format canvas, which writes it as a text-only question; QTI engines show it")
    return Parts(solution=False)


def display_order(texts: list[Text], fixed: int | None = None) -> list[int]:
    """Positions of `texts` in the order to show them: sorted by their words, so that the order
    says nothing about the answer (not every LMS shuffles), and reversed when sorting kept the
    key's order. Items from `fixed` on (matching distractors) keep their order among themselves,
    so a reader gets them back as the model has them."""
    keys = [words(text).casefold() for text in texts]
    limit = len(texts) if fixed is None else fixed
    order = sorted(range(len(texts)), key=lambda n: (keys[n], n))
    if [n for n in order if n < limit] == list(range(limit)):
        order.reverse()
    extras = iter(range(limit, len(texts)))
    return [next(extras) if n >= limit else n for n in order]


def _flag(on: bool) -> str:
    return "true" if on else "false"

