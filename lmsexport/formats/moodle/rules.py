"""Moodle XML: what Moodle's question importer accepts, and lmsexport's conventions inside it.

Moodle publishes no schema for its question XML (https://docs.moodle.org/en/Moodle_XML_format);
its importer is the specification: moodle/moodle `question/format/xml/format.php` (`qformat_xml`)
with `question/format.php` (`qformat_default::importprocess`). `schemas/moodle/moodle-xml.xsd`
checks the shape of a file; this module holds what XSD 1.0 cannot say, shared by
the writer, the reader and `lmsexport validate`:

* the grade list and Moodle's tolerances;
* names, tags and category paths as Moodle stores them;
* how lmsexport marks the language of an HTML field, and the feedback it appends to an
  answer's own (`join_feedback`), so that the reader can undo both exactly;
* where an image goes in Moodle's file areas (`file_place`);
* `QuestionRules`: the importer's checks on each question, which validation runs after the
  schema.
"""

from __future__ import annotations

import html
import math
import re
import sys
from collections.abc import Iterable, Sequence
from decimal import ROUND_HALF_UP, Decimal

from . import cloze as moodlecloze
from .limits import IDNUMBER_LIMIT, TAG_LIMIT
from ...diagnostics import Diagnostic, SourceSpan
from ...paths import unsafe_path
from ...model import Text, is_language_tag
from ...text import default_title, direction

POSITIVE_GRADES = (100, 90, 83.33333, 80, 75, 70, 66.66667, 60, 50, 40, 33.33333, 30, 25, 20,
                   16.66667, 14.28571, 12.5, 11.11111, 10, 5)
"""The positive percentages of `question_bank::fraction_options_full()` (question/engine/bank.php)."""
GRADES = (*POSITIVE_GRADES, 0, *(-grade for grade in POSITIVE_GRADES))
"""Every percentage Moodle stores for an answer: the list above, 0 and their negatives."""
GRADED_TYPES = frozenset({"multichoice", "shortanswer", "numerical", "calculated", "calculatedsimple",
                          "calculatedmulti"})
"""Types whose importer sets `$question->fraction`, which importprocess() matches against GRADES."""

_TAG_START = re.compile(r"<(?!\s)")
_TAG_NASTIES = re.compile(r"[\x00-\x1f\x7f<>`]")
_PATH_SPLIT = re.compile(r"(?<!/)/(?!/)")
_CONTEXT = re.compile(r"\$[a-z]+\$")
_WRAPPER = re.compile(r'<(span|div) lang="([A-Za-z0-9-]+)"( dir="rtl")?>(.*)</\1>\Z', re.DOTALL)
_MATH = re.compile(r"\\\(.+?\\\)|\\\[.+?\\\]", re.DOTALL)
_JOINED = re.compile(r'<div class="lmsexport-(correct|incorrect)">')
_FILE_NASTIES = re.compile(r"[\x00-\x1f\x7f&<>\"`|':\\/]")


def grade(percent: float) -> float | None:
    """The list value Moodle stores for `percent`, or None if its importer refuses it.

    match_grade_options() in its default 'error' mode accepts a fraction within 0.00001 of a
    list value (0.001 in percent): `33.333` passes, `33.33` aborts the whole import.
    """
    return next((value for value in GRADES if abs(percent - value) < 0.001), None)


def adds_up(percents: Iterable[float]) -> bool:
    """True if Moodle accepts these as the positive grades of a multiple-answer question.

    qtype_multichoice::save_question_options() rounds their sum (as a 0-1 fraction) to two
    decimals, as PHP's round() does, and wants exactly 1: 3 x 33.33333 is fine.
    """
    total = Decimal(repr(sum(percents) / 100)).quantize(Decimal("0.01"), ROUND_HALF_UP)
    return total == 1


def label(text: str) -> str:
    """`text` as Moodle keeps it in a question or category name.

    clean_param(PARAM_TEXT) runs PHP's strip_tags(), which deletes everything from a `<` that
    is not followed by a space up to the next `>`; such a `<` is written as `‹` instead.
    """
    return _TAG_START.sub("\u2039", text)


def moodle_tag(tag: str) -> str:
    """`tag` as Moodle stores it: clean_param(PARAM_TAG) drops `<>` and backticks, squeezes spaces, cuts at 50."""
    return " ".join(_TAG_NASTIES.sub("", tag).split())[:TAG_LIMIT]


def question_name(prompt: Text, fallback: str) -> str:
    """The name lmsexport gives a question without a title: the title every format gives it
    (text.default_title), as Moodle keeps it."""
    return label(default_title(prompt, fallback))


