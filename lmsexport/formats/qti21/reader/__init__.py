"""Read IMS QTI 2.1 content packages (zip) and single assessmentItem documents into the model.

QTI 2.1 final: https://www.imsglobal.org/question/qtiv2p1/imsqti_infov2p1.html

Reads what writers/qti21.py writes back to the same quiz (docs/formats/qti21.md says
where each model field lives), and items of the same kinds written by other tools:
questions come from the test's assessmentItemRefs in order (or from the manifest's item
resources when there is no test), and sections that select some of their items are pools
(sections.py, W885); points from MAXSCORE, SCORE's normalMaximum or the
test's weight; images of the package become the quiz's files. Items are read by
qti21_items.py (typed answers and gaps: qti21_gaps.py, feedback: qti21_feedback.py, text:
qti21_text.py). An item the model has no kind for (adaptive, template, graphic, custom or
other interactions) is skipped with a warning naming it and why (W881), one it cannot read as
written too (W882); a package of which no item can be read is refused with every reason.
What an item read holds that the model has no place for (feedback on other conditions,
inline feedback) is left out with a warning (W884); close fits (associate as matching, gap
match and number gaps as gaps) are warned (W883). HTML passes the one sanitiser (W010, E010).
"""

from __future__ import annotations

import math
import posixpath
import unicodedata
from typing import NamedTuple

from .. import names
from ....archive import read_zip
from ....diagnostics import Diagnostic, Log, SourceError, SourceSpan
from ....ids import ID_LIMIT, slug
from ....model import TIME_LIMIT_MAX, ModelError, Numbering, Quiz, Settings, Text, is_identifier
from ....package import MANIFEST
from ....xml import NS, untrusted_document
from .items import Item, interactions_of, read_question
from .sections import Selecting, read_pools, selecting_section
from .text import TextReader, Unreadable, order_assets, read_number

_Q = f"{{{NS['qti']}}}"
_LANG = f"{{{NS['xml']}}}lang"
READ_OPTIONS = ("log",)
"""`read` takes `log`: where what an item scores otherwise than the model can say is told (W821)."""


class _Ref(NamedTuple):
    """An item the quiz uses: where it is, what the test calls it, and who refers to it."""

    path: str
    identifier: str
    weight: str | None
    referrer: str
    line: int
    pool: Selecting | None = None
    """The selecting section (a pool) the item stands in."""


READ_OPTIONS = ("log",)
"""`read` takes `log`: where the items skipped and what the model holds otherwise are told."""


def read(data: str | bytes, *, source: str, log: Log | None = None) -> Quiz:
    """Read a package or one item; `log` gets the warnings (lmsexport.read always gives one)."""
    data = data.encode("utf-8") if isinstance(data, str) else data
    log = Log() if log is None else log
    if data.startswith(b"PK"):
        return _read_package(_unzip(data, source), source, log)
    root = _parse(data, source)
    quiz_id = _identifier(root.get("identifier", ""), "quiz")
    lang = root.get(_LANG)
    span = SourceSpan(source, root.sourceline or 0)
    subject = f"the item {root.get('identifier', '')!r}"
    try:
        question = read_question(root, Item("q1", lang, span, TextReader(log=log, subject=subject, span=span), log=log))
        return Quiz(id=quiz_id, title=root.get("title") or quiz_id, lang=lang, questions=(question,),
                    settings=Settings(shuffle=_shuffled([root])))
    except (Unreadable, ModelError) as exc:
        raise SourceError([_problem(source, exc, subject)]) from None


_MODEL_HINT = ("correct it in the tool that made the package and export it again (docs/formats/qti21.md says "
               "what lmsexport reads)")
"""What to do about a value the model refuses (a ModelError, which knows no QTI)."""


def _problem(source: str, exc: Exception, subject: str) -> Diagnostic:
    """Why an item cannot be read, as an error (its code: E803, or E010 for a text the sanitiser empties)."""
    return Diagnostic(getattr(exc, "code", "E803"), f"{subject}: {exc}", SourceSpan(source, getattr(exc, "line", 0)),
                      getattr(exc, "hint", "") or _MODEL_HINT)


def _unzip(data: bytes, source: str) -> dict[str, bytes]:
    """The package's files; any member that is unsafe or unreadable refuses the package."""
    archive = read_zip(data, source)
    if archive.problems:
        raise SourceError(archive.problems)
    return archive.files


def _parse(content: bytes, source: str):
    return untrusted_document(content, source, ("E802", "E806"),
                              "the file is damaged: export the package again, or fix the XML at that place")


def _identifier(value: str, fallback: str) -> str:
    """A model id from a QTI identifier (an NCName, which may be non-ASCII, and of any length)."""
    return value if is_identifier(value) and len(value) <= ID_LIMIT else slug(value, fallback=fallback)


