"""A quiz's own words for the player and the answer key: the JSON file a `messages:` setting names.

    {
      "check": "Ověřit",
      "finish": "Hotovo, ukázat výsledky",
      "points_one": "{points} bod", "points_few": "{points} body",
      "points_many": "{points} bodu", "points_other": "{points} bodů"
    }

One JSON object: keys are those of `messages/en.json` (docs/formats/scorm.md: the player's, and
the answer key's `key_` ones), each text keeps the `{placeholders}` of lmsexport's own, and a
counted message (`points`) is given in every CLDR plural category of the quiz's language or not
at all. The file is read
like every text source (UTF-8, NFC); each problem is located at its key (E121-E124, all
raised together), since a misspelt key silently ignored would ship the player's own words.
"""

from __future__ import annotations

import difflib
import hashlib
import json
import posixpath
import re
from dataclasses import dataclass, field

from ..diagnostics import Diagnostic, SourceError, SourceSpan
from ..paths import unsafe_path
from ..textinput import decode
from ..vocabulary import XML_ILLEGAL
from . import ANSWER_KEY, COUNTED, ENGLISH, PLACEHOLDER, catalog, counted_key, language_name, plural_categories

_KEY = re.compile(r'"((?:[^"\\]|\\.)*)"\s*:')
_DOCS = "the keys are listed in docs/formats/scorm.md"
LIMIT = 1 << 20
"""Bytes a messages file may have (the player's own words for a language are 4 KB)."""


@dataclass(frozen=True)
class MessagesFile:
    """A messages file as loaded: its name for messages and its bytes."""

    source: str
    data: bytes = field(repr=False)

    def __repr__(self) -> str:
        """With a digest of the bytes: a build's fingerprint of its settings (`repr`) then
        changes when the file does."""
        return f"MessagesFile({self.source!r}, blake2b={hashlib.blake2b(self.data, digest_size=16).hexdigest()})"


def check_path(value: str) -> str:
    """The `messages:` value: a JSON file by a relative path (`cs-messages.json`, `words/cs.json`)."""
    if not value.lower().endswith(".json") or unsafe_path(value) or value.startswith(("/", "\\")):
        raise ValueError("name a .json file by its path relative to the quiz's folder, e.g. cs-messages.json")
    return value


def beside(quiz_source: str, relative: str) -> str:
    """How messages name a messages file given relative to a quiz (`quizzes/cs.json`)."""
    folder = posixpath.dirname(quiz_source.replace("\\", "/"))
    return posixpath.join(folder, relative) if folder else relative


class _Pairs(list):
    """A JSON object as its (key, value) pairs in the order written, duplicates kept."""


class _Checker:
    """Collects the problems of one file, each at the line and column of its key."""

    def __init__(self, source: str, text: str):
        self.source, self.text = source, text
        self.lines = text.split("\n")
        self.problems: list[Diagnostic] = []

    def error(self, code: str, message: str, key: str | None, hint: str, occurrence: int = 0) -> None:
        line, column, length = self._where(key, occurrence)
        self.problems.append(Diagnostic(code, message, SourceSpan(self.source, line, column, length), hint,
                                        source_line=self.lines[line - 1]))

    def _where(self, key: str | None, occurrence: int) -> tuple[int, int, int]:
        """Where `key` is written (its `occurrence`-th time, for a key given twice), else the start."""
        found = [m for m in _KEY.finditer(self.text) if _decoded(m[1]) == key] if key is not None else []
        if not found:
            return 1, 1, 1
        match = found[min(occurrence, len(found) - 1)]
        line = self.text.count("\n", 0, match.start()) + 1
        return line, match.start() - self.text.rfind("\n", 0, match.start()), len(match[0].rstrip(": \t"))


def _decoded(raw: str) -> str | None:
    try:
        return json.loads(f'"{raw}"')
    except json.JSONDecodeError:
        return None


def read_messages(file: MessagesFile, lang: str | None) -> tuple[tuple[str, str], ...]:
    """The words a messages file gives, checked, as `Settings.messages` holds them; raises
    SourceError with every problem of the file."""
    text = decode(file.data, file.source)
    checker = _Checker(file.source, text)
    try:
        pairs = json.loads(text, object_pairs_hook=_Pairs)
    except json.JSONDecodeError as exc:
        raise SourceError([Diagnostic("E122", f"not JSON: {exc.msg}", SourceSpan(file.source, exc.lineno, exc.colno),
                                      'write one object of keys and texts: {"check": "Ověřit"}',
                                      source_line=checker.lines[exc.lineno - 1])]) from None
    if not isinstance(pairs, _Pairs):
        checker.error("E122", "the file must hold one JSON object of keys and texts", None,
                      'write {"check": "Ověřit", ...}; ' + _DOCS)
        raise SourceError(checker.problems)
    words = _words(checker, pairs, lang)
    if checker.problems:
        raise SourceError(sorted(checker.problems, key=lambda problem: problem.span.line or 0))
    return tuple(sorted(words.items()))


