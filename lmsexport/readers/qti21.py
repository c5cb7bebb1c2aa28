"""Read IMS QTI 2.1 content packages (zip) and single assessmentItem documents into the model.

QTI 2.1 final: https://www.imsglobal.org/question/qtiv2p1/imsqti_infov2p1.html

Reads what writers/qti21.py writes back to the same quiz (docs/formats/qti21.md says
where each model field lives), and choice items written by other tools: questions come
from the test's assessmentItemRefs in order (or from the manifest's item resources when
there is no test); points from MAXSCORE, SCORE's normalMaximum or the test's weight.
What the model cannot hold (other interactions, feedback shown on other conditions than
"this option was picked" or "always") is an error at its place, never dropped.
"""

from __future__ import annotations

import copy
import dataclasses
import io
import posixpath
import unicodedata
import zipfile
from html import escape
from typing import NamedTuple

from .. import qti21 as names
from ..diagnostics import Diagnostic, SourceError, SourceSpan
from ..ids import slug
from ..model import Choice, ModelError, MultipleChoice, Quiz, Settings, Text, is_identifier
from ..package import MANIFEST
from ..xml import NS, parser, unindent

NAME = "qti21"
EXTENSIONS: tuple[str, ...] = ()
"""Chosen by name only (`lmsexport.read(path)` with this reader): a folder of quizzes
must not pick up the packages built from it."""

_Q = f"{{{NS['qti']}}}"
_LANG = f"{{{NS['xml']}}}lang"


class _Unreadable(Exception):
    """A problem that stops reading one item, at the element `node`."""

    def __init__(self, message: str, node=None, hint: str = ""):
        super().__init__(message)
        self.line = getattr(node, "sourceline", 0) or 0
        self.hint = hint


class _Ref(NamedTuple):
    """An item the quiz uses: where it is, what the test calls it, and who refers to it."""

    path: str
    identifier: str
    weight: str | None
    referrer: str
    line: int


def read(data: str | bytes, *, source: str) -> Quiz:
    data = data.encode("utf-8") if isinstance(data, str) else data
    if data.startswith(b"PK"):
        return _read_package(_unzip(data, source), source)
    root = _parse(data, source)
    quiz_id = _identifier(root.get("identifier", ""), "quiz")
    lang = root.get(_LANG)
    try:
        question = _question(root, "q1", lang, SourceSpan(source, root.sourceline or 0))
        shuffle = _interaction(root).get("shuffle") == "true"
        return Quiz(id=quiz_id, title=root.get("title") or quiz_id, lang=lang, questions=(question,),
                    settings=Settings(shuffle=shuffle))
    except (_Unreadable, ModelError) as exc:
        raise SourceError([_problem(source, exc)]) from None


def _problem(source: str, exc: Exception) -> Diagnostic:
    return Diagnostic("E803", str(exc), SourceSpan(source, getattr(exc, "line", 0)), getattr(exc, "hint", ""))


def _unzip(data: bytes, source: str) -> dict[str, bytes]:
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            return {name: archive.read(name) for name in archive.namelist() if not name.endswith("/")}
    except (zipfile.BadZipFile, OSError, RuntimeError) as exc:
        raise SourceError([Diagnostic("E801", f"not a readable zip file: {exc}", SourceSpan(source))]) from None


def _parse(content: bytes, source: str):
    from lxml import etree

    try:
        return etree.fromstring(content, parser())
    except etree.XMLSyntaxError as exc:
        line, column = exc.position
        where = SourceSpan(source, line, column)
        raise SourceError([Diagnostic("E802", f"not well-formed XML: {exc.msg}", where)]) from None


def _identifier(value: str, fallback: str) -> str:
    """A model id from a QTI identifier (an NCName, which may be non-ASCII)."""
    return value if is_identifier(value) else slug(value, fallback=fallback)


def _read_package(files: dict[str, bytes], source: str) -> Quiz:
    if MANIFEST not in files:
        raise SourceError([Diagnostic("E801", f"the package has no {MANIFEST} at its root", SourceSpan(source),
                                      "a QTI content package has imsmanifest.xml at the top of the zip")])
    manifest = _parse(files[MANIFEST], f"{source}!{MANIFEST}")
    general = manifest.find("{*}metadata/{*}lom/{*}general")
    lang = _lom_text(general, "language")
    test_path, test = _test(manifest, files, source)
    quiz_id = _identifier((test if test is not None else manifest).get("identifier", ""), "quiz")
    refs = _test_refs(test_path, test) if test is not None else _manifest_refs(manifest)
    tags = _resource_tags(manifest)
    questions, roots, problems = [], [], []
    for ref in refs:
        try:
            question, root = _read_item(files, source, ref, quiz_id, lang, tags.get(ref.path, ()))
        except SourceError as exc:
            problems += exc.diagnostics
            continue
        questions.append(question)
        roots.append(root)
    if problems:
        raise SourceError(problems)
    try:
        return Quiz(
            id=quiz_id, title=_title(test, general, quiz_id), lang=lang, questions=tuple(questions),
            description=_description(test, general, lang), tags=_keywords(general),
            settings=_settings(test, roots, sum(q.points for q in questions)),
        )
    except (ModelError, ValueError) as exc:
        raise SourceError([Diagnostic("E804", str(exc), SourceSpan(f"{source}!{test_path or MANIFEST}"))]) from None


