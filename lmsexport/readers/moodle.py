"""Read Moodle XML question banks: what Question bank > Export > "Moodle XML format" writes.

Files are read the way Moodle's importer reads them (moodle/moodle question/format/xml/format.php,
qformat_xml; https://docs.moodle.org/en/Moodle_XML_format): the first element of each name,
wherever it is; texts trimmed; each field's `format` honoured, with embedded `<file>`s
inlined as `data:` URIs. Multichoice questions become the model's multiple-choice questions;
a question of any other type is an error naming its line and the types read, never skipped.
A file with several categories reads as one quiz named after the first. lmsexport's own
marks (names derived from prompts, idnumbers prefixed with the quiz id, language wrappers)
are undone, so that reading what writers/moodle.py wrote gives the quiz back.
"""

from __future__ import annotations

import html
import itertools
import mimetypes
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass, field, replace
from urllib.parse import quote

from ..diagnostics import Diagnostic, SourceError, SourceSpan
from ..ids import letters, slug
from ..model import (
    Choice,
    ModelError,
    MultipleChoice,
    Quiz,
    Settings,
    Text,
    is_identifier,
)
from ..moodlerules import (
    answer_percent,
    category_names,
    question_name,
    trans_single,
    unmark_language,
)
from ..xml import parser

NAME = "moodle"
EXTENSIONS = (".xml",)
SUPPORTED_TYPES = ("multichoice",)
_NUMBERED = re.compile(r"(.*) \((\d+)\)", re.DOTALL)
_EXPORT_HINT = ("lmsexport reads Moodle XML question banks: a <quiz> holding <question> elements, "
                "as Moodle writes them with Question bank > Export > Moodle XML format")


@dataclass
class _Draft:
    """A question read, before the quiz's language and tags are known."""

    question: MultipleChoice
    lang: str | None
    """The language its prompt is marked with."""
    tags: tuple[str, ...]
    shuffle: bool


@dataclass
class _Category:
    """The first category of the file: it names the quiz."""

    names: list[str]
    description: tuple[Text | None, str | None]
    idnumber: str


def read(data: str | bytes, *, source: str) -> Quiz:
    """Read a Moodle XML file; raises SourceError listing every question it cannot read."""
    reader = _Reader(source)
    drafts = reader.read_questions(_parse(data, source))
    if not drafts and not reader.problems:
        reader.problem("E606", None, "the file holds no questions",
                       "export a category that has questions in it (Question bank > Export)")
    if reader.problems:
        raise SourceError(reader.problems)
    return reader.quiz(drafts)


def _parse(data: str | bytes, source: str):
    from lxml import etree

    try:
        root = etree.fromstring(data.encode("utf-8") if isinstance(data, str) else data, parser())
    except etree.XMLSyntaxError as exc:
        line, column = exc.position
        raise SourceError([Diagnostic("E601", f"not well-formed XML: {exc.msg}", SourceSpan(source, line, column),
                                      "Moodle refuses it too; fix the XML, or export the bank again")]) from None
    if root.tag != "quiz":
        name = etree.QName(root).localname if isinstance(root.tag, str) else str(root.tag)
        raise SourceError([Diagnostic("E602", f"this XML is not a Moodle question bank: its root element is <{name}>, "
                                      "not <quiz>", SourceSpan(source, root.sourceline or 0), _EXPORT_HINT)])
    return root


