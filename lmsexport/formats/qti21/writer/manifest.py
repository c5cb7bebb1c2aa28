"""The QTI 2.1 package around the items: the assessmentTest and the IMS CP manifest.

QTI 2.1 info model, 6 (tests) and the packaging profile (IMS CP 1.1.4, IMS MD 1.2):
https://www.imsglobal.org/question/qtiv2p1/imsqti_intgv2p1.html
Part of the QTI writer (writers/qti21.py). The shape follows what Canvas's importer needs
(canvas-lms `gems/plugins/qti_exporter`; see names.py and docs/formats/qti21.md).
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import names
from ....diagnostics import Log
from ....model import Asset, Pool, Question, Quiz
from ....pieces import Pieces
from ....text import number, words
from ....xml import NS, built_once, element, sub
from .body import TextWriter
from .processing import float_outcome, set_outcome, value, variable, x

ITEM_SCHEMA = f"{NS['qti']} http://www.imsglobal.org/xsd/qti/qtiv2p1/imsqti_v2p1.xsd"
_MANIFEST_SCHEMA = " ".join([
    f"{NS['imscp']} http://www.imsglobal.org/xsd/imscp_v1p1.xsd",
    f"{NS['imsmd']} http://www.imsglobal.org/xsd/imsmd_v1p2p2.xsd",
    f"{NS['imsqti']} http://www.imsglobal.org/xsd/qti/qtiv2p1/imsqti_metadata_v2p1.xsd",
])
_MANIFEST_NAMESPACES = {None: NS["imscp"], "imsmd": NS["imsmd"], "imsqti": NS["imsqti"], "xsi": NS["xsi"]}


@dataclass(frozen=True)
class ItemInfo:
    """What the manifest says about an item beside its file."""

    id: str
    """The question's id (not the question: a large quiz's questions are unpacked one at a time)."""
    lang: str | None
    """The question's own language."""
    tags: tuple[str, ...]
    title: str
    """The item's title, which the manifest repeats."""
    interactions: tuple[str, ...]
    feedback: bool
    solution: bool
    assets: tuple[str, ...]
    """Paths of the quiz's images it shows, in first-use order."""


def write_test(quiz: Quiz, log: Log, assets: dict[str, Asset],
               advise_canvas: bool = False) -> tuple[Pieces, tuple[str, ...]]:
    """The assessmentTest (its item references made as it is written) and the images its
    description shows."""
    root = element("qti:assessmentTest", {
        "xsi:schemaLocation": ITEM_SCHEMA, "identifier": quiz.id, "title": quiz.title,
    }, nsmap={None: NS["qti"], "xsi": NS["xsi"]})
    text = TextWriter(log, quiz.where(), assets, names.MEDIA_FOLDER)
    points = quiz.total_points  # a pass over the questions
    total = text.number(points, "the total points")
    root.append(float_outcome(names.SCORE, normal_maximum=total if points > 0 else None))
    root.append(float_outcome(names.MAXSCORE, total))
    if quiz.settings.pass_mark is not None:
        root.append(x("outcomeDeclaration", {"identifier": names.PASS, "cardinality": "single", "baseType": "boolean"}))
    # individual: each item is submitted (and its feedback shown) as it is answered;
    # simultaneous: all at the end of the part (QTI 2.1 info model, testPart.submissionMode).
    mode = "individual" if quiz.settings.feedback == "immediate" else "simultaneous"
    part = sub(root, "qti:testPart", {"identifier": names.TEST_PART, "navigationMode": "nonlinear",
                                      "submissionMode": mode})
    sub(part, "qti:itemSessionControl", {"showFeedback": "true"})
    if quiz.settings.time_limit:
        sub(part, "qti:timeLimits", {"maxTime": str(quiz.settings.time_limit)})  # seconds (QTI 2.1 timeLimits)
    if quiz.settings.attempts:
        text.warn("W808", f"QTI packages cannot say how many attempts a learner has ({quiz.settings.attempts})",
                  "set the number of attempts in the LMS's quiz settings after the import")
    # Invisible: Canvas turns a visible, titled section into an extra text-only question.
    section = sub(part, "qti:assessmentSection", {"identifier": names.SECTION, "title": quiz.title, "visible": "false"})
    if quiz.description:
        text.put(sub(sub(section, "qti:rubricBlock", {"view": "candidate"}), "qti:div"), quiz.description)
    pools = (item for item in quiz.items if isinstance(item, Pool)) if quiz.pools else ()
    for pool in pools:  # in the order they stand
        _advise_shuffle(quiz, pool, log, advise_canvas)
    test = Pieces(root, text.holders)
    test.region(section, (_pool_section(quiz, item) if isinstance(item, Pool) else _item_ref(quiz, item)
                          for item in quiz.items), len(quiz.items))
    root.append(_outcome_processing(quiz, text))
    return test, tuple(text.used)