def _test(manifest, files: dict[str, bytes], source: str):
    """The package's assessmentTest (the first test resource), or (None, None)."""
    for resource in manifest.iter("{*}resource"):
        if resource.get("type") in names.TEST_RESOURCES and resource.get("href"):
            path = posixpath.normpath(resource.get("href"))
            if path not in files:
                message = f"the test {path!r} is listed in the manifest but not in the package"
                where = SourceSpan(f"{source}!{MANIFEST}", resource.sourceline)
                raise SourceError([Diagnostic("E805", message, where)])
            return path, _parse(files[path], f"{source}!{path}")
    return None, None


def _test_refs(test_path: str, test) -> list[_Ref]:
    refs = []
    for ref in test.iter(f"{_Q}assessmentItemRef"):
        weight = ref.find(f"{_Q}weight")
        path = posixpath.normpath(posixpath.join(posixpath.dirname(test_path), ref.get("href", "")))
        value = weight.get("value") if weight is not None else None
        refs.append(_Ref(path, ref.get("identifier", ""), value, test_path, ref.sourceline or 0))
    return refs


def _manifest_refs(manifest) -> list[_Ref]:
    return [
        _Ref(posixpath.normpath(resource.get("href")), "", None, MANIFEST, resource.sourceline or 0)
        for resource in manifest.iter("{*}resource")
        if resource.get("type", "").startswith("imsqti_item_xmlv2p") and resource.get("href")
    ]


def _read_item(files, source: str, ref: _Ref, quiz_id: str, lang: str | None, tags: tuple[str, ...]):
    if ref.path not in files:
        message = f"{ref.path!r} is referred to here but is not in the package"
        raise SourceError([Diagnostic("E805", message, SourceSpan(f"{source}!{ref.referrer}", ref.line))])
    where = f"{source}!{ref.path}"
    root = _parse(files[ref.path], where)
    identifier = (ref.identifier or root.get("identifier", "")).removeprefix(f"{quiz_id}-")
    try:
        question = _question(root, _identifier(identifier, "q"), lang, SourceSpan(where, root.sourceline or 0),
                             ref.weight, tags)
    except (_Unreadable, ModelError, ValueError) as exc:
        raise SourceError([_problem(where, exc)]) from None
    return question, root


def _question(root, question_id: str, quiz_lang: str | None, span: SourceSpan, weight: str | None = None,
              tags: tuple[str, ...] = ()) -> MultipleChoice:
    if root.tag != f"{_Q}assessmentItem":
        raise _Unreadable(f"not a QTI 2.1 assessmentItem (root element {root.tag})", root)
    interaction = _interaction(root)
    declaration = _declaration(root, interaction.get("responseIdentifier", ""))
    correct = {value.text.strip() for value in declaration.iterfind(f"{_Q}correctResponse/{_Q}value") if value.text}
    if not correct:
        raise _Unreadable("the response declaration has no correctResponse", declaration,
                          "lmsexport (and Canvas) take the correct options from <correctResponse>")
    feedback, explanation = _feedback(root)
    choices = tuple(
        Choice(id=node.get("identifier", ""), text=_text(node), correct=node.get("identifier") in correct,
               feedback=feedback.pop(node.get("identifier"), None))
        for node in interaction.iterfind(f"{_Q}simpleChoice")
    )
    if correct - {choice.id for choice in choices} or feedback:
        unknown = sorted(correct - {choice.id for choice in choices} | set(feedback))
        raise _Unreadable(f"no option has the identifier(s) {', '.join(unknown)}", interaction)
    lang = root.get(_LANG)
    question = MultipleChoice(
        id=question_id, prompt=_prompt(root.find(f"{_Q}itemBody"), interaction), points=_points(root, weight),
        explanation=explanation, lang=lang if lang != quiz_lang else None, tags=tags, source=span,
        choices=choices, multiple_response=declaration.get("cardinality") == "multiple",
    )
    title = root.get("title")
    return dataclasses.replace(question, title=title) if title and title != names.default_title(question) else question


