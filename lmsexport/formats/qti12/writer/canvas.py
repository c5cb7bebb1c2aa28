"""The Canvas flavour of the QTI 1.2 writer: what Canvas's quiz export adds to QTI 1.2.

Canvas writes (canvas-lms `lib/cc/qti/qti_generator.rb`, `qti_items.rb`, `qti_manifest.rb`) and its
importer reads back (`gems/plugins/qti_exporter`, `lib/cc/importer/canvas/quiz_metadata_converter.rb`):
the item metadata (`question_type`, `points_possible`, `original_answer_ids`,
`assessment_question_identifierref`), the assessment's `qmd_timelimit` and `cc_maxattempts`, the quiz
settings in `<quiz id>/assessment_meta.xml` (Canvas's namespace `cccv1p0`), images as
`$IMS-CC-FILEBASE$/<path>` with the files in `web_resources/`, and formulas as the equation images
of its editor. A generic QTI 1.2 flavour would be another module with these functions.
"""

from __future__ import annotations

import math
from typing import NamedTuple

from .. import names
from ....model import Pool, Quiz
from ....package import MANIFEST
from ....xml import NS, element, sub
from .parts import Notes

EXTENSION = ".canvas.zip"
_MANIFEST_SCHEMA = " ".join([
    f"{NS['imscp']} http://www.imsglobal.org/xsd/imscp_v1p1.xsd",
    f"{NS['imsmd']} http://www.imsglobal.org/xsd/imsmd_v1p2p2.xsd",
])


def media_src(path: str) -> str:
    return names.media_src(path)


def formula(tex: str, display: bool) -> dict[str, str]:
    """The attributes of the `img` standing for a formula."""
    return names.equation_attributes(tex, display)


def item_metadata(item, parts, points: str, ref: str) -> None:
    """Canvas's fields, in its order: what the importer takes the type, points and answer ids from."""
    holder = sub(sub(item, "qti12:itemmetadata"), "qti12:qtimetadata")
    fields = [(names.QUESTION_TYPE, parts.question_type), (names.POINTS, points),
              (names.ANSWER_IDS, ",".join(parts.answer_ids)), (names.QUESTION_REF, ref)]
    for label, entry in fields:
        _field(holder, label, entry)


def assessment_metadata(assessment, quiz: Quiz, minutes: int | None) -> None:
    """The time limit (minutes) and the attempts, which Canvas's importer also reads from here."""
    holder = sub(assessment, "qti12:qtimetadata")
    if minutes:
        _field(holder, names.TIME_LIMIT, str(minutes))
    _field(holder, names.MAX_ATTEMPTS, str(quiz.settings.attempts or names.UNLIMITED))


def pool_section(quiz: Quiz, pool: Pool, notes: Notes):
    """A question group, as Canvas exports one (qti_generator.rb): a section with
    `selection_number` (how many are drawn) and `points_per_item` (what each drawn question is
    worth, whatever its own points: Canvas has one value per group). The importer reads both
    (assessment_test_converter.rb: pick_count, question_points)."""
    members = quiz.members(pool)
    section = element("qti12:section", {"ident": names.item_ident(quiz.id, pool.id), "title": pool.title or pool.id})
    selection = sub(sub(section, "qti12:selection_ordering"), "qti12:selection")
    sub(selection, "qti12:selection_number", text=str(pool.draw))
    points = names.decimal(_each(pool, members, notes))
    sub(sub(selection, "qti12:selection_extension"), "qti12:points_per_item", text=points)
    if not pool.shuffle and pool.draw > 1:
        notes.warn(members[0], "W866", f"{notes.label(pool)} keeps its questions in order, but a Canvas question group "
                   "shows the questions it draws in a random order", "nothing to do unless the order matters; then "
                   "make the questions fixed ones")
    return section


def _each(pool: Pool, members, notes: Notes) -> float:
    """The group's points per question: the pool's, else its questions' when they agree, else their mean
    (so an attempt is worth, on average, what the quiz says) with a warning."""
    points = sorted({question.points for question in members})
    if pool.points is not None or len(points) == 1:
        return pool.points if pool.points is not None else points[0]
    mean = sum(question.points for question in members) / len(members)
    notes.warn(members[0], "W865", f"the questions of {notes.label(pool)} are worth {names.decimal(points[0])} to "
               f"{names.decimal(points[-1])} points, but a Canvas question group gives every question it draws one "
               f"value: {names.decimal(mean)}, their mean", "give the pool's questions one value (@points on the pool)")
    return mean