@dataclass
class _Reader:
    """One file's reading: its problems, and the ids and names met so far."""

    source: str
    problems: list[Diagnostic] = field(default_factory=list)
    category: _Category | None = None
    prefix: str = ""
    """The idnumber prefix lmsexport gives the questions of the current category: `<quiz id>-`."""
    ids: set[str] = field(default_factory=set)
    names: set[str] = field(default_factory=set)

    def problem(self, code: str, node, message: str, hint: str) -> None:
        line = node.sourceline if node is not None else 0
        self.problems.append(Diagnostic(code, message, SourceSpan(self.source, line or 0), hint))

    def read_questions(self, root) -> list[_Draft]:
        drafts = []
        for node in root.iterchildren("question"):
            kind = node.get("type", "")
            if kind == "category":
                self._category(node)
            elif kind in SUPPORTED_TYPES:
                draft = self._multichoice(node, len(drafts) + 1)
                if draft is not None:
                    drafts.append(draft)
            else:
                name = (node.findtext("name/text") or "").strip()
                self.problem("E603", node, f"question {name!r} is of type {kind!r}, which lmsexport does not read yet",
                             f"lmsexport reads {', '.join(SUPPORTED_TYPES)} questions; "
                             "leave this one out of the export, or change its type in Moodle")
        return drafts

    def _category(self, node) -> None:
        """import_category(): the questions after it go into this category."""
        idnumber = node.findtext("idnumber") or ""
        self.prefix = f"{idnumber}-" if idnumber else ""
        if self.category is None:
            names = category_names(node.findtext("category/text") or "")
            self.category = _Category(names, self._field(node.find("info"), "moodle_auto_format"), idnumber)

    def _multichoice(self, node, position: int) -> _Draft | None:
        """import_multichoice(): the model's multiple-choice question, or None after reporting why not."""
        questiontext = node.find("questiontext")
        text_format = ((questiontext.get("format") if questiontext is not None else None) or "html").strip()
        prompt, lang = self._field(questiontext, "html")
        prompt = prompt or Text("")
        explanation, explanation_lang = self._field(node.find("generalfeedback"), text_format)
        single = trans_single(node.findtext("single"), True)
        choices = self._choices(node, text_format, lang, single)
        points = self._number(node, "defaultgrade", 1.0)
        if choices is None or points is None:
            return None
        qid = self._id(node, position)
        try:
            question = MultipleChoice(
                id=qid, prompt=prompt, points=points, explanation=_in(explanation, explanation_lang, lang),
                title=self._title(node, prompt, qid), choices=tuple(choices), multiple_response=not single,
                source=SourceSpan(self.source, node.sourceline or 0),
            )
        except ModelError as exc:
            message = str(exc).removeprefix(f"{qid}: ")
            self.problem("E605", node, f"question {self._name(node)!r} cannot be read: {message}",
                         "give it two answers or more, and one right answer (single) or some (multiple)")
            return None
        return _Draft(question, lang, _tags(node), trans_single(node.findtext("shuffleanswers"), False))

    def _choices(self, node, text_format: str, lang: str | None, single: bool) -> list[Choice] | None:
        """The answers as options, None after reporting one the model cannot hold."""
        choices, ok = [], True
        for answer in node.iterchildren("answer"):
            text, text_lang = self._field(answer, text_format)
            if text is None or not text.value.strip():
                continue  # qtype_multichoice::save_question_options skips blank answers
            percent = answer_percent(answer)
            if percent is None:
                self.problem("E604", answer, f"answer grade {answer.get('fraction')!r} is not a number",
                             "give fraction a percentage, such as 100, 50 or -25")
                ok = False
                continue
            if single and 0.001 < percent < 99.999:
                self.problem("E605", answer, f"this answer of the single-answer question {self._name(node)!r} gives "
                             f"partial credit ({percent:g} %), which lmsexport's options cannot hold",
                             "make it worth 100 % or nothing in Moodle, or make the question multiple-answer")
                ok = False
            feedback, feedback_lang = self._field(answer.find("feedback"), text_format)
            correct = percent >= 99.999 if single else percent > 0
            choices.append(Choice(id=letters(len(choices)), text=_in(text, text_lang, lang), correct=correct,
                                  feedback=_in(feedback, feedback_lang, lang)))
        return choices if ok else None

    def _field(self, node, default_format: str) -> tuple[Text | None, str | None]:
        """A text field (import_text_with_files) and the language it is marked with."""
        element = node.find("text") if node is not None else None
        if element is None:
            return None, None
        if len(element):
            self.problem("E604", element, f"the <text> of <{node.tag}> holds XML elements; Moodle refuses that "
                         "(invalidxml)", "escape the HTML in it, or put it in a CDATA section")
            return None, None
        value = unicodedata.normalize("NFC", (element.text or "").strip())
        text_format = (node.get("format") or default_format).strip()
        if not value:
            return None, None
        if text_format in ("plain_text", "markdown"):
            return Text(value), None  # Markdown reads as its source: lmsexport has no Markdown renderer
        if text_format == "moodle_auto_format":
            value = value.replace("\n", "<br>")
        inner, lang = unmark_language(_inline_files(value, node))
        return _from_html(inner), lang

    def _number(self, node, name: str, default: float) -> float | None:
        value = node.findtext(name)
        try:
            return default if value is None else float(value)
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

    def _name(self, node) -> str:
        return (node.findtext("name/text") or "").strip()

    def _title(self, node, prompt: Text, qid: str) -> str | None:
        """The question's title: its name, unless it is the one lmsexport derives from the prompt."""
        name, derived = self._name(node), question_name(prompt, qid)
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
        return Quiz(
            id=category.idnumber if is_identifier(category.idnumber) else slug(stem),
            title=category.names[-1] if category.names else stem,
            description=_in(*category.description, lang),
            lang=lang,
            settings=Settings(shuffle=all(draft.shuffle for draft in drafts)),
            tags=tags,
            questions=questions,
        )


def _in(text: Text | None, lang: str | None, context: str | None) -> Text | None:
    """`text` in `lang`, recorded on the text only where it differs from its context's language."""
    if text is None:
        return None
    return replace(text, lang=lang if lang != context else None)


def _from_html(fragment: str) -> Text:
    """A plain text if `fragment` is exactly what Text.html() makes of one, else HTML."""
    try:
        plain = Text(html.unescape(fragment.replace("<br>", "\n")))
    except ModelError:  # a character reference to something a text cannot hold (U+0001, NFD)
        return Text(fragment, "html")
    return plain if plain.html() == fragment else Text(fragment, "html")


def _inline_files(fragment: str, node) -> str:
    """`@@PLUGINFILE@@/name` links to the field's `<file>`s, as `data:` URIs the model can carry."""
    for file in node.iterchildren("file"):
        name, path = file.get("name", ""), file.get("path", "/")
        mime = mimetypes.guess_type(name)[0] or "application/octet-stream"
        uri = f"data:{mime};base64,{''.join((file.text or '').split())}"
        for link in (f"@@PLUGINFILE@@{quote(path)}{quote(name)}", f"@@PLUGINFILE@@{path}{name}"):
            fragment = fragment.replace(link, uri)
    return fragment


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
