"""QTI 1.2 in Canvas's flavour: the rules no XSD states, for `build` and `lmsexport validate`.

The assessment is checked against the IMS QTI ASI 1.2 XSD (lmsexport/validation.py), then against
what Canvas's importer relies on (canvas-lms `gems/plugins/qti_exporter`, after QTIMigrationTool):
every `varequal` names a response and one of its labels, every feedback shown exists, every choice
question has a right answer, identifiers are unique, every blank is in the text, every item or
section referred to exists, the metadata is Canvas's. `assessment_meta.xml` has no XSD lmsexport ships (Canvas's own `cccv1p0.xsd` is not in
the schema collection), so its fields are checked here. The package rules tie the manifest, the
assessment, its settings and its images together. Codes V501-V524: docs/formats/canvas.md.
"""

from __future__ import annotations

import posixpath
import re

from . import names
from ...diagnostics import Diagnostic
from ...package import MANIFEST
from ...schemas import finding, load_schema, schema_findings
from ...xml import local_name

_Q = f"{{{names.QTI}}}"
_C = f"{{{names.CANVAS}}}"
_CP = "{http://www.imsglobal.org/xsd/imscp_v1p1}manifest"
CC_MANIFEST = "http://www.imsglobal.org/xsd/imsccv1p1/imscp_v1p1"
"""The IMS CP namespace of Common Cartridge 1.1, which Canvas's and text2qti's manifests use (no XSD shipped)."""
KNOWN_TYPES = (*names.QUESTION_TYPES, "calculated_question", "file_upload_question")
_BOOLEANS = ("shuffle_answers", "show_correct_answers", "one_question_at_a_time", "cant_go_back", "available",
             "anonymous_submissions", "could_be_locked", "require_lockdown_browser", "one_time_results",
             "require_lockdown_browser_for_results", "require_lockdown_browser_monitor",
             "show_correct_answers_last_attempt", "only_visible_to_overrides", "disable_timer_autosubmission")
_CHOICES = {"scoring_policy": names.SCORING_POLICIES, "quiz_type": names.QUIZ_TYPES, "hide_results": names.HIDE_RESULTS}
_WHOLE = re.compile(r"-?[0-9]+")
"""A whole number as int() reads it: str.isdigit() also takes ² and ①, which int() refuses."""


def owns(root) -> bool:
    """An assessment, Canvas's settings, a CC-profile manifest, or an IMS CP manifest of QTI 1.2 resources."""
    if root.tag in (f"{_Q}questestinterop", f"{_C}quiz", f"{{{CC_MANIFEST}}}manifest"):
        return True
    return root.tag == _CP and any(node.get("type", "").startswith("imsqti_xmlv1p")
                                   for node in root.iter("{*}resource"))


def check(root, content: bytes, *, source: str) -> list[Diagnostic]:
    """Every problem of one document (`owns(root)`): schema and Canvas's rules."""
    if root.tag == f"{_C}quiz":
        return check_settings(root, source)
    if root.tag == _CP:
        return schema_findings(load_schema("qti21_manifest"), root, source)  # the IMS CP 1.1 + MD schema set
    if root.tag != f"{_Q}questestinterop":
        return []  # a CC 1.1 profile manifest: no XSD shipped; the package rules check it
    return schema_findings(load_schema("qti12"), root, source) + _document_rules(root, source)


def _document_rules(root, source: str, items: bool = True) -> list[Diagnostic]:
    """Canvas's rules over an assessment document (and over each of its items, unless `items`
    is False: those of a document checked as it is read were checked as each item ended)."""
    findings = []
    holders = root.findall(f"{_Q}assessment") + root.findall(f"{_Q}objectbank")
    if not holders:
        findings.append(finding("V501", source, "the questestinterop holds no assessment or objectbank: Canvas "
                                 "imports nothing from it", root.sourceline,
                                hint="put the questions inside an <assessment> (a quiz) or an <objectbank> (a bank)"))
    if "!" not in source:  # a document on its own; in a package, package_rules looks across its documents
        findings += _reference_findings(root, _idents([root]), source)
    seen: dict[str, int] = {}
    for item in root.iter(f"{_Q}item"):
        ident = item.get("ident", "")
        if ident in seen:
            findings.append(finding("V502", source, f"item ident {ident!r} is also on line {seen[ident]}", item.sourceline, hint="Canvas keys questions on it and keeps one of them"))
        seen.setdefault(ident, item.sourceline)
        if items:
            findings += _item_rules(item, source)
    return findings


