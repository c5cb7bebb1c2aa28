"""Moodle XML question banks: a category per quiz, holding its questions (a sub-category per pool).

The file imports through Moodle's Question bank > Import > "Moodle XML format"
(https://docs.moodle.org/en/Moodle_XML_format). It holds what Moodle's importer,
moodle/moodle `question/format/xml/format.php` (qformat_xml), and the question types'
`import_from_xml()` read for each question: every element they read is written, empty or
at Moodle's default where the model has nothing for it, so no question depends on an
importer default; `<hidden>` is left out because no importer reads it. HTML goes into
`<text>` escaped by lxml, not in CDATA: Moodle's parser decodes both alike, and escaping
needs no special case for `]]>`. Images travel inside the text that shows them, as base64
`<file>`s linked with `@@PLUGINFILE@@`. `writer_kinds` writes each question kind;
docs/formats/moodle.md describes the whole mapping. A quiz Moodle could not import fails
(SourceError, see lmsexport/package.py): a text longer than its XML parser reads (E005), an
image too large for one `<file>` (E006, `limits.FILE_LIMIT`), an answer without text (E008).
"""

from __future__ import annotations

import base64
import hashlib
import html
import io
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from urllib.parse import quote

from lxml import etree

from ...diagnostics import Diagnostic, Log, SourceError, SourceSpan
from ...ids import letters
from ...model import Asset, Pool, Question, Quiz, Text
from .limits import FILE_LIMIT, IDNUMBER_LIMIT, NAME_LIMIT, TAG_LIMIT
from .rules import blank, category_path, file_place, label, mark_language, moodle_tag, question_name
from ...package import Package, WriteOptions
from ...spool import CHUNK, SpooledFiles
from ...text import counted, number, shorten, words
from ...xml import TEXT_LIMIT, element, sub, too_long
from .scoring import grades
from .writer_kinds import KIND_WRITERS

__all__ = ["EXTENSION", "grades", "write", "write_bank"]

EXTENSION = ".moodle.xml"
PENALTY = 0.3333333
"""Mark lost per wrong try in Moodle's multiple-tries behaviours: qformat_default::defaultquestion()."""
_IMG_SRC = re.compile(r'(<img\b[^>]*?\bsrc=")([^"]*)(")', re.IGNORECASE)


def write(quiz: Quiz, options: WriteOptions | None = None) -> Package:
    """One quiz as a bank file: its category `$course$/top/<title>`, then its questions."""
    bank = _Bank()
    return bank.package(quiz.id, bank.questions(quiz, []))


def write_bank(quizzes: Sequence[Quiz], name: str, options: WriteOptions | None = None) -> Package:
    """Several quizzes in one bank file `<name>.moodle.xml`: `$course$/top/<name>/<title>` each."""
    if not quizzes:
        raise ValueError("a question bank needs at least one quiz")
    bank = _Bank()
    parent = bank.fit(name, quizzes[0], "the bank name", category=True)
    return bank.package(name, (node for quiz in quizzes for node in bank.questions(quiz, [parent])))


