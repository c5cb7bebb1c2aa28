"""Read GIFT, Moodle's text format for questions, into the model (docs/formats/gift.md).

https://docs.moodle.org/en/GIFT_format. Files are read the way Moodle's importer reads them
(moodle/moodle `question/format/gift/format.php`, qformat_gift): questions separated by blank
lines (`lexer`), each one's parts (`parts`), answers (`answers`) and type (`kinds`), its texts
in their formats (`texts`). A file with `$CATEGORY:` lines reads as one quiz named after the
first category, its questions those of every category in file order, as the Moodle XML reader
reads a bank of several categories. Everything Moodle would refuse is an error located at its
line and column; what Moodle takes and the model cannot hold is a warning naming the question.
"""

from __future__ import annotations

import dataclasses
import html
import re
from collections.abc import Callable, Iterator

from ...diagnostics import Log, SourceError
from ...ids import slug
from ...model import ModelError, Numbering, Question, Quiz, Settings, Text, is_identifier
from ...textinput import decode
from .kinds import BUILDERS
from .lexer import Block, Locator, blocks
from .parts import Context, idnumber, is_description, parse
from .texts import Texts

READ_OPTIONS = ("log", "assets")
"""`read` takes a `log` for its warnings and `assets`, a loader for images beside the file."""

_CATEGORY = "$CATEGORY:"
_PATH_SPLIT = re.compile(r"(?<!/)/(?!/)")
_CONTEXT = re.compile(r"\$[a-z]+\$")
_SUFFIXES = (".txt", ".gift")
_SHUFFLED = ("multiple_choice", "matching")
_IMG_SRC = re.compile(r'<img\b[^>]*?\bsrc="([^"]*)"')


@dataclasses.dataclass
class _Quiz:
    """What the file says about the quiz as a whole."""

    category: list[str] | None = None
    """The names of the first category's path (without `$course$` and `top`)."""
    questions: list[Question] = dataclasses.field(default_factory=list)
    ids: set[str] = dataclasses.field(default_factory=set)


def read(data: str | bytes, *, source: str, log: Log | None = None,
         assets: Callable[[str], bytes] | None = None) -> Quiz:
    """Read a GIFT file; raises SourceError listing every problem found in it.

    `assets(path)` returns the bytes of an image the file shows by a relative path (or raises
    OSError); without it such images are left out, with a warning."""
    text = _decoded(data, source)
    log = log if log is not None else Log()
    texts = Texts(log, assets)
    ctx = Context(Locator(text, source), log, texts, texts.problems)
    found = _Quiz()
    number, numbering = 0, Numbering()
    for block in blocks(text):
        if not block.chars.text:
            continue
        if block.chars.startswith(_CATEGORY):
            _category(ctx, found, block)
            continue
        number += 1
        question = _question(ctx, found, block, number, numbering.next(is_description(block)))
        if question is not None:
            found.questions.append(question)
    if not found.questions and not ctx.problems:
        if number:
            ctx.error("E909", f"none of the file's {number} question{'s' * (number > 1)} can be read into the model "
                      "(each is warned)", 0, "change them as the warnings say")
        else:
            ctx.error("E909", "the file holds no question, only comments or categories", 0,
                      "write questions such as: Who wrote Hamlet? {=Shakespeare ~Marlowe}, a blank line between two")
    if ctx.problems:
        raise SourceError(ctx.problems)
    return _quiz(found, source, ctx.texts)


def _decoded(data: str | bytes, source: str) -> str:
    """The file's text (textinput.decode), an empty file reported with a GIFT hint."""
    try:
        return decode(data, source)
    except SourceError as exc:
        hint = "a GIFT file holds questions such as: Who wrote Hamlet? {=Shakespeare ~Marlowe}"
        raise SourceError([dataclasses.replace(d, hint=hint) if d.code == "E103" else d
                           for d in exc.diagnostics]) from None