def _interaction(root):
    body = root.find(f"{_Q}itemBody")
    found = [] if body is None else [n for n in body.iter() if isinstance(n.tag, str) and n.tag.endswith("Interaction")]
    if len(found) == 1 and found[0].tag == f"{_Q}choiceInteraction":
        return found[0]
    kinds = ", ".join(sorted({n.tag.rpartition("}")[2] for n in found})) or "no interaction"
    raise _Unreadable(f"the item has {kinds}; lmsexport reads items with one choiceInteraction",
                      found[0] if found else root)


def _declaration(root, identifier: str):
    for declaration in root.iterfind(f"{_Q}responseDeclaration"):
        if declaration.get("identifier") == identifier:
            return declaration
    raise _Unreadable(f"no responseDeclaration for the interaction's response {identifier!r}", root)


def _points(root, weight: str | None) -> float:
    """MAXSCORE (written by lmsexport, read by New Quizzes), else SCORE's normalMaximum, else the
    mapping's upper bound, else the test's weight, else 1."""
    maximum = root.find(f"{_Q}outcomeDeclaration[@identifier='{names.MAXSCORE}']/{_Q}defaultValue/{_Q}value")
    if maximum is not None:
        return float(maximum.text)
    score = root.find(f"{_Q}outcomeDeclaration[@identifier='{names.SCORE}']")
    if score is not None and score.get("normalMaximum"):
        return float(score.get("normalMaximum"))
    mapping = root.find(f"{_Q}responseDeclaration/{_Q}mapping[@upperBound]")
    if mapping is not None:
        return float(mapping.get("upperBound"))
    return float(weight) if weight is not None else 1.0


def _feedback(root) -> tuple[dict[str, Text], Text | None]:
    """Per-option feedback and the explanation, from the modalFeedback the rules show."""
    shown_for, always, echoed = _feedback_rules(root.find(f"{_Q}responseProcessing"))
    choice_ids = {node.get("identifier") for node in root.iterfind(f"{_Q}itemBody//{_Q}simpleChoice")}
    per_choice: dict[str, Text] = {}
    explanation = None
    for node in root.iterfind(f"{_Q}modalFeedback"):
        identifier = node.get("identifier")
        choice = shown_for.get(identifier) or (identifier if echoed and identifier in choice_ids else None)
        if node.get("showHide", "show") == "show" and choice and choice not in per_choice:
            per_choice[choice] = _block_text(node)
        elif node.get("showHide", "show") == "show" and identifier in always and explanation is None:
            explanation = _block_text(node)
        else:
            raise _Unreadable(f"modalFeedback {identifier!r} is shown on a condition the model has no place for", node,
                              "lmsexport keeps feedback shown for one picked option, and one shown always")
    return per_choice, explanation


def _feedback_rules(processing) -> tuple[dict[str, str], set[str], bool]:
    """Which feedback identifiers the rules add when an option is picked, which always, and
    whether FEEDBACK is set to RESPONSE itself (feedback identifiers = option identifiers)."""
    shown_for: dict[str, str] = {}
    always: set[str] = set()
    echoed = False
    for rule in [] if processing is None else processing:
        if rule.tag == f"{_Q}setOutcomeValue" and rule.get("identifier") == names.FEEDBACK:
            always |= _shown(rule)
            echoed |= rule.find(f"{_Q}variable[@identifier='{names.RESPONSE}']") is not None
        elif rule.tag == f"{_Q}responseCondition":
            for branch in [*rule.findall(f"{_Q}responseIf"), *rule.findall(f"{_Q}responseElseIf")]:
                choice = _picked(branch[0]) if len(branch) else None
                for setter in branch.iterfind(f"{_Q}setOutcomeValue[@identifier='{names.FEEDBACK}']"):
                    shown_for.update(dict.fromkeys(_shown(setter), choice) if choice else {})
    return shown_for, always, echoed


def _shown(setter) -> set[str]:
    return {value.text.strip() for value in setter.iter(f"{_Q}baseValue") if value.get("baseType") == "identifier"}


def _picked(test) -> str | None:
    """X in `match(RESPONSE, X)`, `match(X, RESPONSE)` or `member(X, RESPONSE)`."""
    if test.tag not in (f"{_Q}match", f"{_Q}member") or len(test) != 2:
        return None
    uses_response = any(node.tag == f"{_Q}variable" and node.get("identifier") == names.RESPONSE for node in test)
    values = [node.text.strip() for node in test.iterfind(f"{_Q}baseValue") if node.get("baseType") == "identifier"]
    return values[0] if uses_response and len(values) == 1 else None


