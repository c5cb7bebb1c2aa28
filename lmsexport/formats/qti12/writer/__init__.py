"""IMS QTI 1.2 package in Canvas's flavour (`.canvas.zip`): the package Canvas's own quiz export is.

QTI ASI 1.2.1: https://www.imsglobal.org/question/qtiv1p2/imsqti_asi_infov1p2.html. Layout, kinds,
what a teacher sees after the import and what is lost: docs/formats/canvas.md.

    imsmanifest.xml             IMS CP 1.1.4: the assessment, its settings (a dependency), each image
    <quiz id>/<quiz id>.xml     questestinterop: one assessment, one section, an item per question,
                                a section per pool (a Canvas question group) holding its items
    <quiz id>/assessment_meta.xml   Canvas's quiz settings (title, shuffle, attempts, time limit, ...)
    web_resources/<image path>  the quiz's images

This module puts each item together in Canvas's order (metadata, the question text and what the
kind presents, response processing, feedback); the kinds are in `choices` and `typed`, text in
`text`, and what is Canvas's own (metadata, settings, manifest, images, formulas) in `canvas`,
the flavour `WriteOptions.flavour` names. A quiz with a text longer than XML parsers read fails
(E005, SourceError: lmsexport/package.py).
"""

from __future__ import annotations

from .. import names
from . import canvas, choices, typed
from ....diagnostics import Diagnostic, SourceError, SourceSpan
from ....model import Pool, Quiz
from ....package import Package, WriteOptions
from ....pieces import Pieces
from ....spool import SpooledFiles
from ....xml import NS, element, serialize, sub, too_long
from .parts import Context, Notes, Parts, condition, show, x
from .text import TextWriter

FLAVOURS = {"canvas": canvas}
"""Flavour name -> the module holding what that flavour adds to QTI 1.2."""

_KINDS = {
    "multiple_choice": choices.write_multiple_choice,
    "true_false": choices.write_true_false,
    "matching": choices.write_matching,
    "ordering": choices.write_ordering,
    "short_answer": typed.write_short_answer,
    "numeric": typed.write_numeric,
    "essay": typed.write_essay,
    "fill_blanks": typed.write_fill_blanks,
    "description": typed.write_description,
}


def write(quiz: Quiz, options: WriteOptions | None = None) -> Package:
    options = options or WriteOptions()
    flavour = FLAVOURS[options.flavour or "canvas"]
    notes = Notes(quiz)
    assets = {asset.path: asset for asset in quiz.assets}
    minutes = flavour.minutes(quiz, notes)
    root = element("qti12:questestinterop", {"xsi:schemaLocation": names.QTI_SCHEMA},
                   nsmap={None: NS["qti12"], "xsi": NS["xsi"]})
    assessment = sub(root, "qti12:assessment", {"ident": quiz.id, "title": quiz.title, "xml:lang": quiz.lang})
    flavour.assessment_metadata(assessment, quiz, minutes)
    entries = _Entries(quiz, flavour, notes, assets)
    document = Pieces(root, share=0.25)  # an item is ~50 elements: 500 of them are a 40 MB tree
    document.region(sub(assessment, "qti12:section", {"ident": names.ROOT_SECTION}), entries, len(quiz.items))
    refusals = entries.refusals
    paths = flavour.paths(quiz)
    manifest = flavour.manifest(quiz)
    files = SpooledFiles({paths.manifest: serialize(manifest)})
    files.put_chunks(paths.assessment, document.serialize(entries.check))
    if entries.quiz_refused and not refusals:
        _refuse_long(root, "the quiz", quiz.where(), refusals)
    description = TextWriter(notes, None, assets, flavour).html(quiz.description) if quiz.description else None
    settings = flavour.quiz_settings(quiz, description, minutes, notes)
    if not refusals:
        _refuse_long(settings, "the quiz", quiz.where(), refusals)
    if refusals:
        raise SourceError(refusals)
    files[paths.settings] = serialize(settings)
    if options.on_document is not None:  # the build checks the trees in hand
        for path, tree in ((paths.manifest, manifest), (paths.assessment, document.whole), (paths.settings, settings)):
            if tree is not None:
                options.on_document(path, tree, files[path])
    files.update(flavour.images(quiz))
    return Package(files, zipped=True, extension=flavour.EXTENSION, warnings=notes.log.diagnostics)


