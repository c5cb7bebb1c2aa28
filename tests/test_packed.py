"""A large quiz's questions held packed (model/packed.py), and the text reader that streams them."""

from __future__ import annotations

import dataclasses
import pickle

import pytest
from hypothesis import HealthCheck, given, settings

import lmsexport
from conftest import ROOT
from model_strategies import quizzes
from lmsexport.formats.text import questions as text_questions
from lmsexport.model import packed
from lmsexport.model.packed import BLOCK, Packed, Packer

SEED = ROOT / "quizzes" / "data-parallel-vi.txt"
MOODLE = ROOT / "tests" / "fixtures" / "moodle" / "moodle-4-export.xml"
FORMATS = ["qti", "canvas", "moodle", "scorm12", "scorm2004", "json", "text"]


def _bank(count: int) -> str:
    """A keyless quiz text of `count` choice questions, each with an explanation."""
    body = "".join(f"{n}. Câu hỏi số {n}?\n   • đúng {n}\n   *• sai {n}\n   > giải thích {n}\n\n" for n in range(1, count + 1))
    return f"---\nlang: vi\n---\nNgân hàng\n\n{body}"


def test_packed_questions_read_as_the_tuple_they_stand_for():
    """Indexes (negative too), slices, equality and hash with the tuple, pickling."""
    quiz = lmsexport.read("bank.txt", _bank(2 * BLOCK + 3))
    questions = quiz.questions
    packer = Packer(pack_from=1)
    for question in questions:
        packer.add(question)
    stored = packer.result()
    assert isinstance(stored, Packed) and len(stored) == len(questions)
    assert stored == questions and questions == stored and tuple(stored) == questions
    assert [stored[i] for i in (0, BLOCK - 1, BLOCK, -1, -BLOCK - 1)] == [questions[i] for i in (0, BLOCK - 1, BLOCK, -1, -BLOCK - 1)]
    assert stored[BLOCK - 2:BLOCK + 2] == questions[BLOCK - 2:BLOCK + 2] and stored[::-97] == questions[::-97]
    assert hash(stored) == hash(questions) and stored != questions[:-1]
    assert pickle.loads(pickle.dumps(stored)) == questions
    with pytest.raises(IndexError):
        stored[len(questions)]


def test_a_quiz_stays_a_tuple_below_the_packing_threshold():
    packer = Packer(pack_from=3)
    quiz = lmsexport.read("bank.txt", _bank(2))
    for question in quiz.questions:
        packer.add(question)
    assert packer.result() == quiz.questions and isinstance(packer.result(), tuple)


def test_a_keyless_quiz_is_read_a_draft_at_a_time(monkeypatch):
    """Streamed, a draft is built as the next one begins and leaves only its `Head` behind, so a
    bank is never held as drafts; a quiz with an answer key is built once every line is read."""
    seen = []
    build = text_questions.Builder.build

    def spy(self, index):
        drafts = self.parser.drafts
        seen.append((index, len(drafts), all(type(d) is text_questions.Head for d in drafts[:index])))
        build(self, index)

    monkeypatch.setattr(text_questions.Builder, "build", spy)
    lmsexport.read("bank.txt", _bank(3))
    assert seen == [(0, 1, True), (1, 2, True), (2, 3, True)]  # the next draft is begun right after
    seen.clear()
    lmsexport.read("keyed.txt", _bank(3).replace("*•", "•") + "Answers: 1b 2b 3b\n")
    assert seen == [(0, 3, True), (1, 3, True), (2, 3, True)]


def test_a_packed_quiz_builds_the_packages_its_tuple_builds(tmp_path, monkeypatch):
    """Packing changes no byte of any package, nor any message: quizzes past `PACK_FROM` (here 2),
    read from a text or a Moodle bank (all three here), build as they do held whole, in every
    format, and through `--jobs` (whose forked workers pickle them)."""
    sources = tmp_path / "src"
    sources.mkdir()
    (sources / "bank.txt").write_text(_bank(2 * BLOCK + 1), encoding="utf-8")
    (sources / "seed.txt").write_bytes(SEED.read_bytes())
    (sources / "bank.moodle.xml").write_bytes(MOODLE.read_bytes())
    runs = []
    for pack_from, jobs in ((10**9, 1), (2, 1), (2, 2)):
        monkeypatch.setattr(packed, "PACK_FROM", pack_from)
        out = tmp_path / f"out-{pack_from}-{jobs}"
        results = lmsexport.build([sources], FORMATS, out, jobs=jobs, lint=False)
        files = {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("[!.]*")) if p.is_file()}
        runs.append((files, [(r.source, r.questions, [d.render() for d in r.diagnostics]) for r in results]))
        if jobs == 1:  # workers spawned (when this process has threads) import PACK_FROM afresh
            assert [isinstance(r.quiz.questions, Packed) for r in results] == [pack_from <= r.questions for r in results]
    assert len(runs[0][0]) >= 15 and runs[0] == runs[1] == runs[2]


