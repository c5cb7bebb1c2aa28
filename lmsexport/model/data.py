"""The model's JSON form: plain dicts in the dataclasses' field order.

One generic walk over the dataclasses (guided by their type hints) instead of a
function per kind, so a new kind is serialised by being defined. Optional fields
that are None or empty are left out; everything else is written, defaults included, so a
reader of the JSON needs no knowledge of our defaults. Source positions are not
part of the form: they say where a question came from, not what it is, and would
make outputs depend on the folder a build ran in. Asset bytes are base64.
"""

from __future__ import annotations

import base64
import dataclasses
import functools
import types
import typing

from .base import ModelError, Question, Text
from .quiz import Quiz
from .kinds import QUESTION_KINDS


def to_data(value, **given):
    """A model object as JSON-ready data; fields `given` are those values, as they are."""
    if isinstance(value, Text):
        return value.as_dict()
    if dataclasses.is_dataclass(value):
        data = {"kind": value.kind} if isinstance(value, Question) else {}
        for spec in dataclasses.fields(value):
            if spec.name in given:
                data[spec.name] = given[spec.name]
                continue
            item = getattr(value, spec.name)
            optional = spec.default is not dataclasses.MISSING or spec.default_factory is not dataclasses.MISSING
            if spec.compare and not (optional and (item is None or item == ())):
                data[spec.name] = to_data(item)
        return data
    if isinstance(value, tuple):
        return [to_data(item) for item in value]
    if isinstance(value, bytes):
        return base64.b64encode(value).decode("ascii")
    return value


@functools.cache
def _hints(cls) -> dict:
    return typing.get_type_hints(cls)


def _convert(hint, value):
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        options = [option for option in typing.get_args(hint) if option is not type(None)]
        if value is None:
            return None
        if str in options and isinstance(value, str):
            return value
        (option,) = [o for o in options if o is not str] or options
        return _convert(option, value)
    if origin is tuple:
        if not isinstance(value, list):
            raise ModelError(f"expected a list, found {value!r}")
        return tuple(_convert(typing.get_args(hint)[0], item) for item in value)
    if hint is Text:
        return Text.from_dict(value)
    if hint is Question:  # built already (`question_from_data`), or its form
        return value if isinstance(value, Question) else from_data(_kind(value), value)
    if dataclasses.is_dataclass(hint):
        return from_data(hint, value)
    if hint is float and isinstance(value, (int, float)) and not isinstance(value, bool):
        try:
            return float(value)
        except OverflowError:
            raise ModelError("a number is too large (beyond what a floating-point number holds)") from None
    if hint is bytes and isinstance(value, str):
        try:
            return base64.b64decode(value, validate=True)
        except ValueError:
            raise ModelError("asset data is not base64") from None
    if not isinstance(value, hint):
        raise ModelError(f"expected {hint.__name__}, found {value!r}")
    return value


def _kind(data: dict) -> type[Question]:
    kind = data.get("kind")
    if kind not in QUESTION_KINDS:
        raise ModelError(f"unknown question kind {kind!r}")
    return QUESTION_KINDS[kind]


def from_data(cls, data: dict):
    """Build `cls` from its JSON form; unknown keys are refused, not ignored."""
    if not isinstance(data, dict):
        raise ModelError(f"expected an object for {cls.__name__}, found {data!r}")
    known = {spec.name: spec for spec in dataclasses.fields(cls) if spec.init and spec.compare}
    unknown = set(data) - set(known) - ({"kind"} if issubclass(cls, Question) else set())
    if unknown:
        raise ModelError(f"{cls.__name__} has no field {', '.join(sorted(unknown))}")
    hints = _hints(cls)
    return cls(**{name: _convert(hints[name], value) for name, value in data.items() if name in known})


def quiz_to_data(quiz: Quiz, **given) -> dict:
    """The quiz's JSON form; fields `given` stand there as they are (`questions=[mark]`: a
    writer that puts each question's own form in its place, one at a time)."""
    return to_data(quiz, **given)


def question_from_data(data: dict) -> Question:
    """A question from its form: a quiz's form may hold questions so built (`quiz_from_data`)."""
    return _convert(Question, data)


def quiz_from_data(data: dict) -> Quiz:
    """The quiz from its form, whose questions may be built already (`question_from_data`: a
    reader that builds each as it goes lets its form go, 100,000 questions' dicts are 500 MB)."""
    return from_data(Quiz, data)
