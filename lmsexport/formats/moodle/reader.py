"""Read Moodle XML question banks: what Question bank > Export > "Moodle XML format" writes.

Files are read the way Moodle's importer reads them (moodle/moodle question/format/xml/format.php,
qformat_xml; https://docs.moodle.org/en/Moodle_XML_format): the first element of each name,
wherever it is; texts trimmed; each field's `format` honoured. Embedded `<file>`s become the
quiz's assets, their `@@PLUGINFILE@@` links the asset paths. Each question type the model has
becomes its kind (`moodle_kinds`); a question of any other type (calculated, drag and drop ...)
is an error naming its line and the types read, never skipped. A file with several categories
reads as one quiz named after the first. lmsexport's own marks (names derived from prompts,
idnumbers prefixed with the quiz id, language wrappers, joined feedback) are undone, so that
reading what writers/moodle.py wrote gives the quiz back.
"""

from __future__ import annotations

import base64
import binascii
import html
import itertools
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass, field, replace
from urllib.parse import quote

from ...diagnostics import Diagnostic, Log, SourceError, SourceSpan
from ...ids import slug
from ...images import image_problem
from ...paths import unsafe_path
from ...model import MEDIA_TYPES, Asset, ModelError, Question, Quiz, Settings, Text, is_identifier
from .rules import category_names, question_name, text_from_html, unmark_language
from ...xml import entity_reference, parser
from .reader_kinds import KIND_READERS, in_lang

SUPPORTED_TYPES = ("multichoice", "truefalse", "shortanswer", "numerical", "essay", "matching", "ordering", "cloze",
                   "description")
"""The question types read (KIND_READERS also takes Moodle's synonyms `match` and `multianswer`)."""
READ_OPTIONS = ("log",)
"""`read` takes `log`: where what the model holds differently from the file is told (W671)."""
_NUMBERED = re.compile(r"(.*) \((\d+)\)", re.DOTALL)
_EXPORT_HINT = ("lmsexport reads Moodle XML question banks: a <quiz> holding <question> elements, "
                "as Moodle writes them with Question bank > Export > Moodle XML format")


@dataclass
class Head:
    """What every question type shares (import_headers), read before its own parts."""

    fields: dict
    """Keyword arguments for the model's question: id, title, points, prompt, explanation, source."""
    lang: str | None
    """The language its prompt is marked with."""
    format: str
    """The question text's format: the default of every other text of the question."""


@dataclass
class _Draft:
    """A question read, before the quiz's language and tags are known."""

    question: Question
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


def read(data: str | bytes, *, source: str, log: Log | None = None) -> Quiz:
    """Read a Moodle XML file; raises SourceError listing every question it cannot read.

    What Moodle grades otherwise than the model can say (W671) goes to `log` (lmsexport.read
    always gives one; without it those warnings are not kept)."""
    reader = MoodleReader(source, log=Log() if log is None else log)
    drafts = reader.read_questions(_parse(data, source))
    if not drafts and not reader.problems:
        reader.problem("E606", None, "the file holds no questions",
                       "export a category that has questions in it (Question bank > Export)")
    if reader.problems:
        raise SourceError(reader.problems)
    return reader.quiz(drafts)


_ENTITY_HINT = "write the text itself: lmsexport never expands entities (they are how XML bombs work)"


def _parse(data: str | bytes, source: str):
    from lxml import etree

    try:
        root = etree.fromstring(data.encode("utf-8") if isinstance(data, str) else data, parser())
    except etree.XMLSyntaxError as exc:
        line, column = exc.position
        raise SourceError([Diagnostic("E601", f"not well-formed XML: {exc.msg}", SourceSpan(source, line, column),
                                      "Moodle refuses it too; fix the XML, or export the bank again")]) from None
    entity = entity_reference(root)
    if entity is not None:
        raise SourceError([Diagnostic("E608", f"the bank uses the entity &{entity[0]}; declared in its DOCTYPE",
                                      SourceSpan(source, entity[1]), _ENTITY_HINT)])
    if root.tag != "quiz":
        name = etree.QName(root).localname if isinstance(root.tag, str) else str(root.tag)
        raise SourceError([Diagnostic("E602", f"this XML is not a Moodle question bank: its root element is <{name}>, "
                                      "not <quiz>", SourceSpan(source, root.sourceline or 0), _EXPORT_HINT)])
    return root