def test_a_build_with_lint_holds_its_questions_as_objects(tmp_path, monkeypatch):
    """Lint goes over the questions a dozen times, so a build that lints reads them unpacked."""
    monkeypatch.setattr(packed, "PACK_FROM", 5)
    (tmp_path / "bank.txt").write_text(_bank(20), encoding="utf-8")
    linted, = lmsexport.build([tmp_path / "bank.txt"], ["qti"], tmp_path / "out", jobs=1)
    assert isinstance(linted.quiz.questions, tuple) and len(linted.quiz.questions) == 20


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(quizzes())
def test_every_writer_writes_a_packed_quiz_as_its_tuple(quiz):
    """Any quiz, its questions packed in blocks of two: the same questions, positions and all,
    through indexing and pickling, and every format's package and warnings byte for byte."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(packed, "BLOCK", 2)
        packer = Packer(pack_from=1)
        for question in quiz.questions:
            packer.add(question)
        packed_quiz = dataclasses.replace(quiz, questions=packer.result())
        assert isinstance(packed_quiz.questions, Packed) and packed_quiz == quiz
        assert repr(tuple(packed_quiz.questions)) == repr(quiz.questions)
        assert [packed_quiz.questions[i] for i in range(-len(quiz.questions), 0)] == list(quiz.questions)
        assert pickle.loads(pickle.dumps(packed_quiz)) == quiz
        for name in FORMATS:
            assert _written(packed_quiz, name) == _written(quiz, name)


def _written(quiz, name: str):
    """A package's files and warnings, or the errors of a quiz the format refuses."""
    try:
        package = lmsexport.write(quiz, name)
    except lmsexport.SourceError as error:
        return [d.render() for d in error.diagnostics]
    return dict(package.files), [d.render() for d in package.warnings]


def test_lint_finds_in_a_packed_quiz_what_it_finds_in_its_tuple(monkeypatch):
    """A quiz a build without lint kept packed (`keep_quizzes`) can still be linted: `check` holds
    its questions as objects for the rules, and finds the same, at the same places."""
    from lmsexport.rules import runner

    seen, found_by = [], runner._found

    def spy(quizzes, *args):
        seen.extend(type(quiz.questions) for quiz in quizzes)
        return found_by(quizzes, *args)

    monkeypatch.setattr(runner, "_found", spy)
    monkeypatch.setattr(packed, "PACK_FROM", 5)
    source = _bank(12).replace("2. Câu hỏi số 2?", "2. Câu hỏi số 1?")  # a repeated prompt
    quiz = lmsexport.read("bank.txt", source)
    packer = Packer()
    for question in quiz.questions:
        packer.add(question)
    packed_quiz = dataclasses.replace(quiz, questions=packer.result())
    assert isinstance(packed_quiz.questions, Packed)
    found = [d.render() for d in runner.check([quiz])]
    assert found and [d.render() for d in runner.check([packed_quiz])] == found
    assert seen == [tuple, tuple]


def test_a_packed_quiz_of_many_pools_is_written_in_a_few_passes(monkeypatch):
    """A pool's questions are found as the run of the quiz's questions it names, every pool's in
    one pass: a packed bank of many pools is not unpacked again for each pool (QTI 2.1 asks for
    every pool's questions twice: its points and its section)."""
    monkeypatch.setattr(packed, "BLOCK", 2)
    body = "".join(f"Pool: P{p}\n@draw: 1\n\n{2 * p - 1}. Một?\n   *• a\n   • b\n\n{2 * p}. Hai?\n   *• a\n   • b\n\n"
                   "End pool\n\n" for p in range(1, 41))
    quiz = lmsexport.read("pools.txt", f"---\nlang: vi\n---\nNgân hàng\n\n{body}")
    packer = Packer(pack_from=1)
    for question in quiz.questions:
        packer.add(question)
    packed_quiz = dataclasses.replace(quiz, questions=packer.result())
    unpacked, unpack = [], packed._unpack
    monkeypatch.setattr(packed, "_unpack", lambda block: unpacked.append(1) or unpack(block))
    assert _written(packed_quiz, "qti") == _written(quiz, "qti")
    assert len(quiz.pools) == 40 and len(unpacked) <= 10 * 40  # ten passes over the 40 blocks at most


