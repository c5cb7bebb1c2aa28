"""What a Moodle question holds that the model has no place for: warned, never dropped unsaid.

Part of the Moodle reader. `skipped_type` says why a question type has no kind in the model
(the question is skipped, W681); `warn_losses` names, for a question read, each part of it the
model leaves out: hints and the penalty for each wrong try (W684: the model has one try),
the feedback for a partly right answer (W685), an essay's grader information, response
template and attachments (W686), a numerical question's units but its default one, which the
model keeps, or a graded unit (W687). The fields are those
qformat_xml imports (import_hints, import_combined_feedback, import_essay, import_numerical).
"""

from __future__ import annotations

import unicodedata

from ...model import Question
from .reader_context import Reading


_NO_KIND = {
    "calculated": "its answer is a formula computed from random values, for which lmsexport has no kind",
    "calculatedmulti": "its options are formulas computed from random values, for which lmsexport has no kind",
    "ddimageortext": "its answers are dropped onto places in an image, for which lmsexport has no kind",
    "ddmarker": "its answers are markers placed on an image, for which lmsexport has no kind",
    "randomsamatch": "Moodle draws its pairs at random from the bank's short-answer questions; lmsexport has no "
                     "kind for that",
    "random": "Moodle puts a question drawn at random from a category in its place; lmsexport has no such "
              "question (its pools are not read from Moodle XML)",
    "gapfill": "it is the Gapfill plugin's type (qtype_gapfill), which lmsexport does not read",
}
"""Why each type Moodle exports has no model kind."""
_PENALTY = 0.3333333
"""question_definition's default penalty, which every Moodle export carries."""


def skipped_type(kind: str, read: tuple[str, ...]) -> tuple[str, str]:
    """The message and hint for a question of type `kind`, which is skipped."""
    reason = _NO_KIND.get(kind) or (f"its type {kind!r} is a plugin's or unknown, which lmsexport does not read"
                                    if kind else "it has no type attribute")
    return reason, (f"lmsexport reads {', '.join(read)} questions; make this one one of those in Moodle for it to "
                    "come through, or leave it out of the export")


def warn_losses(r: Reading, node, question: Question) -> None:
    """Warn for each part of the `<question>` that `question` has no place for."""
    _tries(r, node)
    if question.kind in _PARTS or getattr(question, "multiple_response", False):
        _partly(r, node)
    if node.get("type") == "essay":
        _essay(r, node)
    if node.find("units/unit") is not None:
        _units(r, node)


_PARTS = ("matching", "ordering", "fill_blanks")
"""Kinds whose answer can be partly right (and multiple-response choice questions)."""


def _tries(r: Reading, node) -> None:
    """import_hints(), penalty: the model has one try, so hints and a penalty per wrong try have no place."""
    hints = [hint for hint in node.iterchildren("hint") if (hint.findtext("text") or "").strip()]
    try:
        penalty = float(node.findtext("penalty") or 0)
    except ValueError:
        penalty = 0.0
    usual = abs(penalty - _PENALTY) < 0.005 or penalty in (0.0, 1.0)
    if not hints and usual:
        return
    parts = [f"{len(hints)} hint{'s' if len(hints) > 1 else ''}"] if hints else []
    parts += [f"the penalty of {penalty * 100:.4g} % for each wrong try"] if penalty > 0 else []
    r.warn("W684", node, f"{r.subject}: its {' and '.join(parts)} are left out: lmsexport's questions are "
           "answered in one try, as in Moodle's deferred feedback", "give the hints as the question's feedback "
           "if learners should see them")


def _partly(r: Reading, node) -> None:
    """import_combined_feedback(): the model has feedback for right and for wrong answers only."""
    partly = (node.findtext("partiallycorrectfeedback/text") or "").strip()
    incorrect = (node.findtext("incorrectfeedback/text") or "").strip()
    if partly and incorrect and partly != incorrect:
        r.warn("W685", node.find("partiallycorrectfeedback"), f"{r.subject}: its feedback for a partly right answer "
               "is left out: lmsexport has feedback for a right answer and for any other, so a partly right "
               "answer gets the incorrect feedback", "put what both should say in the incorrect feedback")


def _essay(r: Reading, node) -> None:
    """import_essay(): what a person marking the essay or the learner's answer box would have had."""
    lost = []
    if (node.findtext("graderinfo/text") or "").strip():
        lost.append("its information for graders")
    if (node.findtext("responsetemplate/text") or "").strip():
        lost.append("its response template")
    attachments = (node.findtext("attachments") or "0").strip()
    if attachments not in ("", "0"):
        lost.append("the files learners may attach")
    if (node.findtext("responseformat") or "").strip() == "noinline":
        lost.append("its answer by attachment only (learners get a text box)")
    if lost:
        r.warn("W686", node, f"{r.subject}: {', '.join(lost)} are left out: lmsexport's essays are a text box "
               "marked by a person", "add what graders need to the question's general feedback, which they see")


def default_unit(node) -> str | None:
    """The unit a numerical question's answers are in, as the model holds it: Moodle's default unit
    (multiplier 1, get_default_numerical_unit()), unless `<showunits>3` says units are not used."""
    if (node.findtext("showunits") or "").strip() == "3":
        return None
    for unit in node.iterfind("units/unit"):
        name = unicodedata.normalize("NFC", " ".join((unit.findtext("unit_name") or "").split()))
        if name and _multiplier(unit) == 1:
            return name
    return None


def _multiplier(unit) -> float | None:
    try:
        return float((unit.findtext("multiplier") or "1").strip())
    except ValueError:
        return None


def _units(r: Reading, node) -> None:
    """import_numerical(): the model keeps the default unit, shown and never graded (Numeric.unit);
    other units (which Moodle converts by their multipliers) and a graded unit have no place."""
    kept = default_unit(node)
    others = [(unit.findtext("unit_name") or "").strip() for unit in node.iterfind("units/unit")]
    others = [name for name in others if name and name != kept]
    graded = kept is not None and (node.findtext("unitgradingtype") or "0").strip() in ("1", "2")
    if others:
        names = ", ".join(repr(name) for name in others)
        instead = f"the answers are in {kept!r} only" if kept else "lmsexport's numeric answers are plain numbers"
        r.warn("W687", node.find("units"), f"{r.subject}: its units {names} are left out: {instead}, so an answer "
               "given in another unit is not accepted", "say in the question text which unit the number is in")
    elif graded:
        r.warn("W687", node.find("unitgradingtype"), f"{r.subject}: Moodle grades its unit ({kept}); lmsexport's "
               "unit is shown and may be typed, but is never graded", "nothing to do, unless the unit itself is "
               "what the question asks: then ask for it in a question of its own")
