"""The lmsexport text format (docs/format.md), written from the model: any quiz as an editable text.

Whatever a quiz was read from (Moodle XML, QTI, JSON, a text), it comes out as the text a
teacher would have typed: the settings in a `---` header, numbered questions with `@`
attributes, marked options, `=` answers, `___` boxes, `{=...}` gaps and `>` feedback, and the
images it shows (and the player's words it gives, `messages:`) as files beside it
(`Package.companions`). Reading the text back gives the same
quiz; docs/formats/text.md lists what comes back numbered afresh or normalised, and what the
format cannot carry, which is warned about (W451-W458), never dropped silently.

A quiz is written with `markup: plain` when every text fits it as it is, else with
`markup: html` (see writer_lines). `writer_kinds` writes each kind's answer lines.
"""

from __future__ import annotations

import json
import posixpath
from collections import Counter
from collections.abc import Iterator

from ...diagnostics import Log, SourceSpan
from ...model import DEFAULT_SCORING, MEDIA_TYPES, Pool, Question, Quiz
from ...package import Package, WriteOptions
from ...spool import SpooledFiles
from .syntax import ESSAY_LINES, PREAMBLE_BREAKS, classify
from .writer_kinds import BODIES, inline_unit, language, sentence_lines
from .writer_lines import INDENT, Encoder, NeedsHTML, number, one_line

EXTENSION = ".txt"
FORMAT = "lmsexport text"
_FEEDBACK = ((">+", "correct_feedback"), (">-", "incorrect_feedback"), (">", "explanation"))


def write(quiz: Quiz, options: WriteOptions | None = None) -> Package:
    """The quiz as `<id>.txt`, its images beside it."""
    try:
        writer = _Writer(quiz, "plain")
        lines = writer.lines()
    except NeedsHTML:
        writer = _Writer(quiz, "html")
        lines = writer.lines()
    companions = {asset.path: asset.data for asset in quiz.assets}
    if quiz.settings.messages:
        companions[_messages_name(quiz)] = _messages_file(quiz)
    files = SpooledFiles()
    files.put_chunks(f"{quiz.id}{EXTENSION}", _utf8(lines))
    return Package(files, zipped=False, extension=EXTENSION, warnings=writer.log.diagnostics, companions=companions)


_BATCH = 10_000


def _utf8(lines: list[str]) -> Iterator[bytes]:
    """The file's bytes, each line ended by a line break, a batch of lines at a time, each batch
    let go once written: a 100,000-question quiz is 700,000 lines, which as one joined string
    and its bytes besides took 250 MB."""
    while lines:
        batch = lines[:_BATCH]
        del lines[:_BATCH]
        yield ("\n".join(batch) + "\n").encode("utf-8")


def _messages_name(quiz: Quiz) -> str:
    return f"{quiz.id}.messages.json"


def _messages_file(quiz: Quiz) -> bytes:
    """The player's words the quiz gives, as the `messages:` file the header names."""
    return (json.dumps(dict(quiz.settings.messages), ensure_ascii=False, indent=2) + "\n").encode("utf-8")


def _duration(seconds: int) -> str:
    """`1 h 30 min`, `45 min`, `90 s` as the header's `time:` reads them."""
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    parts = [(hours, "h"), (minutes, "min"), (seconds, "s")]
    return " ".join(f"{amount} {unit}" for amount, unit in parts if amount)


def _usual_points(quiz: Quiz) -> float:
    """The header's `points:`, the points most questions have (so few need `@points`)."""
    counts = Counter(question.points for question in quiz.questions if question.kind != "description")
    usual = counts.most_common(1)[0][0] if counts else 1.0
    return usual if usual > 0 else 1.0