class _Entries:
    """The root section's entries, made as the assessment is written (`pieces.Pieces`): an item
    per question, a section of items per pool; and what `check` refuses of them."""

    def __init__(self, quiz: Quiz, flavour, notes: Notes, assets: dict):
        self.quiz, self.flavour, self.notes, self.assets = quiz, flavour, notes, assets
        self.refusals: list[Diagnostic] = []
        self.quiz_refused = False
        """Whether a text too long is in the quiz's own part of the document (its title)."""
        self._placed: dict[object, list] = {}
        """Each entry made: its items and their questions, until the batch it is in is checked."""

    def __iter__(self):
        quiz, position = self.quiz, 0
        for entry in quiz.items:
            holder, members = None, (entry,)
            if isinstance(entry, Pool):
                holder, members = self.flavour.pool_section(quiz, entry, self.notes), quiz.members(entry)
            made = []
            for question in members:
                position += 1
                text = TextWriter(self.notes, question, self.assets, self.flavour)
                context = Context(question, position, text, self.notes, quiz.lang, quiz.scoring_of(question))
                item = _item(quiz, context, _KINDS[question.kind](context), self.flavour)
                if holder is not None:
                    holder.append(item)
                made.append((item, question))
            holder = made[0][0] if holder is None else holder
            self._placed[holder] = made
            yield holder

    def check(self, tree, written: int, batch: list) -> None:
        """Each question holding a text too long for XML parsers, else the quiz's own texts (its
        title), once (`write`). A tree is searched once, and each of its questions only when it
        holds such a text: one search per item was a tenth of the write time."""
        found, before = too_long(tree, written) is not None, len(self.refusals)
        for entry in batch:
            for item, question in self._placed.pop(entry):
                if found:
                    _refuse_long(item, self.quiz.label(question), self.quiz.where(question), self.refusals)
        self.quiz_refused = self.quiz_refused or (found and len(self.refusals) == before)


def _refuse_long(root, subject: str, span: SourceSpan, refusals: list[Diagnostic]) -> bool:
    """Whether `root` holds a text too long for XML parsers (then `refusals` says so: E005)."""
    found = too_long(root)
    if found is not None:
        refusals.append(found.refusal("E005", subject, "a Canvas QTI 1.2 file", span))
    return found is not None


def _item(quiz: Quiz, context: Context, parts: Parts, flavour):
    question = context.question
    item = x("item", {"ident": names.item_ident(quiz.id, question.id), "title": question.title or names.item_title(question.prompt.html(), question.id),
                      "xml:lang": question.lang})
    flavour.item_metadata(item, parts, names.decimal(question.points), names.question_ref(quiz.id, question.id))
    presentation = sub(item, "qti12:presentation")
    context.text.stem(presentation, question.prompt, question.lang or quiz.lang, parts.stem)
    presentation.extend(parts.responses)
    if not parts.scored:
        return item
    feedback = _feedback(context, parts)
    processing = sub(item, "qti12:resprocessing")
    sub(sub(processing, "qti12:outcomes"), "qti12:decvar", {
        "maxvalue": names.FULL, "minvalue": "0", "varname": names.SCORE, "vartype": "Decimal"})
    if question.explanation:
        processing.append(_always(names.GENERAL_FEEDBACK))
    processing.extend(parts.feedback_conditions)
    processing.extend(parts.conditions)
    if question.incorrect_feedback and question.scored and parts.question_type not in names.GAP_TYPES:
        processing.append(_always(names.INCORRECT_FEEDBACK))
    for ident, text in feedback:
        context.text.material(sub(sub(item, "qti12:itemfeedback", {"ident": ident}), "qti12:flow_mat"), text)
    return item


def _feedback(context: Context, parts: Parts) -> list:
    """The itemfeedback of the question, in Canvas's order: general, right, wrong, then each answer's."""
    question = context.question
    shown = [(names.GENERAL_FEEDBACK, question.explanation)]
    right_wrong = [(names.CORRECT_FEEDBACK, question.correct_feedback),
                   (names.INCORRECT_FEEDBACK, question.incorrect_feedback)]
    if not question.scored and any(text for _, text in right_wrong):
        context.warn("W856", "it is not scored automatically, so its feedback for right and wrong answers is left "
                     "out", "use the explanation (>) for what every learner should read")
    elif question.scored:
        shown += right_wrong
    return [(ident, text) for ident, text in shown + parts.answer_feedback if text]


def _always(ident: str):
    """A condition that always holds and shows `ident` (Canvas's `other_respcondition`)."""
    node = condition(x("other"), proceed=True)
    show(node, ident)
    return node
