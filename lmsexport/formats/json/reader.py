"""Read the lmsexport model's JSON form back (the one `writer.py` beside it writes).

Refuses other major versions of the model instead of guessing, and turns any
shape error into a located SourceError. A JSON file is a source like any other: its HTML
texts pass the one sanitiser (markup.Sanitiser), what it removes is a warning in `log`
(W010), a text it empties an error (E010).
"""

from __future__ import annotations

import dataclasses
import json
import unicodedata

from ...diagnostics import Diagnostic, Log, SourceError, SourceSpan
from ...markup import Sanitiser
from ...model import (
    MODEL_VERSION, READ_MODEL_VERSIONS, ModelError, Numbering, Quiz, question_from_data, quiz_from_data,
)
from ...textinput import decode

READ_OPTIONS = ("log",)
"""`read` takes `log`: where what the sanitiser removed from an HTML text is told (W010)."""


_WRITE_AGAIN = "write the file again from its source with lmsexport (lmsexport convert SOURCE --to json)"


def _fail(source: str, message: str, hint: str, line: int = 0, column: int = 0):
    return SourceError([Diagnostic("E501", message, SourceSpan(source, line, column), hint)])


def read(data: str | bytes, *, source: str, log: Log | None = None) -> Quiz:
    text = decode(data, source, nfc=False)
    try:
        document = json.loads(text)
    except json.JSONDecodeError as exc:
        raise _fail(source, f"not valid JSON: {exc.msg}", "fix the JSON at that place (a comma, a quote or a "
                    "bracket missing or one too many)", exc.lineno, exc.colno) from None
    except RecursionError:
        raise _fail(source, "the JSON is nested too deeply to be a quiz model", _WRITE_AGAIN) from None
    except ValueError:  # an integer of more digits than Python converts (sys.get_int_max_str_digits)
        raise _fail(source, "a number in it has too many digits to be read",
                    "write each number with the digits it needs (points, credits, tolerances)") from None
    if "\\u" in text or not unicodedata.is_normalized("NFC", text):
        _nfc(document)
    del text  # a 100,000-question model is 120 MB of JSON: let go before the model is built
    version = document.get("lmsexport-model") if isinstance(document, dict) else None
    if version not in READ_MODEL_VERSIONS or isinstance(version, bool):
        raise _fail(
            source,
            f"not an lmsexport model version {' or '.join(map(str, READ_MODEL_VERSIONS))} "
            f"(found lmsexport-model: {version!r})",
            "write it with this version of lmsexport (lmsexport build --format json)",
        )
    problems: list[Diagnostic] = []
    if isinstance(document.get("quiz"), dict):
        _sanitise(document["quiz"], Sanitiser(Log() if log is None else log, problems), source)
    if problems:
        raise SourceError(problems)
    if version != MODEL_VERSION and isinstance(document.get("quiz"), dict) and "pools" in document["quiz"]:
        raise _fail(source, f"lmsexport model version {version} has no pools",
                    f"say \"lmsexport-model\": {MODEL_VERSION} at the top of the file")
    try:
        _build_questions(document["quiz"], SourceSpan(source))
        return quiz_from_data(document["quiz"])
    except (ModelError, KeyError, TypeError, ValueError, AttributeError) as exc:
        what = f"missing field {exc}" if isinstance(exc, KeyError) else str(exc)
        raise _fail(source, f"the model is not valid: {what}", f"correct it as docs/formats/json.md describes the "
                    f"model, or {_WRITE_AGAIN}") from None


def _nfc(document) -> None:
    """Every string value of the document made NFC in place, as every source's text is: after
    parsing, since normalising the JSON text itself can join an escape and a combining mark
    (`\\n` and U+0300 are `\\ǹ`), which is then no escape at all. A text that is NFC with no
    `\\u` escape has only NFC strings (its other escapes stand for ASCII before which, as
    before their backslash, no mark joins): `read` skips this walk for it. Walked with a list,
    not by recursion: the document may be nested as deep as the parser goes."""
    containers = [document] if isinstance(document, (dict, list)) else []
    while containers:
        node = containers.pop()
        for key, value in node.items() if isinstance(node, dict) else enumerate(node):
            if isinstance(value, str):
                node[key] = unicodedata.normalize("NFC", value)
            elif isinstance(value, (dict, list)):
                containers.append(value)


def _build_questions(quiz, span: SourceSpan) -> None:
    """Each question of the quiz's form built in its place, and so let go (100,000 questions'
    dicts are 500 MB beside their model), and placed in the file: the form keeps no positions,
    and what a writer or lint says of a question should name the file it came from."""
    questions = quiz.get("questions") if isinstance(quiz, dict) else None
    if isinstance(questions, list):
        for index, data in enumerate(questions):
            questions[index] = dataclasses.replace(question_from_data(data), source=span)


def _sanitise(quiz: dict, sanitiser: Sanitiser, source: str) -> None:
    """Every HTML text of the quiz's data through the sanitiser, in place (before the model is built)."""
    def walk(node, question: str, path: str) -> None:
        if isinstance(node, dict):
            if node.get("format") == "html" and isinstance(node.get("value"), str):
                node["value"] = sanitiser(node["value"], question=question, part=f"its {path or 'text'}",
                                          span=SourceSpan(source)) or ""
            for key, value in node.items():
                walk(value, question, f"{path}.{key}" if path else key)
        elif isinstance(node, list):
            for index, value in enumerate(node):
                walk(value, question, f"{path}[{index}]")

    numbering = Numbering()  # as `Quiz.label` will: questions, and text blocks apart
    for key, value in quiz.items():
        if key == "questions" and isinstance(value, list):
            for question in value:
                fields = question if isinstance(question, dict) else {}
                name, label = fields.get("id"), numbering.next(fields.get("kind") == "description")
                walk(question, label + (f" ({name})" if isinstance(name, str) else ""), "")
        else:
            walk(value, "the quiz", key)