def _read_package(files: dict[str, bytes], source: str, log: Log) -> Quiz:
    if MANIFEST not in files:
        raise SourceError([Diagnostic("E801", f"the package has no {MANIFEST} at its root", SourceSpan(source),
                                      "a QTI content package has imsmanifest.xml at the top of the zip")])
    manifest = _parse(files[MANIFEST], f"{source}!{MANIFEST}")
    general = manifest.find("{*}metadata/{*}lom/{*}general")
    lang = _lom_text(general, "language")
    test_path, test = _test(manifest, files, source)
    quiz_id = _identifier((test if test is not None else manifest).get("identifier", ""), "quiz")
    refs = _test_refs(test_path, test, source) if test is not None else _manifest_refs(manifest)
    tags = _resource_tags(manifest)
    questions, roots, problems, skipped, assets, pooled = [], [], [], [], {}, []
    numbering = Numbering()
    for ref in refs:
        try:
            question, root = _read_item(files, source, ref, quiz_id, lang, tags.get(ref.path, ()), assets, log=log,
                                        numbering=numbering)
        except _Skipped as exc:
            skipped.append(exc.diagnostic)
            continue
        except SourceError as exc:
            problems += exc.diagnostics
            continue
        questions.append(question)
        roots.append(root)
        pooled.append((question, ref.pool))
    if problems or not questions:
        raise SourceError(problems or skipped or [Diagnostic(
            "E801", "the package lists no items", SourceSpan(f"{source}!{MANIFEST}"),
            "list each item as a resource of type imsqti_item_xmlv2p1, or refer to it from the test")])
    for diagnostic in skipped:
        log.warn("W881" if diagnostic.code == "E807" else "W882", f"{diagnostic.message}; the item is skipped",
                 diagnostic.span, diagnostic.hint)
    try:
        description = _description(test, general, lang, TextReader(test_path or "", files, assets))
        return Quiz(
            id=quiz_id, title=_title(test, general, quiz_id), lang=lang, questions=tuple(questions),
            pools=read_pools(pooled, quiz_id, log),
            description=description, tags=_keywords(general),
            settings=_settings(test, roots, sum(q.points for q in questions), f"{source}!{test_path}"),
            assets=order_assets(assets, manifest),
        )
    except (Unreadable, ModelError) as exc:
        where = SourceSpan(f"{source}!{test_path or MANIFEST}", getattr(exc, "line", 0))
        raise SourceError([Diagnostic("E804", str(exc), where, getattr(exc, "hint", "") or _MODEL_HINT)]) from None


def _test(manifest, files: dict[str, bytes], source: str):
    """The package's assessmentTest (the first test resource), or (None, None)."""
    for resource in manifest.iter("{*}resource"):
        if resource.get("type") in names.TEST_RESOURCES and resource.get("href"):
            path = posixpath.normpath(resource.get("href"))
            if path not in files:
                message = f"the test {path!r} is listed in the manifest but not in the package"
                where = SourceSpan(f"{source}!{MANIFEST}", resource.sourceline)
                raise SourceError([Diagnostic("E805", message, where, "export the package again, with its test")])
            return path, _parse(files[path], f"{source}!{path}")
    return None, None


def _test_refs(test_path: str, test, source: str) -> list[_Ref]:
    refs = []
    for ref in test.iter(f"{_Q}assessmentItemRef"):
        weight = ref.find(f"{_Q}weight")
        path = posixpath.normpath(posixpath.join(posixpath.dirname(test_path), ref.get("href", "")))
        value = weight.get("value") if weight is not None else None
        refs.append(_Ref(path, ref.get("identifier", ""), value, test_path, ref.sourceline or 0,
                         selecting_section(ref, f"{source}!{test_path}")))
    return refs


def _manifest_refs(manifest) -> list[_Ref]:
    return [
        _Ref(posixpath.normpath(resource.get("href")), "", None, MANIFEST, resource.sourceline or 0)
        for resource in manifest.iter("{*}resource")
        if resource.get("type", "").startswith("imsqti_item_xmlv2p") and resource.get("href")
    ]


class _Skipped(Exception):
    """An item that is not read: why, as the error it would be if no item could be read."""

    def __init__(self, diagnostic: Diagnostic):
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic


