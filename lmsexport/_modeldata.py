"""The model's JSON form: plain dicts in a fixed key order, defaults left out.

Kept apart from `model.py` so the contract stays readable; this is its serialisation.
Source positions are not part of the JSON form: they describe where a question came
from, not what it is, and would make outputs depend on the folder a build ran in.
"""

from __future__ import annotations

from .model import (
    QUESTION_KINDS,
    Choice,
    ModelError,
    MultipleChoice,
    Question,
    Quiz,
    Settings,
    Text,
)


def _text(data: dict | None) -> Text | None:
    return None if data is None else Text.from_dict(data)


def _choice_to_data(choice: Choice) -> dict:
    data = {"id": choice.id, "text": choice.text.as_dict(), "correct": choice.correct}
    if choice.feedback:
        data["feedback"] = choice.feedback.as_dict()
    return data


def _question_to_data(question: Question) -> dict:
    data: dict = {"kind": question.kind, "id": question.id}
    if question.title:
        data["title"] = question.title
    if question.lang:
        data["lang"] = question.lang
    data["prompt"] = question.prompt.as_dict()
    data["points"] = question.points
    if isinstance(question, MultipleChoice):
        data["multiple_response"] = question.multiple_response
        data["choices"] = [_choice_to_data(choice) for choice in question.choices]
    if question.explanation:
        data["explanation"] = question.explanation.as_dict()
    if question.tags:
        data["tags"] = list(question.tags)
    return data


def quiz_to_data(quiz: Quiz) -> dict:
    settings = quiz.settings
    data: dict = {"id": quiz.id, "title": quiz.title}
    if quiz.lang:
        data["lang"] = quiz.lang
    if quiz.description:
        data["description"] = quiz.description.as_dict()
    data["settings"] = {
        "shuffle": settings.shuffle,
        "pass_mark": settings.pass_mark,
        "feedback": settings.feedback,
    }
    if quiz.tags:
        data["tags"] = list(quiz.tags)
    if quiz.lint_ignore:
        data["lint_ignore"] = list(quiz.lint_ignore)
    data["questions"] = [_question_to_data(question) for question in quiz.questions]
    return data


def _question_from_data(data: dict) -> Question:
    kind = data["kind"]
    if kind not in QUESTION_KINDS:
        raise ModelError(f"unknown question kind {kind!r}")
    common = dict(
        id=data["id"],
        prompt=Text.from_dict(data["prompt"]),
        points=float(data.get("points", 1.0)),
        explanation=_text(data.get("explanation")),
        title=data.get("title"),
        lang=data.get("lang"),
        tags=tuple(data.get("tags", ())),
    )
    choices = tuple(
        Choice(
            id=choice["id"],
            text=Text.from_dict(choice["text"]),
            correct=bool(choice.get("correct", False)),
            feedback=_text(choice.get("feedback")),
        )
        for choice in data["choices"]
    )
    return MultipleChoice(
        **common, choices=choices, multiple_response=bool(data.get("multiple_response"))
    )


def quiz_from_data(data: dict) -> Quiz:
    settings = data.get("settings", {})
    pass_mark = settings.get("pass_mark")
    return Quiz(
        id=data["id"],
        title=data["title"],
        lang=data.get("lang"),
        description=_text(data.get("description")),
        settings=Settings(
            shuffle=bool(settings.get("shuffle", False)),
            pass_mark=None if pass_mark is None else float(pass_mark),
            feedback=settings.get("feedback", "immediate"),
        ),
        tags=tuple(data.get("tags", ())),
        lint_ignore=tuple(data.get("lint_ignore", ())),
        questions=tuple(_question_from_data(question) for question in data["questions"]),
    )