def _item_ref(quiz: Quiz, question: Question):
    ref = x("assessmentItemRef", {
        "identifier": names.item_identifier(quiz.id, question.id), "href": names.item_path(question.id)})
    # Canvas classic quizzes take a question's points from here (assessment_test_converter.rb).
    sub(ref, "qti:weight", {"identifier": names.WEIGHT, "value": number(question.points)})
    return ref


def _pool_section(quiz: Quiz, pool: Pool):
    """A pool: a section that selects `draw` of its items per attempt (QTI 2.1 info model,
    assessmentSection.selection and ordering). Invisible, as the quiz's own section: Canvas turns
    a visible one into a text-only question, and makes any section with selection a question group
    (its pick_count; its points those of the first item's weight)."""
    section = x("assessmentSection", {
        "identifier": names.item_identifier(quiz.id, pool.id), "title": pool.title or pool.id, "visible": "false"})
    sub(section, "qti:selection", {"select": str(pool.draw)})
    sub(section, "qti:ordering", {"shuffle": "true" if pool.shuffle else "false"})
    section.extend(_item_ref(quiz, question) for question in quiz.members(pool))
    return section


def _advise_shuffle(quiz: Quiz, pool: Pool, log: Log, advise_canvas: bool) -> None:
    if advise_canvas and pool.shuffle and not quiz.settings.shuffle:
        log.warn("W813", f"{quiz.label(pool)} shuffles its questions: Canvas reads a shuffled section as \"shuffle "
                 "answers\" for the whole quiz", quiz.where(pool), "for Canvas, build --format canvas (a question "
                 "group draws in a random order anyway); QTI engines shuffle only the pool")


def _outcome_processing(quiz: Quiz, text: TextWriter):
    """SCORE = the sum of the item scores (raw points, so no weightIdentifier: the weights
    would count the points twice); PASS = SCORE / MAXSCORE * 100 >= the pass mark. With pools,
    MAXSCORE is the sum of the items' MAXSCORE too: testVariables sees only the items an
    attempt selected (QTI 2.1 info model 5.3), so the maximum is what was drawn."""
    total = x("sum", None, x("testVariables", {"variableIdentifier": names.SCORE}))
    processing = x("outcomeProcessing", None, set_outcome(names.SCORE, total))
    if quiz.pools:
        drawn = x("sum", None, x("testVariables", {"variableIdentifier": names.MAXSCORE}))
        processing.append(set_outcome(names.MAXSCORE, drawn))
    if quiz.settings.pass_mark is not None:
        ratio = x("divide", None, variable(names.SCORE), variable(names.MAXSCORE))
        percent = x("product", None, ratio, value("float", "100"))
        mark = value("float", text.number(quiz.settings.pass_mark, "the pass mark"))
        processing.append(set_outcome(names.PASS, x("gte", None, percent, mark)))
    return processing