def streaming(root):
    """For a large assessment (`root` as it starts: validation.py): the schema it is read with,
    and the elements `streamed()` is told of as they end."""
    return ("qti12", (f"{_Q}item",)) if root.tag == f"{_Q}questestinterop" else None


def streamed(node, source: str) -> bool:
    """Whether an item of an assessment being read keeps Canvas's rules, then all of it but
    what the package rules read (its ident, the mattext that shows an image) dropped."""
    if _item_rules(node, source):
        return False
    kept = [mattext for mattext in node.iter(f"{_Q}mattext") if _shows_image(mattext)]
    del node[:]
    node.text = None
    node.extend(kept)
    return True


def streamed_document(head, source: str) -> bool:
    """Whether the assessment read (`thin.Thin`: its items reduced by `streamed()`) keeps the
    rules over the whole document."""
    return not _document_rules(head, source, items=False)


def _item_rules(item, source: str) -> list[Diagnostic]:
    where = f"item {item.get('ident')!r}"
    metadata = _metadata(item)
    findings = _metadata_rules(item, metadata, where, source)
    responses = {}
    for response in item.iter(f"{_Q}response_lid", f"{_Q}response_str", f"{_Q}response_num"):
        findings += _unique(response.get("ident"), responses, response, where, "response", source)
        labels: dict = {}
        for label in response.iter(f"{_Q}response_label"):
            findings += _unique(label.get("ident"), labels, label, where, "response_label", source)
        responses[response.get("ident")] = (response, labels)
    feedback: dict = {}
    for node in item.iter(f"{_Q}itemfeedback"):
        findings += _unique(node.get("ident"), feedback, node, where, "itemfeedback", source)
    findings += _reference_rules(item, responses, feedback, where, source)
    kind = metadata.get(names.QUESTION_TYPE)
    if kind in names.CHOICE_TYPES or kind in names.GAP_TYPES or kind in (names.SHORT_ANSWER, names.NUMERICAL):
        findings += _key_rules(item, kind, responses, where, source)
    if kind in (names.FILL_IN_BLANKS, names.DROPDOWNS):
        findings += _blank_rules(item, responses, where, source)
    return findings


def _metadata(item) -> dict[str, str]:
    fields = {}
    for field in item.iter(f"{_Q}qtimetadatafield"):
        fields[field.findtext(f"{_Q}fieldlabel", "").strip()] = field.findtext(f"{_Q}fieldentry", "").strip()
    return fields


def _metadata_rules(item, metadata: dict, where: str, source: str) -> list[Diagnostic]:
    findings = []
    kind = metadata.get(names.QUESTION_TYPE)
    if kind is not None and kind not in KNOWN_TYPES:
        findings.append(finding("V503", source, f"{where}: question_type {kind!r} is not a Canvas question type", item.sourceline, hint=f"use one of {', '.join(KNOWN_TYPES)}"))
    points = metadata.get(names.POINTS)
    if points is not None and not _number(points, 0):
        findings.append(finding("V503", source, f"{where}: points_possible {points!r} is not a number of 0 or more", item.sourceline, hint="Canvas would give the question 1 point"))
    return findings


def _unique(ident, seen: dict, node, where: str, what: str, source: str) -> list[Diagnostic]:
    if ident in seen:
        return [finding("V502", source, f"{where}: {what} ident {ident!r} is used twice", node.sourceline,
                        hint=f"give each {what} an ident of its own")]
    seen[ident] = node
    return []


def _reference_rules(item, responses: dict, feedback: dict, where: str, source: str) -> list[Diagnostic]:
    """Every test names a response of the item (and a label of a response_lid); every feedback shown exists."""
    findings = []
    for test in item.iter(f"{_Q}varequal", f"{_Q}vargte", f"{_Q}varlte", f"{_Q}vargt", f"{_Q}varlt"):
        respident = test.get("respident")
        if respident not in responses:
            findings.append(finding("V504", source, f"{where}: <{local_name(test)}> tests {respident!r}, which is no "
                                     "response of the item", test.sourceline,
                                    hint="make respident name the ident of a response_lid or response_str of the item"))
            continue
        response, labels = responses[respident]
        value = (test.text or "").strip()
        if response.tag == f"{_Q}response_lid" and value not in labels:
            findings.append(finding("V504", source, f"{where}: <varequal> names {value!r}, which is no response_label "
                                     f"of {respident!r}", test.sourceline, hint="Canvas would find no right answer there"))
    for shown in item.iter(f"{_Q}displayfeedback"):
        if shown.get("linkrefid") not in feedback:
            findings.append(finding("V505", source, f"{where}: displayfeedback shows {shown.get('linkrefid')!r}, "
                                     "which is no itemfeedback of the item", shown.sourceline,
                                    hint="make linkrefid name the ident of one of the item's itemfeedback elements"))
    return findings


