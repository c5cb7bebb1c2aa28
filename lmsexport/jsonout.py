"""JSON written a piece at a time: the build's state and `--report`, lint's JSON and SARIF.

Each holds an entry per warning or finding, and a bank may have one a question. `json.dumps`
with `indent` runs the pure-Python encoder and joins a list of every piece it made: 180,000
warnings as dicts took 400 MB that way, 100,000 lint findings as SARIF 550 MB. Here the
encoder's pieces are handed on as they come, about `CHUNK` characters at a time, and a
Diagnostic in the document becomes a dict only in its turn. The text is `json.dumps`'s, and a
newline.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Iterable, Iterator

from .diagnostics import Diagnostic

CHUNK = 1 << 16


def pieces(document, *, diagnostic: Callable[[Diagnostic], dict] = Diagnostic.as_dict, **options) -> Iterator[str]:
    """`json.dumps(document, **options) + "\n"`, in pieces; a Diagnostic in `document` is written
    as `diagnostic(it)` makes it, in its turn."""
    def default(value):
        if isinstance(value, Diagnostic):
            return diagnostic(value)
        raise TypeError(f"{type(value).__name__} is not JSON serializable")

    return joined(itertools.chain(json.JSONEncoder(default=default, **options).iterencode(document), ("\n",)))


def joined(parts: Iterable[str], size: int | None = None) -> Iterator[str]:
    """`parts` joined into strings of about `size` characters (`CHUNK`): the encoder's are a
    few characters each."""
    size = CHUNK if size is None else size
    held, length = [], 0
    for part in parts:
        held.append(part)
        length += len(part)
        if length >= size:
            yield "".join(held)
            held, length = [], 0
    yield "".join(held)


def encoded(document, encoding: str, **options) -> Iterator[bytes]:
    """`pieces()` in `encoding`, for a file."""
    return (piece.encode(encoding) for piece in pieces(document, **options))
