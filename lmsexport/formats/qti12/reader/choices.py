"""QTI 1.2 items of picked answers back into the model: multiple choice, multiple answers,
true/false, matching (and the writer's ordering-as-matching), ordering.

QTI ASI 1.2.1 (response_lid, render_choice): https://www.imsglobal.org/question/qtiv1p2/imsqti_asi_infov1p2.html
Part of the QTI 1.2 reader. The shapes are Canvas's (canvas-lms `lib/cc/qti/qti_items.rb`); the key
is read as Canvas's importer reads it (`gems/plugins/qti_exporter/lib/qti/choice_interaction.rb`,
`associate_interaction.rb`): the labels a condition giving the score names. Choice, pair and item
ids are given by position (`a`, `b`, ...): Canvas's answer idents are numbers.
"""

from __future__ import annotations

import dataclasses

from .. import names
from ....ids import letters
from ....model import Choice, Matching, MatchPair, MultipleChoice, OrderItem, Ordering, Question, Text, TrueFalse
from . import processing
from .items import Item, Skip, common, span
from ....text import counted, words
from ....xml import local_name


def read_choice(item: Item, meta: dict[str, str], declared: str | None) -> Question:
    """multiple_choice_question, multiple_answers_question, true_false_question (or an item of
    one response_lid of choices): the options, the right ones, each one's feedback."""
    lid = _one_lid(item)
    multiple = declared == names.MULTIPLE_ANSWERS or (declared is None and lid.get("rcardinality") == "Multiple")
    response = lid.get("ident", "")
    if multiple:
        right = [value for c in item.conditions if c.scores for value in c.named(response)]
    else:
        right = processing.right_values(item.conditions, response)
        _partial(item, processing.lesser_values(item.conditions, response), lid)
    options = _options(item, lid, response, set(right))
    if not any(choice.correct for choice in options):
        raise Skip("it has no right answer (no condition giving a score names one of its options)",
                   "mark the right answer in the source LMS and export it again")
    if not multiple and sum(choice.correct for choice in options) > 1:
        raise Skip("several options are marked as the one right answer",
                   "make it a multiple answers question, or mark one right answer")
    words = sorted(" ".join((choice.text.value if choice.text.format == "plain" else "")
                            .casefold().split()) for choice in options)
    if not multiple and words == ["false", "true"] and declared in (None, names.TRUE_FALSE):
        return _true_false(item, meta, options)
    return MultipleChoice(**common(item, meta), multiple_response=multiple, choices=tuple(options))


def _one_lid(item: Item):
    lids = item.responses("response_lid")
    if len(lids) != 1:
        raise Skip(f"a choice question has one list of options, this one has {len(lids)}",
                   "check the question in the source LMS")
    return lids[0]


def _options(item: Item, lid, response: str, right: set[str]) -> list[Choice]:
    """The options of a list, in order, each with the feedback shown when it is picked; wrong
    options with nothing to show (Canvas keeps the answers a teacher left empty) are left out
    while two options remain."""
    shown = processing.answer_feedback(item.conditions)
    found = []
    for n, label in enumerate(item.labels(lid)):
        ident = label.get("ident", "")
        feedback = item.feedback(*shown.get((response, ident), []), names.answer_feedback(ident))
        found.append((ident, Choice(id=letters(n), text=item.text([label], f"option {letters(n)}"),
                                    correct=ident in right, feedback=feedback, source=span(item, label))))
    kept = [choice for ident, choice in found if ident in right or not _blank(choice.text)]
    if len(kept) < len(found) and len(kept) >= 2:
        left = len(found) - len(kept)
        item.warn("W875", f"{counted(left, 'wrong option')} with nothing to show {'is' if left == 1 else 'are'} left "
                  "out (Canvas shows empty options)", "delete empty answers in the source LMS")
        found = [(None, choice) for choice in kept]
    return [dataclasses.replace(choice, id=letters(n)) for n, (_, choice) in enumerate(found)]


def _partial(item: Item, lesser: list[str], lid) -> None:
    if lesser:
        texts = {label.get("ident"): label for label in item.labels(lid)}
        shown = ", ".join(repr(item.words([texts[v]], "an option") if v in texts else v) for v in lesser)
        item.warn("W875", f"options that earn part of the points ({shown}) earn none: lmsexport's single choice has "
                  "one right answer", "make it a multiple answers question if several answers earn points")


def _true_false(item: Item, meta: dict[str, str], options: list[Choice]) -> TrueFalse:
    """Two options True and False: the model's true/false, whose feedback for the right and the
    wrong option joins the question's feedback for a right and a wrong answer (Canvas shows both)."""
    right = next(choice for choice in options if choice.correct)
    wrong = next(choice for choice in options if not choice.correct)
    fields = common(item, meta)
    fields["correct_feedback"] = _joined(fields["correct_feedback"], right.feedback)
    fields["incorrect_feedback"] = _joined(fields["incorrect_feedback"], wrong.feedback)
    return TrueFalse(**fields, answer=" ".join(right.text.value.casefold().split()) == "true")


