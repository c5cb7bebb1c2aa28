"""The bundled quizzes/: read exactly as written, keyed, and pinned as model JSON goldens."""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pytest

import lmsexport
from conftest import GOLDEN, ROOT
from lmsexport.formats.text.reader import read

QUIZZES = sorted((ROOT / "quizzes").glob("*.txt"))
SEEDS = Path(__file__).parent / "fixtures" / "seeds"
# Which seed each quiz was made from (the seeds are kept verbatim under tests/fixtures/seeds/).
SEED_OF = {
    "fsdp-yo": "000_d88ee34ff81b4731.txt",
    "zero-id": "002_07c69ae5cadb891a.txt",
    "data-parallel-vi": "004_61d760e30adc7e07.txt",
}
LANG_OF = {"fsdp-yo": "yo", "zero-id": "id", "data-parallel-vi": "vi"}


def test_every_quiz_has_its_seed():
    assert sorted(p.stem for p in QUIZZES) == sorted(SEED_OF)


@pytest.mark.parametrize("path", QUIZZES, ids=lambda p: p.stem)
def test_quiz_golden(path, goldens):
    package = lmsexport.write(lmsexport.read(path), "json")
    (content,) = package.files.values()
    goldens.check(GOLDEN / "writers" / "json" / f"{path.stem}.json", content.decode("utf-8"))


@pytest.mark.parametrize("path", QUIZZES, ids=lambda p: p.stem)
def test_quiz_keeps_the_seed_verbatim(path):
    seed = (SEEDS / SEED_OF[path.stem]).read_text(encoding="utf-8")
    assert seed.rstrip("\n") in path.read_text(encoding="utf-8")


@pytest.mark.parametrize("path", QUIZZES, ids=lambda p: p.stem)
def test_quiz_reads_the_seed_text_exactly(path):
    seed = (SEEDS / SEED_OF[path.stem]).read_text(encoding="utf-8")
    quiz = lmsexport.read(path)
    lines = [line.strip() for line in unicodedata.normalize("NFC", seed).split("\n")]
    assert quiz.id == path.stem and quiz.lang == LANG_OF[path.stem]
    assert quiz.title == lines[0]
    assert quiz.description.value == lines[2]
    assert len(quiz.questions) == 8
    texts = [q.prompt.value for q in quiz.questions] + [c.text.value for q in quiz.questions for c in q.choices]
    assert all(len(q.choices) == 4 for q in quiz.questions)
    for text in texts:
        assert any(line.endswith(text) for line in lines), text
    keys = ["".join(c.id for c in q.correct_choices) for q in quiz.questions]
    assert keys == list("abcdabcd")


def test_placeholder_is_kept_for_lint_to_find():
    quiz = lmsexport.read(ROOT / "quizzes" / "fsdp-yo.txt")
    assert quiz.questions[3].choices[0].text.value == "Map Idinku _AIU_PROTECTED_11__"


@pytest.mark.parametrize("seed", sorted(SEEDS.glob("*.txt")), ids=lambda p: p.stem)
def test_seed_without_a_key_names_every_unkeyed_question(seed):
    with pytest.raises(lmsexport.SourceError) as caught:
        read(seed.read_bytes(), source=seed.name)
    assert [d.code for d in caught.value.diagnostics] == ["E201"] * 8
    assert [d.span.line for d in caught.value.diagnostics] == [5, 10, 15, 20, 25, 30, 35, 40]