def _category(ctx: Context, found: _Quiz, block: Block) -> None:
    """`$CATEGORY: path`: the first names the quiz; a later one is warned (the model has one quiz per file)."""
    path = block.chars[len(_CATEGORY):].strip()
    if "\n" in path.text:
        ctx.error("E908", "the $CATEGORY: line is followed by more lines; Moodle reads them all as the category's "
                  "name, so the question after it would be lost", path.offset(path.text.index("\n") + 1),
                  "put a blank line after the $CATEGORY: line")
        return
    names = _category_names(path.text)
    if found.category is None:
        found.category = names
    elif names != found.category:
        ctx.warn("W906", f"the category {path.text!r} is not kept: the model has one quiz per file, named after its "
                 "first category, and the questions after this line are read into it", block.chars.anchor,
                 "to keep the categories apart, put each in a file of its own")


def _category_names(path: str) -> list[str]:
    """The names in a category path, without its context (`$course$`) and `top` (create_category_path())."""
    names = [part.replace("//", "/").strip() for part in _PATH_SPLIT.split(path)]
    if names and _CONTEXT.fullmatch(names[0]):
        names = names[1:]
    if names and names[0] == "top":
        names = names[1:]
    return [name for name in names if name]


def _question(ctx: Context, found: _Quiz, block: Block, number: int, label: str) -> Question | None:
    """The question a block holds (the `number`-th of the file, named `label` in messages); None if it
    has a problem (reported) or the model cannot hold it (warned)."""
    mark = len(ctx.problems)
    parsed = parse(ctx, block, label)
    if parsed is None:
        return None
    question_id = _id(ctx, found, block, number, label)
    try:
        question = BUILDERS[parsed.kind](ctx, parsed, question_id)
    except ModelError as exc:
        ctx.error("E905", f"{label} cannot be read: {str(exc).removeprefix(f'{question_id}: ')}",
                  block.chars.anchor, "give it the answers its type needs")
        return None
    return question if len(ctx.problems) == mark else None


def _id(ctx: Context, found: _Quiz, block: Block, number: int, label: str) -> str:
    """The question's id: its `[id:...]` when that is a usable id not taken yet, else q<number>."""
    wanted = idnumber(block)
    chosen = wanted if is_identifier(wanted) and wanted not in found.ids else f"q{number}"
    if wanted and chosen != wanted:
        ctx.warn("W909", f"{label}: its id number {wanted!r} is not kept (it is used twice, or is not an "
                 f"id every output format takes); it is {chosen!r}", block.chars.anchor,
                 "use letters, digits, - and _ (starting with a letter), each id once")
    while chosen in found.ids:
        chosen += "-2"
    found.ids.add(chosen)
    return chosen


def _quiz(found: _Quiz, source: str, texts: Texts) -> Quiz:
    stem = source.replace("\\", "/").rsplit("/", 1)[-1]
    while stem.lower().endswith(_SUFFIXES):
        stem = stem[: stem.rfind(".")]
    shuffled = any(q.kind in _SHUFFLED or any(gap.choices for gap in getattr(q, "gaps", ())) for q in found.questions)
    shown = {src for question in found.questions for src in _image_sources(question)} if texts.assets else set()
    return Quiz(
        id=slug(stem),
        title=found.category[-1] if found.category else (stem.strip() or "quiz"),
        # Moodle shuffles a GIFT question's options unless the site's default says otherwise (quiz/shuffleanswers).
        settings=Settings(shuffle=shuffled),
        questions=tuple(found.questions),
        assets=tuple(asset for path, asset in texts.assets.items() if path in shown),
    )


def _image_sources(value) -> Iterator[str]:
    """The `src` of every image the HTML texts of a model object show."""
    if isinstance(value, Text):
        if value.format == "html":
            yield from (html.unescape(src) for src in _IMG_SRC.findall(value.value))
    elif dataclasses.is_dataclass(value):
        for spec in dataclasses.fields(value):
            yield from _image_sources(getattr(value, spec.name))
    elif isinstance(value, tuple):
        for item in value:
            yield from _image_sources(item)