@dataclass
class _Bank:
    """The names already in the bank file, and what Moodle will not keep."""

    names: set[str] = field(default_factory=set)
    categories: set[str] = field(default_factory=set)
    log: Log = field(default_factory=Log)
    refusals: list[Diagnostic] = field(default_factory=list)
    """What Moodle could not import at all (E005, E006, E008): the writer raises SourceError with them."""

    def package(self, stem: str, questions: Iterable) -> Package:
        files = SpooledFiles()
        files.put_chunks(f"{stem}{EXTENSION}", _document(questions))
        if self.refusals:
            raise SourceError(self.refusals)
        return Package(files, zipped=False, extension=EXTENSION, warnings=self.log.diagnostics)

    def fits(self, node, subject: str, span: SourceSpan) -> bool:
        """Whether Moodle's XML parser reads every text of `node`; if not, a refusal says why."""
        found = too_long(node)
        if found is not None:
            self.refusals.append(found.refusal("E005", subject, "a Moodle XML file", span))
        return found is None

    def questions(self, quiz: Quiz, parents: list[str]) -> Iterator:
        """The quiz's category question, then its questions: `<question>` elements, one at a time."""
        fitted = self.fit(quiz.title, quiz, "the quiz title", category=True)
        title = _unique(fitted, self.categories)
        if title != fitted:
            self.log.warn("W652", f"another quiz in this bank is titled {fitted!r}, so this one goes into "
                          f"the category {title!r}", quiz.where())
        category = self._category(quiz, [*parents, title])
        if self.fits(category, "the quiz", quiz.where()):
            yield category
        self._quiz_settings(quiz)
        assets = {asset.path: asset for asset in quiz.assets}
        for asset in quiz.assets:
            folder, filename = file_place(asset.path)
            if f"{folder}{filename}" != f"/{asset.path}":
                self.log.warn("W659", f"image {asset.path!r} is stored in Moodle as {folder[1:] + filename!r}: "
                              "Moodle's file names cannot hold & < > \" ` | ' : or \\", quiz.where())
        pools: set[str] = set()
        in_pool = False
        for item in quiz.items:
            if isinstance(item, Pool):
                yield from self._pool(quiz, item, [*parents, title], pools, assets)
            elif in_pool:  # back to the quiz's category (Moodle finds it by its path)
                yield _category_switch([*parents, title])
            in_pool = isinstance(item, Pool)
            if not in_pool:
                yield from self._question(quiz, item, assets)

    def _question(self, quiz: Quiz, question: Question, assets: dict[str, Asset]) -> Iterator:
        if question.kind not in KIND_WRITERS:
            self.log.warn("W654", f"{quiz.label(question)} is of kind {question.kind!r}, which Moodle XML output "
                          "does not support yet; it is left out", quiz.where(question))
            return
        qtype, write_kind = KIND_WRITERS[question.kind]
        out = QuestionOut(self, quiz, question, assets, element("question", {"type": qtype}))
        write_kind(out, question)
        out.tags()
        blanks = [(what, part) for what, part, text, shown in _answer_texts(question)
                  if blank(words(text) if shown == "plain" else out.fragment(text))]
        if blanks:
            self.refusals.append(_blank_answers(quiz.label(question), blanks, quiz.where(question, blanks[0][1])))
        elif self.fits(out.node, quiz.label(question), quiz.where(question)):
            yield out.node

    def _pool(self, quiz: Quiz, pool: Pool, path: list[str], taken: set[str], assets: dict[str, Asset]) -> Iterator:
        """A pool: a sub-category of the quiz's holding its questions. Moodle draws from a category
        through random questions in the quiz (mod/quiz "Add a random question"), which a bank
        import cannot create: qformat_xml imports no `random` questions (format.php has no
        import for them, and Moodle 4.3+ keeps random slots in quiz settings, not the bank). So
        the teacher is told, in a warning and in the category's description, what to add."""
        name = _unique(self.fit(pool.title or pool.id, quiz, f"the title of pool {quiz.number(pool)}", category=True),
                       taken)
        worth = f", each worth {counted(pool.points, 'point')}" if pool.points is not None else ""
        todo = (f"in the quiz, add {counted(pool.draw, 'random question')} from the category "
                f"\"{' / '.join([*path, name])}\"{worth} (Questions > Add > a random question)")
        self.log.warn("W662", f"{quiz.label(pool)} draws {pool.draw} of {counted(len(pool.questions), 'question')} "
                      "per attempt; its questions go into a category of their own, but Moodle draws only through "
                      "random questions in a quiz, which a question bank cannot hold", quiz.where(quiz.members(pool)[0]),
                      todo)
        category = _category_switch([*path, name])
        sub(sub(category, "info", {"format": "html"}), "text",
            text=f"<p>{html.escape(todo[0].upper() + todo[1:], quote=False)}.</p>")
        sub(category, "idnumber", text=_idnumber(f"{_idnumber(quiz.id)}-{pool.id}"))
        if self.fits(category, quiz.label(pool), quiz.where(quiz.members(pool)[0])):
            yield category
        for question in quiz.members(pool):
            yield from self._question(quiz, question, assets)

    def fit(self, value: str, quiz: Quiz, what: str, question: Question | None = None, *, category=False) -> str:
        """`value` as Moodle will keep it in a name, with a warning when that changes it.

        Names hold 255 characters, PHP's strip_tags() would eat a `<` before a letter, and a
        category name cannot start with `/` (split_category_path() would take it for a separator).
        """
        fitted = label(shorten(value.strip(), NAME_LIMIT))
        if category:
            fitted = fitted.lstrip("/").strip() or quiz.id
        if fitted != value:
            self.log.warn("W652", f"{what} {value!r} is written as {fitted!r}, which Moodle keeps as it is",
                          quiz.where(question))
        return fitted

    def _quiz_settings(self, quiz: Quiz) -> None:
        """A question bank holds questions, not quizzes: Moodle keeps the pass mark, time limit
        and attempts on the quiz activity (mod/quiz), which an import does not create."""
        settings = quiz.settings
        kept = [what for what, value in (("the pass mark", settings.pass_mark), ("the time limit", settings.time_limit),
                                         ("the number of attempts", settings.attempts)) if value is not None]
        if kept:
            self.log.warn("W660", f"{', '.join(kept)} of the quiz cannot go into a Moodle question bank",
                          quiz.where(), "set them on the quiz in Moodle (Quiz settings: Grade, Timing) "
                          "after adding its questions from the bank")

    def _category(self, quiz: Quiz, path: list[str]):
        """The category question: Moodle puts the questions after it into that category.

        import_category() reads `<info>` without its files, so an image there cannot travel."""
        node = _category_switch(path)
        info = _html(quiz.description, quiz.lang)
        for path_ in _image_paths(info, {asset.path for asset in quiz.assets}):
            self.log.warn("W659", f"the quiz description shows the image {path_!r}, but Moodle reads no files in a "
                          "category's description; it is left as a link Moodle cannot resolve", quiz.where())
        sub(sub(node, "info", {"format": "html"}), "text", text=info)
        sub(node, "idnumber", text=_idnumber(quiz.id))
        return node


