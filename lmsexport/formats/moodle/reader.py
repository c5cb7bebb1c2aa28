"""Read Moodle XML question banks: what Question bank > Export > "Moodle XML format" writes.

Files are read the way Moodle's importer reads them (moodle/moodle question/format/xml/format.php,
qformat_xml; https://docs.moodle.org/en/Moodle_XML_format): the first element of each name,
wherever it is; texts trimmed; each field's `format` honoured; HTML through the one sanitiser
(markup.Sanitiser). The bank is read question by question (`stream`), one tree at a time.
Embedded `<file>`s become the quiz's assets (`reader_files`). Each question type the model has
becomes its kind (`reader_kinds`), close fits are mapped (`reader_mapped`: gapselect, ddwtos,
calculatedsimple, oumultiresponse), and what the model has no place for is warned
(`reader_losses`). A question of a type the model cannot hold, or one it cannot read as
written, is skipped with a warning that names it (W681, W682), never the whole file; a file
of which no question can be read is refused with every reason (E603-E607). A file with several
categories reads as one quiz named after the first. lmsexport's own marks (names derived from
prompts, idnumbers prefixed with the quiz id, language wrappers, joined feedback) are undone,
so that reading what the Moodle writer wrote gives the quiz back.
"""

from __future__ import annotations

import itertools
import math
import re
import sys
import unicodedata
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from ...chunks import Chunks
from ...diagnostics import Diagnostic, Log, SourceError, SourceSpan
from ...ids import ID_LIMIT, slug
from ...markup import Sanitiser
from ...model import Asset, ModelError, Numbering, Question, Quiz, Settings, Text, is_identifier
from ...model.packed import Packer
from .reader_files import link_files, old_image, unlinked
from .reader_context import Head
from .reader_kinds import KIND_READERS, in_lang
from .reader_losses import skipped_type, warn_losses
from .reader_mapped import MAPPED_READERS
from .rules import category_names, question_name, text_from_html, unmark_language
from .stream import questions

SUPPORTED_TYPES = ("multichoice", "truefalse", "shortanswer", "numerical", "essay", "matching", "ordering", "cloze",
                   "description", "gapselect", "ddwtos", "calculatedsimple", "oumultiresponse")
"""The question types read (KIND_READERS also takes Moodle's synonyms `match` and `multianswer`)."""
READ_OPTIONS = ("log", "pack")
"""`read` takes `log` (where the questions skipped and what the model holds otherwise are told)
and `pack` (hold a bank's questions packed past `PACK_FROM`: model/packed.py)."""
READS_CHUNKS = True
"""`read` takes a large bank's bytes as `chunks.Chunks`, and lets each piece go once parsed."""
_READERS = {**KIND_READERS, **MAPPED_READERS}
_FATAL = frozenset({"E609", "E610"})
"""Problems that refuse the file even when its other questions read: a hostile file name or image."""
_SKIPS = ("W681", "W682")
"""The warnings of a question skipped: errors instead (E603-E607) when no question can be read."""
_NUMBERED = re.compile(r"(.*) \((\d+)\)", re.DOTALL)


@dataclass
class _Draft:
    """What a question read says towards the quiz's language, tags and shuffle, which are known once
    every question is read (the question itself is kept apart: a bank's questions may be packed)."""

    lang: str | None
    tags: tuple[str, ...]
    shuffle: bool | None
    """Whether it lets Moodle shuffle its options; None for types without options."""


@dataclass
class _Category:
    """The first category of the file: it names the quiz."""

    names: list[str]
    description: tuple[Text | None, str | None]
    idnumber: str


def read(data: str | bytes | Chunks, *, source: str, log: Log | None = None, pack: bool = False) -> Quiz:
    """Read a Moodle XML file question by question; what is skipped or lost goes to `log`
    (lmsexport.read always gives one). Raises SourceError when the file is no bank, when it is
    hostile, or when none of its questions can be read (with the reason for each). With `pack`,
    a bank of `PACK_FROM` questions or more holds them packed (`model.packed.Packed`)."""
    reader = MoodleReader(source, log=Log() if log is None else log)
    start, drafts, read_questions = len(reader.log.diagnostics), [], _packer(pack, _parsed_share(data))
    for node in questions(data.encode("utf-8") if isinstance(data, str) else data, source):
        if node.getparent() is None:
            reader.warn("W690", node, "the file is a bare <question>, which Moodle imports nothing from "
                        "(qformat_xml reads quiz/question); it is read as a bank of that one question",
                        "wrap the question in <quiz> ... </quiz> for Moodle")
        taken = reader.take(node)
        if taken is not None:
            read_questions.add(taken[0])
            drafts.append(taken[1])
    if reader.problems:
        raise SourceError(reader.problems)
    if not drafts:
        reader.log.diagnostics[start:] = [d for d in reader.log.diagnostics[start:] if d.code not in _SKIPS]
        raise SourceError(reader.skipped or [Diagnostic(
            "E606", "the file holds no questions", SourceSpan(source),
            "export a category that has questions in it (Question bank > Export)")])
    return reader.quiz(read_questions.result(), drafts, pack)


