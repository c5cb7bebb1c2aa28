"""L020's language model: both its walks agree with py3langid, and its cache is safe."""

from __future__ import annotations

import copy
import mmap

import numpy as np
import pytest
from py3langid.langid import MODEL_DIR, MODEL_FILE, LanguageIdentifier

import lmsexport
from lmsexport.rules import langbatch, langmodel, quiz_parts, visible
from lmsexport.rules.langmodel import Model
from lmsexport.rules.language import LANGUAGES, P_ENGLISH

from conftest import ROOT

MIXED = [
    "Kí ni DDP (DistributedDataParallel) ṣe nínú PyTorch?",
    "Which of these is NOT true about ZeRO stage 3 sharding?",
    "Bộ tối ưu hóa nào giữ trạng thái trên mỗi GPU?",
    "ALL CAPITALS ARE LOWERED BEFORE SCORING",
    "Ово је реченица на српском, ćirilica i latinica",  # sr: a label with two columns
    "",
    "…",
    "a" * 3000,  # longer than everything else: the walk runs on for one text alone
    "Bộ tối ưu hóa nào giữ trạng thái trên mỗi GPU khi huấn luyện? " * 80,
]


def _same(a: list[float], b: list[float]) -> bool:
    """The same probabilities, to float rounding: a model walks in Python until its budget is spent."""
    return np.allclose(a, b, rtol=0, atol=1e-12)


def _texts() -> list[str]:
    quizzes = [lmsexport.read(path) for path in sorted((ROOT / "quizzes").glob("*.txt"))]
    return [visible(part) for quiz in quizzes for part in quiz_parts(quiz)] + MIXED


@pytest.fixture(scope="module")
def reference():
    return LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)


@pytest.fixture(scope="module")
def model():
    return Model.load()


@pytest.fixture(params=["python", "numpy"])
def walk(request, monkeypatch):
    """Which walk `english()` takes: every text in Python, or every text with numpy."""
    monkeypatch.setattr(langmodel, "PYTHON_BYTES", 10**12 if request.param == "python" else 0)
    return request.param


@pytest.mark.parametrize("language", ["yo", "id", "vi", "ar", "sr"])
def test_english_probability_is_py3langids(reference, language, walk):
    texts = _texts()
    pair = copy.copy(reference)
    pair.set_languages([language, "en"])
    expected = [dict(pair.rank(text))["en"] for text in texts]
    ours = Model.load().english(texts, language)
    assert np.allclose(ours, expected, rtol=0, atol=1e-5)  # py3langid sums in float32, we in float64
    assert [p >= P_ENGLISH for p in ours] == [p >= P_ENGLISH for p in expected]


def test_the_two_walks_agree(monkeypatch):
    texts = _texts()
    monkeypatch.setattr(langmodel, "PYTHON_BYTES", 10**12)
    alone = Model.load().english(texts, "yo")
    monkeypatch.setattr(langmodel, "PYTHON_BYTES", 0)
    assert np.allclose(Model.load().english(texts, "yo"), alone, rtol=0, atol=1e-12)


def test_python_until_its_budget_then_numpy(monkeypatch):
    """A process walks PYTHON_BYTES in Python, then takes numpy for every batch that would go past."""
    monkeypatch.setattr(langmodel, "PYTHON_BYTES", 100)
    batches = []

    def english(model, texts, *rest):  # given its texts as they are encoded
        batches.append(list(texts))
        return [0.0] * len(batches[-1])

    monkeypatch.setattr(langbatch, "english", english)
    model = Model.load()
    model.english(["a" * 60], "vi")
    model.english(["b" * 30], "vi")
    model.english(["c" * 30], "vi")
    model.english(["d" * 10], "vi")
    assert batches == [[b"c" * 30]]


@pytest.mark.parametrize("batch, few", [(7, 32), (4096, 1), (4096, 10**9)])
def test_batches_and_walks_give_the_same_answers(model, monkeypatch, batch, few):
    """In small batches, all texts in step to the end, or each text alone: the same scores."""
    monkeypatch.setattr(langmodel, "PYTHON_BYTES", 0)
    texts = _texts()
    whole = Model.load().english(texts, "vi")
    monkeypatch.setattr(langbatch, "BATCH", batch)
    monkeypatch.setattr(langbatch, "FEW", few)
    assert np.allclose(Model.load().english(texts, "vi"), whole, rtol=0, atol=1e-12)
    assert Model.load().english([], "vi") == []


def test_the_model_is_py3langids():
    """Found without importing py3langid; knows the languages L020 checks without loading it."""
    assert langmodel.MODEL_FILE == MODEL_FILE and langmodel._model_path() == MODEL_DIR / MODEL_FILE
    assert Model.load().labels == LANGUAGES


def test_cache_is_written_once_then_memory_mapped(tmp_path, monkeypatch):
    monkeypatch.setenv("LMSEXPORT_CACHE_DIR", str(tmp_path))
    (tmp_path / "py3langid-1-2").mkdir()  # the folder an earlier layout kept
    (tmp_path / "py3langid-3-4-2.bin").write_bytes(b"a copy of another py3langid's model")
    (tmp_path / ".tmp-py3langid-x").write_bytes(b"what a killed run left")
    first = Model.load()
    (cached,) = tmp_path.iterdir()  # and nothing else: stale copies are removed when a new one is made
    assert cached == langmodel.cache_file() and cached.name.startswith("py3langid-")
    monkeypatch.setattr(langmodel, "_unpack", lambda source: pytest.fail("the model was unpacked again"))
    second = Model.load()
    assert isinstance(second._data, mmap.mmap)
    texts = _texts()
    assert _same(second.english(texts, "yo"), first.english(texts, "yo"))
    assert list(tmp_path.iterdir()) == [cached]


@pytest.mark.parametrize("damage", [b"not a model", b"", "cut"])
def test_damaged_cache_is_read_around(tmp_path, monkeypatch, model, damage):
    monkeypatch.setenv("LMSEXPORT_CACHE_DIR", str(tmp_path))
    Model.load()
    cached = langmodel.cache_file()
    cached.write_bytes(cached.read_bytes()[1000:] if damage == "cut" else damage)
    texts = _texts()
    assert _same(Model.load().english(texts, "id"), model.english(texts, "id"))
    monkeypatch.setattr(langmodel, "_unpack", lambda source: pytest.fail("the cache was not written again"))
    assert _same(Model.load().english(texts, "id"), model.english(texts, "id"))


def test_unwritable_or_switched_off_cache(tmp_path, monkeypatch, model):
    blocker = tmp_path / "a-file"
    blocker.write_text("the cache folder cannot be made under a file")
    monkeypatch.setenv("LMSEXPORT_CACHE_DIR", str(blocker / "cache"))
    texts = _texts()
    assert _same(Model.load().english(texts, "vi"), model.english(texts, "vi"))
    monkeypatch.setenv("LMSEXPORT_CACHE_DIR", "")
    assert langmodel.cache_folder() is None and langmodel.cache_file() is None
    assert _same(Model.load().english(texts, "vi"), model.english(texts, "vi"))
    monkeypatch.delenv("LMSEXPORT_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    if langmodel.sys.platform.startswith("linux"):
        assert langmodel.cache_folder() == tmp_path / "xdg" / "lmsexport"
