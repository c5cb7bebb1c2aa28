"""Moodle XML question banks: a category per quiz, holding its questions.

The file imports through Moodle's Question bank > Import > "Moodle XML format"
(https://docs.moodle.org/en/Moodle_XML_format). It holds what Moodle's importer,
moodle/moodle `question/format/xml/format.php` (qformat_xml), reads for each question:
every element it reads is written, empty or at Moodle's default where the model has
nothing for it, so no question depends on an importer default; `<hidden>` is left out
because no importer reads it. HTML goes into `<text>` escaped by lxml, not in CDATA:
Moodle's parser decodes both alike, and escaping needs no special case for `]]>`.
`grades()` is the grading scheme; docs/formats/moodle.md describes the whole mapping.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from ..diagnostics import Diagnostic, Severity, SourceSpan
from ..model import MultipleChoice, Question, Quiz, Text
from ..moodlerules import (
    IDNUMBER_LIMIT,
    NAME_LIMIT,
    POSITIVE_GRADES,
    adds_up,
    category_path,
    label,
    mark_language,
    moodle_tag,
    question_name,
    shorten,
)
from ..package import Package, WriteOptions
from ..xml import element, number, serialize, sub

NAME = "moodle"
EXTENSION = ".moodle.xml"
PENALTY = 0.3333333
"""Mark lost per wrong try in Moodle's multiple-tries behaviours: qformat_default::defaultquestion()."""
COMBINED_FEEDBACK = ("correctfeedback", "partiallycorrectfeedback", "incorrectfeedback")


def grades(correct: Sequence[bool], multiple_response: bool) -> list[float]:
    """Moodle answer fractions, in percent, for options of which `correct` are right.

    One answer: 100 for the right option, 0 for the others. Multiple response: the right
    options share 100 equally when Moodle's grade list has 100/n (n = 1-10 and 20; the
    thirds, sixths, sevenths and ninths add up to 100 within Moodle's rounding); for
    n = 11-19 the first 20-n are worth 10 and the rest 5; past 20 the first 20 are worth 5
    and the rest 0. Each of m wrong options costs the smallest list value p with m x p >= 100
    (within the list's rounding), so ticking every option totals under 0.0001 %, which
    question_state::graded_state_for_fraction() grades as wrong.
    """
    if not multiple_response:
        return [100.0 if right else 0.0 for right in correct]
    shares = iter(_shares(sum(correct)))
    wrong = len(correct) - sum(correct)
    penalty = -next(p for p in reversed(POSITIVE_GRADES) if p * wrong > 100 - 0.001) if wrong else 0.0
    return [next(shares) if right else penalty for right in correct]


def _shares(count: int) -> list[float]:
    """`count` list values adding up to 100 (to Moodle's rounding), as equal as the list allows."""
    equal = next((share for share in POSITIVE_GRADES if adds_up([share] * count)), None)
    if equal is not None:
        return [equal] * count
    if count < 20:
        return [10.0] * (20 - count) + [5.0] * (2 * count - 20)
    return [5.0] * 20 + [0.0] * (count - 20)


def write(quiz: Quiz, options: WriteOptions | None = None) -> Package:
    """One quiz as a bank file: its category `$course$/top/<title>`, then its questions."""
    bank = _Bank()
    bank.add(quiz, [])
    return bank.package(quiz.id)


def write_bank(quizzes: Sequence[Quiz], name: str, options: WriteOptions | None = None) -> Package:
    """Several quizzes in one bank file `<name>.moodle.xml`: `$course$/top/<name>/<title>` each."""
    if not quizzes:
        raise ValueError("a question bank needs at least one quiz")
    bank = _Bank()
    parent = bank.fit(name, quizzes[0], "the bank name", category=True)
    for quiz in quizzes:
        bank.add(quiz, [parent])
    return bank.package(name)


@dataclass
class _Bank:
    """The document being written, the names already in it, and what Moodle will not keep."""

    root: object = field(default_factory=lambda: element("quiz"))
    names: set[str] = field(default_factory=set)
    categories: set[str] = field(default_factory=set)
    warnings: list[Diagnostic] = field(default_factory=list)

    def package(self, stem: str) -> Package:
        content = serialize(self.root)
        return Package({f"{stem}{EXTENSION}": content}, zipped=False, extension=EXTENSION, warnings=self.warnings)

    def add(self, quiz: Quiz, parents: list[str]) -> None:
        fitted = self.fit(quiz.title, quiz, "the quiz title", category=True)
        title = _unique(fitted, self.categories)
        if title != fitted:
            self.warn("W652", f"another quiz in this bank is titled {fitted!r}, so this one goes into "
                      f"the category {title!r}", _quiz_span(quiz))
        _write_category(self.root, quiz, [*parents, title])
        for question in quiz.questions:
            write_question = _QUESTION_WRITERS.get(question.kind)
            if write_question is None:
                self.warn("W654", f"question {question.id} is of kind {question.kind!r}, which Moodle XML output "
                          "does not support yet; it is left out", _span(quiz, question))
                continue
            write_question(self, quiz, question)

    def fit(self, value: str, quiz: Quiz, what: str, question: Question | None = None, *, category=False) -> str:
        """`value` as Moodle will keep it in a name, with a warning when that changes it.

        Names hold 255 characters, PHP's strip_tags() would eat a `<` before a letter, and a
        category name cannot start with `/` (split_category_path() would take it for a separator).
        """
        fitted = label(shorten(value.strip(), NAME_LIMIT))
        if category:
            fitted = fitted.lstrip("/").strip() or quiz.id
        if fitted != value:
            self.warn("W652", f"{what} {value!r} is written as {fitted!r}, which Moodle keeps as it is",
                      _span(quiz, question))
        return fitted

    def warn(self, code: str, message: str, span: SourceSpan) -> None:
        self.warnings.append(Diagnostic(code, message, span, severity=Severity.WARNING))


