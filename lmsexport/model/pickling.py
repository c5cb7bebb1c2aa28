"""Pickling the model fast: a build with `--jobs` sends every quiz from a worker process to the parent.

A frozen dataclass with slots pickles through the `__getstate__` and `__setstate__` that
`dataclasses` gives it, which call `fields()` for every object, twice per field on loading: most
of the time of pickling a quiz went there (10,000 questions: 0.39 s to pickle, 0.28 s to load).
Each model class registers a reducer with `copyreg` instead, which lists its fields' values in
their order and sets them back through the slots; what is loaded was checked when it was made.
"""

from __future__ import annotations

import copyreg
import dataclasses
import functools
import operator


def register(*classes: type) -> None:
    """Pickle instances of each of `classes` (frozen dataclasses) by their fields' values."""
    for cls in classes:
        copyreg.pickle(cls, _reduce)


def _reduce(value):
    cls = type(value)
    return _rebuild, (cls, _values(cls)(value))


@functools.cache
def _names(cls: type) -> tuple[str, ...]:
    return tuple(spec.name for spec in dataclasses.fields(cls))


@functools.cache
def _values(cls: type):
    """A function giving an instance's field values as a tuple, in field order."""
    names = _names(cls)
    return operator.attrgetter(*names) if len(names) > 1 else lambda value: (getattr(value, names[0]),)


@functools.cache
def _setters(cls: type) -> tuple:
    """Each field's slot setter, in field order (a frozen class's own `__setattr__` refuses; the
    slot's descriptor is a third faster to call than `object.__setattr__` by name)."""
    return tuple(getattr(cls, name).__set__ for name in _names(cls))


def _rebuild(cls: type, values: tuple):
    """An instance of `cls` with these field values, without `__init__` (frozen: set through its slots)."""
    value = object.__new__(cls)
    for setter, item in zip(_setters(cls), values):
        setter(value, item)
    return value