def category_path(names: Sequence[str]) -> str:
    """`$course$/top/A/B`: categories in the course's question bank, `//` for a `/` in a name."""
    return "/".join(["$course$", "top", *(name.replace("/", "//") for name in names)])


def category_names(path: str) -> list[str]:
    """The names in a category path, without its context and `top` (create_category_path)."""
    names = [part.replace("//", "/").strip() for part in _PATH_SPLIT.split(path.strip())]
    if names and _CONTEXT.fullmatch(names[0]):
        names = names[1:]
    if names and names[0] == "top":
        names = names[1:]
    return [name for name in names if name]


def mark_language(fragment: str, lang: str | None, *, block: bool) -> str:
    """An HTML fragment marked as written in `lang`, for screen readers, fonts and hyphenation.

    Moodle shows questions inside pages in the learner's interface language. A plain text gets
    `<span lang>`; HTML, which may hold paragraphs, gets `<div lang>`; a right-to-left
    language gets `<div lang dir="rtl">`, since only a block sets a paragraph's direction.
    """
    if lang is None:
        return fragment
    tag = html.escape(lang, quote=True)
    if direction(lang) == "rtl":
        return f'<div lang="{tag}" dir="rtl">{fragment}</div>'
    if block:
        return f'<div lang="{tag}">{fragment}</div>'
    return f'<span lang="{tag}">{fragment}</span>'


def unmark_language(fragment: str) -> tuple[str, str | None]:
    """Undo mark_language(): the fragment inside the marking and its language, else (fragment, None)."""
    match = _WRAPPER.match(fragment)
    if not match or not is_language_tag(match[2]) or not _balanced(match[4], match[1]):
        return fragment, None
    return match[4], sys.intern(match[2])  # a bank's texts name a few languages over and over


def text_from_html(fragment: str) -> Text:
    """A plain text if `fragment` is exactly what Text.html() makes of one, else HTML.

    TeX between `\\(` `\\)` or `\\[` `\\]` makes it HTML even without markup: Moodle's MathJax
    filter shows it as math, and math is part of the model's HTML text (see model.Text)."""
    if _MATH.search(fragment):
        return Text(fragment, "html")
    try:
        plain = Text(html.unescape(fragment.replace("<br>", "\n")))
    except ValueError:  # ModelError: a reference to something a text cannot hold (U+0001, NFD)
        return Text(fragment, "html")
    return plain if plain.html() == fragment else Text(fragment, "html")


def _balanced(inner: str, tag: str) -> bool:
    """True if `inner` closes every `tag` it opens and none it did not (so the wrapper wraps all)."""
    depth = 0
    for found in re.finditer(rf"<(/?){tag}\b[^>]*>", inner, re.IGNORECASE):
        depth += -1 if found[1] else 1
        if depth < 0:
            return False
    return depth == 0


def join_feedback(own: str, combined: str, which: str) -> str:
    """An answer's feedback followed by the question's `correct` or `incorrect` feedback.

    Moodle's shortanswer and numerical types have no combined feedback: the learner sees the
    feedback of the answer they matched, so the question's feedback rides along in a marked
    `<div>` that split_feedback() takes off again.
    """
    return f'{own}<div class="lmsexport-{which}">{combined}</div>'


def split_feedback(fragment: str) -> tuple[str, str | None, str | None]:
    """Undo join_feedback(): (own feedback, `correct`/`incorrect` or None, the joined feedback)."""
    starts = list(_JOINED.finditer(fragment))
    if not starts or not fragment.endswith("</div>"):
        return fragment, None, None
    inner = fragment[starts[-1].end(): -len("</div>")]
    if not _balanced(inner, "div"):
        return fragment, None, None
    return fragment[: starts[-1].start()], starts[-1][1], inner


def file_place(path: str) -> tuple[str, str]:
    """An asset path as a Moodle file area keeps it: (`/img/`, `graph.png`).

    file_storage::create_file_from_string() cleans names with PARAM_FILE, which deletes
    control characters and `& < > " \\` | ' : \\ /`; the same is done here, so that the
    `@@PLUGINFILE@@` link and the stored file keep matching. Folders are kept, so two
    `graph.png` in different folders stay two files.
    """
    *folders, name = (_FILE_NASTIES.sub("", part) or "_" for part in path.split("/"))
    return "/" + "".join(f"{folder}/" for folder in folders), name


def nearest_grade(percent: float) -> float:
    """The value of Moodle's grade list nearest to `percent` (the higher one on a tie)."""
    return min(GRADES, key=lambda value: (abs(value - percent), -value))


