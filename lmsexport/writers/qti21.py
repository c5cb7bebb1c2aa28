"""IMS QTI 2.1 content package (`.qti.zip`): one assessmentItem per question, one assessmentTest.

QTI 2.1 final: https://www.imsglobal.org/question/qtiv2p1/imsqti_infov2p1.html
Package layout, identifiers, scoring and where each model field goes: docs/formats/qti21.md.

    imsmanifest.xml     IMS CP 1.1.4 + IMS MD 1.2 metadata: "QTIv2.1 Package", title, language
    test.xml            assessmentTest: one testPart, one section, items in source order
    items/<id>.xml      assessmentItem: choiceInteraction, correctResponse, SCORE/MAXSCORE

Items score raw points through the standard templates (`match_correct` for one-point
single choice, `map_response` otherwise); an item with feedback carries the template's
rules inline plus the rules that show its modalFeedback. The shape follows what
Canvas's importer needs (canvas-lms `gems/plugins/qti_exporter`), see qti21.py.
"""

from __future__ import annotations

import re
from decimal import ROUND_CEILING, Decimal

from .. import qti21 as names
from ..diagnostics import Diagnostic, Severity, SourceSpan
from ..model import Choice, MultipleChoice, Question, Quiz, Text, is_language_tag
from ..package import MANIFEST, Package, WriteOptions
from ..xml import NS, element, number, serialize, sub

NAME = "qti"
EXTENSION = ".qti.zip"

_ITEM_SCHEMA = f"{NS['qti']} http://www.imsglobal.org/xsd/qti/qtiv2p1/imsqti_v2p1.xsd"
_MANIFEST_SCHEMA = " ".join([
    f"{NS['imscp']} http://www.imsglobal.org/xsd/imscp_v1p1.xsd",
    f"{NS['imsmd']} http://www.imsglobal.org/xsd/imsmd_v1p2p2.xsd",
    f"{NS['imsqti']} http://www.imsglobal.org/xsd/qti/qtiv2p1/imsqti_metadata_v2p1.xsd",
])
_LENGTH = re.compile(r"[0-9]+%?\Z")
"""QTI 2.1 `Length.Type` (img width and height): pixels or a percentage."""
_STEP = Decimal("0.0000001")
"""`xml.number()` keeps 7 decimals: partial-credit values are rounded up to this step."""


class _Log:
    """Collects what QTI cannot say, as warnings located at the question's source."""

    def __init__(self, quiz: Quiz):
        # Quiz-level warnings point at the source file the questions came from.
        self.where = next((q.source.source for q in quiz.questions if q.source), quiz.id)
        self.warnings: list[Diagnostic] = []

    def warn(self, question: Question | None, code: str, message: str, hint: str = "") -> None:
        span = (question.source if question else None) or SourceSpan(self.where)
        self.warnings.append(Diagnostic(code, message, span, hint, Severity.WARNING))

    def number(self, value: float, what: str, question: Question | None = None) -> str:
        text = number(value)
        if float(text) != value:
            self.warn(question, "W802", f"{what} {value!r} is written rounded to {text}",
                      "QTI files written by lmsexport carry 7 decimals")
        return text


def write(quiz: Quiz, options: WriteOptions | None = None) -> Package:
    log = _Log(quiz)
    files = {names.item_path(q.id): serialize(_item(quiz, q, log)) for q in quiz.questions}
    files[names.TEST_PATH] = serialize(_test(quiz, log))
    files[MANIFEST] = serialize(_manifest(quiz))
    return Package(files, zipped=True, extension=EXTENSION, warnings=log.warnings)


def _x(name: str, attrib: dict | None = None, *children, text: str | None = None):
    """A QTI element with children: expressions read as nested calls."""
    node = element(f"qti:{name}", attrib, text)
    node.extend(children)
    return node


def _value(base_type: str, value: str):
    return _x("baseValue", {"baseType": base_type}, text=value)


def _variable(identifier: str):
    return _x("variable", {"identifier": identifier})


def _set(identifier: str, expression):
    return _x("setOutcomeValue", {"identifier": identifier}, expression)