def _packer(pack: bool, share: Callable[[], float] | None = None) -> Packer:
    return Packer(pack_from=None if pack else sys.maxsize, share=share)


def _parsed_share(data: str | bytes | Chunks) -> Callable[[], float] | None:
    """The share of a bank in `Chunks` the parser has taken so far, for its packer's forecast."""
    if not isinstance(data, Chunks):
        return None  # a large bank comes in Chunks (the build cuts it)
    total = len(data) or 1
    return lambda: 1 - len(data) / total


@dataclass
class MoodleReader:
    """One file's reading: its problems, and the ids, names and files met so far."""

    source: str
    log: Log = field(default_factory=Log)
    problems: list[Diagnostic] = field(default_factory=list)
    skipped: list[Diagnostic] = field(default_factory=list)
    """Why each question skipped was: the file's errors if no question can be read."""
    category: _Category | None = None
    prefix: str = ""
    """The idnumber prefix lmsexport gives the questions of the current category: `<quiz id>-`."""
    ids: set[str] = field(default_factory=set)
    names: set[str] = field(default_factory=set)
    assets: dict[str, Asset] = field(default_factory=dict)
    mentions: dict[str, int] = field(default_factory=dict)
    """The line where each asset is first shown: the quiz lists them in the file's order."""
    position: int = 0
    """How many questions (categories aside) the file had so far: they give ids `q4`."""
    numbering: Numbering = field(default_factory=Numbering)
    """Names the questions as their author counts them (`Quiz.label`): descriptions are text blocks."""
    subject: str = "the bank"
    """The question being read, as messages name it: `question 4 'Name'`, `text block 1 'Intro'`."""
    question_id: str = ""
    """The id of the question being read: it names the folder of a file whose name is taken."""
    question_lang: str | None = None
    """The language the prompt of the question being read is marked with."""
    mark: int = 0
    """How many problems there were when the question being read began: more, and it is not built."""

    def __post_init__(self) -> None:
        self.sanitise = Sanitiser(self.log, self.problems)

    def span(self, node) -> SourceSpan:
        """Where an element starts (lxml's sourceline), for the model's parts and for messages."""
        return SourceSpan(self.source, node.sourceline or 0)

    def problem(self, code: str, node, message: str, hint: str) -> None:
        line = node.sourceline if node is not None else 0
        self.problems.append(Diagnostic(code, message, SourceSpan(self.source, line or 0), hint))

    def warn(self, code: str, node, message: str, hint: str = "") -> None:
        """Something the model holds otherwise than the file says: the question is read all the same."""
        self.log.warn(code, message, SourceSpan(self.source, node.sourceline or 0), hint)

    def take(self, node) -> tuple[Question, _Draft] | None:
        """One `<question>` of the file: a category is noted, a question read, or skipped with a warning."""
        kind = node.get("type", "")
        if kind == "category":
            self._category(node)
            return None
        self.position += 1
        self.subject = f"{self.numbering.next(kind == 'description')} {self.name(node)!r}"
        read_kind = _READERS.get(kind)
        if read_kind is None:
            return self._skip(node, *skipped_type(kind, SUPPORTED_TYPES))
        self.question_id, self.mark = self._id(node, self.position), len(self.problems)
        known_assets = set(self.assets)
        old_image(node)
        try:
            question, shuffle = read_kind(self, node)
        except ModelError as exc:  # a part the model refuses (a number out of range, a credit past 100 %)
            self.problem("E605", node, f"{self.subject} cannot be read: {exc}",
                         "check its answers' grades and numbers in Moodle: a grade from -100 % to 100 %, finite numbers")
            question, shuffle = None, None
        if len(self.problems) > self.mark and not _FATAL & {p.code for p in self.problems[self.mark:]}:
            for asset in set(self.assets) - known_assets:
                del self.assets[asset]
            self.ids.discard(self.question_id)
            return self._skipped(node, kind)
        if question is None:
            return None
        warn_losses(self, node, question)
        return question, _Draft(self.question_lang, _tags(node), shuffle)

    def _skip(self, node, message: str, hint: str) -> None:
        """A question of a type the model has no kind for (W681; E603 if no question can be read)."""
        subject = f"{self.subject} ({node.get('type', '')})"
        self.warn("W681", node, f"{subject}: {message}; the question is skipped", hint)
        self.skipped.append(Diagnostic("E603", f"{subject}: {message}", SourceSpan(self.source, node.sourceline or 0),
                                       hint))

    def _skipped(self, node, kind: str) -> None:
        """A question that cannot be read as written: its problems become warnings (W682)."""
        problems = self.problems[self.mark:]
        del self.problems[self.mark:]
        self.skipped += problems
        for problem in problems:
            self.log.warn("W682", f"{self.subject} ({kind}) is skipped: {problem.message}", problem.span, problem.hint)

    def _category(self, node) -> None:
        """import_category(): the questions after it go into this category.

        lmsexport writes a pool as a sub-category `<quiz id>-<pool id>` of the quiz's, and returns
        to the quiz's by its path alone (Moodle keeps category idnumbers unique): in either, the
        questions keep the quiz's `<quiz id>-` prefix."""
        idnumber = node.findtext("idnumber") or ""
        names = category_names(node.findtext("category/text") or "")
        within = self.category is not None and names[:len(self.category.names)] == self.category.names
        if not (within and self.prefix and (not idnumber or idnumber.startswith(self.prefix))):
            self.prefix = f"{idnumber}-" if idnumber else ""
        if self.category is None:
            self.subject = "the category"
            self.category = _Category(names, self.field(node.find("info"), "moodle_auto_format"), idnumber)

    def head(self, node, *, prompt: tuple[Text, str | None] | None = None, points: float | None = None) -> Head:
        """import_headers(): the parts every type has (a bad mark is reported, and the question not built)."""
        questiontext = node.find("questiontext")
        text_format = ((questiontext.get("format") if questiontext is not None else None) or "html").strip()
        text, lang = prompt or self.field(questiontext, "html")
        text = text or Text("")
        explanation = self.text(node.find("generalfeedback"), text_format, lang)
        if points is None:
            points = self.number(node, "defaultgrade", 1.0) or 0.0  # None was reported: no question is built
        self.question_lang = lang
        fields = {"id": self.question_id, "title": self._title(node, text), "points": points, "prompt": text,
                  "explanation": explanation, "source": SourceSpan(self.source, node.sourceline or 0)}
        return Head(fields, lang, text_format)

    def build(self, node, kind: type[Question], **fields) -> Question | None:
        """The model's question; None if a problem was reported while reading it, or the model refuses it (E605)."""
        if len(self.problems) > self.mark:
            return None
        try:
            return kind(**fields)
        except ModelError as exc:
            message = str(exc).removeprefix(f"{fields['id']}: ")
            self.problem("E605", node, f"question {self.name(node)!r} cannot be read: {message}",
                         "give it the answers its type needs: a right one, and two options or items or more")
            return None

    def text(self, node, default_format: str, context: str | None) -> Text | None:
        """A text field in the language of its question (`context`), recorded only where it differs."""
        text, lang = self.field(node, default_format)
        return in_lang(text, lang, context)

    def field(self, node, default_format: str) -> tuple[Text | None, str | None]:
        """A text field (import_text_with_files) and the language it is marked with."""
        fragment, lang, text_format = self.fragment(node, default_format)
        if fragment is None:
            return None, None
        if text_format in ("plain_text", "markdown"):
            return Text(fragment), None  # Markdown reads as its source: lmsexport has no Markdown renderer
        cleaned = self.clean(fragment, node)
        return (None, None) if cleaned is None else (text_from_html(cleaned.strip()), lang)

    def clean(self, fragment: str, node) -> str | None:
        """An HTML fragment of `node` through the one sanitiser (what it removes warned, W010), its files
        linked as the quiz's assets, those the quiz does not carry left out (W688); None when nothing
        is left (E010)."""
        cleaned = self.sanitise(unicodedata.normalize("NFC", fragment), question=self.subject, part=f"its <{node.tag}>",
                                span=SourceSpan(self.source, node.sourceline or 0))
        return None if cleaned is None else unlinked(self, link_files(self, cleaned, node), node)

    def fragment(self, node, default_format: str) -> tuple[str | None, str | None, str]:
        """A field's text (language mark undone), its language and its format."""
        element = node.find("text") if node is not None else None
        text_format = ((node.get("format") if node is not None else None) or default_format).strip()
        if element is None:
            return None, None, text_format
        if len(element):
            self.problem("E604", element, f"the <text> of <{node.tag}> holds XML elements; Moodle refuses that "
                         "(invalidxml)", "escape the HTML in it, or put it in a CDATA section")
            return None, None, text_format
        value = unicodedata.normalize("NFC", (element.text or "").strip())
        if not value:
            return None, None, text_format
        if text_format in ("plain_text", "markdown"):
            return value, None, text_format
        if text_format == "moodle_auto_format":
            value = value.replace("\n", "<br>")
        inner, lang = unmark_language(value)
        return inner, lang, text_format

    def number(self, node, name: str, default: float) -> float | None:
        """The number in `<name>` (None, reported, when it holds none: float() also reads nan and inf)."""
        value = node.findtext(name)
        if value is None or not value.strip():
            return default
        try:
            number = float(value)
        except ValueError:
            number = math.nan
        if math.isfinite(number):
            return number
        self.problem("E604", node.find(name), f"<{name}> {value!r} is not a number", "write a number, such as 1")
        return None

    def _id(self, node, position: int) -> str:
        """The question's id: from lmsexport's `<quiz id>-<question id>` idnumber, else the idnumber, else q<n>."""
        idnumber = node.findtext("idnumber") or ""
        candidates = [idnumber[len(self.prefix):]] if self.prefix and idnumber.startswith(self.prefix) else []
        candidates += [idnumber, f"q{position}"]
        found = next((c for c in candidates if is_identifier(c) and c not in self.ids), None)
        if found is None:
            found = next(f"q{position}-{n}" for n in itertools.count(2) if f"q{position}-{n}" not in self.ids)
        self.ids.add(found)
        return found

    def name(self, node) -> str:
        return (node.findtext("name/text") or "").strip()

    def _title(self, node, prompt: Text) -> str | None:
        """The question's title: its name, unless it is the one lmsexport derives from the prompt."""
        name, derived = self.name(node), question_name(prompt, self.question_id)
        numbered = _NUMBERED.fullmatch(name)
        # writers/moodle.py's _unique() tells same-named questions apart with " (2)", " (3)" ...
        base = numbered[1] if numbered and numbered[1] in self.names else name
        self.names.add(name)
        return None if derived in (name, base) or not base else base

    def quiz(self, read: Sequence[Question], drafts: list[_Draft], pack: bool) -> Quiz:
        """The quiz: its language is its questions' most common one, its tags those they all start with."""
        lang = Counter(draft.lang for draft in drafts).most_common(1)[0][0]
        tags = _common_start([draft.tags for draft in drafts])
        category = self.category or _Category([], (None, None), "")
        stem = self.source.replace("\\", "/").rsplit("/", 1)[-1].removesuffix(".xml").removesuffix(".moodle")
        kept = _packer(pack, lambda: len(kept) / len(read))
        for question, draft in zip(read, drafts):
            kept.add(replace(question, lang=draft.lang if draft.lang != lang else None, tags=draft.tags[len(tags):]))
        questions = kept.result()
        votes = [draft.shuffle for draft in drafts if draft.shuffle is not None]
        return Quiz(
            id=category.idnumber if is_identifier(category.idnumber) and len(category.idnumber) <= ID_LIMIT
            else slug(stem),
            title=category.names[-1] if category.names else stem,
            description=in_lang(*category.description, lang),
            lang=lang,
            settings=Settings(shuffle=bool(votes) and all(votes)),
            tags=tags,
            questions=questions,
            assets=tuple(sorted(self.assets.values(), key=lambda asset: self.mentions[asset.path])),
        )


def _tags(node) -> tuple[str, ...]:
    """import_question_tags(): tags and course tags, in file order (Moodle 4.x merges the two)."""
    texts = [t.strip() for t in node.xpath("coursetags/tag/text/text() | tags/tag/text/text()")]
    return tuple(dict.fromkeys(t for t in texts if t))


def _common_start(lists: list[tuple[str, ...]]) -> tuple[str, ...]:
    """The longest start every list shares: the quiz's tags, which writers/moodle.py puts first."""
    start = lists[0] if lists else ()
    for tags in lists[1:]:
        while tags[: len(start)] != start:
            start = start[:-1]
    return start