def _field(holder, label: str, entry: str) -> None:
    node = sub(holder, "qti12:qtimetadatafield")
    sub(node, "qti12:fieldlabel", text=label)
    sub(node, "qti12:fieldentry", text=entry)


def minutes(quiz: Quiz, notes: Notes) -> int | None:
    """The time limit in Canvas's unit, minutes (rounded up, with a warning, when it is not whole)."""
    seconds = quiz.settings.time_limit
    if seconds is None:
        return None
    whole = math.ceil(seconds / 60)
    if whole * 60 != seconds:
        notes.warn(None, "W861", f"Canvas time limits are whole minutes: {seconds} seconds become {whole} minutes",
                   "give the time limit in whole minutes")
    return whole


def quiz_settings(quiz: Quiz, description: str | None, minutes: int | None, notes: Notes):
    """`assessment_meta.xml`: the settings Canvas's importer reads (quiz_metadata_converter.rb)."""
    settings = quiz.settings
    if settings.pass_mark is not None:
        notes.warn(None, "W861", f"Canvas quizzes have no pass mark, so {names.decimal(settings.pass_mark)}% is "
                   "not carried", "set a mastery path or a grading scheme in Canvas if you need one")
    if quiz.tags or any(question.tags for question in quiz.questions):
        notes.warn(None, "W861", "Canvas quizzes and questions have no tags, so the package carries none",
                   "nothing to do: tags stay in the source")
    root = element("canvas:quiz", {"identifier": quiz.id, "xsi:schemaLocation": names.CANVAS_SCHEMA},
                   nsmap={None: NS["canvas"], "xsi": NS["xsi"]})
    values = [
        ("title", quiz.title), ("description", description), ("shuffle_answers", _flag(settings.shuffle)),
        ("scoring_policy", "keep_highest"), ("quiz_type", "assignment"),
        ("points_possible", names.decimal(quiz.total_points)), ("show_correct_answers", "true"),
        ("time_limit", None if minutes is None else str(minutes)),
        ("allowed_attempts", str(settings.attempts or -1)), ("one_question_at_a_time", "false"),
        ("cant_go_back", "false"), ("available", "false"),
    ]
    for name, value in values:
        if value is not None:
            sub(root, f"canvas:{name}", text=value)
    return root


def manifest(quiz: Quiz):
    """An IMS CP 1.1.4 manifest: the assessment, its settings file (a dependency), each image.
    Canvas reads the manifest by element names, whatever its namespace (QTIMigrationTool's parser)."""
    root = element("imscp:manifest", {"identifier": f"MANIFEST-{quiz.id}", "xsi:schemaLocation": _MANIFEST_SCHEMA},
                   nsmap={None: NS["imscp"], "imsmd": NS["imsmd"], "xsi": NS["xsi"]})
    metadata = sub(root, "imscp:metadata")
    sub(metadata, "imscp:schema", text="IMS Content")
    sub(metadata, "imscp:schemaversion", text="1.1.3")
    title = sub(sub(sub(metadata, "imsmd:lom"), "imsmd:general"), "imsmd:title")
    sub(title, "imsmd:langstring", {"xml:lang": quiz.lang}, quiz.title)
    sub(root, "imscp:organizations")
    resources = sub(root, "imscp:resources")
    assessment = sub(resources, "imscp:resource", {"identifier": quiz.id, "type": names.ASSESSMENT_RESOURCE})
    sub(assessment, "imscp:file", {"href": names.assessment_path(quiz.id)})
    sub(assessment, "imscp:dependency", {"identifierref": names.meta_ident(quiz.id)})
    meta = sub(resources, "imscp:resource", {"identifier": names.meta_ident(quiz.id), "type": names.META_RESOURCE,
                                              "href": names.meta_path(quiz.id)})
    sub(meta, "imscp:file", {"href": names.meta_path(quiz.id)})
    for number, asset in enumerate(quiz.assets, 1):
        path = names.MEDIA_FOLDER + asset.path
        image = sub(resources, "imscp:resource", {"identifier": f"{quiz.id}-media{number}",
                                                   "type": names.WEBCONTENT, "href": path})
        sub(image, "imscp:file", {"href": path})
    return root


class Paths(NamedTuple):
    """Where the package's XML files are."""

    manifest: str
    assessment: str
    settings: str


def paths(quiz: Quiz) -> Paths:
    return Paths(MANIFEST, names.assessment_path(quiz.id), names.meta_path(quiz.id))


def images(quiz: Quiz) -> dict[str, bytes]:
    """The quiz's images by their paths in the package."""
    return {names.MEDIA_FOLDER + asset.path: asset.data for asset in quiz.assets}


def _flag(on: bool) -> str:
    return "true" if on else "false"
