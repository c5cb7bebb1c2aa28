"""py3langid's language model, loaded fast and applied to many texts at once (for L020).

py3langid ships its model LZMA-compressed, and unpacking it takes 0.4 s on every start:
longer than linting 2,000 questions. So the first run that needs it keeps the arrays scoring
needs, uncompressed, in one file of a cache folder (68 MB), and later runs map that file into
memory (~1 ms); without a writable cache folder the model is unpacked every time.

py3langid's `rank()` walks its byte-level automaton over one text in a Python loop, with
numpy. `english()` does that loop over memoryviews of the mapped file for the first
`PYTHON_BYTES` a process scores, so that a quiz with a few texts to check (an Arabic quiz's
English title, a quiz of twenty questions) never imports numpy (~0.06 s). Past that, it walks
all texts at once, one byte position per step for every text still that long (numpy). Both
then score the features met as `rank()` does with the languages restricted: the same
probabilities (to float rounding; a test compares them with py3langid's, and the two walks
with each other).
"""

from __future__ import annotations

import importlib.util
import itertools
import json
import math
import mmap
import os
import shutil
import struct
import sys
import tempfile
import unicodedata
from collections import Counter
from pathlib import Path

PYTHON_BYTES = 65_536
"""Bytes a process scores in Python before it takes numpy for the rest: importing numpy costs
about what walking twice as many bytes one by one does, so a quiz with few texts to check
never pays for it, and one with many pays at most about twice the least it could."""

MODEL_FILE = "data/model.npz.xz"
"""py3langid's model, in its package (its `MODEL_FILE`; a test compares them): found without
importing py3langid, which imports numpy."""
LAYOUT = 2
"""The version of the cache file's layout, part of its name."""

_ARRAYS = ("nextmove", "nextmove_row", "out_feat", "ptc_by_class")
_HALF = struct.Struct("e")
_ALIGN = 64


def cache_folder() -> Path | None:
    """`LMSEXPORT_CACHE_DIR` (empty: no cache), else the platform's user cache folder."""
    chosen = os.environ.get("LMSEXPORT_CACHE_DIR")
    if chosen is not None:
        return Path(chosen) if chosen else None
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local"
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Caches"
    else:
        base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "lmsexport"


def cache_file() -> Path | None:
    """Where the unpacked model is kept: named after the model file's size and date, so that
    an upgraded py3langid gets a copy of its own."""
    folder = cache_folder()
    if folder is None:
        return None
    stat = _model_path().stat()
    return folder / f"py3langid-{stat.st_size}-{stat.st_mtime_ns}-{LAYOUT}.bin"


def _model_path() -> Path:
    spec = importlib.util.find_spec("py3langid")
    if spec is None or spec.origin is None:
        raise ModuleNotFoundError("py3langid is not installed")
    return Path(spec.origin).parent / MODEL_FILE


class Model:
    """The arrays of py3langid's model that scoring needs, as memoryviews of one buffer (the
    cache file mapped into memory, or the unpacked model)."""

    def __init__(self, data: bytes | mmap.mmap):
        header, arrays = _read_layout(data)
        self.classes: list[str] = header["classes"]
        self.labels = frozenset(self.classes)
        self.pc: list[float] = header["pc"]
        """log P(class)."""
        self.features: int = header["features"]
        self.nextmove, self.nextmove_row, self.out_feat = arrays["nextmove"], arrays["nextmove_row"], arrays["out_feat"]
        self.ptc_by_class = arrays["ptc_by_class"]
        """log P(feature | class) as float16 bytes, one row per class: a pair of languages reads two rows."""
        self._data = data  # the memoryviews keep it open
        self._walked = 0

    @classmethod
    def load(cls) -> Model:
        cached = cache_file()
        if cached is not None:
            try:
                with open(cached, "rb") as file:
                    return cls(mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ))
            except (OSError, ValueError):
                pass  # none yet, damaged or half-deleted: unpack the original below
        chunks = _layout(_unpack(_model_path()))
        if cached is not None and _store(chunks, cached):
            try:
                with open(cached, "rb") as file:
                    return cls(mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ))
            except (OSError, ValueError):
                pass  # removed meanwhile: use what was unpacked
        return cls(b"".join(chunks))

    def english(self, texts: list[str], language: str) -> list[float]:
        """P(English) of each text, for a classifier restricted to {language, en}."""
        columns = [i for i, label in enumerate(self.classes) if label in (language, "en")]
        english = [self.classes[i] == "en" for i in columns]
        # Encoded as they are scored, a batch at a time (a bank's 500,000 texts were a list of 60 MB).
        encoded, held, size = map(_encode, texts), [], 0
        for text in encoded:
            held.append(text)
            size += len(text)
            if self._walked + size > PYTHON_BYTES:
                break
        else:
            self._walked += size
            return [self._alone(text, columns, english) for text in held]
        from . import langbatch

        return langbatch.english(self, itertools.chain(held, encoded), columns, english)

    def _alone(self, text: bytes, columns: list[int], english: list[bool]) -> float:
        """py3langid's `rank()` of one text, restricted to `columns`: softmax(NB score / sqrt(bytes))."""
        counts = Counter(self.walk(0, text))
        if not counts:  # no feature: uniform, as in py3langid
            return sum(english) / len(columns)
        weights = [(math.log1p(count), feature) for feature, count in counts.items()]
        scale = math.sqrt(len(text))
        raw = []
        for column in columns:
            row = column * self.features
            score = sum(weight * _HALF.unpack_from(self.ptc_by_class, 2 * (row + feature))[0]
                        for weight, feature in weights)
            raw.append((self.pc[column] + score) / scale)
        top = max(raw)
        exps = [math.exp(value - top) for value in raw]
        return sum(e for e, is_english in zip(exps, english) if is_english) / sum(exps)

    def walk(self, state: int, rest: bytes) -> list[int]:
        """The features met walking on from `state` over `rest`, byte by byte (py3langid's loop)."""
        nextmove, rows, out_feat = self.nextmove, self.nextmove_row, self.out_feat
        found = []
        for byte in rest:
            state = nextmove[(rows[state] << 8) + byte]
            if out_feat[state] >= 0:
                found.append(out_feat[state])
        return found


