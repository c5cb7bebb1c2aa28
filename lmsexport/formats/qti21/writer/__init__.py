"""IMS QTI 2.1 content package (`.qti.zip`): one assessmentItem per question, one assessmentTest.

QTI 2.1 final: https://www.imsglobal.org/question/qtiv2p1/imsqti_infov2p1.html
Package layout, identifiers, the kinds and how each scores, where each model field goes:
docs/formats/qti21.md.

    imsmanifest.xml     IMS CP 1.1.4 + IMS MD 1.2 metadata: "QTIv2.1 Package", title, language
    test.xml            assessmentTest: one testPart, one section, items in source order, and
                        a section per pool selecting `draw` of its items
    items/<id>.xml      assessmentItem: an interaction per kind, correctResponse, SCORE/MAXSCORE
    items/<image>       the quiz's images, each a webcontent resource the items depend on

This module puts an item together: outcomes, the stem, what the kind adds
(kinds.py, typed.py), response processing and modal feedback. Items score
raw points through a standard template when they can and show no feedback; otherwise the
template's rules, or the kind's own, are written out, followed by the rules that show
feedback. Text and numbers go through body.py; the test and the manifest are manifest.py.
A quiz with a text longer than XML parsers read fails (E005, SourceError: lmsexport/package.py).
"""

from __future__ import annotations

from .. import names
from ....diagnostics import Diagnostic, Log, SourceError, SourceSpan
from ....model import Question, Quiz
from ....package import MANIFEST, Package, WriteOptions
from ....pieces import Pieces
from ....spool import SpooledFiles
from ....text import default_title
from ....xml import NS, built_once, element, serialize, sub, too_long
from . import kinds as kinds
from . import typed as typed
from .body import TextWriter
from .manifest import ITEM_SCHEMA, ItemInfo, write_manifest, write_test
from .processing import condition, feedback_outcome, float_outcome, full_marks, show, template_rules, x

EXTENSION = ".qti.zip"

_KINDS = {
    "multiple_choice": kinds.write_multiple_choice,
    "true_false": kinds.write_true_false,
    "short_answer": typed.write_short_answer,
    "numeric": typed.write_numeric,
    "essay": kinds.write_essay,
    "matching": kinds.write_matching,
    "ordering": kinds.write_ordering,
    "fill_blanks": typed.write_fill_blanks,
    "description": kinds.write_description,
}


def write(quiz: Quiz, options: WriteOptions | None = None) -> Package:
    """The package; SourceError for a quiz with a text longer than XML parsers read (E005)."""
    log = Log()
    options = options or WriteOptions()
    assets = {asset.path: asset for asset in quiz.assets}
    advise_canvas = "canvas" not in options.built_with
    files, items, refusals = SpooledFiles(), [], []

    def put(path: str, root, holders=frozenset()) -> int:
        data = files[path] = serialize(root, verbatim=holders)
        if options.on_document is not None:
            options.on_document(path, root, data)
        return len(data)

    def put_pieces(path: str, pieces: Pieces, refused: bool = False) -> bool:
        """Write a document of the quiz's own (`manifest.py`); whether it refused a text too long."""
        def check(tree, written: int, _) -> None:
            nonlocal refused
            refused = refused or _refuse_long(tree, written, "the quiz", quiz.where(), refusals)

        files.put_chunks(path, pieces.serialize(check))
        if pieces.whole is not None and options.on_document is not None:
            options.on_document(path, pieces.whole, files[path])
        return refused

    for question in quiz.questions:
        root, info, holders = _item(quiz, question, log, assets, advise_canvas)
        written = put(names.item_path(question.id), root, holders)
        _refuse_long(root, written, quiz.label(question), quiz.where(question), refusals)
        items.append(info)
    test, test_assets = write_test(quiz, log, assets, advise_canvas)
    test_refused = put_pieces(names.TEST_PATH, test)
    del test  # the references to every item: freed before the manifest, the other such document, is written
    # The manifest repeats the test's title: a text too long for one is reported once.
    put_pieces(MANIFEST, write_manifest(quiz, items, test_assets), refused=test_refused)
    if refusals:
        raise SourceError(refusals)
    for asset in quiz.assets:
        files[names.MEDIA_FOLDER + asset.path] = asset.data
    return Package(files, zipped=True, extension=EXTENSION, warnings=log.diagnostics)


