"""What the SCORM player needs to know about each kind of question, as JSON-ready data.

One `_<kind>` function per question kind adds its answer fields to the common ones.
The player (static/kinds-*.js) renders, scores and records each kind from this data
alone; the keys are the player's (camelCase where JavaScript reads them), and empty
entries are left out. Texts go through a `TextConverter` (math, images).
"""

from __future__ import annotations

from ...model import (
    Description, Essay, FillBlanks, Gap, Matching, MultipleChoice, Numeric, Ordering, Question, Quiz, ShortAnswer,
    Text, TrueFalse,
)
from ...numbers import PERCENT, player_numbers
from ...quantities import PERCENT_UNIT
from ...text import direction, shorten, words
from .limits import DESCRIPTION_LIMIT
from .player_text import TextConverter



def compact(data: dict) -> dict:
    """The data without its empty (None) entries: the player treats missing and null alike."""
    return {key: value for key, value in data.items() if value is not None}


def interaction_id(quiz: Quiz, question: Question, version: str) -> str:
    """SCORM 1.2: the question id (a CMIIdentifier); 2004: a URN, as the RTE advises for long_identifier_type."""
    return question.id if version == "1.2" else f"urn:lmsexport:{quiz.id}:{question.id}"


def _interaction_description(question: Question) -> str:
    """2004 interaction description: the prompt as plain text, cut to the SCORM limit."""
    return shorten(words(question.prompt), DESCRIPTION_LIMIT)


def _common(quiz: Quiz, question: Question, version: str, texts: TextConverter) -> dict:
    lang = question.lang if question.lang and question.lang != quiz.lang else None
    answered = not isinstance(question, Description)
    return {
        "id": question.id,
        "kind": question.kind,
        "interaction": interaction_id(quiz, question, version) if answered else None,
        "description": _interaction_description(question) if answered and version == "2004" else None,
        "points": question.points,
        "scored": None if question.scored else False,
        "scoring": quiz.scoring_of(question) if question.has_parts else None,
        "lang": lang,
        "dir": direction(lang) if lang else None,
        "prompt": texts(question.prompt),
        "explanation": texts(question.explanation),
        "correctFeedback": texts(question.correct_feedback),
        "incorrectFeedback": texts(question.incorrect_feedback),
    }


def _choices(choices, texts: TextConverter, *, labels: bool = False) -> list[dict]:
    return [compact({"id": c.id, "text": texts(c.text), "label": words(c.text) if labels else None,
                     "correct": c.correct, "feedback": texts(c.feedback)}) for c in choices]


def _multiple_choice(question: MultipleChoice, texts: TextConverter) -> dict:
    return {"multiple": question.multiple_response, "choices": _choices(question.choices, texts)}


def _true_false(question: TrueFalse, texts: TextConverter) -> dict:
    return {"answer": question.answer}


def _answers(answers, texts: TextConverter) -> list[dict]:
    return [compact({"text": a.text, "credit": a.credit, "feedback": texts(a.feedback)}) for a in answers]


def _short_answer(question: ShortAnswer, texts: TextConverter) -> dict:
    return {"answers": _answers(question.answers, texts), "caseSensitive": question.case_sensitive}


def _numeric(question: Numeric, texts: TextConverter) -> dict:
    """The answers, and the unit a learner may type after the number (`units`: its spellings)."""
    units = None if question.unit is None else [question.unit]
    if question.unit == PERCENT_UNIT:
        units = sorted(PERCENT)
    return {"answers": [compact({"value": a.value, "tolerance": a.tolerance, "credit": a.credit,
                                 "feedback": texts(a.feedback)}) for a in question.answers],
            "unit": question.unit, "units": units}


def _essay(question: Essay, texts: TextConverter) -> dict:
    return {"lines": question.lines}


def _matching(question: Matching, texts: TextConverter) -> dict:
    """Right-hand items once each (two pairs may share one), numbered `1`, `2` ... for the interaction."""
    options: dict[Text, str] = {}
    for right in (*(pair.right for pair in question.pairs), *question.distractors):
        options.setdefault(right, str(len(options) + 1))
    return {
        "pairs": [{"id": pair.id, "left": texts(pair.left), "option": options[pair.right]} for pair in question.pairs],
        "options": [{"id": number, "text": texts(text), "label": words(text)} for text, number in options.items()],
    }


def _ordering(question: Ordering, texts: TextConverter) -> dict:
    return {"items": [{"id": item.id, "text": texts(item.text)} for item in question.items]}


def _segment(part: str | Gap, question: FillBlanks, texts: TextConverter) -> dict:
    if isinstance(part, str):
        # Segments are in the prompt's format: plain text, or HTML cut at the gaps.
        return {"text": texts(Text(part, question.prompt.format))}
    if part.answers:
        return {"gap": part.id, "answers": _answers(part.answers, texts)}
    return {"gap": part.id, "choices": _choices(part.choices, texts, labels=True)}


def _fill_blanks(question: FillBlanks, texts: TextConverter) -> dict:
    return {"segments": [_segment(part, question, texts) for part in question.segments],
            "caseSensitive": question.case_sensitive}


def _description(question: Description, texts: TextConverter) -> dict:
    return {}


_KINDS = {
    MultipleChoice.kind: _multiple_choice,
    TrueFalse.kind: _true_false,
    ShortAnswer.kind: _short_answer,
    Numeric.kind: _numeric,
    Essay.kind: _essay,
    Matching.kind: _matching,
    Ordering.kind: _ordering,
    FillBlanks.kind: _fill_blanks,
    Description.kind: _description,
}
"""Kind name -> the function adding that kind's fields (every kind of the model has one)."""


def question_data(quiz: Quiz, question: Question, version: str, texts: TextConverter) -> dict:
    """Everything the player needs to show, score and record one question."""
    texts.where = quiz.where(question)
    kind = _KINDS[question.kind]
    # A typed number is read as the question's language writes numbers (lmsexport/numbers.py).
    numbers = {"numbers": player_numbers(question.lang or quiz.lang)} if isinstance(question, Numeric) else {}
    return compact({**_common(quiz, question, version, texts), **kind(question, texts), **numbers})
