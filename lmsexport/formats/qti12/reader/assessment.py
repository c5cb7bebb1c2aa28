"""The questions of QTI 1.2 assessments and question banks, in order, with their question groups.

QTI ASI 1.2.1, sections 2-3 (assessment, section, item, objectbank):
https://www.imsglobal.org/question/qtiv1p2/imsqti_asi_infov1p2.html. Part of the QTI 1.2 reader.
Canvas puts a quiz's questions in `section ident="root_section"`, and each question group in a
`section` of its own whose `selection_number` says how many of its questions an attempt draws
(`points_per_item` what each is worth; `sourcebank_ref` the bank it draws from, when its questions
are a bank's). The model has no pools yet: a group's questions are read as questions of the quiz,
each worth the group's points, with a warning naming the group and what it draws. `itemref`s and
`sectionref`s (WebCT, Blackboard) name items of the document or of the package's banks.
"""

from __future__ import annotations

from dataclasses import dataclass

from ....diagnostics import Log, SourceSpan
from ....ids import slug
from ....model import ModelError, Numbering, Pool, Question, is_identifier, is_language_tag
from ....text import counted
from . import processing
from .items import Item, Skip, text_only
from .kinds import read_question
from .package import Document
from ....xml import local_name
from .text import Emptied, TextReader

_LANG = "{http://www.w3.org/XML/1998/namespace}lang"


@dataclass
class Group:
    """A question group being read: what it draws, and how many of its questions were read."""

    title: str
    draws: int
    points: float | None
    read: int = 0