def _refuse_long(root, written: int, subject: str, span: SourceSpan, refusals: list[Diagnostic]) -> bool:
    """Whether `root` (`written` bytes as serialized) holds a text too long for XML parsers (then
    `refusals` says so)."""
    found = too_long(root, written)
    if found is not None:
        refusals.append(found.refusal("E005", subject, "a QTI 2.1 file", span))
    return found is not None


def _item(quiz: Quiz, question: Question, log: Log, assets: dict,
          advise_canvas: bool) -> tuple[object, ItemInfo, set]:
    text = TextWriter(log, quiz.where(question), assets)
    points = text.number(question.points, "points")
    context = kinds.Context(question, points, quiz.settings.shuffle, quiz.lang, text, quiz.scoring_of(question),
                            quiz.label(question), advise_canvas)
    parts = _KINDS[question.kind](context)
    title = question.title or default_title(question.prompt, question.id)
    root = _item_root(question.lang or quiz.lang)
    root.set("identifier", names.item_identifier(quiz.id, question.id))
    root.set("title", title)
    root.extend(parts.declarations)
    if question.kind != "description":
        root.append(float_outcome(names.SCORE, "0", points if question.points > 0 else None))
        root.append(float_outcome(names.MAXSCORE, points))
    root.extend(parts.outcomes)
    feedback = parts.feedback + _question_feedback(question, context.label, parts, text)
    if feedback:
        root.append(feedback_outcome())
    body = sub(root, "qti:itemBody")
    if parts.stem:
        # The stem is one div directly under itemBody, the interaction its sibling: Canvas takes
        # `itemBody > div` as the question text and drops a div that holds a choiceInteraction.
        text.put(sub(body, "qti:div"), question.prompt)
    body.extend(parts.body)
    processing = _response_processing(parts, feedback)
    if processing is not None:
        root.append(processing)
    for identifier, shown in feedback:
        modal = _modal_feedback(identifier)
        root.append(modal)
        text.put(modal[0], shown)
    info = ItemInfo(question.id, question.lang, question.tags, title, parts.interactions, bool(feedback),
                    parts.solution, tuple(text.used))
    return root, info, text.holders


@built_once
def _item_root(lang: str | None):
    """An assessmentItem but its identifier and title, which are set on each copy (in their places)."""
    return element("qti:assessmentItem", {
        "xsi:schemaLocation": ITEM_SCHEMA,
        "identifier": "",
        "title": "",
        "adaptive": "false",
        "timeDependent": "false",
        "xml:lang": lang,
    }, nsmap={None: NS["qti"], "xsi": NS["xsi"]})


@built_once
def _modal_feedback(identifier: str):
    """A modalFeedback with an empty div for its text (Canvas reads a modalFeedback's first p or div)."""
    return x("modalFeedback", {"outcomeIdentifier": names.FEEDBACK, "identifier": identifier, "showHide": "show"},
             x("div"))


def _question_feedback(question: Question, label: str, parts: kinds.Parts, text: TextWriter) -> list:
    """Right / wrong feedback (full marks or not: SCORE >= MAXSCORE) and the explanation (always)."""
    shown = []
    right_wrong = [(names.CORRECT_FEEDBACK, question.correct_feedback),
                   (names.INCORRECT_FEEDBACK, question.incorrect_feedback)]
    if parts.scoring is None and any(text for _, text in right_wrong):
        text.warn("W806", f"{label} is not scored automatically, so its feedback for right "
                  "and wrong answers is left out", "use the explanation (>) for what every learner should read")
    elif any(text for _, text in right_wrong):
        branches = [(full_marks(), [show(names.CORRECT_FEEDBACK)] if question.correct_feedback else [])]
        if question.incorrect_feedback:
            branches.append((None, [show(names.INCORRECT_FEEDBACK)]))
        parts.feedback_rules.append(condition(*branches))
        shown += [(identifier, text) for identifier, text in right_wrong if text]
    if question.explanation:
        parts.feedback_rules.append(show(names.GENERAL_FEEDBACK))
        shown.append((names.GENERAL_FEEDBACK, question.explanation))
    return shown


def _response_processing(parts: kinds.Parts, feedback: list):
    """A template by reference when no feedback is to be shown; else its rules written out
    (QTI 2.1 info model 5.2) or the kind's own, followed by the feedback rules."""
    if isinstance(parts.scoring, str) and not feedback:
        return x("responseProcessing", {"template": names.TEMPLATES[parts.scoring]})
    rules = [template_rules(parts.scoring)] if isinstance(parts.scoring, str) else list(parts.scoring or [])
    rules += parts.feedback_rules
    return x("responseProcessing", None, *rules) if rules else None