def _float_outcome(identifier: str, default: str | None = None, normal_maximum: str | None = None):
    declaration = _x("outcomeDeclaration", {
        "identifier": identifier, "cardinality": "single", "baseType": "float", "normalMaximum": normal_maximum,
    })
    if default is not None:
        declaration.append(_x("defaultValue", None, _x("value", text=default)))
    return declaration


def _put_text(parent, text: Text, log: _Log, question: Question | None) -> None:
    """Write `text` as the content of `parent`: plain lines joined by <br/>, or converted HTML."""
    if text.lang:
        parent.set(f"{{{NS['xml']}}}lang", text.lang)
    if text.format == "html":
        _Html(log, question).convert(parent, text.value)
        return
    first, *rest = text.value.split("\n")
    parent.text = first or None
    for line in rest:
        sub(parent, "qti:br").tail = line or None


class _Html:
    """An HTML fragment as QTI's XHTML subset: the elements and attributes QTI 2.1 allows
    where they are allowed (inline content in p, h1-h6, pre and inline elements; options
    only in lists). Anything else is unwrapped, its text kept, with a warning."""

    _INLINE = frozenset("a abbr acronym b big br cite code dfn em i img kbd q samp small span strong sub sup tt var"
                        .split())
    _INLINE_HOLDERS = frozenset("p h1 h2 h3 h4 h5 h6 pre address".split())
    _ATTRIBUTES = {"a": ("href", "type"), "img": ("src", "alt", "longdesc", "height", "width"), "q": ("cite",)}
    _VALUES = {"lang": is_language_tag, "width": _LENGTH.match, "height": _LENGTH.match}
    _CODE = frozenset({"script", "style"})

    def __init__(self, log: _Log, question: Question | None):
        self.log, self.question = log, question

    def convert(self, parent, value: str) -> None:
        from lxml import html

        if value.strip():
            self._content(parent, html.fragment_fromstring(value, create_parent="div"), "flow")

    def _content(self, target, source, context: str) -> None:
        _append_text(target, source.text, context)
        for node in source:
            if isinstance(node.tag, str):
                self._element(target, node, context)
            else:
                self.log.warn(self.question, "W801", "an HTML comment or processing instruction is left out")
            _append_text(target, node.tail, context)

    def _element(self, target, node, context: str) -> None:
        tag = node.tag.lower()
        if tag in self._CODE or (tag == "img" and not node.get("src")):
            what = "<img> without src is left out" if tag == "img" else f"<{tag}> is left out with its content"
            self.log.warn(self.question, "W801", f"HTML {what}: QTI 2.1 cannot show it")
            return
        if context == "list" and tag != "li":
            target = sub(target, "qti:li")
            context = "flow"
        allowed = tag in self._INLINE or (context == "flow" and tag in self._INLINE_HOLDERS | {"div", "ul", "ol", "hr"})
        if not (allowed or (tag == "li" and context == "list")):
            where = "here" if tag in self._INLINE_HOLDERS | {"div", "ul", "ol", "li", "hr"} else "in QTI 2.1"
            self.log.warn(self.question, "W801", f"HTML <{tag}> is not allowed {where}; its content is kept without it")
            self._content(target, node, context)
            return
        out = sub(target, f"qti:{tag}", self._attributes(tag, node))
        if tag == "img" and out.get("alt") is None:
            out.set("alt", "")  # required by QTI; an empty alt marks a decorative image
        if tag in ("ul", "ol"):
            self._content(out, node, "list")
        else:
            self._content(out, node, "inline" if tag in self._INLINE | self._INLINE_HOLDERS else "flow")

    def _attributes(self, tag: str, node) -> dict:
        allowed = ("class", "lang", *self._ATTRIBUTES.get(tag, ()))
        kept, dropped = {}, []
        for name, value in node.attrib.items():
            if name in allowed and self._VALUES.get(name, bool)(value):
                kept["xml:lang" if name == "lang" else name] = value
            else:
                dropped.append(f"{name}={value!r}")
        if dropped:
            self.log.warn(self.question, "W801", f"HTML <{tag}> {', '.join(dropped)} left out: "
                          "QTI 2.1 allows no such attribute or value")
        return kept