def write_manifest(quiz: Quiz, items: list[ItemInfo], test_assets: tuple[str, ...]) -> Pieces:
    """The manifest, its item resources and the test's dependencies on them made as it is written."""
    root = element("imscp:manifest", {
        "identifier": f"MANIFEST-{quiz.id}", "xsi:schemaLocation": _MANIFEST_SCHEMA,
    }, nsmap=_MANIFEST_NAMESPACES)
    metadata = sub(root, "imscp:metadata")
    sub(metadata, "imscp:schema", text=names.PACKAGE_SCHEMA)
    sub(metadata, "imscp:schemaversion", text="1.0.0")
    general = sub(sub(metadata, "imsmd:lom"), "imsmd:general")
    _langstring(sub(general, "imsmd:title"), quiz.title, quiz.lang)
    if quiz.lang:
        sub(general, "imsmd:language", text=quiz.lang)
    if quiz.description:
        text = quiz.description
        _langstring(sub(general, "imsmd:description"), words(text), text.lang or quiz.lang)
    _keywords(general, quiz.tags, quiz.lang)
    sub(root, "imscp:organizations")
    resources = sub(root, "imscp:resources")
    media = {asset.path: f"RES-{quiz.id}-media{n}" for n, asset in enumerate(quiz.assets, 1)}
    test = sub(resources, "imscp:resource", {
        "identifier": f"RES-{quiz.id}", "type": names.TEST_RESOURCE, "href": names.TEST_PATH})
    sub(test, "imscp:file", {"href": names.TEST_PATH})
    manifest = Pieces(root)
    manifest.region(test, (element("imscp:dependency", {"identifierref": _resource_id(quiz, info)}) for info in items),
                    len(items))
    manifest.region(resources, (_item_resource(quiz, info, media) for info in items), len(items))
    for path in test_assets:
        sub(test, "imscp:dependency", {"identifierref": media[path]})
    for asset in quiz.assets:
        # No href: Canvas uploads the files of a resource, except the file a resource's href names.
        resource = sub(resources, "imscp:resource", {"identifier": media[asset.path], "type": "webcontent"})
        sub(resource, "imscp:file", {"href": names.MEDIA_FOLDER + asset.path})
    return manifest


def _resource_id(quiz: Quiz, info: ItemInfo) -> str:
    return f"RES-{names.item_identifier(quiz.id, info.id)}"


def _item_resource(quiz: Quiz, info: ItemInfo, media: dict[str, str]):
    path = names.item_path(info.id)
    resource = element("imscp:resource", {"identifier": _resource_id(quiz, info), "type": names.ITEM_RESOURCE,
                                          "href": path})
    lang = info.lang or quiz.lang
    metadata = _item_metadata(lang, info.interactions, info.feedback, info.solution)
    general = metadata[0][0]
    # Canvas names the question from this langstring (assessment_item_converter.rb); same as the item title.
    general[0][0].text = info.title
    _keywords(general, info.tags, lang)
    resource.append(metadata)
    sub(resource, "imscp:file", {"href": path})
    for asset in info.assets:
        sub(resource, "imscp:dependency", {"identifierref": media[asset]})
    return resource


@built_once
def _item_metadata(lang: str | None, interactions: tuple[str, ...], feedback: bool, solution: bool):
    """An item's metadata but its title and keywords: the same for many items."""
    # Every namespace declared at the top, which lxml drops as the manifest declares them too.
    metadata = element("imscp:metadata", nsmap=_MANIFEST_NAMESPACES)
    _langstring(sub(sub(sub(metadata, "imsmd:lom"), "imsmd:general"), "imsmd:title"), None, lang)
    qti = sub(metadata, "imsqti:qtiMetadata")
    sub(qti, "imsqti:timeDependent", text="false")
    for interaction in interactions:
        sub(qti, "imsqti:interactionType", text=interaction)
    sub(qti, "imsqti:feedbackType", text="nonadaptive" if feedback else "none")
    sub(qti, "imsqti:solutionAvailable", text="true" if solution else "false")
    return metadata


def _langstring(parent, text: str | None, lang: str | None) -> None:
    sub(parent, "imsmd:langstring", {"xml:lang": lang}, text)


def _keywords(general, tags: tuple[str, ...], lang: str | None) -> None:
    for tag in tags:
        _langstring(sub(general, "imsmd:keyword"), tag, lang)