def _words(checker: _Checker, pairs: list, lang: str | None) -> dict[str, str]:
    english = catalog(ENGLISH)
    categories = plural_categories(lang)
    known = [key for key in english if not counted_key(key)]
    known += [f"{stem}_{category}" for stem in COUNTED for category in categories]
    words: dict[str, str] = {}
    given: dict[str, int] = {}
    for key, value in pairs:
        given[key] = given.get(key, -1) + 1
        if given[key]:
            checker.error("E122", f"{key!r} is given twice", key, "keep one", given[key])
        elif not isinstance(value, str) or not value.strip() or XML_ILLEGAL.search(value):
            checker.error("E122", f"the text of {key!r} must be a string of words", key,
                          'write it between double quotes: "check": "Ověřit"')
        elif key not in known:
            checker.error("E123", *_unknown(key, known, lang, categories))
        else:
            words[key] = value
            _placeholders(checker, key, value, english)
    _all_forms(checker, words, lang, categories)
    return words


def _unknown(key: str, known: list[str], lang: str | None, categories: tuple[str, ...]) -> tuple[str, str, str]:
    stem = counted_key(key)
    if stem:
        language = language_name(lang or ENGLISH)
        return (f"{language} has no plural category {key.rpartition('_')[2]!r}", key,
                f"{language} counts in {', '.join(categories)} (CLDR): write "
                f"{', '.join(f'{stem}_{category}' for category in categories)}")
    close = difflib.get_close_matches(key, known, n=1, cutoff=0.6)
    return (f"unknown message key {key!r}", key, (f"did you mean {close[0]!r}? " if close else "") + _DOCS)


def _placeholders(checker: _Checker, key: str, value: str, english: dict[str, str]) -> None:
    stem = counted_key(key)
    own = english[f"{stem}_other"] if stem else english[key]
    wanted = set(PLACEHOLDER.findall(own))
    given = set(PLACEHOLDER.findall(value))
    if given != wanted:
        page = "the answer key" if key.startswith(ANSWER_KEY) else "the player"
        missing, unknown = sorted(wanted - given), sorted(given - wanted)
        parts = ([f"lacks {', '.join('{' + name + '}' for name in missing)}"] if missing else []) + (
            [f"has {', '.join('{' + name + '}' for name in unknown)}, which {page} does not fill in"]
            if unknown else [])
        expected = ", ".join("{" + name + "}" for name in sorted(wanted)) or "no placeholder"
        checker.error("E124", f"the text of {key!r} {' and '.join(parts)}", key,
                      f"{page}'s own text has {expected}: {own!r}")


def _all_forms(checker: _Checker, words: dict[str, str], lang: str | None, categories: tuple[str, ...]) -> None:
    """A counted message in some plural forms only would mix the file's words with lmsexport's."""
    for stem in COUNTED:
        given = [category for category in categories if f"{stem}_{category}" in words]
        if given and len(given) < len(categories):
            missing = [f"{stem}_{category}" for category in categories if category not in given]
            checker.error("E124", f"{stem} is given in {len(given)} of the {len(categories)} plural forms of "
                          f"{language_name(lang or ENGLISH)}", f"{stem}_{given[0]}",
                          f"give {', '.join(missing)} too (CLDR's categories: {', '.join(categories)})")


def quiz_messages(value: str | MessagesFile | None, lang: str | None, assets, where: SourceSpan,
                  ) -> tuple[tuple[str, str], ...]:
    """The words a quiz's `messages:` setting gives: a path relative to the quiz (read through
    `assets`, the reader's loader of the files beside the quiz) or a file lmsexport.toml's
    `[defaults]` named (loaded already). Raises SourceError: E121 at `where` (the setting) for a
    file that cannot be read, E122-E124 in the file."""
    if value is None:
        return ()
    if isinstance(value, str):
        name = beside(where.source, value)
        problem = None
        if assets is None:
            problem = f"the messages file {value!r} cannot be loaded: the quiz was not read from a folder"
        else:
            try:
                value = MessagesFile(name, assets(value))
            except OSError as exc:
                problem = f"the messages file {name} cannot be read: {exc.strerror or exc}"
        if problem is not None:
            raise SourceError([Diagnostic("E121", problem, where,
                                          "give the path of a JSON file relative to the quiz's file")])
    if len(value.data) > LIMIT:
        raise SourceError([Diagnostic("E121", f"the messages file {value.source} is larger than {LIMIT} bytes",
                                      where, "keep only the player's words in it")])
    return read_messages(value, lang)