def _append_text(target, text: str | None, context: str) -> None:
    """Add text after the last child of `target` (lists hold no text: theirs is whitespace)."""
    if not text or (context == "list" and not text.strip()):
        return
    if context == "list":
        target = sub(target, "qti:li")
    if len(target):
        target[-1].tail = (target[-1].tail or "") + text
    else:
        target.text = (target.text or "") + text


def _item(quiz: Quiz, question: MultipleChoice, log: _Log):
    points = log.number(question.points, "points", question)
    if question.multiple_response and len(question.correct_choices) == 1:
        # Canvas picks the type from the number of correct options (choice_interaction.rb set_question_type).
        log.warn(question, "W803", f"question {question.id} has checkboxes but one correct option: Canvas imports "
                 "it as a multiple-choice (radio button) question", "mark a second option correct, or change its "
                 "type in Canvas after the import; QTI engines keep the checkboxes")
    root = element("qti:assessmentItem", {
        "xsi:schemaLocation": _ITEM_SCHEMA,
        "identifier": names.item_identifier(quiz.id, question.id),
        "title": question.title or names.default_title(question),
        "adaptive": "false",
        "timeDependent": "false",
        "xml:lang": question.lang or quiz.lang,
    }, nsmap={None: NS["qti"], "xsi": NS["xsi"]})
    template = "match_correct" if not question.multiple_response and points == "1" else "map_response"
    root.append(_response_declaration(question, template, points))
    root.append(_float_outcome(names.SCORE, "0", points if question.points > 0 else None))
    root.append(_float_outcome(names.MAXSCORE, points))
    feedback = _feedback(question)
    if feedback:
        root.append(_x("outcomeDeclaration", {
            "identifier": names.FEEDBACK, "cardinality": "multiple", "baseType": "identifier"}))
    root.append(_item_body(quiz, question, log))
    root.append(_response_processing(question, template, feedback))
    for identifier, text in feedback:
        modal = _x("modalFeedback", {
            "outcomeIdentifier": names.FEEDBACK, "identifier": identifier, "showHide": "show"})
        _put_text(sub(modal, "qti:div"), text, log, question)  # Canvas reads its first p or div
        root.append(modal)
    return root


def _response_declaration(question: MultipleChoice, template: str, points: str):
    cardinality = "multiple" if question.multiple_response else "single"
    declaration = _x("responseDeclaration", {
        "identifier": names.RESPONSE, "cardinality": cardinality, "baseType": "identifier"})
    correct = sub(declaration, "qti:correctResponse")
    for choice in question.correct_choices:
        sub(correct, "qti:value", text=choice.id)
    if template == "map_response":
        declaration.append(_mapping(question, points))
    return declaration


def _mapping(question: MultipleChoice, points: str):
    """Single choice: the correct option maps to the points. Multiple response: partial
    credit, +points/n for each correct option ticked and -points/n for each wrong one
    (n = number of correct options, Canvas's own multiple-answers rule), clamped to
    0..points; values are rounded up so the full answer always reaches exactly `points`."""
    if not question.multiple_response:
        mapping = _x("mapping", {"defaultValue": "0"})
        sub(mapping, "qti:mapEntry", {"mapKey": question.correct_choices[0].id, "mappedValue": points})
        return mapping
    share = (Decimal(points) / len(question.correct_choices)).quantize(_STEP, ROUND_CEILING)
    mapping = _x("mapping", {"lowerBound": "0", "upperBound": points, "defaultValue": "0"})
    for choice in question.choices:
        value = number(float(share if choice.correct else -share))
        sub(mapping, "qti:mapEntry", {"mapKey": choice.id, "mappedValue": value})
    return mapping


def _feedback(question: MultipleChoice) -> list[tuple[str, Text]]:
    """modalFeedback identifiers and texts: per option (`FB<n>`), then the explanation."""
    shown = [(names.choice_feedback_identifier(i), c.feedback) for i, c in enumerate(question.choices) if c.feedback]
    if question.explanation:
        shown.append((names.GENERAL_FEEDBACK, question.explanation))
    return shown