def _read_item(files, source: str, ref: _Ref, quiz_id: str, lang: str | None, tags: tuple[str, ...], assets: dict,
               *, log: Log, numbering: Numbering):
    """The item's question and root; SourceError for what refuses the package, _Skipped for an item
    the model cannot hold or that cannot be read as written (its images are not kept)."""
    if ref.path not in files:
        message = f"{ref.path!r} is referred to here but is not in the package"
        raise SourceError([Diagnostic("E805", message, SourceSpan(f"{source}!{ref.referrer}", ref.line),
                                      "put that file into the package, or remove the reference to it")])
    where = f"{source}!{ref.path}"
    root = _parse(files[ref.path], where)
    identifier = (ref.identifier or root.get("identifier", "")).removeprefix(f"{quiz_id}-")
    span = SourceSpan(where, root.sourceline or 0)
    subject = f"{numbering.next(not interactions_of(root))} (item {root.get('identifier', identifier)!r})"
    found = dict(assets)
    item = Item(_identifier(identifier, "q"), lang, span, TextReader(ref.path, files, assets, log=log,
                                                                     subject=subject, span=span), ref.weight, tags, log)
    try:
        question = read_question(root, item)
    except (Unreadable, ModelError) as exc:
        if getattr(exc, "fatal", False):
            raise SourceError([_problem(where, exc, subject)]) from None
        for path in set(assets) - set(found):
            del assets[path]
        raise _Skipped(_problem(where, exc, subject)) from None
    return question, root


def _lom_text(general, name: str) -> str | None:
    node = None if general is None else general.find(f"{{*}}{name}")
    return node.text.strip() if node is not None and node.text and node.text.strip() else None


def _langstring(general, name: str):
    """The first `langstring` of a LOM `general` element's `name` child (title, description)."""
    return None if general is None else general.find(f"{{*}}{name}/{{*}}langstring")


def _keywords(general) -> tuple[str, ...]:
    found = [] if general is None else general.iterfind("{*}keyword/{*}langstring")
    return tuple(node.text.strip() for node in found if node.text and node.text.strip())


def _resource_tags(manifest) -> dict[str, tuple[str, ...]]:
    return {
        posixpath.normpath(resource.get("href")): _keywords(resource.find("{*}metadata/{*}lom/{*}general"))
        for resource in manifest.iter("{*}resource")
        if resource.get("href")
    }


def _title(test, general, quiz_id: str) -> str:
    langstring = _langstring(general, "title")
    title = test.get("title") if test is not None else None
    return title or (langstring.text if langstring is not None and langstring.text else quiz_id)


def _description(test, general, lang: str | None, reader: TextReader) -> Text | None:
    """The candidate rubric of the test's section (lmsexport), else the LOM description."""
    for rubric in [] if test is None else test.iter(f"{_Q}rubricBlock"):
        if "candidate" in rubric.get("view", "").split():
            return reader.block_text(rubric)
    langstring = _langstring(general, "description")
    if langstring is None or not langstring.text:
        return None
    text_lang = langstring.get(_LANG)
    return Text(unicodedata.normalize("NFC", langstring.text), "plain", text_lang if text_lang != lang else None)


def _shuffled(items: list) -> bool:
    """Whether the quiz lets the LMS shuffle: every interaction that can shuffle does."""
    flags = [node.get("shuffle") == "true" for root in items for node in interactions_of(root) if node.get("shuffle")]
    return bool(flags) and all(flags)


def _settings(test, items: list, total: float, where: str) -> Settings:
    """The quiz's settings from its test (`where` names the test's file, for messages)."""
    part = test.find(f"{_Q}testPart") if test is not None else None
    limits = part.find(f"{_Q}timeLimits") if part is not None else None
    max_time = limits.get("maxTime") if limits is not None else None
    return Settings(
        shuffle=_shuffled(items),
        pass_mark=_pass_mark(test, total),
        feedback="end" if part is not None and part.get("submissionMode") == "simultaneous" else "immediate",
        time_limit=_seconds(max_time, limits) if max_time else None,
        spans={"time_limit": SourceSpan(where, limits.sourceline or 0)} if max_time else {},
    )


def _seconds(max_time: str, limits) -> int:
    """timeLimits/@maxTime (xs:double seconds) as the model's whole seconds."""
    try:
        seconds = float(max_time)
    except ValueError:
        seconds = math.nan
    if not 0 < seconds <= TIME_LIMIT_MAX:
        raise Unreadable(f"the time limit maxTime={max_time!r} is not from 1 to {TIME_LIMIT_MAX} seconds", limits,
                         f"set maxTime to the time limit in seconds, from 1 to {TIME_LIMIT_MAX}, or remove it")
    return max(1, round(seconds))


def _pass_mark(test, total: float) -> float | None:
    """From PASS = gte(SCORE / MAXSCORE * 100, mark) (lmsexport), gte(SCORE / MAXSCORE, fraction)
    or gte(SCORE, points)."""
    path = f"{_Q}outcomeProcessing/{_Q}setOutcomeValue[@identifier='{names.PASS}']/{_Q}gte"
    comparison = None if test is None else test.find(path)
    if comparison is None or len(comparison) != 2 or comparison[1].tag != f"{_Q}baseValue":
        return None
    scale = {f"{_Q}product": 1.0, f"{_Q}divide": 100.0, f"{_Q}variable": 100.0 / total if total else None}
    factor = scale.get(comparison[0].tag)
    mark = read_number(comparison[1].text, comparison[1], "the pass mark")
    return None if factor is None else mark * factor