def test_a_large_text_is_packed_from_its_early_questions(monkeypatch):
    """A reader that says how far through its source it is packs once `EARLY` questions forecast
    `PACK_FROM`, not after `PACK_FROM` of them were held as objects (the peak of a large read)."""
    monkeypatch.setattr(packed, "PACK_FROM", 3 * BLOCK)
    monkeypatch.setattr(packed, "EARLY", BLOCK // 2)
    held, pack = [], Packer._pack
    monkeypatch.setattr(Packer, "_pack", lambda self, least: held.append(len(self._pending)) or pack(self, least))
    source = _bank(4 * BLOCK)
    quiz = lmsexport.formats.reader("text").read(source, source="bank.txt", pack=True)
    assert isinstance(quiz.questions, Packed) and quiz.questions == lmsexport.read("bank.txt", source).questions
    assert held and max(held) == BLOCK  # never more than a block waits: packed from the first
    held.clear()
    quiz = lmsexport.formats.reader("text").read(_bank(2 * BLOCK), source="bank.txt", pack=True)
    assert held == [] and isinstance(quiz.questions, tuple)  # a source on course for fewer is held


def test_a_forecast_that_falls_short_gives_the_tuple(monkeypatch):
    """Packed from its early questions, a quiz that ends short of `PACK_FROM` is a tuple all the same."""
    monkeypatch.setattr(packed, "EARLY", 2)
    questions = lmsexport.read("bank.txt", _bank(2 * BLOCK + 3)).questions
    packer = Packer(pack_from=10 * BLOCK, share=lambda: 0.001)
    for question in questions:
        packer.add(question)
    stored = packer.result()
    assert isinstance(stored, tuple) and stored == questions


def test_a_large_moodle_bank_is_packed_from_its_early_questions(monkeypatch):
    """A bank the build cut into `Chunks` tells its packers how much is parsed: the bank's questions
    are packed from the early ones, and so are they again with the bank's language and tags."""
    from lmsexport.chunks import Chunks

    bank, = lmsexport.write(lmsexport.read("bank.txt", _bank(40)), "moodle").files.values()
    monkeypatch.setattr(packed, "BLOCK", 2)
    monkeypatch.setattr(packed, "PACK_FROM", 30)
    monkeypatch.setattr(packed, "EARLY", 4)
    held, pack = [], Packer._pack
    monkeypatch.setattr(Packer, "_pack", lambda self, least: held.append(len(self._pending)) or pack(self, least))
    moodle = lmsexport.formats.reader("moodle")
    quiz = moodle.read(Chunks.of(bank, 512), source="bank.moodle.xml", pack=True)
    assert isinstance(quiz.questions, Packed) and quiz == moodle.read(bank, source="bank.moodle.xml")
    assert len(held) > 2 and max(held) == 4  # both packers: never more than the early questions wait


def test_a_read_lets_its_source_go_when_it_returns(monkeypatch):
    """A packer keeps its reader's forecast no longer than it needs it: the parser (and the source
    it reads) is freed when the read returns, not at the cyclic collector's next full pass, which
    a build runs seldom (`cli.run`): 100,000 questions' 43 MB stayed through their QTI write."""
    import gc

    from lmsexport.formats.text.reader import Parser

    monkeypatch.setattr(packed, "PACK_FROM", 3 * BLOCK)
    monkeypatch.setattr(packed, "EARLY", BLOCK // 2)
    def parsers() -> set[int]:
        return {id(kept) for kept in gc.get_objects() if isinstance(kept, Parser)}

    gc.collect()
    before = parsers()  # none, unless a test before this one keeps its own
    gc.disable()
    try:
        for count in (4 * BLOCK, BLOCK // 4):  # packed early, and too short to be asked
            lmsexport.formats.reader("text").read(_bank(count), source="bank.txt", pack=True)
            assert parsers() <= before
    finally:
        gc.enable()