@dataclass
class QuestionOut:
    """One `<question>` being written: the helpers every kind writer shares."""

    bank: _Bank
    quiz: Quiz
    question: Question
    assets: dict[str, Asset]
    node: object

    @property
    def lang(self) -> str | None:
        return self.question.lang or self.quiz.lang

    @property
    def label(self) -> str:
        """How messages name the question (`question 3`)."""
        return self.quiz.label(self.question)

    def header(self, prompt: str | None = None, *, points: bool = True, penalty: float = PENALTY) -> None:
        """What import_headers() reads for every question type; `prompt` replaces the prompt's HTML."""
        question, quiz = self.question, self.quiz
        if question.title:
            base = self.bank.fit(question.title, quiz, f"the title of {self.label}", question)
        else:
            base = question_name(question.prompt, question.id)
        sub(sub(self.node, "name"), "text", text=_unique(base, self.bank.names))
        self.rich(self.node, "questiontext", question.prompt, fragment=prompt)
        self.rich(self.node, "generalfeedback", question.explanation)
        if points:
            sub(self.node, "defaultgrade", text=number(question.points))
        sub(self.node, "penalty", text=number(penalty))
        sub(self.node, "idnumber", text=_idnumber(f"{_idnumber(quiz.id)}-{question.id}"))

    def fragment(self, text: Text | None) -> str:
        """A text as the HTML Moodle shows, marked with its language (see rules.mark_language)."""
        return _html(text, self.lang)

    def rich(self, parent, name: str, text: Text | None = None, attrib: dict | None = None, *,
             fragment: str | None = None):
        """A text field Moodle reads with import_text_with_files(): HTML in `<text>`, then its images.

        Each image the HTML shows becomes a `<file>` of this field, its `src` a `@@PLUGINFILE@@`
        link (write_files(); file_rewrite_pluginfile_urls() resolves it on display)."""
        linked, used = self._link(self.fragment(text) if fragment is None else fragment)
        node = sub(parent, name, {**(attrib or {}), "format": "html"})
        sub(node, "text", text=linked)
        for asset in used:
            if len(asset.data) > FILE_LIMIT:
                self._refuse_image(asset)
                continue
            folder, filename = file_place(asset.path)
            sub(node, "file", {"name": filename, "path": folder, "encoding": "base64"},
                text=base64.b64encode(asset.data).decode("ascii"))
        return node

    def _link(self, fragment: str) -> tuple[str, list[Asset]]:
        used: dict[str, Asset] = {}

        def link(match: re.Match) -> str:
            asset = self.assets.get(html.unescape(match[2]))
            if asset is None:
                return match[0]
            used.setdefault(asset.path, asset)
            folder, filename = file_place(asset.path)
            return f"{match[1]}@@PLUGINFILE@@{quote(folder + filename)}{match[3]}"

        return _IMG_SRC.sub(link, fragment), list(used.values())

    def warn(self, code: str, message: str, part: object | None = None) -> None:
        """A warning about the question, pointing at `part` (an answer, pair, gap) where it has a place."""
        self.bank.log.warn(code, message, self.quiz.where(self.question, part))

    def _refuse_image(self, asset: Asset) -> None:
        self.bank.refusals.append(Diagnostic(
            "E006", f"{self.label} shows the image {asset.path!r} of {len(asset.data):,} bytes; a "
            f"Moodle XML file carries an image of {FILE_LIMIT:,} bytes at most (its base64 is one XML text, which "
            f"Moodle's importer refuses past {TEXT_LIMIT:,} bytes)", self.quiz.where(self.question, asset),
            "make the image smaller (scale it down, or save it as a compressed JPEG or WebP), or build QTI or SCORM, "
            "whose packages carry images as files"))

    def tags(self) -> None:
        """The quiz's tags, then the question's own: Moodle finds questions by tag, categories have none."""
        tags = list(dict.fromkeys((*self.quiz.tags, *self.question.tags)))
        if not tags:
            return
        parent = sub(self.node, "tags")
        for tag in tags:
            stored = moodle_tag(tag)
            if stored != tag:
                self.warn("W653", f"tag {tag!r} becomes {stored!r} in Moodle (tags hold {TAG_LIMIT} characters, "
                          "without < > or `)")
            sub(sub(parent, "tag"), "text", text=tag)