def blank(text: str | None) -> bool:
    """Whether Moodle takes a `<text>` for no text: the question types' save_question_options()
    skip an answer whose text PHP's trim() empties (spaces, tabs, line ends, NUL, vertical tab)."""
    return not (text or "").strip(" \t\n\r\0\x0b")


def trans_single(value: str | None, default: bool) -> bool:
    """A Moodle boolean as qformat_xml::trans_single() reads it: `false`, `0` and empty are false."""
    if value is None:
        return default
    return value.strip() not in ("false", "0", "")


def answer_percent(answer, kind: str = "multichoice") -> float | None:
    """An `<answer>`'s grade in percent as the importers read it, None if it is not a number.

    import_answer() divides @fraction by 100; import_numerical() and import_calculated() let
    the deprecated `<fraction>` child, already a 0-1 fraction, win over it.
    """
    child = answer.findtext("fraction") if kind == "numerical" or kind.startswith("calculated") else None
    try:
        percent = float(child) * 100 if child is not None and child.strip() else float(answer.get("fraction", "0"))
    except ValueError:
        return None
    return percent if math.isfinite(percent) else None


class QuestionRules:
    """The importer's rules no XSD 1.0 can state, applied to the questions of a `<quiz>` in
    document order: an idnumber is checked against the earlier ones of its category."""

    def __init__(self, source: str):
        self.source = source
        self.category = ""
        self.idnumbers: dict = {}

    def check(self, question) -> list[Diagnostic]:
        """What Moodle's importer would refuse in one `<question>`."""
        kind, source = question.get("type"), self.source
        if kind == "category":
            self.category = (question.findtext("category/text") or "").strip()
            return []
        findings: list[Diagnostic] = []
        name = question.find("name/text")
        if name is not None and not (name.text or "").strip():
            findings.append(_finding(source, name, "V306", "the question has an empty name",
                                     "give it a name: Moodle lists and finds questions by name"))
        findings += _check_idnumber(question, self.category, self.idnumbers, source)
        if kind in GRADED_TYPES:
            findings += _check_grades(question, source)
        if kind == "multichoice":
            findings += _check_multichoice(question, source)
        findings += _KIND_CHECKS.get(kind, lambda *_: [])(question, source)
        return findings + _check_files(question, source)


def _check_files(question, source: str) -> list[Diagnostic]:
    """A `<file>` whose path and name would leave the folder Moodle unpacks it into."""
    findings = []
    for file in question.iter("file"):
        name = f"{file.get('path', '/').strip('/')}/{file.get('name', '')}".lstrip("/")
        reason = unsafe_path(name)
        if reason is not None:
            findings.append(_finding(source, file, "V314", f"the file name {name!r} is unsafe: {reason}",
                                     "name the file with a plain relative name (img/graph.png)"))
    return findings


def _check_idnumber(question, category: str, seen: dict, source: str) -> list[Diagnostic]:
    node = question.find("idnumber")
    if node is None or not node.text:
        return []
    if len(node.text) > IDNUMBER_LIMIT:
        return [_finding(source, node, "V308", f"the idnumber is {len(node.text)} characters long; "
                         f"Moodle's column holds {IDNUMBER_LIMIT}", "shorten it")]
    first = seen.setdefault((category, node.text), node.sourceline)
    if first == node.sourceline:
        return []
    return [_finding(source, node, "V307", f"idnumber {node.text!r} is already used in this category (line {first}); "
                     "Moodle silently drops the second one (importprocess)", "give every question its own idnumber")]


def _check_grades(question, source: str) -> list[Diagnostic]:
    findings = []
    for answer in question.iterchildren("answer"):
        percent = answer_percent(answer, question.get("type"))
        if percent is not None and grade(percent) is None:
            findings.append(_finding(
                source, answer, "V302",
                f"answer grade {percent:g} % is not one of Moodle's grades, so Moodle refuses the whole import "
                "(importprocess, match_grade_options)",
                "use 100, 90, 83.33333, 80, 75, 70, 66.66667, 60, 50, 40, 33.33333, 30, 25, 20, 16.66667, "
                "14.28571, 12.5, 11.11111, 10, 5, 0 or one of their negatives"))
    return findings


