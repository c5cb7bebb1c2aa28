"""The text writer: any model quiz as lmsexport text that reads back as the same quiz.

`read_text(write_text(q)) == q` for Hypothesis-drawn quizzes of every kind (tests/model_strategies.py),
and for every quiz the repository's goldens and fixtures read to, modulo the fields
docs/formats/text.md lists as normalised (ids renumbered, HTML as the sanitiser writes it, ...).
"""

from __future__ import annotations

import re
import warnings
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

import lmsexport
from lmsexport.formats.text import reader as text_reader
from lmsexport.model import Asset, Choice, Gap, MultipleChoice, Quiz, Text

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


def _images_as_links(fragment: str) -> str:
    """W455: an image that is not in the quiz's folder (a web address) comes back as a link to it,
    its alt text (else its address) the link's text; inside a link, as that text alone."""
    pieces, depth = re.split(r"(<[^>]*>)", fragment), 0
    for index, piece in enumerate(pieces):
        depth += (piece == "<a>" or piece.startswith("<a ")) - (piece == "</a>")
        attributes = dict(re.findall(r'([\w-]+)="([^"]*)"', piece)) if piece.startswith("<img ") else {}
        src = attributes.get("src", "")
        if "://" in src or src.startswith(("/", "\\", "..", "data:")):
            label = attributes.get("alt") or src
            title = f' title="{attributes["title"]}"' if "title" in attributes else ""
            pieces[index] = label if depth else f'<a href="{src}"{title}>{label}</a>'
    return "".join(pieces)


def _text(text: Text | None, optional: bool = True) -> Text | None:
    """A text as reading the written text gives it back (docs/formats/text.md): no language of
    its own (W451); HTML as the sanitiser writes it, or plain when it has no tag and no TeX;
    images not in the quiz's folder as links (W455)."""
    from html import unescape
    import unicodedata

    from lmsexport.formats.text.syntax import MATH
    from lmsexport.markup import sanitize

    if text is None or (optional and not text.value):
        return None
    if text.format == "plain":
        return Text(text.value)
    kept = sanitize(_images_as_links(sanitize(text.value)))
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


def _choice_quiz(*options: Text, prompt: Text = Text("Which?")) -> Quiz:
    """A quiz of one question with these options, the first correct, and the image img/a.png if a text shows it."""
    choices = tuple(Choice(id=chr(97 + i), text=text, correct=i == 0) for i, text in enumerate(options))
    shown = any("img/a.png" in text.value for text in (prompt, *options))
    return Quiz(id="same", title="Same", questions=(MultipleChoice(id="q1", prompt=prompt, choices=choices),),
                assets=(Asset(path="img/a.png", media_type="image/png", data=b"\x89PNG a"),) if shown else ())


def test_identical_options_are_spelt_apart_and_read_back_as_they_were():
    """E204 refuses an option typed twice; the writer spells a repeat with a character reference."""
    dot, image, math = Text("."), Text('<img src="img/a.png" alt="">', "html"), Text("\\(x\\)", "html")
    quiz = _choice_quiz(dot, dot, dot, Text("Yes"), Text("yes"), image, image, math, math)
    package = lmsexport.write(quiz, "text")
    options = [line.strip() for line in _text_of(package).decode("utf-8").splitlines() if "•" in line]
    assert options == ["*• .", "• &#46;", "• &#046;", "• Yes", "• &#121;es",
                       '• <img src="img/a.png" alt="">', '• <img src="&#105;mg/a.png" alt="">',
                       "• \\(x\\)", "• \\(&#120;\\)"]
    assert package.warnings == [] and _read_back(package) == quiz


def test_an_option_of_quotation_marks_is_spelt_apart_as_any_other():
    """A `"` written as it is is text, not markup (Hypothesis found two `"` options warned of, W457)."""
    quiz = _choice_quiz(Text("a"), Text('"'), Text('"'), Text('"x"'), Text('"x"'))
    package = lmsexport.write(quiz, "text")
    options = [line.strip() for line in _text_of(package).decode("utf-8").splitlines() if "•" in line]
    assert options == ["*• a", '• "', "• &#34;", '• "x"', '• &#34;x"']
    assert package.warnings == [] and _read_back(package) == quiz


def test_options_with_nothing_to_tell_them_apart_are_warned_about():
    package = lmsexport.write(_choice_quiz(Text("a"), Text(""), Text("")), "text")
    assert [(d.code, "question 1: lmsexport text cannot carry two options with nothing" in d.message)
            for d in package.warnings] == [("W457", True)]
    with pytest.raises(lmsexport.SourceError, match="E204"):
        _read_back(package)


def test_an_image_not_in_the_quiz_folder_is_written_as_a_link_to_it():
    prompt = Text('<p>Where is <img src="https://example.org/a.png" alt="a map">? '
                  '<a href="https://example.org/"><img src="https://example.org/b.png" alt="b"></a> '
                  '<img src="/srv/c.png"> <img src="img/a.png" alt="kept"></p>', "html")
    package = lmsexport.write(_choice_quiz(Text("here"), Text("there"), prompt=prompt), "text")
    assert ('<p>Where is <a href="https://example.org/a.png">a map</a>? '
            '<a href="https://example.org/" rel="noopener noreferrer">b</a> '
            '<a href="/srv/c.png">/srv/c.png</a> <img src="img/a.png" alt="kept"></p>') in _text_of(package).decode()
    assert [(d.code, d.message.split(",")[0]) for d in package.warnings] == [
        ("W455", f"question 1: lmsexport text cannot carry the image {src}") for src in
        ("https://example.org/a.png", "https://example.org/b.png", "/srv/c.png")]
    back = _read_back(package).questions[0].prompt
    assert back.value.count("<a ") == 3 and back.value.count("<img ") == 1