def _joined(first: Text | None, second: Text | None) -> Text | None:
    if first is None or second is None:
        return first or second
    if first.format == second.format == "plain" and first.lang == second.lang:
        return Text(f"{first.value}\n{second.value}", "plain", first.lang)
    return Text("".join(_block(text) for text in (first, second)), "html")


def _block(text: Text) -> str:
    value = text.html()
    lang = f' lang="{text.lang}"' if text.lang else ""
    return value if value.startswith("<") and not lang else f"<p{lang}>{value}</p>"


def read_matching(item: Item, meta: dict[str, str], declared: str | None = names.MATCHING) -> Question:
    """matching_question: a response_lid per left item (its material the left text), each listing
    the options; the option a condition adding to the score names is its match. Options no left
    item matches are distractors. Options exactly `1`…`n`, each matched once, make the ordering
    the writer wrote as a matching (docs/formats/canvas.md)."""
    lids = item.responses("response_lid")
    options: dict[str, Text] = {}
    for lid in lids:
        for label in item.labels(lid):
            if label.get("ident", "") not in options:
                options[label.get("ident", "")] = item.text([label], f"the option {label.get('ident', '')!r}")
    pairs, matched = [], []
    for lid in lids:
        left = item.text([child for child in lid if local_name(child) == "material"], f"left item {len(pairs) + 1}")
        right = processing.right_values(item.conditions, lid.get("ident", ""))
        if not right or right[0] not in options:
            raise Skip(f"the left item {words(left)!r} has no match",
                       "give every left item its match in the source LMS")
        matched.append(right[0])
        pairs.append(MatchPair(id=letters(len(pairs)), left=left, right=options[right[0]], source=span(item, lid)))
    pairs, matched = _without_blank_pairs(item, pairs, matched)
    if len(pairs) < 2:
        raise Skip(f"a matching question needs two pairs or more, this one has {len(pairs)}",
                   "give it a second pair in the source LMS, or make it a question of another kind")
    if declared is None and all(_blank(pair.right) for pair in pairs):
        raise Skip("the options of its left items have no text (they may be elsewhere in the item, where the "
                   "reader does not look)", "check the question in the source LMS", code="W871")
    ordering = _ordering(item, meta, pairs, matched, options)
    if ordering is not None:
        return ordering
    shown = {text.value for text in (pair.right for pair in pairs)}
    distractors = []
    for ident, text in options.items():
        if ident not in matched and not _blank(text) and text.value not in shown:
            shown.add(text.value)
            distractors.append(text)
    return Matching(**common(item, meta), pairs=tuple(pairs), distractors=tuple(distractors))


def _without_blank_pairs(item: Item, pairs: list[MatchPair], matched: list[str]) -> tuple[list, list]:
    """The pairs but those with nothing to show on either side (rows a teacher left empty), while
    two pairs remain."""
    kept = [n for n, pair in enumerate(pairs) if not (_blank(pair.left) and _blank(pair.right))]
    if len(kept) == len(pairs) or len(kept) < 2:
        return pairs, matched
    left = len(pairs) - len(kept)
    item.warn("W875", f"{counted(left, 'pair')} with nothing to show on either side {'is' if left == 1 else 'are'} "
              "left out (Canvas shows empty rows)", "delete empty pairs in the source LMS")
    return [dataclasses.replace(pairs[n], id=letters(i)) for i, n in enumerate(kept)], [matched[n] for n in kept]


def _blank(text: Text) -> bool:
    """Nothing to see: no words and no image."""
    return not words(text) and "<img" not in text.value


def _ordering(item: Item, meta, pairs: list[MatchPair], matched: list[str], options: dict) -> Ordering | None:
    """The pairs as an ordering, when their options are the positions 1…n, each used once."""
    positions = [options[ident].value for ident in matched]
    expected = [str(n) for n in range(1, len(pairs) + 1)]
    if len(options) != len(pairs) or sorted(positions, key=lambda p: (len(p), p)) != expected:
        return None
    ordered = sorted(zip(positions, pairs), key=lambda found: int(found[0]))
    items = tuple(OrderItem(id=letters(n), text=pair.left) for n, (_, pair) in enumerate(ordered))
    return Ordering(**common(item, meta), items=items)


def read_ordering(item: Item, meta: dict[str, str]) -> Question:
    """A response_lid with `rcardinality="Ordered"` (IMS's ordering, New Quizzes' `ordering_question`):
    the labels in the order the scoring condition names them."""
    lid = _one_lid(item)
    labels = {label.get("ident", ""): label for label in item.labels(lid)}
    order = processing.right_values(item.conditions, lid.get("ident", ""))
    if sorted(order) != sorted(labels) or len(labels) < 2:
        raise Skip("its right order does not name each of its items once", "check the question in the source LMS")
    items = tuple(OrderItem(id=letters(n), text=item.text([labels[ident]], f"item {n + 1}"),
                            source=span(item, labels[ident])) for n, ident in enumerate(order))
    return Ordering(**common(item, meta), items=items)
