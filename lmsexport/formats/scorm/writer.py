"""SCORM 1.2 and SCORM 2004 4th Edition packages: one SCO playing the whole quiz.

The package is a zip with `imsmanifest.xml` at its root, valid against the ADL
schemas (SCORM 1.2: IMS CP 1.1.2 + adlcp_rootv1p2; SCORM 2004 4th Edition:
IMS CP 1.1.4 + adlcp_v1p3, IMS Simple Sequencing, adlseq, adlnav, IEEE LOM), one
organization with one item, and one SCO resource listing every file of the player
(`player.py`). The flavour (`WriteOptions.flavour`) picks the version.

The quiz's images are files of the SCO too (`media/<path>`). The pass mark becomes
`adlcp:masteryscore` (1.2, a percentage) or a primary objective satisfied by
measure with `minNormalizedMeasure` (2004, a fraction), unless an essay leaves
pass or fail to a person (W603). Specifications: https://adlnet.gov/projects/scorm/
(SCORM 1.2; SCORM 2004 4th Edition CAM for packaging and sequencing; RTE section
4.2 for what the player records). What the package cannot carry is a warning:
W601 and W608 (title length), W603 (pass mark with an essay), W604 (2004 fill-in
with more than 10 blanks), W605 and W606 (math and images, player_text.py), W607 (1.2
attempts), W609 (more than 36 options); the numbers are SCORM's (limits.py). What it cannot
hold at all fails the quiz (SourceError, see lmsexport/package.py): E005 (a text in the
manifest longer than XML parsers read), E007 (a time limit past SCORM 1.2's).
"""

from __future__ import annotations

from . import player
from .limits import GAP_LIMIT, OPTIONS_LIMIT, TIME_LIMIT_12, TITLE_LIMIT
from ...diagnostics import Diagnostic, Log, SourceError
from ...model import FillBlanks, MultipleChoice, Quiz
from ...package import MANIFEST, Package, WriteOptions
from ...spool import SpooledFiles
from ...text import number, shorten, words
from ...xml import NS, element, serialize, sub, too_long

VERSIONS = ("1.2", "2004")
EXTENSIONS = {"1.2": ".scorm12.zip", "2004": ".scorm2004.zip"}


def _title(quiz: Quiz, version: str, log: Log) -> str:
    """The manifest's title: SCORM 1.2's schema cuts it at 200 characters; SCORM 2004's keeps it
    whole, though an LMS need keep only 200 (the SPM)."""
    if len(quiz.title) <= TITLE_LIMIT:
        return quiz.title
    if version == "2004":
        log.warn("W608", f"the title is {len(quiz.title)} characters long; a SCORM 2004 LMS need keep only "
                 f"{TITLE_LIMIT}, so it may show the title cut (the player shows it in full)", quiz.where(),
                 f"shorten the title to {TITLE_LIMIT} characters or fewer, and move the rest to the description")
        return quiz.title
    log.warn("W601", f"the title is {len(quiz.title)} characters long; SCORM 1.2 manifests allow {TITLE_LIMIT}, "
             "so the manifest carries a shortened title (the player shows it in full)", quiz.where(),
             "shorten the title, or build SCORM 2004, whose manifests carry it whole")
    return shorten(quiz.title, TITLE_LIMIT)


def _limits(quiz: Quiz, version: str, log: Log) -> None:
    """What an LMS records of a response, in one pass over the questions (a large quiz's are
    unpacked for each pass): 36 options of a choice (SCORM 1.2 CMIFeedback, SCORM 2004 SPM),
    and, in SCORM 2004, 10 strings of a fill-in response (RTE 4.2.9.2, SPM), one per gap."""
    gapped = []
    for question in quiz.questions:
        if isinstance(question, MultipleChoice) and len(question.choices) > OPTIONS_LIMIT:
            log.warn("W609", f"{quiz.label(question)} has {len(question.choices)} options; SCORM 1.2 can record only "
                     f"{OPTIONS_LIMIT} (one character each, 0-9 and a-z) and a SCORM 2004 LMS need record no more, "
                     "so the LMS may refuse the answer given (the player still scores it)", quiz.where(question),
                     f"split it into questions of {OPTIONS_LIMIT} options or fewer")
        elif version == "2004" and isinstance(question, FillBlanks) and len(question.gaps) > GAP_LIMIT:
            gapped.append(question)
    for question in gapped:  # told after every question's options
        log.warn("W604", f"{quiz.label(question)} has {len(question.gaps)} blanks; a SCORM 2004 fill-in interaction "
                 f"records {GAP_LIMIT}, so the LMS sees the answers to the first {GAP_LIMIT} (the score counts every "
                 "blank)",
                 quiz.where(question), f"split the text into questions of {GAP_LIMIT} blanks or fewer")


