"""The lmsexport model as JSON: `{"lmsexport-model": 2, "quiz": {...}}`.

The versioned, lossless dump of a quiz (pandoc's `native`/JSON role): the pivot
of the tests and a stable input for other tools. Keys keep the model's order,
non-ASCII text stays as it is (UTF-8), and the output ends with a newline. The version
written is the oldest that carries the quiz: 1 for a quiz without pools (so older lmsexport
still reads it, and no existing dump changes), `MODEL_VERSION` (2) for one with pools.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

from ...jsonout import joined
from ...model import MODEL_VERSION, Quiz, quiz_to_data
from ...model.data import to_data
from ...package import Package, WriteOptions
from ...spool import CHUNK, SpooledFiles

EXTENSION = ".json"
_MARK = "\x00lmsexport-questions\x00"
"""Stands for the questions in the document's scaffold (`_pieces`), written
`"\\u0000lmsexport-questions\\u0000"`: no text of a model holds a NUL."""


def dumps(quiz: Quiz) -> str:
    return "".join(_pieces(quiz))


def write(quiz: Quiz, options: WriteOptions | None = None) -> Package:
    files = SpooledFiles()
    # In UTF-8 about a spool's chunk at a time (which it puts on disk past its budget).
    files.put_chunks(f"{quiz.id}{EXTENSION}", (part.encode("utf-8") for part in joined(_pieces(quiz), CHUNK)))
    return Package(files, zipped=False, extension=EXTENSION)


def _pieces(quiz: Quiz) -> Iterator[str]:
    """`json.dumps(document, ensure_ascii=False, indent=2)` and a newline, a question at a time:
    the scaffold (the quiz with one mark for its questions) is written whole, then each question
    where the mark stands, indented as the whole document indents it (a JSON string holds no
    line break of its own). As one tree of dicts and one `dumps`, 100,000 questions took 1 GB."""
    version = MODEL_VERSION if quiz.pools else 1
    scaffold = json.dumps({"lmsexport-model": version, "quiz": quiz_to_data(quiz, questions=[_MARK])},
                          ensure_ascii=False, indent=2) + "\n"
    mark = json.dumps(_MARK)
    if not quiz.questions or scaffold.count(mark) != 1:  # or a string of the quiz's spells it: written whole
        yield json.dumps({"lmsexport-model": version, "quiz": quiz_to_data(quiz)}, ensure_ascii=False, indent=2)
        yield "\n"
        return
    at = scaffold.index(mark)
    start = scaffold.rindex("\n", 0, at) + 1
    indent = "\n" + scaffold[start:at]
    yield scaffold[:at]
    for index, question in enumerate(quiz.questions):
        text = json.dumps(to_data(question), ensure_ascii=False, indent=2).replace("\n", indent)
        yield text if not index else "," + indent + text
    yield scaffold[at + len(mark):]
