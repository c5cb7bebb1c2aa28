"""L020's language model: its batch scoring agrees with py3langid, and its cache is safe."""

from __future__ import annotations

import copy

import numpy as np
import pytest
from py3langid.langid import MODEL_FILE, LanguageIdentifier

import lmsexport
from lmsexport.rules import langmodel, quiz_parts, visible
from lmsexport.rules.langmodel import Model
from lmsexport.rules.language import P_ENGLISH

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


def _texts() -> list[str]:
    quizzes = [lmsexport.read(path) for path in sorted((ROOT / "quizzes").glob("*.txt"))]
    return [visible(part) for quiz in quizzes for part in quiz_parts(quiz)] + MIXED


@pytest.fixture(scope="module")
def reference():
    return LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)


@pytest.fixture(scope="module")
def model():
    return Model.load()


@pytest.mark.parametrize("language", ["yo", "id", "vi", "ar", "sr"])
def test_english_probability_is_py3langids(model, reference, language):
    texts = _texts()
    pair = copy.copy(reference)
    pair.set_languages([language, "en"])
    expected = [dict(pair.rank(text))["en"] for text in texts]
    ours = model.english(texts, language)
    assert np.allclose(ours, expected, rtol=0, atol=1e-5)  # py3langid sums in float32, we in float64
    assert [p >= P_ENGLISH for p in ours] == [p >= P_ENGLISH for p in expected]


@pytest.mark.parametrize("batch, few", [(7, 32), (4096, 1), (4096, 10**9)])
def test_batches_and_walks_give_the_same_answers(model, monkeypatch, batch, few):
    """In small batches, all texts in step to the end, or each text alone: the same scores."""
    texts = _texts()
    whole = model.english(texts, "vi")
    monkeypatch.setattr(langmodel, "BATCH", batch)
    monkeypatch.setattr(langmodel, "FEW", few)
    assert np.allclose(model.english(texts, "vi"), whole, rtol=0, atol=1e-12)
    assert model.english([], "vi") == []


def test_cache_is_written_once_then_memory_mapped(tmp_path, monkeypatch):
    monkeypatch.setenv("LMSEXPORT_CACHE_DIR", str(tmp_path))
    first = Model.load()
    (folder,) = tmp_path.iterdir()
    assert folder.name.startswith("py3langid-") and sorted(p.name for p in folder.iterdir()) == [
        "classes.npy", "nextmove.npy", "nextmove_row.npy", "out_feat.npy", "pc.npy", "ptc_by_class.npy",
    ]
    second = Model.load()
    assert isinstance(second.nextmove, np.memmap) and not isinstance(first.nextmove, np.memmap)
    texts = _texts()
    assert second.english(texts, "yo") == first.english(texts, "yo")
    assert list(tmp_path.iterdir()) == [folder]  # no temporary folder left behind
    (tmp_path / "py3langid-1-2").mkdir()  # a copy of another py3langid's model
    folder.rename(tmp_path / "py3langid-3-4")
    Model.load()
    assert list(tmp_path.iterdir()) == [folder]  # stale copies are removed when a new one is made


def test_damaged_cache_is_read_around(tmp_path, monkeypatch, model):
    monkeypatch.setenv("LMSEXPORT_CACHE_DIR", str(tmp_path))
    Model.load()
    (folder,) = tmp_path.iterdir()
    (folder / "nextmove.npy").write_bytes(b"not an array")
    texts = _texts()
    assert Model.load().english(texts, "id") == model.english(texts, "id")


def test_unwritable_or_switched_off_cache(tmp_path, monkeypatch, model):
    blocker = tmp_path / "a-file"
    blocker.write_text("the cache folder cannot be made under a file")
    monkeypatch.setenv("LMSEXPORT_CACHE_DIR", str(blocker / "cache"))
    texts = _texts()
    assert Model.load().english(texts, "vi") == model.english(texts, "vi")
    monkeypatch.setenv("LMSEXPORT_CACHE_DIR", "")
    assert langmodel.cache_folder() is None
    monkeypatch.delenv("LMSEXPORT_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    if langmodel.sys.platform.startswith("linux"):
        assert langmodel.cache_folder() == tmp_path / "xdg" / "lmsexport"
