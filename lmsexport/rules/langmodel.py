"""py3langid's language model, loaded fast and applied to many texts at once (for L020).

py3langid ships its model LZMA-compressed, and decompressing it takes 0.4 s on every
start: longer than linting 2,000 questions. So the arrays scoring needs are kept,
uncompressed, in a cache folder and memory-mapped from there (~10 ms) after the first
run; without a writable cache folder the model is read from py3langid every time.

py3langid's `rank()` walks its byte-level automaton over one text in a Python loop.
`english()` walks it over all texts at once instead, one byte position per step for
every text still that long (numpy), then scores the features it met exactly as `rank()`
does with the languages restricted: the same probabilities (to float rounding; a test
compares them with py3langid's).
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import unicodedata
from pathlib import Path

import numpy as np

BATCH = 4096
"""Texts walked together: enough to keep numpy busy, few enough to bound memory."""
FEW = 32
"""Below this many texts still walking, each goes on alone in Python: a step of numpy
costs as much as a hundred bytes walked one by one (one long text would be slow)."""

_ARRAYS = ("nextmove", "nextmove_row", "out_feat", "ptc_by_class", "pc", "classes")


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


class Model:
    """The arrays of py3langid's model that scoring needs."""

    def __init__(self, arrays: dict):
        self.nextmove = arrays["nextmove"]
        self.rowbase = arrays["nextmove_row"].astype(np.intp) << 8  # a state's row in `nextmove`
        self.out_feat = arrays["out_feat"]
        self.ptc_by_class = arrays["ptc_by_class"]
        """log P(feature | class), one row per class: a pair of languages reads two rows."""
        self.pc = arrays["pc"]
        self.classes = [str(c) for c in arrays["classes"]]
        self.labels = frozenset(self.classes)
        self._views = (memoryview(self.nextmove), memoryview(self.rowbase), memoryview(self.out_feat))

    @classmethod
    def load(cls) -> Model:
        from py3langid.langid import MODEL_DIR, MODEL_FILE

        source = MODEL_DIR / MODEL_FILE
        folder = cache_folder()
        stat = source.stat()
        cached = folder / f"py3langid-{stat.st_size}-{stat.st_mtime_ns}" if folder else None
        if cached is not None and cached.is_dir():
            try:
                return cls({name: np.load(cached / f"{name}.npy", mmap_mode="r") for name in _ARRAYS})
            except (OSError, ValueError):
                pass  # damaged or half-deleted: read the original below
        arrays = _decompress(source)
        if cached is not None:
            _store(arrays, cached)
        return cls(arrays)

    def english(self, texts: list[str], language: str) -> list[float]:
        """P(English) of each text, for a classifier restricted to {language, en}."""
        columns = [i for i, label in enumerate(self.classes) if label in (language, "en")]
        is_english = np.array([self.classes[i] == "en" for i in columns])
        encoded = [_encode(text) for text in texts]
        found = []
        for start in range(0, len(encoded), BATCH):
            scores = self._scores(encoded[start:start + BATCH], columns)
            found.append(scores[:, is_english].sum(axis=1))
        return np.concatenate(found).tolist() if found else []

    def _scores(self, texts: list[bytes], columns: list[int]) -> np.ndarray:
        """py3langid `_decide()` with norm_probs, for many texts: softmax(NB score / sqrt(bytes))."""
        text, feature, count = self._features(texts)
        table = self.ptc_by_class[columns].astype(np.float32)
        weight = np.log1p(count.astype(np.float32))
        raw = np.empty((len(texts), len(columns)), dtype=np.float64)
        for j in range(len(columns)):
            raw[:, j] = np.bincount(text, weights=weight * table[j, feature], minlength=len(texts))
        raw += self.pc[columns]
        raw[np.bincount(text, minlength=len(texts)) == 0] = 0.0  # no feature: uniform, as in py3langid
        lengths = np.fromiter(map(len, texts), dtype=np.float64, count=len(texts))
        raw /= np.sqrt(np.maximum(lengths, 1.0))[:, None]
        raw = np.exp(raw - raw.max(axis=1, keepdims=True))
        return raw / raw.sum(axis=1, keepdims=True)

    def _features(self, texts: list[bytes]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(text, feature, count) for every feature met in a text: the automaton walked over all
        texts in step, longest first, so the texts still walking are always a prefix."""
        lengths = np.fromiter(map(len, texts), dtype=np.intp, count=len(texts))
        order = np.argsort(-lengths, kind="stable")
        walking = len(texts) - np.searchsorted(np.sort(lengths), np.arange(lengths.max(initial=0)), side="right")
        data = np.frombuffer(b"".join(texts[i] for i in order), dtype=np.uint8).astype(np.intp)
        starts = np.concatenate(([0], np.cumsum(lengths[order])[:-1])).astype(np.intp)
        state = np.zeros(len(texts), dtype=np.intp)
        hits, features = [], []
        for step, count in enumerate(walking):
            if count < FEW:
                for k in range(count):
                    found = self._walk_on(int(state[k]), texts[order[k]][step:])
                    hits.append(np.full(len(found), order[k], dtype=np.intp))
                    features.append(np.array(found, dtype=np.intp))
                break
            moved = self.nextmove[self.rowbase[state[:count]] + data[starts[:count] + step]].astype(np.intp)
            state[:count] = moved
            emitted = self.out_feat[moved]
            where = np.flatnonzero(emitted >= 0)
            hits.append(order[where])
            features.append(emitted[where])
        if not hits:
            empty = np.zeros(0, dtype=np.intp)
            return empty, empty, empty
        width = self.ptc_by_class.shape[1]  # the number of features
        keys, counts = np.unique(np.concatenate(hits) * width + np.concatenate(features), return_counts=True)
        return keys // width, keys % width, counts


    def _walk_on(self, state: int, rest: bytes) -> list[int]:
        """The features met walking on from `state` over `rest`, byte by byte (py3langid's loop)."""
        nextmove, rowbase, out_feat = self._views
        found = []
        for byte in rest:
            state = nextmove[rowbase[state] + byte]
            if out_feat[state] >= 0:
                found.append(out_feat[state])
        return found


def _encode(text: str) -> bytes:
    """As py3langid's `_encode()`: all capitals are lowered, NFC, UTF-8."""
    if text.isupper():
        text = text.lower()
    return unicodedata.normalize("NFC", text).encode("utf8", errors="surrogatepass")


def _decompress(source: Path) -> dict:
    from py3langid.modelio import load_model

    ptc, pc, classes, nextmove, row, out_feat = load_model(source)
    return {
        "nextmove": np.frombuffer(nextmove, dtype=np.dtype(nextmove.typecode)),
        "nextmove_row": np.frombuffer(row, dtype=np.dtype(row.typecode)),
        "out_feat": np.asarray(out_feat, dtype=np.int32),
        "ptc_by_class": np.ascontiguousarray(np.asarray(ptc).T),
        "pc": np.asarray(pc),
        "classes": np.asarray(classes),
    }


def _store(arrays: dict, target: Path) -> None:
    """Write the cache whole or not at all: into a new folder, renamed into place."""
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        folder = Path(tempfile.mkdtemp(prefix=".tmp-", dir=target.parent))
    except OSError:
        return  # nowhere to cache: read the original next time too
    try:
        for name in _ARRAYS:
            np.save(folder / f"{name}.npy", arrays[name], allow_pickle=False)
        folder.rename(target)
    except OSError:
        return  # written meanwhile by another process, or no room: either way not ours to keep
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    for stale in target.parent.glob("py3langid-*"):  # an earlier py3langid's (66 MB each)
        if stale != target:
            shutil.rmtree(stale, ignore_errors=True)
