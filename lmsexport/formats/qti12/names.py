"""IMS QTI 1.2 packages in Canvas's flavour: the names the writer, `validation` and a reader agree on.

QTI ASI 1.2.1: https://www.imsglobal.org/question/qtiv1p2/imsqti_asi_infov1p2.html. The Canvas
names are those of its exporter (canvas-lms `lib/cc/qti/qti_items.rb`, `qti_generator.rb`,
`cc_helper.rb`) and what its importer reads back (`gems/plugins/qti_exporter`, run after
instructure/QTIMigrationTool's `lib/imsqtiv1.py` has turned the package into QTI 2.1); see
docs/formats/canvas.md. A reader turns each of these back: `item_ident` into the question id,
`blank_ident` into the gap id, `media_src` and the equation images into the model's paths and TeX.
"""

from __future__ import annotations

import re
from decimal import Context, Decimal
from urllib.parse import quote, unquote

from ...xml import NS

QTI = NS["qti12"]
CANVAS = NS["canvas"]
QTI_SCHEMA = f"{QTI} http://www.imsglobal.org/xsd/ims_qtiasiv1p2p1.xsd"
"""The `xsi:schemaLocation` Canvas writes (the 1.2.1 URL; lmsexport validates with the ASI 1.2 XSD)."""
CANVAS_SCHEMA = f"{CANVAS} https://canvas.instructure.com/xsd/cccv1p0.xsd"

ASSESSMENT_RESOURCE = "imsqti_xmlv1p2"
"""The manifest type of the assessment (Canvas's quiz-only export, `QTI_ASSESSMENT_TYPE`)."""
META_RESOURCE = "associatedcontent/imscc_xmlv1p1/learning-application-resource"
"""The type whose `assessment_meta.xml` file Canvas reads the quiz settings from (quiz_metadata_converter.rb)."""
WEBCONTENT = "webcontent"
META_FILE = "assessment_meta.xml"
MEDIA_FOLDER = "web_resources/"
"""Where images go; Canvas files them without this prefix (qti.rb `convert_files`)."""
FILEBASE = "$IMS-CC-FILEBASE$"
"""The token before an image path in HTML, resolved by Canvas's link migrator against the package's files."""
ROOT_SECTION = "root_section"

SCORE = "SCORE"
RESPONSE = "response1"
"""The response of choice, short answer, numerical and essay items."""
ANSWER = "answer1"
"""The response_label of a typed response."""
FULL = "100"
"""Canvas's SCORE for a right answer: a percentage (its grading is its own, by question type)."""
GENERAL_FEEDBACK = "general_fb"
CORRECT_FEEDBACK = "correct_fb"
INCORRECT_FEEDBACK = "general_incorrect_fb"

QUESTION_TYPE = "question_type"
POINTS = "points_possible"
ANSWER_IDS = "original_answer_ids"
QUESTION_REF = "assessment_question_identifierref"
MAX_ATTEMPTS = "cc_maxattempts"
TIME_LIMIT = "qmd_timelimit"
"""Assessment metadata: attempts (or `unlimited`) and the time limit in minutes (imsqtiv1.py QMDTimeLimit)."""
UNLIMITED = "unlimited"

MULTIPLE_CHOICE = "multiple_choice_question"
TRUE_FALSE = "true_false_question"
MULTIPLE_ANSWERS = "multiple_answers_question"
SHORT_ANSWER = "short_answer_question"
NUMERICAL = "numerical_question"
ESSAY = "essay_question"
MATCHING = "matching_question"
FILL_IN_BLANKS = "fill_in_multiple_blanks_question"
DROPDOWNS = "multiple_dropdowns_question"
TEXT_ONLY = "text_only_question"
QUESTION_TYPES = (MULTIPLE_CHOICE, TRUE_FALSE, MULTIPLE_ANSWERS, SHORT_ANSWER, NUMERICAL, ESSAY, MATCHING,
                  FILL_IN_BLANKS, DROPDOWNS, TEXT_ONLY)
"""The classic-quiz types lmsexport writes (Canvas also has calculated and file upload questions)."""
CHOICE_TYPES = (MULTIPLE_CHOICE, TRUE_FALSE, MULTIPLE_ANSWERS)
GAP_TYPES = (MATCHING, FILL_IN_BLANKS, DROPDOWNS)
"""Types with one `response_<id>` per blank or left item, scored by adding each one's share."""
TRUE_LABEL, FALSE_LABEL = "True", "False"
"""Canvas keeps a true/false question only when its two answers read True and False (choice_interaction.rb)."""

SCORING_POLICIES = ("keep_highest", "keep_latest", "keep_average")
QUIZ_TYPES = ("assignment", "practice_quiz", "graded_survey", "survey")
HIDE_RESULTS = ("", "always", "until_after_last_attempt")

EQUATION_CLASS = "equation_image"
EQUATION_PATH = "/equation_images/"
DISPLAY = "\\displaystyle "
"""Prefixed to the TeX of display math: Canvas draws every equation image inline, so display math is
drawn in display style; a reader takes the prefix off and makes the formula display math again."""
EXACT = Context(prec=1000)
"""Decimal arithmetic without rounding for any two floats (their decimals span fewer than 800
digits), where the default context's 28 digits would round 1 + 1e-100 to 1."""
_KEEP = "\ue000"
_ALT_PREFIX = "LaTeX: "
_TITLE_LENGTH = 60
_ANSWER_SPAN = 10000
_NOT_BLANK = re.compile(r"[^A-Za-z0-9_-]")