def _pass_mark(quiz: Quiz, log: Log) -> float | None:
    """The pass mark the package carries: none when an essay waits for a person to mark it."""
    mark = quiz.settings.pass_mark
    if mark is None or not player.pending_grading(quiz):
        return mark
    essays = [question for question in quiz.questions if not question.scored and question.kind != "description"]
    log.warn("W603", f"{quiz.label(essays[0])} is an essay, which the player cannot mark: the package reports the score of "
             "the other questions and leaves pass or fail to the teacher, so it carries no pass mark "
             f"({number(mark)}%)",
             quiz.where(essays[0]), "grade the essays in the LMS and set pass or fail there, or build QTI or Moodle "
             "XML, whose LMSs hold an attempt until it is graded")
    return None


def _refusals(quiz: Quiz, version: str) -> list[Diagnostic]:
    """What the package cannot hold at all: a time limit past SCORM 1.2's HHHH:MM:SS (E007)."""
    limit = quiz.settings.time_limit
    if version != "1.2" or limit is None or limit <= TIME_LIMIT_12:
        return []
    return [Diagnostic(
        "E007", f"the time limit of {limit // 3600:,} h {limit // 60 % 60} min {limit % 60} s is more than SCORM 1.2 "
        "can say: its time limits (HHHH:MM:SS) stop at 9999 h 59 min 59 s",
        quiz.settings.spans.get("time_limit", quiz.where()),
        "give a shorter time limit (or none), or build SCORM 2004, which has no such limit")]


def _identifiers(quiz: Quiz) -> dict[str, str]:
    """Manifest identifiers (xs:ID, so NCNames: the quiz id is one) that name the quiz."""
    return {
        "manifest": f"lmsexport.{quiz.id}",
        "organization": f"{quiz.id}.organization",
        "item": f"{quiz.id}.item",
        "resource": f"{quiz.id}.sco",
    }


def _resource(resources, ids: dict, files: list[str], scorm_type: str) -> None:
    resource = sub(resources, "resource", {"identifier": ids["resource"], "type": "webcontent",
                                           scorm_type: "sco", "href": player.LAUNCH})
    for name in files:
        sub(resource, "file", {"href": name})


def _manifest_12(quiz: Quiz, files: list[str], title: str, pass_mark: float | None):
    nsmap = {None: NS["imscp12"], "adlcp": NS["adlcp12"]}
    ids = _identifiers(quiz)
    root = element("imscp12:manifest", {"identifier": ids["manifest"], "version": "1.0"}, nsmap=nsmap)
    metadata = sub(root, "imscp12:metadata")
    sub(metadata, "imscp12:schema", text="ADL SCORM")
    sub(metadata, "imscp12:schemaversion", text="1.2")
    organizations = sub(root, "imscp12:organizations", {"default": ids["organization"]})
    # No <imsmd:lom> here: ADL's 1.2 metadata schema is not XSD 1.0 valid (schemas/README.md,
    # gotcha 4). xml:lang is allowed through the CP's ##other attribute wildcard.
    organization = sub(organizations, "imscp12:organization",
                       {"identifier": ids["organization"], "xml:lang": quiz.lang})
    sub(organization, "imscp12:title", text=title)
    item = sub(organization, "imscp12:item", {"identifier": ids["item"], "identifierref": ids["resource"]})
    sub(item, "imscp12:title", text=title)
    if quiz.settings.time_limit:
        # The LMS hands both to the SCO (cmi.student_data.*); the player ends the attempt at the limit.
        sub(item, "adlcp12:maxtimeallowed", text=_timespan_12(quiz.settings.time_limit))
        sub(item, "adlcp12:timelimitaction", text="exit,message")
    if pass_mark is not None:
        # Compared by the LMS with cmi.core.score.raw, which the player reports as a percentage.
        sub(item, "adlcp12:masteryscore", text=number(pass_mark))
    resources = sub(root, "imscp12:resources")
    _resource(resources, ids, files, "adlcp12:scormtype")
    return root


def _timespan_12(seconds: int) -> str:
    """SCORM 1.2 CMITimespan, HHHH:MM:SS."""
    return f"{seconds // 3600:04d}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"


def _lom(parent, quiz: Quiz) -> None:
    """IEEE LOM general and technical metadata: identifier, title, language, description, keywords."""
    lom = sub(parent, "lom:lom")
    general = sub(lom, "lom:general")
    identifier = sub(general, "lom:identifier")
    sub(identifier, "lom:catalog", text="URI")
    sub(identifier, "lom:entry", text=f"urn:lmsexport:{quiz.id}")
    sub(sub(general, "lom:title"), "lom:string", {"language": quiz.lang}, quiz.title)
    if quiz.lang:
        sub(general, "lom:language", text=quiz.lang)
    if quiz.description:
        sub(sub(general, "lom:description"), "lom:string", {"language": quiz.lang}, words(quiz.description))
    for tag in quiz.tags:
        sub(sub(general, "lom:keyword"), "lom:string", {"language": quiz.lang}, tag)
    sub(sub(lom, "lom:technical"), "lom:format", text="text/html")