def _block_text(node) -> Text:
    """The text of a modalFeedback or rubricBlock: of its one div (as lmsexport writes), else its own."""
    unindent(node)
    only = node[0] if len(node) == 1 and not node.text and not node[0].tail else None
    return _text(only) if only is not None and only.tag == f"{_Q}div" else _text(node)


def _prompt(body, interaction) -> Text:
    """The stem: lmsexport's one div, or else everything around the interaction plus its prompt."""
    body = copy.deepcopy(body)
    unindent(body)
    nested = next(node for node in body.iter(f"{_Q}choiceInteraction"))
    prompt = nested.find(f"{_Q}prompt")
    _remove(nested)
    stem = list(body)
    if len(stem) == 1 and stem[0].tag == f"{_Q}div" and prompt is None and set(stem[0].attrib) <= {_LANG}:
        return _text(stem[0])
    if not stem and prompt is not None and not body.text:
        return _text(prompt)
    parts = [_html(node) for node in stem]
    if prompt is not None:
        parts.append(f"<div>{_inner_html(prompt)}</div>")
    return Text(unicodedata.normalize("NFC", "".join(parts)), "html" if parts else "plain")


def _remove(node) -> None:
    """Take `node` out of its parent, keeping the text that followed it."""
    parent, previous = node.getparent(), node.getprevious()
    if node.tail and node.tail.strip():
        if previous is not None:
            previous.tail = (previous.tail or "") + node.tail
        else:
            parent.text = (parent.text or "") + node.tail
    parent.remove(node)


def _text(container) -> Text:
    """The content of `container`: plain text when it is only text and <br/>, else HTML."""
    unindent(container)
    lang = container.get(_LANG)
    if all(child.tag == f"{_Q}br" and not child.attrib for child in container):
        value = (container.text or "") + "".join("\n" + (child.tail or "") for child in container)
        return Text(unicodedata.normalize("NFC", value), "plain", lang)
    return Text(unicodedata.normalize("NFC", _inner_html(container)), "html", lang)


def _inner_html(node) -> str:
    return escape(node.text or "", quote=False) + "".join(_html(child) for child in node)


def _html(node) -> str:
    """An XHTML element of QTI as HTML: no namespace, `lang` for `xml:lang`, its tail included."""
    from lxml import etree

    node = copy.deepcopy(node)
    for element in node.iter():
        if isinstance(element.tag, str) and element.tag.startswith(_Q):
            element.tag = element.tag[len(_Q):]
        if isinstance(element.tag, str) and _LANG in element.attrib:
            element.set("lang", element.attrib.pop(_LANG))
    etree.cleanup_namespaces(node)
    return etree.tostring(node, method="html", encoding="unicode", with_tail=True)


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


def _description(test, general, lang: str | None) -> Text | None:
    """The candidate rubric of the test's section (lmsexport), else the LOM description."""
    for rubric in [] if test is None else test.iter(f"{_Q}rubricBlock"):
        if "candidate" in rubric.get("view", "").split():
            return _block_text(rubric)
    langstring = _langstring(general, "description")
    if langstring is None or not langstring.text:
        return None
    text_lang = langstring.get(_LANG)
    return Text(unicodedata.normalize("NFC", langstring.text), "plain", text_lang if text_lang != lang else None)


def _settings(test, items: list, total: float) -> Settings:
    interactions = [_interaction(root) for root in items]
    part = test.find(f"{_Q}testPart") if test is not None else None
    return Settings(
        shuffle=bool(interactions) and all(node.get("shuffle") == "true" for node in interactions),
        pass_mark=_pass_mark(test, total),
        feedback="end" if part is not None and part.get("submissionMode") == "simultaneous" else "immediate",
    )


def _pass_mark(test, total: float) -> float | None:
    """From PASS = gte(SCORE / MAXSCORE * 100, mark) (lmsexport), gte(SCORE / MAXSCORE, fraction)
    or gte(SCORE, points)."""
    path = f"{_Q}outcomeProcessing/{_Q}setOutcomeValue[@identifier='{names.PASS}']/{_Q}gte"
    comparison = None if test is None else test.find(path)
    if comparison is None or len(comparison) != 2 or comparison[1].tag != f"{_Q}baseValue":
        return None
    scale = {f"{_Q}product": 1.0, f"{_Q}divide": 100.0, f"{_Q}variable": 100.0 / total if total else None}
    factor = scale.get(comparison[0].tag)
    return None if factor is None else float(comparison[1].text) * factor
