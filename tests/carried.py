"""A quiz as each format carries it: the model less the lossy fields its docs page documents.

`carried(quiz, format)` is what reading back a package of `format` must give, for the quizzes
tests/strategies.py makes (values the formats carry exactly: no negative credits, no texts in a
language of their own). Each rule below cites the page and section it comes from.
"""

from __future__ import annotations

import dataclasses
from collections import Counter

from lmsexport.ids import letters
from lmsexport.model import FillBlanks, Gap, Matching, MultipleChoice, Ordering, Quiz, Settings, TrueFalse
from lmsexport.formats.moodle.rules import label, question_name
from lmsexport.text import default_title


def carried(quiz: Quiz, format: str) -> Quiz:
    """What a round trip through `format` (json, qti21 or moodle) gives back."""
    if format == "json":
        return quiz  # docs/formats/json.md: the model itself
    return _qti(quiz) if format == "qti21" else _moodle(quiz)


def _shuffles(question, kinds: tuple[type, ...]) -> bool:
    """Whether the question is of one of `kinds`, or has drop-down gaps: what a format shuffles."""
    if isinstance(question, kinds):
        return True
    return isinstance(question, FillBlanks) and any(gap.choices for gap in question.gaps)


def _typed_case(question):
    """`case_sensitive` means nothing without a typed gap, and no format carries it then."""
    if isinstance(question, FillBlanks) and not any(gap.answers for gap in question.gaps):
        return dataclasses.replace(question, case_sensitive=False)
    return question


def _qti(quiz: Quiz) -> Quiz:
    """docs/formats/qti21.md: no lint switches ("Not carried"), no number of attempts (W808);
    `Settings.shuffle` is read from the interactions, so a quiz without one that shuffles reads
    back unshuffled; a title equal to the one the writer derives reads back as none."""
    shuffle = quiz.settings.shuffle and any(
        _shuffles(q, (MultipleChoice, TrueFalse, Matching, Ordering)) for q in quiz.questions)
    questions = tuple(_typed_case(dataclasses.replace(q, title=None) if q.title == default_title(q.prompt, q.id) else q)
                      for q in quiz.questions)
    return dataclasses.replace(quiz, lint_ignore=(), questions=questions,
                               settings=dataclasses.replace(quiz.settings, attempts=None, shuffle=shuffle))


def _moodle(quiz: Quiz) -> Quiz:
    """docs/formats/moodle.md, "Lossy fields": only the shuffle of the quiz settings (and it only
    with options to shuffle), names as Moodle keeps them, feedback without a place (W656), tags
    and languages as the reader splits them (the quiz's language is its questions' most common),
    and the ids the reader gives (letters, `g1`, `g2`...)."""
    questions = tuple(_moodle_question(q) for q in quiz.questions)
    tags = [tuple(dict.fromkeys((*quiz.tags, *q.tags))) for q in quiz.questions]
    common = _common_start(tags)
    langs = [q.lang or quiz.lang for q in quiz.questions]
    lang = Counter(langs).most_common(1)[0][0]  # the reader's: its questions' most common language
    questions = tuple(dataclasses.replace(q, tags=t[len(common):], lang=own if own != lang else None)
                      for q, t, own in zip(questions, tags, langs))
    settings = Settings(shuffle=quiz.settings.shuffle and any(_shuffles(q, (MultipleChoice, Matching))
                                                              for q in quiz.questions))
    description = quiz.description
    if description is not None and (description.lang or quiz.lang) != lang:
        description = dataclasses.replace(description, lang=description.lang or quiz.lang)
    return dataclasses.replace(quiz, title=label(quiz.title), questions=questions, tags=common, settings=settings,
                               lint_ignore=(), lang=lang, description=description)


def _moodle_question(question):
    title = label(question.title) if question.title else None
    if title == question_name(question.prompt, question.id):
        title = None  # "a name equal to the one derived from the prompt means no title"
    question = dataclasses.replace(question, title=title)
    if isinstance(question, MultipleChoice):
        question = dataclasses.replace(question, choices=tuple(
            dataclasses.replace(c, id=letters(n)) for n, c in enumerate(question.choices)))
    elif isinstance(question, Matching):
        question = dataclasses.replace(question, pairs=tuple(
            dataclasses.replace(p, id=letters(n)) for n, p in enumerate(question.pairs)))
    elif isinstance(question, Ordering):
        question = dataclasses.replace(question, items=tuple(
            dataclasses.replace(i, id=letters(n)) for n, i in enumerate(question.items)))
    elif isinstance(question, FillBlanks):
        question = dataclasses.replace(question, correct_feedback=None, incorrect_feedback=None,
                                       segments=tuple(_moodle_segments(question.segments)))
    return _typed_case(question)


def _moodle_segments(segments):
    number = 0
    for part in segments:
        if isinstance(part, Gap):
            number += 1
            part = dataclasses.replace(part, id=f"g{number}", choices=tuple(
                dataclasses.replace(c, id=letters(n)) for n, c in enumerate(part.choices)))
        yield part


def _common_start(lists: list[tuple[str, ...]]) -> tuple[str, ...]:
    if not lists:
        return ()
    common = lists[0]
    for tags in lists[1:]:
        while tags[: len(common)] != common:
            common = common[:-1]
    return common
