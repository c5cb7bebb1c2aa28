"""Read IMS QTI 1.2 into the model: Canvas's quiz and course exports, its bare `.xml.qti` files,
and QTI 1.2 items of other tools where they have Canvas's structure.

QTI ASI 1.2.1: https://www.imsglobal.org/question/qtiv1p2/imsqti_asi_infov1p2.html; what Canvas
writes and reads: docs/formats/canvas.md ("Reading Canvas exports"). A package's documents are found
by `package`, its questions (sections, question groups, references) by `assessment`, each item by
`kinds` (`choices`, `typed`: the kinds; `processing`: what its conditions say; `text`: its texts),
the quiz's settings by `settings`. A question the model cannot hold, or cannot read, is left out
with a warning naming it; the file is refused (one SourceError with every problem) only when it is
not QTI 1.2, is damaged, or leaves no question at all.
"""

from __future__ import annotations

import dataclasses
import unicodedata

from ....archive import read_zip
from ....diagnostics import Diagnostic, Log, SourceError, SourceSpan
from ....markup import image_sources
from ....model import Asset, ModelError, Quiz, Settings, Text
from .assessment import Questions, quiz_id
from .package import NON_CC, Document, documents, parse
from .settings import QuizInfo, read_settings
from ....xml import local_name
from .text import TextReader

READ_OPTIONS = ("log",)
_LANG = "{http://www.w3.org/XML/1998/namespace}lang"


def read(data: str | bytes, *, source: str, log: Log | None = None) -> Quiz:
    log = Log() if log is None else log
    data = data.encode("utf-8") if isinstance(data, str) else data
    if data.startswith(b"PK"):
        archive = read_zip(data, source)
        if archive.problems:
            raise SourceError(archive.problems)
        files = archive.files
        assessments, banks = documents(files, source)
    else:
        root = parse(data, source)
        if local_name(root) != "questestinterop":
            raise SourceError([Diagnostic("E823", f"the root element is <{local_name(root)}>, not QTI 1.2's "
                                          "<questestinterop>", SourceSpan(source, root.sourceline or 0),
                                          "read Canvas's whole export (the zip), or name the format with --from")])
        files, assessments, banks = {}, [Document("", root)], []
    return _quiz(files, assessments, banks, source, log)


def _quiz(files: dict[str, bytes], assessments: list[Document], banks: list[Document], source: str, log: Log) -> Quiz:
    """One quiz of every assessment of the package (else of its banks), its settings the first's."""
    holders = [(document, node) for document in assessments for node in document.holders("assessment")]
    holders = holders or [(document, node) for document in (assessments or banks)
                          for node in document.holders("objectbank")]
    if not holders:
        where = assessments[0].path if assessments else ""
        raise SourceError([Diagnostic("E823", "the document holds no assessment or objectbank (question bank)",
                                      SourceSpan(f"{source}!{where}" if where else source),
                                      "export the quiz again from the LMS")])
    first_document, first = holders[0]
    span = SourceSpan(f"{source}!{first_document.path}" if first_document.path else source, first.sourceline or 0)
    lang = first.get(_LANG)
    assets: dict[str, Asset] = {}
    texts = {document.path: TextReader(files, document.path, assets) for document in (*assessments, *banks)}
    info = read_settings(first_document.meta, first, texts[first_document.path], log, span, lang)
    title = _title(info.title or first.get("title") or _bank_title(first) or first.get("ident"))
    found = Questions(source, quiz_id(first.get("ident", ""), title), lang, texts, banks)
    for document, holder in holders:
        found.read(document, holder)
    _notes(holders, banks, found, log, span)
    if not found.questions:
        raise SourceError([Diagnostic("E826", "no question of the file can be read: each is left out for the reason "
                                      "given", span, "export the questions lmsexport reads (docs/formats/canvas.md)"),
                           *found.log.diagnostics])
    for diagnostic in found.log.diagnostics:
        log.warn(diagnostic.code, diagnostic.message, diagnostic.span, diagnostic.hint)
    try:
        return Quiz(id=found.quiz_id, title=title, lang=lang, description=info.description,
                    settings=_shuffled(info, first_document, assessments), questions=tuple(found.questions),
                    pools=tuple(found.pools),
                    assets=_shown(assets, found.questions, info.description))
    except ModelError as exc:
        raise SourceError([Diagnostic("E826", f"the quiz cannot be read: {exc}", span,
                                      "correct it in the LMS that exported it and export the quiz again "
                                      "(docs/formats/canvas.md says what lmsexport reads)")]) from None


def _notes(holders: list, banks: list[Document], found: Questions, log: Log, span: SourceSpan) -> None:
    """Say what of the package is read otherwise than as it is: several quizzes made one, banks left out."""
    if len(holders) > 1:
        titles = ", ".join(repr(node.get("title") or node.get("ident", "")) for _, node in holders)
        log.warn("W878", f"the file holds {len(holders)} quizzes or banks ({titles}): their questions are read as one "
                 "quiz, with the first one's title and settings", span,
                 "export the quizzes one by one to keep them apart")
    if any(local_name(node) == "assessment" for _, node in holders):
        unread = [repr(_bank_title(holder) or holder.get("ident", "")) for bank in banks
                  for holder in bank.holders("objectbank") if holder.get("ident", "") not in found.banks_used]
        if unread:
            log.warn("W878", f"the package's question banks ({', '.join(unread)}) are not read: lmsexport reads the "
                     "package's quizzes, which hold the questions they use", span,
                     f"to read a bank, read its file {NON_CC}<bank id>.xml.qti on its own")


def _title(found: str | None) -> str:
    """The quiz's title as the model keeps it (NFC), or `Quiz` for none."""
    title = unicodedata.normalize("NFC", found or "")
    return title if title.strip() else "Quiz"


def _bank_title(holder) -> str | None:
    """A Canvas question bank's title, from its `bank_title` metadata field."""
    for field in holder.iter():
        if local_name(field) == "qtimetadatafield":
            label = next((c.text for c in field if local_name(c) == "fieldlabel"), "")
            if (label or "").strip() == "bank_title":
                return next((c.text.strip() for c in field if local_name(c) == "fieldentry" and c.text), None)
    return None


def _shuffled(info: QuizInfo, first: Document, assessments: list[Document]) -> Settings:
    """Canvas's shuffle_answers; without Canvas's settings, whether every choice list shuffles."""
    if first.meta is not None:
        return info.settings
    flags = [node.get("shuffle") for document in assessments for node in document.root.iter()
             if local_name(node) == "render_choice" and node.get("shuffle")]
    shuffle = bool(flags) and all(flag.lower() == "yes" for flag in flags)
    return dataclasses.replace(info.settings, shuffle=shuffle)


def _shown(assets: dict[str, Asset], questions: list, description: Text | None) -> tuple[Asset, ...]:
    """The quiz files a text of the quiz shows (a text left out may have noted others), in the order shown."""
    shown = dict.fromkeys(src for text in (description, *_texts(questions)) if text is not None and
                          text.format == "html" for src in image_sources(text.value))
    return tuple(assets[path] for path in shown if path in assets)


def _texts(value):
    """Every Text of a model object, in field order."""
    if isinstance(value, Text):
        yield value
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _texts(item)
    elif dataclasses.is_dataclass(value):
        for spec in dataclasses.fields(value):
            if spec.compare:
                yield from _texts(getattr(value, spec.name))