def assessment_path(quiz_id: str) -> str:
    """`<quiz id>/<quiz id>.xml`: Canvas finds the settings at `<assessment ident>/assessment_meta.xml`."""
    return f"{quiz_id}/{quiz_id}.xml"


def meta_path(quiz_id: str) -> str:
    return f"{quiz_id}/{META_FILE}"


def meta_ident(quiz_id: str) -> str:
    return f"{quiz_id}-meta"


def item_ident(quiz_id: str, question_id: str) -> str:
    """Unique across a course's quizzes: Canvas keys questions on it (their migration_id)."""
    return f"{quiz_id}-{question_id}"


def question_ref(quiz_id: str, question_id: str) -> str:
    """The bank question a quiz question was made from, as Canvas exports it (its own id, not the item's)."""
    return f"{item_ident(quiz_id, question_id)}-bank"


def fragment(value: str):
    """An HTML fragment as a tree under a `div`, as the writer and the reader handle texts. libxml2
    drops the space (a no-break space too) before a fragment's first element; a character put
    first and taken off again keeps it. Parsed whole, whatever its length (xml.html_fragment)."""
    from ...xml import html_fragment

    root = html_fragment(_KEEP + value)
    root.text = root.text[len(_KEEP):] or None
    return root


def item_title(prompt_html: str, fallback: str) -> str:
    """The title of a question that has none: the start of its prompt (Canvas needs a title, and lists
    questions by it in banks). A reader drops a title equal to it, which is not the author's."""
    from ...xml import html_fragment

    words = " ".join(html_fragment(prompt_html).text_content().split())
    if len(words) <= _TITLE_LENGTH:
        return words or fallback
    return words[: _TITLE_LENGTH + 1].rsplit(" ", 1)[0][:_TITLE_LENGTH] + "…"


def answer_ident(position: int, number: int) -> str:
    """An integer, as Canvas's answer ids are (others it replaces): unique in the quiz, whose digits
    are unique too (Canvas takes a matching option's id from its first run of digits)."""
    return str(position * _ANSWER_SPAN + number)


def answer_feedback(ident: str) -> str:
    return f"{ident}_fb"


def blank_ident(gap_id: str) -> str:
    """A gap id as a Canvas blank: `[id]` in the text, `response_<id>`; QTIMigrationTool turns `.` into `_`."""
    return _NOT_BLANK.sub("_", gap_id)


def blank_response(blank: str) -> str:
    return f"response_{blank}"


def decimal(value: float) -> str:
    """A number as the shortest decimal that reads back as the same float, with no exponent."""
    text = format(Decimal(repr(float(value))), "f")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def bounds(value: float, margin: float) -> tuple[str, str]:
    """value - margin and value + margin, computed in decimal so that the written bounds are exact."""
    centre, width = Decimal(decimal(value)), Decimal(decimal(margin))
    return _plain(EXACT.subtract(centre, width)), _plain(EXACT.add(centre, width))


def _plain(number: Decimal) -> str:
    text = format(number, "f")
    return text.rstrip("0").rstrip(".") if "." in text else text


def media_src(path: str) -> str:
    """How HTML refers to a quiz image: the token, then each segment of its path URL-escaped (cc_helper.rb)."""
    return "/".join([FILEBASE, *(quote(segment, safe="") for segment in path.split("/"))])


def media_path(src: str) -> str | None:
    """The quiz path `media_src` made `src` from, or None for any other reference."""
    for token in (FILEBASE, quote(FILEBASE, safe="")):
        if src.startswith(token + "/"):
            return unquote(src[len(token) + 1:])
    return None


def equation_attributes(tex: str, display: bool) -> dict[str, str]:
    """The attributes of the image Canvas's editor makes for a formula (text2qti's too): the TeX in
    `data-equation-content` (what Canvas renders and edits), `alt` and `title` (readable without it)."""
    content = DISPLAY + tex if display else tex
    address = quote(quote(content, safe="!*'()"), safe="!*'()")  # encodeURIComponent, twice, as the editor does
    return {
        "class": EQUATION_CLASS,
        "title": content,
        "src": f"{EQUATION_PATH}{address}?scale=1",
        "alt": f"{_ALT_PREFIX}{content}",
        "data-equation-content": content,
    }


def equation_tex(attributes) -> tuple[str, bool] | None:
    """(TeX, display) of an equation image's attributes, or None if they are not an equation's:
    the TeX is `data-equation-content`, else (older Canvas exports) the `alt` after `LaTeX: `."""
    if EQUATION_CLASS not in (attributes.get("class") or "").split():
        return None
    content = attributes.get("data-equation-content")
    alt = attributes.get("alt") or ""
    if content is None and alt.startswith(_ALT_PREFIX):
        content = alt[len(_ALT_PREFIX):]
    if not content or not content.strip():
        return None
    return (content[len(DISPLAY):], True) if content.startswith(DISPLAY) else (content, False)