def _item_body(quiz: Quiz, question: MultipleChoice, log: _Log):
    body = _x("itemBody")
    # The stem is one div directly under itemBody, the interaction its sibling: Canvas takes
    # `itemBody > div` as the question text and drops a div that holds the interaction.
    _put_text(sub(body, "qti:div"), question.prompt, log, question)
    interaction = sub(body, "qti:choiceInteraction", {
        "responseIdentifier": names.RESPONSE,
        "shuffle": "true" if quiz.settings.shuffle else "false",
        "maxChoices": "0" if question.multiple_response else "1",
    })
    for choice in question.choices:
        _put_text(sub(interaction, "qti:simpleChoice", {"identifier": choice.id}), choice.text, log, question)
    return body


def _response_processing(question: MultipleChoice, template: str, feedback: list):
    """The template by reference when no feedback is to be shown; else its rules written out
    (QTI 2.1 info model 5.2: match_correct.xml, map_response.xml) followed by the feedback rules."""
    if not feedback:
        return _x("responseProcessing", {"template": names.TEMPLATES[template]})
    processing = _x("responseProcessing", None, _template_rules(template))
    for position, choice in enumerate(question.choices):
        if choice.feedback:
            processing.append(_choice_feedback_rule(question, choice, position))
    if question.explanation:
        processing.append(_show(names.GENERAL_FEEDBACK))
    return processing


def _template_rules(template: str):
    response = _variable(names.RESPONSE)
    if template == "match_correct":
        test = _x("match", None, response, _x("correct", {"identifier": names.RESPONSE}))
        right, wrong = _set(names.SCORE, _value("float", "1")), _set(names.SCORE, _value("float", "0"))
    else:
        test = _x("isNull", None, response)
        right, wrong = _set(names.SCORE, _value("float", "0")), _set(
            names.SCORE, _x("mapResponse", {"identifier": names.RESPONSE}))
    return _x("responseCondition", None, _x("responseIf", None, test, right), _x("responseElse", None, wrong))


def _show(identifier: str):
    """FEEDBACK gains `identifier`: the `multiple(variable, baseValue)` form Canvas reads."""
    return _set(names.FEEDBACK, _x("multiple", None, _variable(names.FEEDBACK), _value("identifier", identifier)))


def _choice_feedback_rule(question: MultipleChoice, choice: Choice, position: int):
    picked = _value("identifier", choice.id)
    if question.multiple_response:
        test = _x("member", None, picked, _variable(names.RESPONSE))
    else:
        test = _x("match", None, _variable(names.RESPONSE), picked)
    rule = _x("responseIf", None, test, _show(names.choice_feedback_identifier(position)))
    return _x("responseCondition", None, rule)


def _test(quiz: Quiz, log: _Log):
    root = element("qti:assessmentTest", {
        "xsi:schemaLocation": _ITEM_SCHEMA, "identifier": quiz.id, "title": quiz.title,
    }, nsmap={None: NS["qti"], "xsi": NS["xsi"]})
    total = log.number(quiz.total_points, "the total points")
    root.append(_float_outcome(names.SCORE, normal_maximum=total if quiz.total_points > 0 else None))
    root.append(_float_outcome(names.MAXSCORE, total))
    if quiz.settings.pass_mark is not None:
        root.append(_x("outcomeDeclaration", {
            "identifier": names.PASS, "cardinality": "single", "baseType": "boolean"}))
    # individual: each item is submitted (and its feedback shown) as it is answered;
    # simultaneous: all at the end of the part (QTI 2.1 info model, testPart.submissionMode).
    mode = "individual" if quiz.settings.feedback == "immediate" else "simultaneous"
    part = sub(root, "qti:testPart", {
        "identifier": names.TEST_PART, "navigationMode": "nonlinear", "submissionMode": mode})
    sub(part, "qti:itemSessionControl", {"showFeedback": "true"})
    # Invisible: Canvas turns a visible, titled section into an extra text-only question.
    section = sub(part, "qti:assessmentSection", {
        "identifier": names.SECTION, "title": quiz.title, "visible": "false"})
    if quiz.description:
        _put_text(sub(sub(section, "qti:rubricBlock", {"view": "candidate"}), "qti:div"), quiz.description, log, None)
    for question in quiz.questions:
        ref = sub(section, "qti:assessmentItemRef", {
            "identifier": names.item_identifier(quiz.id, question.id), "href": names.item_path(question.id)})
        # Canvas classic quizzes take a question's points from here (assessment_test_converter.rb).
        sub(ref, "qti:weight", {"identifier": names.WEIGHT, "value": number(question.points)})
    root.append(_outcome_processing(quiz, log))
    return root


