"""The lmsexport model as JSON: `{"lmsexport-model": 2, "quiz": {...}}`.

The versioned, lossless dump of a quiz (pandoc's `native`/JSON role): the pivot
of the tests and a stable input for other tools. Keys keep the model's order,
non-ASCII text stays as it is (UTF-8), and the output ends with a newline. The version
written is the oldest that carries the quiz: 1 for a quiz without pools (so older lmsexport
still reads it, and no existing dump changes), `MODEL_VERSION` (2) for one with pools.
"""

from __future__ import annotations

import json

from ...model import MODEL_VERSION, Quiz, quiz_to_data
from ...package import Package, WriteOptions

EXTENSION = ".json"


def dumps(quiz: Quiz) -> str:
    document = {"lmsexport-model": MODEL_VERSION if quiz.pools else 1, "quiz": quiz_to_data(quiz)}
    return json.dumps(document, ensure_ascii=False, indent=2) + "\n"


def write(quiz: Quiz, options: WriteOptions | None = None) -> Package:
    return Package({f"{quiz.id}{EXTENSION}": dumps(quiz).encode("utf-8")}, zipped=False, extension=EXTENSION)