def _key_rules(item, kind: str, responses: dict, where: str, source: str) -> list[Diagnostic]:
    """The right answers Canvas's importer looks for: a Set condition (single answer kinds) naming
    the right label, or an Add condition for each blank or left item."""
    scoring = [condition for condition in item.iter(f"{_Q}respcondition")
               if any(local_name(s) == "setvar" and _number(s.text or "", 0, strict=True) for s in condition)]
    if kind in names.GAP_TYPES:
        named = {test.get("respident") for condition in scoring if _adds(condition)
                 for test in condition.iter(f"{_Q}varequal")}
        missing = sorted((ident for ident, (response, _) in responses.items()
                          if response.tag == f"{_Q}response_lid" and ident not in named), key=str)  # None: no ident
        return [finding("V506", source, f"{where}: {ident!r} has no right answer (no condition adding to SCORE "
                         "names one of its labels)", item.sourceline,
                         hint="add a respcondition that tests a right label and adds to SCORE") for ident in missing]
    rights = [test for condition in scoring if not _adds(condition)
              for test in condition.iter(f"{_Q}varequal", f"{_Q}vargte") if local_name(test.getparent()) != "not"]
    if not rights:
        return [finding("V506", source, f"{where}: a {kind} has no right answer (no condition setting SCORE above "
                         "0 names one)", item.sourceline, hint="Canvas imports it with \"no correct answer\"")]
    return []


def _adds(condition) -> bool:
    return any(local_name(s) == "setvar" and s.get("action") == "Add" for s in condition)


def _blank_rules(item, responses: dict, where: str, source: str) -> list[Diagnostic]:
    """Every blank's `[id]` is in the question text, where Canvas puts its box or list."""
    material = item.find(f"{_Q}presentation/{_Q}material")
    text = "".join(material.itertext()) if material is not None else ""
    findings = []
    for ident in responses:
        blank = ident[len("response_"):] if ident and ident.startswith("response_") else None
        if blank is None or f"[{blank}]" not in text:
            findings.append(finding("V507", source, f"{where}: the blank {ident!r} has no [{blank}] in the question "
                                     "text", item.sourceline, hint="Canvas shows a blank where its [id] stands"))
    return findings


def check_settings(root, source: str) -> list[Diagnostic]:
    """assessment_meta.xml: an identifier, a title, and each field Canvas reads of its type and range."""
    findings = []
    if not root.get("identifier"):
        findings.append(finding("V511", source, "the quiz settings have no identifier", root.sourceline,
                                hint="give the quiz element the identifier of its assessment"))
    if not (root.findtext(f"{_C}title") or "").strip():
        findings.append(finding("V511", source, "the quiz settings have no title", root.sourceline,
                                hint="give the quiz settings a <title> (Canvas shows it as the quiz's name)"))
    for node in root:
        name, value = local_name(node), (node.text or "").strip()
        problem = _setting_problem(name, value)
        if problem:
            findings.append(finding("V512", source, f"<{name}> is {value!r}: {problem}", node.sourceline,
                                    hint=f"write a value Canvas takes in <{name}>, or leave it out"))
    return findings


def _setting_problem(name: str, value: str) -> str | None:
    if name in _BOOLEANS and value not in ("true", "false"):
        return "Canvas reads true or false"
    if name in _CHOICES and value not in _CHOICES[name]:
        return f"Canvas knows {', '.join(repr(v) for v in _CHOICES[name])}"
    if name == "allowed_attempts" and not (_WHOLE.fullmatch(value) and (value == "-1" or int(value) >= 1)):
        return "a number of attempts of 1 or more, or -1 for no limit"
    if name == "time_limit" and not (_WHOLE.fullmatch(value) and int(value) >= 1):
        return "minutes, 1 or more"
    if name == "points_possible" and not _number(value, 0):
        return "a number of 0 or more"
    return None


def _idents(roots) -> set[str]:
    return {node.get("ident", "") for root in roots for node in root.iter(f"{_Q}item", f"{_Q}section")}


