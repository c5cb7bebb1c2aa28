"""L020's language model applied to many texts at once, with numpy (langmodel.py says when).

py3langid walks its byte automaton over one text in a Python loop. Here it is walked over all
texts in step, longest first, one byte position per step for every text still that long, so
that the texts still walking are always a prefix; then each text's features are scored as
py3langid's `rank()` scores them with the languages restricted (in float64, as langmodel's
walk in Python does: the two agree to float rounding).
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterable

import numpy as np

BATCH = 4096
"""Texts walked together: enough to keep numpy busy, few enough to bound memory."""
FEW = 32
"""Below this many texts still walking, each goes on alone in Python: a step of numpy
costs as much as a hundred bytes walked one by one (one long text would be slow)."""


def english(model, texts: Iterable[bytes], columns: list[int], english: list[bool]) -> list[float]:
    """P(English) of each encoded text, for `model` (a langmodel.Model) restricted to `columns`;
    `texts` are taken `BATCH` at a time."""
    is_english = np.array(english)
    texts, found = iter(texts), []
    while batch := list(itertools.islice(texts, BATCH)):
        scores = _scores(model, batch, columns)
        found.append(scores[:, is_english].sum(axis=1))
    return np.concatenate(found).tolist() if found else []


@functools.lru_cache(maxsize=1)
def _arrays(model) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The model's arrays as numpy sees them (views of its buffer), and each state's row start."""
    nextmove = np.frombuffer(model.nextmove, dtype=np.dtype(model.nextmove.format))
    rowbase = np.frombuffer(model.nextmove_row, dtype=np.dtype(model.nextmove_row.format)).astype(np.intp) << 8
    out_feat = np.frombuffer(model.out_feat, dtype=np.dtype(model.out_feat.format))
    ptc = np.frombuffer(model.ptc_by_class, dtype=np.float16).reshape(len(model.classes), model.features)
    return nextmove, rowbase, out_feat, ptc


def _scores(model, texts: list[bytes], columns: list[int]) -> np.ndarray:
    """py3langid `_decide()` with norm_probs, for many texts: softmax(NB score / sqrt(bytes))."""
    text, feature, count = _features(model, texts)
    table = _arrays(model)[3][columns].astype(np.float64)
    weight = np.log1p(count.astype(np.float64))
    raw = np.empty((len(texts), len(columns)), dtype=np.float64)
    for j in range(len(columns)):
        raw[:, j] = np.bincount(text, weights=weight * table[j, feature], minlength=len(texts))
    raw += np.array(model.pc)[columns]
    raw[np.bincount(text, minlength=len(texts)) == 0] = 0.0  # no feature: uniform, as in py3langid
    lengths = np.fromiter(map(len, texts), dtype=np.float64, count=len(texts))
    raw /= np.sqrt(np.maximum(lengths, 1.0))[:, None]
    raw = np.exp(raw - raw.max(axis=1, keepdims=True))
    return raw / raw.sum(axis=1, keepdims=True)


def _features(model, texts: list[bytes]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(text, feature, count) for every feature met in a text: the automaton walked over all
    texts in step, longest first, so the texts still walking are always a prefix."""
    nextmove, rowbase, out_feat, _ = _arrays(model)
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
                found = model.walk(int(state[k]), texts[order[k]][step:])
                hits.append(np.full(len(found), order[k], dtype=np.intp))
                features.append(np.array(found, dtype=np.intp))
            break
        moved = nextmove[rowbase[state[:count]] + data[starts[:count] + step]].astype(np.intp)
        state[:count] = moved
        emitted = out_feat[moved]
        where = np.flatnonzero(emitted >= 0)
        hits.append(order[where])
        features.append(emitted[where])
    if not hits:
        empty = np.zeros(0, dtype=np.intp)
        return empty, empty, empty
    # Keys of (text, feature) to count: in 32 bits when they fit (a batch's always do), which
    # numpy sorts in 60 % of the time it takes for 64 (a third of scoring was that sort).
    key = np.int32 if len(texts) * model.features < 2**31 else np.int64
    keys, counts = np.unique(np.concatenate(hits).astype(key) * key(model.features)
                             + np.concatenate(features).astype(key), return_counts=True)
    return keys // model.features, keys % model.features, counts