class _Writer:
    """One writing of a quiz in one markup; `lost()` warns about what the text cannot carry."""

    def __init__(self, quiz: Quiz, markup: str):
        self.quiz = quiz
        self.encoder = Encoder(markup)
        self.log = Log()
        self.points = _usual_points(quiz)
        sources = [question.source.source for question in quiz.questions if question.source]
        self.where = SourceSpan(sources[0] if sources else quiz.id)
        self.label: str | None = None
        self.span = self.where
        self.warned: set[tuple] = set()
        self.pooled = {qid: pool for pool in quiz.pools for qid in pool.questions}

    def lost(self, code: str, feature: str, instead: str) -> None:
        """Warn that the question being written (or the quiz) loses `feature`, once per question."""
        if (self.label, code, feature) in self.warned:
            return
        self.warned.add((self.label, code, feature))
        self.log.unsupported(code, self.span, format=FORMAT, feature=feature, instead=instead, question=self.label)

    def lines(self) -> list[str]:
        """The file's lines (never none: the header is there)."""
        title = self._title()
        questions = self._questions()
        if not questions:
            self.lost("W456", "a quiz without questions", "the text reader refuses it (E401) until it has one")
        self.label, self.span = None, self.where
        in_header = classify(title)[0] in (*PREAMBLE_BREAKS, "comment")  # `1. Basics` would be a question
        lines = self._header(title if in_header else None) + ([] if in_header else ["", title])
        if self.quiz.description is not None and self.quiz.description.value:
            shown = len(self.encoder.images)
            lines += ["", *self.encoder.block(self.quiz.description, "preamble")]
            self._missing_images(list(self.encoder.images)[shown:])
        for question in questions:
            lines += ["", *question]
        self._images()
        for code, feature, instead in self.encoder.drain():
            self.lost(code, f"{feature} in the quiz's description", instead)
        return lines

    def _title(self) -> str:
        title, changed = one_line(self.quiz.title)
        if changed:
            self.lost("W453", "a line break or spaces at the ends of the quiz's title", "it is written on one line")
        return title

    def _header(self, title: str | None) -> list[str]:
        """The `---` block: the id always (the file's name may change), the rest where not the default."""
        quiz, settings = self.quiz, self.quiz.settings
        fields = {
            "id": quiz.id, "title": title, "lang": quiz.lang,
            "markup": "html" if self.encoder.markup == "html" else None,
            "shuffle": "true" if settings.shuffle else None,
            "points": number(self.points) if self.points != 1 else None,
            "pass": None if settings.pass_mark is None else f"{number(settings.pass_mark)}%",
            "feedback": None if settings.feedback == "immediate" else settings.feedback,
            "attempts": settings.attempts and str(settings.attempts),
            "time": settings.time_limit and _duration(settings.time_limit),
            "scoring": None if settings.scoring == DEFAULT_SCORING else settings.scoring,
            "tags": self._tags(quiz.tags), "lint": self._lint(quiz.lint_ignore),
            "messages": _messages_name(quiz) if settings.messages else None,
        }
        return ["---", *(f"{key}: {value}" for key, value in fields.items() if value), "---"]

    def _tags(self, tags: tuple[str, ...]) -> str:
        written = []
        for tag in tags:
            text, changed = one_line(tag)
            if changed or "," in tag or not text:
                self.lost("W453", f"the tag {tag!r} (commas separate tags, spaces at the ends are trimmed)",
                          "it reads back as written here")
            written.append(text)
        return ", ".join(written)

    def _lint(self, codes: tuple[str, ...]) -> str:
        kept = [code for code in codes if len(code) == 4 and code[0] == "L" and code[1:].isdigit()]
        if len(kept) != len(codes):
            self.lost("W453", "lint settings that are not lint rule codes", "only the rule codes (L012) are written")
        return " ".join(f"-{code}" for code in kept)

    def _questions(self) -> list[list[str]]:
        written = []
        starts = {pool.questions[0]: (number, pool) for number, pool in enumerate(self.quiz.pools, 1)}
        ends = {pool.questions[-1] for pool in self.quiz.pools}
        for question in self.quiz.questions:
            if question.id in starts:
                written.append(self._pool_head(*starts[question.id]))
            block, number = question.kind == "description", self.quiz.number(question)
            self.label = self.quiz.label(question)  # the reader's words for it, so a warning names it as it will
            self.span = question.source or self.where
            numbered = f"{'t' if block else 'q'}{number}"
            shown = len(self.encoder.images)
            written.append(self._question(question, None if block else number, numbered))
            for code, feature, instead in self.encoder.drain():
                self.lost(code, feature, instead)
            self._missing_images(list(self.encoder.images)[shown:])
            if question.id in ends:
                written.append(["End pool"])
        return written

    def _pool_head(self, position: int, pool: Pool) -> list[str]:
        """`Pool: title` and the pool's attributes (docs/format.md#pools)."""
        title, changed = one_line(pool.title or "")
        if changed:
            self.lost("W453", f"a line break or spaces at the ends of the title of pool {position}",
                      "it is written on one line")
        lines = [f"Pool: {title}".rstrip(), f"@draw: {pool.draw}"]
        lines += [f"@points: {number(pool.points)}"] if pool.points is not None else []
        lines += [] if pool.shuffle else ["@shuffle: no"]
        lines += [f"@id: {pool.id}"] if pool.id != f"pool{position}" else []
        return lines

    def _question(self, question: Question, position: int | None, numbered: str) -> list[str]:
        if question.kind == "fill_blanks":
            prompt = sentence_lines(self, question)
        elif question.prompt.value:
            prompt = self.encoder.block(question.prompt, "prompt")
        else:
            self.lost("W456", "a question without text", "the text reader refuses it (E207) until it has one")
            prompt = [""]
        head = f"{position}. " if position else "Text: "
        lines = [f"{head}{prompt[0]}".rstrip(), *(f"{INDENT}{line}" if line else "" for line in prompt[1:])]
        attributes = [("id", question.id)] if question.id != numbered else []
        lines += [f"{INDENT}@{key}: {value}" for key, value in attributes + self._attributes(question)]
        if question.kind in BODIES and question.kind != "fill_blanks":
            lines += BODIES[question.kind](self, question)
        for marker, name in _FEEDBACK:
            text = getattr(question, name)
            if text is not None and text.value:
                lines += [f"{INDENT}{marker} {line}" if line else f"{INDENT}{marker}"
                          for line in self.encoder.block(text, "feedback")]
        return lines

    def _attributes(self, question: Question) -> list[tuple[str, str]]:
        attributes = []
        title, changed = one_line(question.title or "")
        if changed:
            self.lost("W453", "a line break or spaces at the ends of the question's title", "it is written on one line")
        attributes += [("title", title)] if title else []
        pool = self.pooled.get(question.id)
        given_by_pool = pool is not None and pool.points is not None  # the pool's @points gives it its points
        if question.kind != "description" and question.points != self.points and not given_by_pool:
            attributes.append(("points", number(question.points)))
        attributes += [("lang", question.lang)] if question.lang else []
        attributes += [("tags", self._tags(question.tags))] if question.tags else []
        if getattr(question, "case_sensitive", False):
            attributes.append(("case", "sensitive"))
        if question.kind == "essay" and question.lines != ESSAY_LINES:
            attributes.append(("lines", str(question.lines)))
        attributes += [("scoring", question.scoring)] if question.scoring else []
        if question.kind == "numeric" and question.unit and not inline_unit(question, language(self, question)):
            attributes.append(("unit", question.unit))
        return attributes

    def _missing_images(self, shown: list[str]) -> None:
        """Warn about images a text shows that the quiz does not carry: the reader will look for them."""
        carried = {asset.path for asset in self.quiz.assets}
        for src in shown:
            if src not in carried:
                self.lost("W455", f"the image {src}, which the quiz shows but does not carry",
                          "the text refers to it by that path: put the file there beside the quiz "
                          "(the text reader refuses images by URL, E162)")

    def _images(self) -> None:
        """Warn about images the quiz carries that no text shows, or whose name misstates their type."""
        self.label, self.span = None, self.where
        for asset in self.quiz.assets:
            if asset.path not in self.encoder.images:
                self.lost("W455", f"the image {asset.path}, which no text shows",
                          "it is written beside the quiz, but reading the quiz back leaves it out")
            elif MEDIA_TYPES.get(posixpath.splitext(asset.path)[1].lower()) != asset.media_type:
                self.lost("W455", f"the image {asset.path} as {asset.media_type}",
                          "the text reader takes an image's type from its name")