def _encode(text: str) -> bytes:
    """As py3langid's `_encode()`: all capitals are lowered, NFC, UTF-8."""
    if text.isupper():
        text = text.lower()
    return unicodedata.normalize("NFC", text).encode("utf8", errors="surrogatepass")


def _unpack(source: Path) -> dict:
    """py3langid's model as numpy arrays (and its classes and log P(class) as lists)."""
    import numpy as np
    from py3langid.modelio import load_model

    ptc, pc, classes, nextmove, row, out_feat = load_model(source)
    return {
        "nextmove": np.frombuffer(nextmove, dtype=np.dtype(nextmove.typecode)),
        "nextmove_row": np.frombuffer(row, dtype=np.dtype(row.typecode)),
        "out_feat": np.asarray(out_feat, dtype=np.int32),
        "ptc_by_class": np.ascontiguousarray(np.asarray(ptc, dtype=np.float16).T),
        "pc": np.asarray(pc, dtype=np.float64).tolist(),
        "classes": [str(c) for c in classes],
    }


def _layout(model: dict) -> list:
    """The cache file: the arrays, each at a multiple of 64 bytes, then a JSON header saying
    where each is, then the header's length (8 bytes)."""
    chunks, offset, placed = [], 0, {}
    for name in _ARRAYS:
        array = model[name]
        placed[name] = [array.dtype.char, offset, array.size]
        padding = -array.nbytes % _ALIGN
        chunks += [memoryview(array.reshape(-1).view("u1")), bytes(padding)]
        offset += array.nbytes + padding
    header = json.dumps({"layout": LAYOUT, "byteorder": sys.byteorder, "size": offset, "classes": model["classes"],
                         "pc": model["pc"], "features": model["ptc_by_class"].shape[1], "arrays": placed}).encode()
    return chunks + [header, len(header).to_bytes(8, "little")]


def _read_layout(data) -> tuple[dict, dict[str, memoryview]]:
    """The header and typed views of the arrays of a cache file's bytes; ValueError if damaged."""
    view = memoryview(data)
    try:
        length = int.from_bytes(view[-8:], "little")
        header = json.loads(bytes(view[-8 - length:-8]))
        if header["layout"] != LAYOUT or header["byteorder"] != sys.byteorder:
            raise ValueError("a cache file of another layout or machine")
        if header["size"] + length + 8 != len(view):
            raise ValueError("a cut cache file")
        arrays = {}
        for name, (char, offset, count) in header["arrays"].items():
            size = struct.calcsize(char) * count
            piece = view[offset:offset + size]
            if len(piece) != size or not count:
                raise ValueError("a cut cache file")
            arrays[name] = piece if char == "e" else piece.cast(char)  # float16: read with struct
        return header, arrays
    except (KeyError, TypeError, IndexError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ValueError("a damaged cache file") from exc


def _store(chunks: list, target: Path) -> bool:
    """Write the cache whole or not at all: into a new file, renamed into place. False when
    nowhere could take it (read-only, full): the next run unpacks the model again."""
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(prefix=".tmp-py3langid-", dir=target.parent)
    except OSError:
        return False
    try:
        with os.fdopen(handle, "wb") as out:
            out.writelines(chunks)
        os.replace(temporary, target)
    except OSError:
        Path(temporary).unlink(missing_ok=True)
        return False
    stale = [*target.parent.glob("py3langid-*"), *target.parent.glob(".tmp-py3langid-*")]
    for path in stale:  # an earlier py3langid's or layout's (68 MB each), or what a killed run left
        if path == target:
            continue
        if path.is_dir():
            shutil.rmtree(path, ignore_errors=True)
        else:
            path.unlink(missing_ok=True)
    return True