def _check_multichoice(question, source: str) -> list[Diagnostic]:
    answers = list(question.iterchildren("answer"))
    if len(answers) < 2:
        return [_finding(source, question, "V305", "a multichoice question needs two answers or more "
                         "(qtype_multichoice: notenoughanswers)", "add the missing answers")]
    # save_question_options() skips answers whose text is blank before it checks the grades.
    percents = [answer_percent(a) for a in answers if not blank(a.findtext("text"))]
    grades = [grade(p) for p in percents if p is not None]
    if None in grades or len(grades) < len(percents):
        return []  # reported as V302, or by the schema
    if trans_single(question.findtext("single"), True):
        if max(grades, default=0) != 100:
            return [_finding(source, question, "V303", "no answer of this single-answer question is worth 100 % "
                             "(qtype_multichoice: fractionsnomax)", "give the right answer fraction=\"100\"")]
    elif not adds_up(g for g in grades if g > 0):
        total = sum(g for g in grades if g > 0)
        return [_finding(source, question, "V304", f"the positive grades of this multiple-answer question add up to "
                         f"{total:g} %, not 100 % (qtype_multichoice: fractionsaddwrong)",
                         "share 100 % among the right answers, e.g. 50 + 50 or 3 x 33.33333")]
    return []


def _check_full_credit(question, source: str) -> list[Diagnostic]:
    """shortanswer and numerical save_question_options(): the best answer is worth 100 % (fractionsnomax)."""
    percents = [answer_percent(a, question.get("type")) for a in question.iterchildren("answer")
                if not blank(a.findtext("text"))]
    if None in percents or any(grade(p) == 100 for p in percents):
        return []  # a grade that is not a number is the schema's finding
    return [_finding(source, question, "V309", f"no answer of this {question.get('type')} question is worth 100 %, "
                     "so Moodle refuses it (fractionsnomax)", "give the right answer fraction=\"100\"")]


def _check_numerical(question, source: str) -> list[Diagnostic]:
    findings = _check_full_credit(question, source)
    for answer in question.iterchildren("answer"):
        text = (answer.findtext("text") or "").strip()
        if text != "*" and not _NUMERIC_ANSWER.fullmatch(text):
            findings.append(_finding(source, answer, "V313", f"numerical answer {text!r} is not a number or *, which "
                                     "Moodle refuses (answermustbenumberorstar)", "write the number, such as 2.5"))
    return findings


def _check_matching(question, source: str) -> list[Diagnostic]:
    """qtype_match::save_question_options(): its `nomatchinganswer` notice ends importprocess()."""
    return [_finding(source, sub, "V310", "this subquestion has a text but no answer to match; Moodle stops the "
                     "import at this question without importing the ones after it (nomatchinganswer)",
                     "give it an <answer><text>, or leave the text empty to make the answer a distractor")
            for sub in question.iterchildren("subquestion")
            if not blank(sub.findtext("text")) and blank(sub.findtext("answer/text"))]


def _check_ordering(question, source: str) -> list[Diagnostic]:
    """qtype_ordering::save_question_options(): its `notenoughanswers` notice ends importprocess()."""
    if sum(not blank(a.findtext("text")) for a in question.iterchildren("answer")) >= 2:
        return []
    return [_finding(source, question, "V311", "an ordering question needs two items or more; Moodle stops the import "
                     "at this question without importing the ones after it (notenoughanswers)", "add the items")]


def _check_cloze(question, source: str) -> list[Diagnostic]:
    """import_multianswer(): qtype_multianswer_validate_question() refuses the whole question."""
    _, gaps = moodlecloze.parse((question.findtext("questiontext/text") or "").strip())
    return [_finding(source, question.find("questiontext"), "V312", "Moodle refuses this Cloze question "
                     f"(invalidmultianswerquestion): {problem}", "write each gap as {1:SHORTANSWER:=answer} or "
                     "{1:MULTICHOICE:=right~wrong}; see https://docs.moodle.org/en/Embedded_Answers_(Cloze)_question_type")
            for problem in moodlecloze.problems(gaps)]


_KIND_CHECKS = {"shortanswer": _check_full_credit, "numerical": _check_numerical, "matching": _check_matching,
                "match": _check_matching, "ordering": _check_ordering, "cloze": _check_cloze,
                "multianswer": _check_cloze}
_NUMERIC_ANSWER = re.compile(r"[+-]?(?:[0-9]+[.,]?[0-9]*|[.,][0-9]+)(?:[eE][-+]?[0-9]+)?")


def _finding(source: str, node, code: str, message: str, hint: str) -> Diagnostic:
    """A finding at `node`, or at the start of the file if the element is missing (a Cloze
    question without `<questiontext>`)."""
    line = getattr(node, "sourceline", 0) or 0
    return Diagnostic(code, message, SourceSpan(source, line), hint)
