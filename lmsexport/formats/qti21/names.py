"""IMS QTI 2.1 content packages: the names the writer, the reader and `validate` agree on.

QTI 2.1 final: https://www.imsglobal.org/question/qtiv2p1/imsqti_infov2p1.html
Packaging (IMS CP 1.1.4 profile): https://www.imsglobal.org/question/qtiv2p1/imsqti_intgv2p1.html
"""

from __future__ import annotations

import re

from ...xml import NS

ITEM_RESOURCE = "imsqti_item_xmlv2p1"
TEST_RESOURCE = "imsqti_test_xmlv2p1"
TEST_RESOURCES = (TEST_RESOURCE, "imsqti_assessment_xmlv2p1")
"""Test resource types; the second is the older name Canvas also accepts."""
PACKAGE_SCHEMA = "QTIv2.1 Package"
"""The manifest's `<schema>`: the text that makes Canvas take its QTI 2 path (converter.rb `is_qti_2`)."""

TEMPLATES = {
    "match_correct": "http://www.imsglobal.org/question/qti_v2p1/rptemplates/match_correct",
    "map_response": "http://www.imsglobal.org/question/qti_v2p1/rptemplates/map_response",
}
"""Standard response-processing templates (QTI 2.1 info model, 5.2); exact URIs, no `.xml`."""

RESPONSE = "RESPONSE"
SCORE = "SCORE"
MAXSCORE = "MAXSCORE"
FEEDBACK = "FEEDBACK"
PASS = "PASS"
GAPS = "GAPS"
"""A fill-in item's gap credits added up (1 per gap right), before they become SCORE."""
PLACED = "PLACED"
"""An ordering item's items in their right places, counted before they become SCORE (partial scoring)."""
WEIGHT = "W"
GENERAL_FEEDBACK = "general_fb"
"""Canvas files a modalFeedback whose identifier matches `general_` as neutral comments."""
CORRECT_FEEDBACK = "correct_fb"
INCORRECT_FEEDBACK = "incorrect_fb"
"""Canvas files these as the question's correct / incorrect comments (their names contain `correct`)."""
TRUE, FALSE = "true", "false"
"""The simpleChoice identifiers of a true/false item: what tells it from a two-option choice."""
UNIT_CLASS = "unit"
"""The class of the `span` after a numeric item's answer box holding its unit (QTI 2.1 has no units)."""
MEDIA_FOLDER = "items/"
"""Images go beside the items (`items/<asset path>`), so an item refers to them by the quiz's own
path, and Canvas, which matches `src` against the end of a file's path, finds them."""
TEST_PATH = "test.xml"
TEST_PART = "part"
SECTION = "section"
"""testPart and section identifiers: without a `-`, so no `<quiz>-<question>` item id equals them."""


def item_identifier(quiz_id: str, question_id: str) -> str:
    """Unique across the quizzes of a course: Canvas keys questions on it (its migration_id)."""
    return f"{quiz_id}-{question_id}"


def item_path(question_id: str) -> str:
    return f"items/{question_id}.xml"


def response_identifier(gap_id: str) -> str:
    """The response variable of a fill-in gap."""
    return f"{RESPONSE}_{gap_id}"


def gap_choice_identifier(gap_id: str, choice_id: str) -> str:
    """A drop-down gap's choice: unique in the item, as Canvas needs (its choice ids are per gap)."""
    return f"{gap_id}_{choice_id}"


def gap_feedback_identifier(gap_id: str, position: int) -> str:
    return f"FB_{gap_id}_{position + 1}"


def choice_feedback_identifier(position: int) -> str:
    """`FB1`, `FB2`, ... by option position: never ends in `_C`/`_IC` nor contains `correct`,
    which Canvas would take for right/wrong feedback (assessment_item_converter.rb `get_feedback`)."""
    return f"FB{position + 1}"


def has_wildcard(answer: str) -> bool:
    """Whether a typed answer holds Moodle's wildcard: a `*` not escaped as `\\*`."""
    return "*" in answer.replace("\\*", "")


def literal(answer: str) -> str:
    """A typed answer without wildcard as the learner types it (`\\*` is a plain `*`)."""
    return answer.replace("\\*", "*")


def from_literal(text: str) -> str:
    """The model's answer for a literal string (a `*` in it escaped)."""
    return text.replace("*", "\\*")


_PATTERN_ESCAPES = set("\\|.?*+(){}-[]^")
"""Characters XML Schema regular expressions escape (XML Schema 2, F.1.1 SingleCharEsc)."""


def wildcard_pattern(answer: str, case_sensitive: bool) -> str:
    """A typed answer with wildcards as a `patternMatch` pattern (an XML Schema regular
    expression, which matches the whole response): `*` = `.*`, letters as `[aA]` when case
    does not matter. `from_pattern` reads it back."""
    out, position = [], 0
    while position < len(answer):
        char = answer[position]
        if answer.startswith("\\*", position):
            out.append("\\*")
            position += 2
            continue
        if char == "*":
            out.append(".*")
        elif not case_sensitive and char.lower() != char.upper() and len(char.upper()) == 1:
            out.append(f"[{char}{char.swapcase()}]")
        elif char == "$":
            out.append("[$]")  # a plain character in XML Schema, the end of the text in JavaScript
        else:
            out.append("\\" + char if char in _PATTERN_ESCAPES else char)
        position += 1
    return "".join(out)


_PATTERN_PART = re.compile(r"\\\*|\.\*|\[\$\]|\[(.)(.)\]|\\(.)|(.)", re.DOTALL)


def from_pattern(pattern: str) -> str | None:
    """The answer `wildcard_pattern` made `pattern` from, or None for any other pattern."""
    out = []
    for match in _PATTERN_PART.finditer(pattern):
        whole, first, second, escaped, char = match.group(0, 1, 2, 3, 4)
        if whole in ("\\*", ".*", "[$]"):
            out.append({".*": "*", "[$]": "$"}.get(whole, whole))
        elif first is not None and first.swapcase() == second:
            out.append(first)
        elif escaped is not None and escaped in _PATTERN_ESCAPES:
            out.append(escaped)
        elif char is not None and char not in _PATTERN_ESCAPES:
            out.append(char)
        else:
            return None
    return "".join(out)


def is_qti(tag: object, local: str) -> bool:
    """True for the QTI 2.1 element `local` (`is_qti(root.tag, "assessmentItem")`)."""
    return tag == f"{{{NS['qti']}}}{local}"