@dataclass
class MoodleReader:
    """One file's reading: its problems, and the ids, names and files met so far."""

    source: str
    log: Log = field(default_factory=Log)
    problems: list[Diagnostic] = field(default_factory=list)
    category: _Category | None = None
    prefix: str = ""
    """The idnumber prefix lmsexport gives the questions of the current category: `<quiz id>-`."""
    ids: set[str] = field(default_factory=set)
    names: set[str] = field(default_factory=set)
    assets: dict[str, Asset] = field(default_factory=dict)
    mentions: dict[str, int] = field(default_factory=dict)
    """The line where each asset is first shown: the quiz lists them in the file's order."""
    question_id: str = ""
    """The id of the question being read: it names the folder of a file whose name is taken."""
    question_lang: str | None = None
    """The language the prompt of the question being read is marked with."""
    mark: int = 0
    """How many problems there were when the question being read began: more, and it is not built."""

    def problem(self, code: str, node, message: str, hint: str) -> None:
        line = node.sourceline if node is not None else 0
        self.problems.append(Diagnostic(code, message, SourceSpan(self.source, line or 0), hint))

    def warn(self, code: str, node, message: str, hint: str = "") -> None:
        """Something the model holds otherwise than the file says: the question is read all the same."""
        self.log.warn(code, message, SourceSpan(self.source, node.sourceline or 0), hint)

    def read_questions(self, root) -> list[_Draft]:
        drafts = []
        for node in root.iterchildren("question"):
            kind = node.get("type", "")
            if kind == "category":
                self._category(node)
            elif kind in KIND_READERS:
                self.question_id, self.mark = self._id(node, len(drafts) + 1), len(self.problems)
                read_kind = KIND_READERS[kind]
                question, shuffle = read_kind(self, node)
                if question is not None:
                    drafts.append(_Draft(question, self.question_lang, _tags(node), shuffle))
            else:
                self.problem("E603", node, f"question {self.name(node)!r} is of type {kind!r}, which lmsexport "
                             "does not read", f"lmsexport reads {', '.join(SUPPORTED_TYPES)} questions; leave this "
                             "one out of the export, or change its type in Moodle")
        return drafts

    def _category(self, node) -> None:
        """import_category(): the questions after it go into this category."""
        idnumber = node.findtext("idnumber") or ""
        self.prefix = f"{idnumber}-" if idnumber else ""
        if self.category is None:
            names = category_names(node.findtext("category/text") or "")
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
        return text_from_html(fragment), lang

    def fragment(self, node, default_format: str) -> tuple[str | None, str | None, str]:
        """A field's text (files linked to assets, language mark undone), its language and its format."""
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
        inner, lang = unmark_language(self._link_files(value, node))
        return inner, lang, text_format

    def _link_files(self, fragment: str, node) -> str:
        """`@@PLUGINFILE@@/path/name` links to the field's `<file>`s, as the paths of the quiz's assets.

        A file of a type the model's assets cannot hold (not an image) stays inline as a `data:` URI."""
        for file in node.iterchildren("file"):
            folder, name = file.get("path", "/"), file.get("name", "")
            links = [f"@@PLUGINFILE@@{quote(folder + name)}", f"@@PLUGINFILE@@{folder}{name}"]
            if not any(link in fragment for link in links):
                continue
            path = f"{folder.strip('/')}/{name}".lstrip("/")
            reason = unsafe_path(path)
            if reason is not None:
                self.problem("E609", file, f"the file name {path!r} is unsafe: {reason}",
                             "an LMS could write it outside its folder: give the file a plain relative name")
                continue
            data = "".join((file.text or "").split())
            problem = self._image_problem(path, data)
            if problem is not None:
                self.problem("E610", file, f"the image {path!r} cannot be carried: {problem}",
                             "replace it in Moodle by a plain image file of the type its name says, and export again")
                continue
            target = self._asset(path, data)
            if target in self.assets:
                self.mentions.setdefault(target, node.sourceline or 0)
            for link in links:
                fragment = fragment.replace(link, html.escape(target))
        return fragment

    @staticmethod
    def _image_problem(path: str, data: str) -> str | None:
        """Why a `<file>` named as an image is not a safe one (other files stay inline, as `data:`)."""
        media_type = MEDIA_TYPES.get(path[path.rfind("."):].lower()) if "." in path else None
        if media_type is None:
            return None
        try:
            return image_problem(base64.b64decode(data), media_type)
        except binascii.Error:
            return "its base64 data is damaged"

    def _asset(self, path: str, data: str) -> str:
        """The asset path for a file (a new one when two questions hold different files of one name)."""
        media_type = MEDIA_TYPES.get(path[path.rfind("."):].lower()) if "." in path else None
        try:
            content = base64.b64decode(data)
            candidates = itertools.chain([path], (f"{self.question_id}/{path}",),
                                         (f"{self.question_id}-{n}/{path}" for n in itertools.count(2)))
            for candidate in candidates:
                if candidate not in self.assets:
                    self.assets[candidate] = Asset(path=candidate, media_type=media_type or "", data=content)
                if self.assets[candidate].data == content:
                    return candidate
        except (ModelError, binascii.Error):
            pass  # not an image the model carries, or a name it cannot: keep the file in the text
        return f"data:{media_type or 'application/octet-stream'};base64,{data}"

    def number(self, node, name: str, default: float) -> float | None:
        value = node.findtext(name)
        try:
            return default if value is None or not value.strip() else float(value)
        except ValueError:
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

    def quiz(self, drafts: list[_Draft]) -> Quiz:
        """The quiz: its language is its questions' most common one, its tags those they all start with."""
        lang = Counter(draft.lang for draft in drafts).most_common(1)[0][0]
        tags = _common_start([draft.tags for draft in drafts])
        category = self.category or _Category([], (None, None), "")
        stem = self.source.replace("\\", "/").rsplit("/", 1)[-1].removesuffix(".xml").removesuffix(".moodle")
        questions = tuple(
            replace(draft.question, lang=draft.lang if draft.lang != lang else None, tags=draft.tags[len(tags):])
            for draft in drafts
        )
        votes = [draft.shuffle for draft in drafts if draft.shuffle is not None]
        return Quiz(
            id=category.idnumber if is_identifier(category.idnumber) else slug(stem),
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