def _sequencing(item, quiz: Quiz, pass_mark: float | None) -> None:
    """The item's sequencing: pass mark as a measured primary objective; the SCO sets its statuses."""
    sequencing = sub(item, "imsss:sequencing")
    limits = {
        "attemptLimit": str(quiz.settings.attempts) if quiz.settings.attempts else None,
        "attemptAbsoluteDurationLimit": f"PT{quiz.settings.time_limit}S" if quiz.settings.time_limit else None,
    }
    if any(limits.values()):
        # The LMS's sequencer counts attempts; the duration limit reaches the SCO as cmi.max_time_allowed.
        sub(sequencing, "imsss:limitConditions", limits)
    if pass_mark is not None:
        objectives = sub(sequencing, "imsss:objectives")
        primary = sub(objectives, "imsss:primaryObjective",
                      {"objectiveID": f"urn:lmsexport:{quiz.id}:pass-mark", "satisfiedByMeasure": "true"})
        # The LMS compares cmi.score.scaled (0..1) with this, and hands it to the SCO as
        # cmi.scaled_passing_score (SCORM 2004 RTE, section 4.2).
        sub(primary, "imsss:minNormalizedMeasure", text=number(pass_mark / 100))
    sub(sequencing, "imsss:deliveryControls", {"completionSetByContent": "true", "objectiveSetByContent": "true"})


def _manifest_2004(quiz: Quiz, files: list[str], title: str, pass_mark: float | None):
    nsmap = {None: NS["imscp"], **{prefix: NS[prefix] for prefix in ("adlcp", "imsss", "lom")}}
    ids = _identifiers(quiz)
    root = element("imscp:manifest", {"identifier": ids["manifest"], "version": "1.0"}, nsmap=nsmap)
    metadata = sub(root, "imscp:metadata")
    sub(metadata, "imscp:schema", text="ADL SCORM")
    sub(metadata, "imscp:schemaversion", text="2004 4th Edition")
    _lom(metadata, quiz)
    organizations = sub(root, "imscp:organizations", {"default": ids["organization"]})
    organization = sub(organizations, "imscp:organization",
                       {"identifier": ids["organization"], "xml:lang": quiz.lang})
    sub(organization, "imscp:title", text=title)
    item = sub(organization, "imscp:item", {"identifier": ids["item"], "identifierref": ids["resource"]})
    sub(item, "imscp:title", text=title)
    if quiz.settings.time_limit:
        sub(item, "adlcp:timeLimitAction", text="exit,message")
    _sequencing(item, quiz, pass_mark)
    # flow lets the LMS start the only SCO by itself: a Start request needs flow on the
    # parent (SCORM 2004 SN, sequencing control modes), and choice stays on as by default.
    sub(sub(organization, "imsss:sequencing"), "imsss:controlMode", {"choice": "true", "flow": "true"})
    resources = sub(root, "imscp:resources")
    _resource(resources, ids, files, "adlcp:scormType")
    return root


def write(quiz: Quiz, options: WriteOptions) -> Package:
    """The SCORM package of `quiz` for `options.flavour` (`1.2` or `2004`)."""
    version = options.flavour
    if version not in VERSIONS:
        raise ValueError(f"unknown SCORM version {version!r}; choose one of {', '.join(VERSIONS)}")
    refusals = _refusals(quiz, version)
    log = Log()
    pass_mark = _pass_mark(quiz, log)
    _limits(quiz, version, log)
    if version == "1.2" and quiz.settings.attempts:
        log.warn("W607", f"SCORM 1.2 cannot say how many attempts a learner has ({quiz.settings.attempts})",
                 quiz.where(), "set the number of attempts in the LMS's SCORM activity settings, or build SCORM 2004")
    content = SpooledFiles()
    for name, pieces in player.render(quiz, version, log).items():
        content.put_chunks(name, pieces)
    title = _title(quiz, version, log)
    build = _manifest_12 if version == "1.2" else _manifest_2004
    manifest = build(quiz, sorted(content), title, pass_mark)
    found = too_long(manifest)
    if found is not None:
        refusals.append(found.refusal("E005", "the quiz", f"a SCORM {version} manifest", quiz.where()))
    if refusals:
        raise SourceError(refusals)
    content[MANIFEST] = serialize(manifest)  # the zip puts it first
    return Package(content, extension=EXTENSIONS[version], warnings=log.diagnostics)