def _outcome_processing(quiz: Quiz, log: _Log):
    """SCORE = the sum of the item scores (raw points, so no weightIdentifier: the weights
    would count the points twice); PASS = SCORE / MAXSCORE * 100 >= the pass mark."""
    total = _x("sum", None, _x("testVariables", {"variableIdentifier": names.SCORE}))
    processing = _x("outcomeProcessing", None, _set(names.SCORE, total))
    if quiz.settings.pass_mark is not None:
        ratio = _x("divide", None, _variable(names.SCORE), _variable(names.MAXSCORE))
        percent = _x("product", None, ratio, _value("float", "100"))
        mark = _value("float", log.number(quiz.settings.pass_mark, "the pass mark"))
        processing.append(_set(names.PASS, _x("gte", None, percent, mark)))
    return processing


def _manifest(quiz: Quiz):
    root = element("imscp:manifest", {
        "identifier": f"MANIFEST-{quiz.id}", "xsi:schemaLocation": _MANIFEST_SCHEMA,
    }, nsmap={None: NS["imscp"], "imsmd": NS["imsmd"], "imsqti": NS["imsqti"], "xsi": NS["xsi"]})
    metadata = sub(root, "imscp:metadata")
    sub(metadata, "imscp:schema", text=names.PACKAGE_SCHEMA)
    sub(metadata, "imscp:schemaversion", text="1.0.0")
    general = sub(sub(metadata, "imsmd:lom"), "imsmd:general")
    _langstring(sub(general, "imsmd:title"), quiz.title, quiz.lang)
    if quiz.lang:
        sub(general, "imsmd:language", text=quiz.lang)
    if quiz.description:
        text = quiz.description
        _langstring(sub(general, "imsmd:description"), names.plain_text(text), text.lang or quiz.lang)
    _keywords(general, quiz.tags, quiz.lang)
    sub(root, "imscp:organizations")
    resources = sub(root, "imscp:resources")
    test = sub(resources, "imscp:resource", {
        "identifier": f"RES-{quiz.id}", "type": names.TEST_RESOURCE, "href": names.TEST_PATH})
    sub(test, "imscp:file", {"href": names.TEST_PATH})
    for question in quiz.questions:
        identifier = f"RES-{names.item_identifier(quiz.id, question.id)}"
        sub(test, "imscp:dependency", {"identifierref": identifier})
        resources.append(_item_resource(quiz, question, identifier))
    return root


def _item_resource(quiz: Quiz, question: Question, identifier: str):
    path = names.item_path(question.id)
    resource = element("imscp:resource", {"identifier": identifier, "type": names.ITEM_RESOURCE, "href": path})
    metadata = sub(resource, "imscp:metadata")
    lang = question.lang or quiz.lang
    general = sub(sub(metadata, "imsmd:lom"), "imsmd:general")
    # Canvas names the question from this langstring (assessment_item_converter.rb); same as the item title.
    _langstring(sub(general, "imsmd:title"), question.title or names.default_title(question), lang)
    _keywords(general, question.tags, lang)
    qti = sub(metadata, "imsqti:qtiMetadata")
    sub(qti, "imsqti:timeDependent", text="false")
    sub(qti, "imsqti:interactionType", text="choiceInteraction")
    has_feedback = bool(question.explanation) or any(c.feedback for c in question.choices)
    sub(qti, "imsqti:feedbackType", text="nonadaptive" if has_feedback else "none")
    sub(qti, "imsqti:solutionAvailable", text="true")
    sub(resource, "imscp:file", {"href": path})
    return resource


def _langstring(parent, text: str, lang: str | None) -> None:
    sub(parent, "imsmd:langstring", {"xml:lang": lang}, text)


def _keywords(general, tags: tuple[str, ...], lang: str | None) -> None:
    for tag in tags:
        _langstring(sub(general, "imsmd:keyword"), tag, lang)