def _write_category(root, quiz: Quiz, path: list[str]) -> None:
    """The category question: Moodle puts the questions after it into that category."""
    node = sub(root, "question", {"type": "category"})
    sub(sub(node, "category"), "text", text=category_path(path))
    _rich(node, "info", _html(quiz.description, quiz.lang))
    sub(node, "idnumber", text=_idnumber(quiz.id))


def _write_multiple_choice(bank: _Bank, quiz: Quiz, question: MultipleChoice) -> None:
    lang = question.lang or quiz.lang
    node = sub(bank.root, "question", {"type": "multichoice"})
    _write_header(bank, node, quiz, question, lang)
    sub(node, "single", text="false" if question.multiple_response else "true")
    sub(node, "shuffleanswers", text="true" if quiz.settings.shuffle else "false")
    sub(node, "answernumbering", text="abc")  # the letters of the source's options and answer key
    sub(node, "showstandardinstruction", text="1")  # "Select one:" / "Select one or more:"
    for name in COMBINED_FEEDBACK:
        _rich(node, name, "")
    if question.multiple_response:
        sub(node, "shownumcorrect")  # import_combined_feedback(): its presence means true
    percents = grades([choice.correct for choice in question.choices], question.multiple_response)
    _warn_unequal_shares(bank, quiz, question, percents)
    for choice, percent in zip(question.choices, percents, strict=True):
        answer = sub(node, "answer", {"fraction": number(percent), "format": "html"})
        sub(answer, "text", text=_html(choice.text, lang))
        _rich(answer, "feedback", _html(choice.feedback, lang))
    _write_tags(bank, node, quiz, question)


_QUESTION_WRITERS = {MultipleChoice.kind: _write_multiple_choice}


def _write_header(bank: _Bank, node, quiz: Quiz, question: Question, lang: str | None) -> None:
    """What import_headers() reads for every question type."""
    if question.title:
        base = bank.fit(question.title, quiz, f"the title of question {question.id}", question)
    else:
        base = question_name(question.prompt, question.id)
    sub(sub(node, "name"), "text", text=_unique(base, bank.names))
    _rich(node, "questiontext", _html(question.prompt, lang))
    _rich(node, "generalfeedback", _html(question.explanation, lang))
    sub(node, "defaultgrade", text=number(question.points))
    sub(node, "penalty", text=number(PENALTY))
    sub(node, "idnumber", text=_idnumber(f"{_idnumber(quiz.id)}-{question.id}"))


def _write_tags(bank: _Bank, node, quiz: Quiz, question: Question) -> None:
    """The quiz's tags, then the question's own: Moodle finds questions by tag, categories have none."""
    tags = list(dict.fromkeys((*quiz.tags, *question.tags)))
    if not tags:
        return
    parent = sub(node, "tags")
    for tag in tags:
        stored = moodle_tag(tag)
        if stored != tag:
            bank.warn("W653", f"tag {tag!r} becomes {stored!r} in Moodle (tags hold 50 characters, "
                      "without < > or `)", _span(quiz, question))
        sub(sub(parent, "tag"), "text", text=tag)


def _warn_unequal_shares(bank: _Bank, quiz: Quiz, question: MultipleChoice, percents: list[float]) -> None:
    shares = Counter(p for p, choice in zip(percents, question.choices, strict=True) if choice.correct)
    if len(shares) > 1:
        split = " and ".join(f"{count} worth {number(share)} %" for share, count in shares.items())
        total = sum(shares.values())
        bank.warn("W651", f"question {question.id} has {total} right options and Moodle's grade list has no "
                  f"100/{total} %, so they are not worth the same: {split} (in option order)", _span(quiz, question))


def _rich(parent, name: str, fragment: str) -> None:
    """A text field Moodle reads with import_text_with_files(): HTML in `<text>`."""
    sub(sub(parent, name, {"format": "html"}), "text", text=fragment)


def _html(text: Text | None, lang: str | None) -> str:
    """A text as the HTML Moodle shows, marked with its language (see moodlerules.mark_language)."""
    if text is None:
        return ""
    return mark_language(text.html(), text.lang or lang, block=text.format == "html")


def _unique(base: str, used: set[str]) -> str:
    """`base`, or `base (2)`, `base (3)` ... whichever is not in `used` yet; then it is."""
    name, count = base, 1
    while name in used:
        count += 1
        name = f"{base} ({count})"
    used.add(name)
    return name


def _idnumber(value: str) -> str:
    """`value` within Moodle's 100-character idnumbers; a longer one keeps its start and a digest."""
    if len(value) <= IDNUMBER_LIMIT:
        return value
    digest = hashlib.blake2b(value.encode("utf-8"), digest_size=5).hexdigest()
    return f"{value[: IDNUMBER_LIMIT - len(digest) - 1]}-{digest}"


def _span(quiz: Quiz, question: Question | None) -> SourceSpan:
    if question is not None and question.source is not None:
        return question.source
    return _quiz_span(quiz)


def _quiz_span(quiz: Quiz) -> SourceSpan:
    """Where a quiz came from: the file of its questions (the model keeps no quiz position)."""
    sources = [q.source.source for q in quiz.questions if q.source is not None]
    return SourceSpan(sources[0] if sources else quiz.id)