def _answer_texts(question: Question) -> Iterator[tuple[str, object, Text, str]]:
    """The texts Moodle drops when blank (save_question_options() skips them): each with its name,
    the part it is (for its line), and whether it is written as HTML or as plain words (a
    matching right item). A matching pair whose left text is blank would become a distractor."""
    for index, choice in enumerate(getattr(question, "choices", ())):
        yield f"option {letters(index)}", choice, choice.text, "html"
    for item in getattr(question, "items", ()):
        yield f"item {item.id}", item, item.text, "html"
    for pair in getattr(question, "pairs", ()):
        yield f"the left item of pair {pair.id}", pair, pair.left, "html"
        yield f"the right item of pair {pair.id}", pair, pair.right, "plain"


def _blank_answers(label: str, blanks: list[tuple[str, object]], span: SourceSpan) -> Diagnostic:
    names = " and ".join(what for what, _ in blanks)
    return Diagnostic(
        "E008", f"{label}: {names} {'has' if len(blanks) == 1 else 'have'} no text, and Moodle's "
        "importer drops an answer without text (the question would lose its grades, a pair or an item)",
        span, "write its text, or remove it")


def _category_switch(path: list[str]):
    """A category question naming only its path: the questions after it go there."""
    node = element("question", {"type": "category"})
    sub(sub(node, "category"), "text", text=category_path(path))
    return node


def _document(questions: Iterable) -> Iterator[bytes]:
    """`<quiz>` holding the questions, each serialized as soon as it is built and then dropped:
    10,000 questions make 20 MB of XML but would take ~240 MB as one lxml tree. Its bytes come
    a chunk at a time, for the spool to put on disk past its budget (100,000 questions: 200 MB).

    Laid out as xml.serialize() lays out a whole document: no element here has mixed content."""
    out = io.BytesIO()
    with etree.xmlfile(out, encoding="UTF-8") as document:
        document.write_declaration()
        with document.element("quiz"):
            for question in questions:
                etree.indent(question, level=1)
                document.write("\n  ", question)
                if out.tell() >= CHUNK:
                    document.flush()
                    yield out.getvalue()
                    out.seek(0)
                    out.truncate()
            document.write("\n")
    out.write(b"\n")
    yield out.getvalue()


def _html(text: Text | None, lang: str | None) -> str:
    if text is None:
        return ""
    return mark_language(text.html(), text.lang or lang, block=text.format == "html")


def _image_paths(fragment: str, paths: set[str]) -> list[str]:
    return list(dict.fromkeys(p for p in (html.unescape(m[2]) for m in _IMG_SRC.finditer(fragment)) if p in paths))


def _unique(base: str, used: set[str]) -> str:
    """`base`, or `base (2)`, `base (3)` ... whichever is not in `used` yet; then it is."""
    name, count = base, 1
    while name in used:
        count += 1
        name = f"{base} ({count})"
    used.add(name)
    return name


def _idnumber(value: str) -> str:
    """`value` within Moodle's 100-character idnumbers; a longer one keeps its start and a digest."""
    if len(value) <= IDNUMBER_LIMIT:
        return value
    digest = hashlib.blake2b(value.encode("utf-8"), digest_size=5).hexdigest()
    return f"{value[: IDNUMBER_LIMIT - len(digest) - 1]}-{digest}"