def _reference_findings(root, known: set[str], source: str) -> list[Diagnostic]:
    """Every `itemref` and `sectionref` names an item or section the importer can find."""
    return [finding("V508", source, f"the {local_name(ref)} names {ref.get('linkrefid')!r}, which is no "
                    f"{local_name(ref)[:-3]} of the {'package' if '!' in source else 'document'}", ref.sourceline,
                    hint="Canvas imports the quiz without it: export the quiz with the questions it refers to")
            for ref in root.iter(f"{_Q}itemref", f"{_Q}sectionref") if ref.get("linkrefid") not in known]


def package_rules(files: dict[str, bytes], source: str, documents: dict) -> list[Diagnostic]:
    """The manifest's QTI 1.2 assessments, their settings and their images, and the references
    between the package's QTI 1.2 documents; [] for other packages."""
    manifest = documents.get(MANIFEST)
    if manifest is None:
        return []
    qti = {path: root for path, root in documents.items() if root is not None and root.tag == f"{_Q}questestinterop"}
    known = _idents(qti.values())
    findings = [found for path, root in sorted(qti.items()) for found in _reference_findings(root, known,
                                                                                             f"{source}!{path}")]
    resources = [r for r in manifest.iter("{*}resource") if r.get("type") == names.ASSESSMENT_RESOURCE]
    for resource in resources:
        for file in resource.iter("{*}file"):
            path = posixpath.normpath(file.get("href", ""))
            root = documents.get(path)
            if root is not None and root.tag != f"{_Q}questestinterop":
                findings.append(finding("V521", f"{source}!{MANIFEST}", f"the {names.ASSESSMENT_RESOURCE} resource "
                                         f"{path!r} is not a QTI 1.2 questestinterop", resource.sourceline,
                                        hint="point the resource at the assessment's QTI 1.2 file"))
            elif root is not None:
                findings += _settings_rules(root, manifest, documents, source)
                findings += _image_rules(root, files, f"{source}!{path}")
    return findings


def _settings_rules(root, manifest, documents: dict, source: str) -> list[Diagnostic]:
    """Canvas applies `<ident>/assessment_meta.xml` to the assessment `ident` only (quiz_metadata_converter.rb)."""
    findings = []
    metas = {posixpath.normpath(f.get("href", "")) for r in manifest.iter("{*}resource")
             if r.get("type") == names.META_RESOURCE for f in r.iter("{*}file")
             if f.get("href", "").endswith(names.META_FILE)}
    for assessment in root.iter(f"{_Q}assessment"):
        ident = assessment.get("ident", "")
        expected = names.meta_path(ident)
        settings = documents.get(expected)
        if metas and expected not in metas:
            findings.append(finding("V522", f"{source}!{MANIFEST}", f"the quiz settings {sorted(metas)[0]!r} are not "
                                     f"at {expected!r}, so Canvas does not apply them to the assessment {ident!r}",
                                    hint=f"put the settings at {expected!r}, where Canvas looks for them"))
        elif settings is not None and settings.get("identifier") != ident:
            findings.append(finding("V523", f"{source}!{expected}", f"the quiz settings are for "
                                     f"{settings.get('identifier')!r}, the assessment is {ident!r}",
                                     settings.sourceline, hint="give the quiz settings the identifier of their assessment"))
    return findings


def _image_rules(root, files: dict[str, bytes], source: str) -> list[Diagnostic]:
    """Every `$IMS-CC-FILEBASE$/path` image of the HTML names a file of the package (Canvas matches its end)."""
    from lxml import etree, html

    findings = []
    for mattext in root.iter(f"{_Q}mattext"):
        if not _shows_image(mattext):
            continue
        try:
            fragment = html.fragment_fromstring(mattext.text, create_parent="div")
        except etree.ParserError:
            continue
        for image in fragment.iter("img"):
            path = names.media_path(image.get("src", ""))
            if path is not None and not any(name == path or name.endswith("/" + path) for name in files):
                findings.append(finding("V524", source, f"the image {image.get('src')!r} names no file of the "
                                         "package", mattext.sourceline, hint=f"add it as {names.MEDIA_FOLDER}{path}"))
    return findings


def _shows_image(mattext) -> bool:
    return mattext.get("texttype", "text/html") == "text/html" and "<img" in (mattext.text or "")


def _number(text: str, minimum: float, strict: bool = False) -> bool:
    try:
        value = float(text)
    except ValueError:
        return False
    return value > minimum if strict else value >= minimum