class Questions:
    """Reads the questions of a package's assessments (or banks) into one list, noting the skipped."""

    def __init__(self, source: str, quiz_id: str, lang: str | None, texts: dict[str, TextReader],
                 banks: list[Document]):
        self.source, self.quiz_id, self.lang, self.texts = source, quiz_id, lang, texts
        self.questions: list[Question] = []
        self.pools: list[Pool] = []
        """The question groups read as pools (their questions stand together in `questions`)."""
        self.log = Log()
        """The warnings of reading the questions, in the order of the file (skipped questions included)."""
        self.position = 0
        self.numbering = Numbering()
        """Names the items as an author counts them (`Quiz.label`): questions, and text blocks apart."""
        self.taken: set[str] = set()
        """The question ids given so far (to skipped questions too, whose warnings name them)."""
        self.bank_items = {node.get("ident", ""): (bank, node) for bank in banks
                           for holder in bank.holders("objectbank")
                           for node in holder.iter() if local_name(node) in ("item", "section")}
        self.bank_items.update({holder.get("ident", ""): (bank, holder) for bank in banks
                                for holder in bank.holders("objectbank")})
        self.banks_used: set[str] = set()

    def read(self, document: Document, holder) -> None:
        """Every question of an assessment (its sections in order) or of an objectbank."""
        self._walk(document, holder, None)

    def _walk(self, document: Document, node, group: Group | None) -> None:
        local_items = {child.get("ident", ""): child for child in node.getroottree().iter()
                       if local_name(child) in ("item", "section")} if any(
            local_name(child) in ("itemref", "sectionref") for child in node) else {}
        for child in node:
            name = local_name(child)
            if name == "item":
                self._item(document, child, group)
            elif name == "section":
                self._section(document, child, group)
            elif name in ("itemref", "sectionref"):
                self._reference(document, child, group, local_items)

    def _reference(self, document: Document, ref, group: Group | None, local_items: dict) -> None:
        ident = ref.get("linkrefid", "")
        found = local_items.get(ident)
        target = (document, found) if found is not None else self.bank_items.get(ident)
        if target is None or local_name(target[1]) != local_name(ref).removesuffix("ref"):
            self.log.warn("W872", f"the {local_name(ref)} names the {local_name(ref)[:-3]} {ident!r}, which is not in the file, "
                          "so it is left out", self._span(document, ref),
                          "read the whole export (the zip), which holds the questions the quiz refers to")
            return
        if local_name(target[1]) == "item":
            self._item(target[0], target[1], group)
        else:
            self._section(target[0], target[1], group)

    def _section(self, document: Document, section, outer: Group | None) -> None:
        selection = next((node for ordering in section if local_name(ordering) == "selection_ordering"
                          for node in ordering if local_name(node) == "selection"), None)
        draws = _child_number(selection, "selection_number") if selection is not None else None
        if draws is None or outer is not None:
            self._walk(document, section, outer)
            return
        points = _child_number(selection, "points_per_item")
        group = Group(section.get("title") or section.get("ident", ""), int(draws), points)
        before = len(self.questions)
        self._walk(document, section, group)
        bank = next((node.text.strip() for node in selection if local_name(node) == "sourcebank_ref" and node.text), None)
        if len(self.questions) == before and bank is not None:
            self._bank(document, section, group, bank)
        members = self.questions[before:]
        if not self._pool(document, section, group, members):
            self._group_warning(document, section, group, bank, len(members))

    def _pool(self, document: Document, section, group: Group, members: list[Question]) -> bool:
        """The group as a pool of the questions read for it; False when the model cannot hold it (no
        questions, a text block among them), and the group is then read as plain questions."""
        if not members or any(question.kind == "description" for question in members):
            return False
        own = section.get("ident", "").removeprefix(f"{self.quiz_id}-")
        pool_id = own if is_identifier(own) and own not in self.taken else f"pool{len(self.pools) + 1}"
        self.taken.add(pool_id)
        title = section.get("title")
        self.pools.append(Pool(id=pool_id, title=None if title in (None, "", pool_id) else title,
                               draw=min(group.draws, len(members)) or 1, points=group.points,
                               questions=tuple(question.id for question in members)))
        if group.draws > len(members):
            self.log.warn("W873", f"the question group {group.title!r} draws {group.draws} questions but holds "
                          f"{len(members)}; it is read as a pool drawing all {len(members)}", self._span(document, section),
                          "check the group's questions in the LMS you export from")
        return True

    def _bank(self, document: Document, section, group: Group, bank: str) -> None:
        found = self.bank_items.get(bank)
        if found is not None and local_name(found[1]) == "objectbank":
            self.banks_used.add(bank)
            self._walk(found[0], found[1], group)

    def _group_warning(self, document: Document, section, group: Group, bank: str | None, count: int) -> None:
        span = self._span(document, section)
        each = f", {counted(group.points, 'point')} each" if group.points is not None else ""
        if count:
            self.log.warn("W873", f"the question group {group.title!r} draws {group.draws} of its {count} questions "
                          f"on each attempt{each}, but a text block is among them, which a pool cannot hold, so all {count} "
                          "are read as questions of the quiz", span, "make the group again in the LMS you import into")
        elif bank is not None:
            self.log.warn("W873", f"the question group {group.title!r} draws {counted(group.draws, 'question')} from "
                          f"the question bank {bank!r}, which the package does not hold, so nothing is read for it", span,
                          "export the course with its question banks, or add the questions to the quiz")

    def _item(self, document: Document, node, group: Group | None) -> None:
        self.position += 1
        span = self._span(document, node)
        ident = node.get("ident", "")
        name = self.numbering.next(text_only(node)) + (f" (item {ident!r})" if ident else "")
        question_id = self._id(ident, span, name)
        lang = node.get(_LANG)
        own = lang if lang and lang != self.lang and is_language_tag(lang) else None
        item = Item(node, question_id, name, own, self.lang, span, self.texts[document.path], self.log,
                    None if group is None else group.points)
        try:
            question = read_question(item)
        except Skip as skip:
            self.log.warn(skip.code, f"{name} is left out: {skip}", span, skip.hint)
            return
        except Emptied as emptied:
            self.log.warn("W872", f"{name} is left out: {emptied}", span,
                          "write the text itself: lmsexport keeps no scripts, frames or other unsafe HTML")
            return
        except ModelError as exc:
            self.log.warn("W872", f"{name} is left out: {exc}", span,
                          "check the question in the source LMS")
            return
        item.left_out_feedback()
        self.questions.append(question)

    def _id(self, ident: str, span: SourceSpan, name: str) -> str:
        """The question id: the item ident (without the `<quiz id>-` lmsexport's writer puts before
        it), else its position; made unique in the quiz."""
        own = ident.removeprefix(f"{self.quiz_id}-")
        question_id = own if is_identifier(own) else ident if is_identifier(ident) else f"q{self.position}"
        if question_id not in self.taken:
            self.taken.add(question_id)
            return question_id
        unique = next(f"{question_id}-{n}" for n in range(2, len(self.taken) + 3)
                      if f"{question_id}-{n}" not in self.taken)
        self.taken.add(unique)
        self.log.warn("W878", f"{name}: its ident is also an earlier question's, so this one is read as {unique}",
                      span, "give each question its own ident (Canvas keeps one of them)")
        return unique

    def _span(self, document: Document, node) -> SourceSpan:
        where = f"{self.source}!{document.path}" if document.path else self.source
        return SourceSpan(where, node.sourceline or 0)


def _child_number(node, name: str) -> float | None:
    found = next((child for child in node.iter() if local_name(child) == name), None)
    value = processing.number(found.text if found is not None else None)
    return None if value is None or value < 0 else float(value)


def quiz_id(ident: str, title: str) -> str:
    return ident if is_identifier(ident) else slug(title, fallback="quiz")
