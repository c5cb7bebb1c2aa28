"""The text writer: any model quiz as lmsexport text that reads back as the same quiz.

`read_text(write_text(q)) == q` for Hypothesis-drawn quizzes of every kind (tests/model_strategies.py),
and for every quiz the repository's goldens and fixtures read to, modulo the fields
docs/formats/text.md lists as normalised (ids renumbered, HTML as the sanitiser writes it, ...).
"""

from __future__ import annotations

import warnings
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

import lmsexport
from lmsexport.formats.text import reader as text_reader
from lmsexport.model import Gap, Quiz, Text

from conftest import GOLDEN, ROOT
from model_strategies import quizzes


def _text_of(package) -> bytes:
    (content,) = package.files.values()
    return content


def _read_back(package, source: str = "back.txt") -> Quiz:
    def load(path: str) -> bytes:
        if path not in package.companions:
            raise FileNotFoundError(2, "no such file")
        return package.companions[path]

    return text_reader.read(_text_of(package), source=source, assets=load)


ROUND_TRIP = settings(max_examples=120, deadline=None,
                      suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def _round_trip(quiz: Quiz) -> None:
    package = lmsexport.write(quiz, "text")
    assert [d.render() for d in package.warnings] == []
    assert _read_back(package) == quiz


@ROUND_TRIP
@given(quizzes())
def test_every_quiz_the_text_format_holds_reads_back_the_same(quiz):
    _round_trip(quiz)


@ROUND_TRIP
@given(quizzes(plain=True))
def test_quizzes_of_words_read_back_the_same(quiz):
    _round_trip(quiz)


# Goldens and fixtures: every source in the repository that reads to a model.
SOURCES = sorted(
    [p for p in (ROOT / "tests" / "golden" / "readers").glob("*/*") if p.suffix != ".log"
     and not (p.suffix == ".json" and p.with_suffix("").is_file())]
    + list((ROOT / "tests" / "golden" / "writers" / "json").glob("*.json"))
    + list((ROOT / "examples").rglob("*.txt")) + list((ROOT / "quizzes").glob("*.txt"))
    + list((ROOT / "tests" / "fixtures" / "moodle").glob("*.xml"))
    + [p for p in (ROOT / "tests" / "fixtures" / "qti21").glob("*") if p.suffix in (".xml", ".zip", ".json")]
)


def _readable(path: Path) -> bool:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            lmsexport.read(path)
        return True
    except lmsexport.SourceError:
        return False  # a fixture of what the reader refuses (broken Cloze, unsupported types)


READABLE = [path for path in SOURCES if _readable(path)]


def test_the_goldens_cover_every_reader():
    suffixes = {path.suffix for path in READABLE}
    assert {".txt", ".json", ".xml", ".zip"} <= suffixes and len(READABLE) >= 25


def _text(text: Text | None, optional: bool = True) -> Text | None:
    """A text as reading the written text gives it back (docs/formats/text.md): no language of
    its own (W451); HTML as the sanitiser writes it, or plain when it has no tag and no TeX."""
    from html import unescape
    import unicodedata

    from lmsexport.formats.text.syntax import MATH
    from lmsexport.markup import sanitize

    if text is None or (optional and not text.value):
        return None
    if text.format == "plain":
        return Text(text.value)
    kept = sanitize(text.value)
    if "<" in kept or MATH.search(kept):
        return Text(kept, "html")
    return Text(unicodedata.normalize("NFC", unescape(kept)))


def _gap(gap: Gap, number: int) -> Gap:
    answers = tuple(replace(a, feedback=None) for a in gap.answers)  # W455: a gap's feedback is left out
    kept = [c for c in gap.choices if c.text.value or c.correct]  # W457: a blank wrong choice is left out
    choices = tuple(replace(c, id=chr(97 + i), text=_text(c.text, False), feedback=None) for i, c in enumerate(kept))
    return Gap(id=f"g{number}", answers=answers, choices=choices)


def _segments(segments) -> tuple:
    """Gaps numbered g1, g2, ...; the sentence's layout (W454) as one space for each run of spaces."""
    out, number = [], 0
    for segment in segments:
        if isinstance(segment, Gap):
            number += 1
            out.append(_gap(segment, number))
        elif segment and out and isinstance(out[-1], str):
            out[-1] += segment
        elif segment:
            out.append(segment)
    return tuple(" ".join(s.split()) + (" " if s[-1:].isspace() else "") if isinstance(s, str) else s
                 for s in out)


def _question(question):
    changes = {name: _text(getattr(question, name)) for name in ("explanation", "correct_feedback", "incorrect_feedback")}
    changes.update(prompt=_text(question.prompt, False), title=question.title or None)
    if question.kind == "multiple_choice":
        changes["choices"] = tuple(replace(c, id=chr(97 + i), text=_text(c.text, False), feedback=_text(c.feedback))
                                   for i, c in enumerate(question.choices))
    elif question.kind in ("short_answer", "numeric"):
        changes["answers"] = tuple(replace(a, feedback=_text(a.feedback)) for a in question.answers)
    elif question.kind == "matching":
        changes["pairs"] = tuple(replace(p, id=chr(97 + i), left=_text(p.left, False), right=_text(p.right, False))
                                 for i, p in enumerate(question.pairs))
        changes["distractors"] = tuple(_text(d, False) for d in question.distractors)
    elif question.kind == "ordering":
        changes["items"] = tuple(replace(item, id=chr(97 + i), text=_text(item.text, False))
                                 for i, item in enumerate(question.items))
    elif question.kind == "fill_blanks":
        changes["segments"] = _segments(question.segments)
        changes["prompt"] = Text("".join(s if isinstance(s, str) else "___" for s in changes["segments"]))
    return replace(question, **changes)


def canonical(quiz: Quiz, carried: set[str]) -> Quiz:
    """The quiz as the text format holds it; images only those `carried` (W456)."""
    return replace(quiz, description=_text(quiz.description), questions=tuple(_question(q) for q in quiz.questions),
                   assets=tuple(sorted((a for a in quiz.assets if a.path in carried), key=lambda a: a.path)))


@pytest.mark.parametrize("path", READABLE, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_golden_reads_back_the_same_through_text(path):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        quiz = lmsexport.read(path)
    package = lmsexport.write(quiz, "text")

    def load(name: str) -> bytes:
        return package.companions.get(name, b"\x89PNG an image the quiz does not carry")

    back = text_reader.read(_text_of(package), source="back.txt", assets=load)
    carried = {asset.path for asset in quiz.assets}
    assert canonical(back, carried) == canonical(quiz, carried)


FOREIGN = [path for path in READABLE if "fixtures" in path.parts] + [ROOT / "examples" / "all-kinds" / "quiz.txt"]


def _golden_name(path: Path) -> str:
    return f"{path.parent.name}-{path.name.split('.')[0]}"


@pytest.mark.parametrize("path", FOREIGN, ids=_golden_name)
def test_what_a_conversion_to_text_looks_like(path, goldens):
    """tests/golden/writers/text/: each fixture as text (`.txt`) and what it could not carry (`.log`)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        quiz = lmsexport.read(path.relative_to(ROOT))
    package = lmsexport.write(quiz, "text")
    assert list(package.files) == [f"{quiz.id}.txt"] and not package.zipped
    assert lmsexport.write(quiz, "text").files == package.files
    folder = GOLDEN / "writers" / "text"
    goldens.check(folder / f"{_golden_name(path)}.txt", _text_of(package).decode("utf-8"))
    log = folder / f"{_golden_name(path)}.log"
    rendered = "".join(d.render() + "\n" for d in package.warnings)
    if rendered:
        goldens.check(log, rendered)
    elif goldens.update:
        log.unlink(missing_ok=True)
    else:
        assert not log.exists(), f"{log.name} is stale: run pytest --update-goldens"
