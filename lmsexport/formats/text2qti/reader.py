"""Read text2qti quizzes (https://github.com/gpoore/text2qti, version 0.8) into the model.

    Quiz title: Addition                  the quiz: title, description, then its options
    Quiz description: Checking addition.
    shuffle answers: true
    Title: An addition question           before a question: its title and points
    Points: 2
    1.  What is 2+3?                      a question (see `questions` for the kinds)
    ... General question feedback.
    +   Feedback for correct answer.
    -   Feedback for incorrect answer.
    a)  6
    ... Feedback for this particular answer.
    *c) 5
    Text title: / Text:                   a text between questions

`lines` cuts the file into elements, `drafts` checks each in its question, `questions` makes
the model's questions, `texts` reads the Markdown. Every problem in the file is collected
before one SourceError is raised; what the model cannot carry (file-upload questions, quiz
options other than `shuffle answers`, `!` solutions) is a warning in the log. Question
groups (GROUP ... END_GROUP) are the model's pools (`groups`).
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass
from typing import Callable

from ...diagnostics import Diagnostic, Log, SourceError, SourceSpan
from ...ids import file_stem, slug
from ...model import MEDIA_TYPES, Asset, Description, Quiz, Settings, Text
from ...textinput import decode
from .drafts import KINDS, QuestionDraft, add_answer, add_feedback
from .groups import Group, on_group, read_pools
from .lines import Element, elements
from .questions import build
from .texts import IMAGE_ATTRIBUTES, TexError, to_text

READ_OPTIONS = ("assets", "log")
"""`read` takes `assets` (a loader for the images the quiz shows) and `log` (for warnings)."""

QUIZ_OPTIONS = {
    "quiz_shuffle_answers": ("shuffle answers", False, ""),
    "quiz_show_correct_answers": ("show correct answers", True, "the LMS shows correct answers as it is set to"),
    "quiz_one_question_at_a_time": ("one question at a time", False, "the LMS shows questions as it is set to"),
    "quiz_cant_go_back": ("can't go back", False, "the LMS lets learners go back as it is set to"),
    "quiz_feedback_is_solution": ("feedback is solution", False, "it only changes text2qti's solutions export"),
    "quiz_solutions_sample_groups": ("solutions sample groups", False, "it only changes text2qti's solutions export"),
    "quiz_solutions_randomize_groups": ("solutions randomize groups", False,
                                        "it only changes text2qti's solutions export"),
}
"""Each quiz option: as written, text2qti's default, and what happens instead when it is not."""
_FEEDBACK_KINDS = frozenset({"feedback", "correct_feedback", "incorrect_feedback", "solution"})


@dataclass
class TextRegion:
    """A `Text title:` and / or `Text:` between questions."""

    number: int
    line: int
    title: str | None = None
    text: Text | None = None


def _plain(text: str) -> str:
    """A title: plain text on one line (text2qti writes it into an XML attribute)."""
    return " ".join(text.split("\n"))


class Reader:
    """One file's reading: its quiz-level parts, its questions and text regions, its problems."""

    def __init__(self, text: str, source: str, log: Log, assets: Callable[[str], bytes] | None):
        self.source, self.log, self.loader = source, log, assets
        self.lines = text.split("\n")
        self.problems: list[Diagnostic] = []
        self.title: str | None = None
        self.description: Element | None = None
        self.options: dict[str, bool] = {}
        self.items: list[QuestionDraft | TextRegion] = []
        self.current: QuestionDraft | None = None
        """The question the next choice or feedback belongs to (none after a text or a GROUP line)."""
        self.region: TextRegion | None = None
        """A text region that has a title and may still take its text (only right after its title)."""
        self.pending: dict[str, Element] = {}
        """`Title:` and `Points:` waiting for their question."""
        self.group: Group | None = None
        """The GROUP being read (no END_GROUP yet)."""
        self.groups: list[Group] = []
        self.images: dict[str, int] = {}
        """Every local image shown, by path, with the line where it is first shown."""

    @property
    def feedback_is_solution(self) -> bool:
        return self.options.get("quiz_feedback_is_solution", False)

    @property
    def started(self) -> bool:
        return bool(self.items) or self.group is not None

    def error(self, code: str, message: str, where: Element | int, hint: str) -> None:
        """A problem at an element (or a line)."""
        self.report(code, message, where if isinstance(where, int) else where.line, 1, hint)

    def report(self, code: str, message: str, line: int, column: int, hint: str) -> None:
        span = SourceSpan(self.source, line, column)
        self.problems.append(Diagnostic(code, message, span, hint, source_line=self.lines[line - 1]))

    def text(self, element: Element, owner: str) -> Text | None:
        """The element's Markdown as the model's text; None (reported) if it cannot be read.
        `owner` names what the text belongs to (`question 3`) in warnings."""
        markdown = element.text
        if IMAGE_ATTRIBUTES.search(markdown):
            self.log.unsupported("W954", SourceSpan(self.source, element.line, 1), question=owner,
                                 format="lmsexport", feature="Pandoc attributes after an image ({width=...})",
                                 instead="they are left out", hint="size the image file itself, or write the image "
                                 "in HTML: <img src=... width=...>")
            markdown = IMAGE_ATTRIBUTES.sub(lambda match: match["image"], markdown)
        try:
            return to_text(markdown, lambda src: self._image(src, element.line))
        except TexError as exc:
            self.error("E964", f"{exc}: text2qti does not convert it either", element,
                       r"write \num{1.5e3}, \si{m/s} or \SI{3}{\ohm} (see text2qti's README), or plain LaTeX in $...$")
            return None

    def _image(self, src: str, line: int) -> str:
        path = src if src.startswith(("/", "~", "\\")) or ":" in src else posixpath.normpath(src)
        self.images.setdefault(path, line)
        return path

    def read(self) -> None:
        for element in elements(self.lines, self.report):
            if self.pending and element.kind not in ("question", "question_title", "question_points"):
                self._unused_attributes(element)
            if element.kind != "text":
                self.region = None
            self._dispatch(element)
        if self.pending:
            self._unused_attributes(None)
        if self.group is not None:
            self.error("E962", "the GROUP has no END_GROUP", self.group.start, "end the group with a line END_GROUP")
        if not self.items and not self.problems:
            self.error("E966", "no questions found", 1,
                       "start each question with its number and a dot (1.  What ...?) and its choices with a "
                       "letter (a)  ...), the correct one with a * (*b)  ...)")

    def _dispatch(self, element: Element) -> None:
        kind = element.kind
        if kind in KINDS or kind in _FEEDBACK_KINDS:
            self._on_question_part(element)
        elif kind in QUIZ_OPTIONS:
            self._on_quiz_option(element)
        elif kind in ("start_group", "end_group") or kind.startswith("group_"):
            on_group(self, element)
        elif kind == "end_code":
            self.error("E952", "a code block fence with no code block to close", element,
                       "indent a code block under the question, choice or feedback it belongs to")
        else:
            getattr(self, f"_on_{kind}")(element)

    def _unused_attributes(self, element: Element | None) -> None:
        first = min(self.pending.values(), key=lambda e: e.line)
        names = " and ".join(f"{name.capitalize()}:" for name in self.pending)
        whose = "its" if len(self.pending) == 1 else "their"
        self.error("E956", f"{names} on line {first.line} must be followed by {whose} question",
                   element or first, "put Title: and Points: right before the question's number line, or remove them")
        self.pending = {}

    def _on_quiz_title(self, element: Element) -> None:
        if self._quiz_head(element, "the quiz title (Quiz title:)", self.title is not None):
            if self.description is not None:
                self.error("E956", "the quiz title must come before the quiz description", element,
                           "move Quiz title: to the first line")
            self.title = _plain(element.text)

    def _on_quiz_description(self, element: Element) -> None:
        if self._quiz_head(element, "the quiz description (Quiz description:)", self.description is not None):
            self.description = element

    def _quiz_head(self, element: Element, what: str, given: bool) -> bool:
        """Whether a quiz title or description is in its place: once, before options and questions."""
        if given:
            self.error("E957", f"{what} is given twice", element, "keep one of them")
        elif self.started or self.options:
            later = "the first question" if self.started else "the quiz options"
            self.error("E956", f"{what} must come before {later}", element, "move it to the top of the file")
        else:
            return True
        return False

    def _on_quiz_option(self, element: Element) -> None:
        name, default, instead = QUIZ_OPTIONS[element.kind]
        if self.started:
            self.error("E956", f"the quiz option '{name}:' must come before the first question", element,
                       "move it to the top, after Quiz title: and Quiz description:")
        elif element.kind in self.options:
            self.error("E957", f"the quiz option '{name}:' is given twice", element, "keep one of them")
        elif element.text not in ("true", "True", "false", "False"):
            self.error("E961", f"the quiz option '{name}:' is true or false, not {element.text!r}", element,
                       f"write {name}: true (or false)")
        elif element.kind == "quiz_cant_go_back" and not self.options.get("quiz_one_question_at_a_time"):
            self.error("E956", "'can't go back:' needs 'one question at a time: true' before it", element,
                       "add one question at a time: true on the line above")
        else:
            value = self.options[element.kind] = element.text.lower() == "true"
            if instead and value != default:
                self.log.unsupported("W952", SourceSpan(self.source, element.line, 1), format="the lmsexport model",
                                     feature=f"the quiz option '{name}: {element.text}'", instead=instead,
                                     hint="set it in the LMS after importing the quiz")

    def _on_question_title(self, element: Element) -> None:
        if "title" in self.pending:
            self.error("E957", "the next question's Title: is given twice", element, "keep one of them")
        elif "points" in self.pending:
            self.error("E956", "Title: must come before Points:", element, "swap the two lines")
        else:
            self.pending["title"] = element

    def _on_question_points(self, element: Element) -> None:
        if "points" in self.pending:
            self.error("E957", "the next question's Points: is given twice", element, "keep one of them")
        else:
            self.pending["points"] = element

    def _on_question(self, element: Element) -> None:
        title, points = self.pending.pop("title", None), self.pending.pop("points", None)
        number = sum(isinstance(item, QuestionDraft) for item in self.items) + 1
        self.current = QuestionDraft(number, element, self.text(element, f"question {number}"),
                                     title=title and _plain(title.text),
                                     points=points)
        self.items.append(self.current)

    def _on_question_part(self, element: Element) -> None:
        if self.current is None:
            self.error("E956", f"{'feedback' if element.kind in _FEEDBACK_KINDS else 'an answer'} with no question "
                       "before it", element, "write the question (1.  ...) above it")
        elif element.kind in _FEEDBACK_KINDS:
            add_feedback(self, self.current, element)
        else:
            add_answer(self, self.current, element)

    def _on_text_title(self, element: Element) -> None:
        self.current = None
        self.region = TextRegion(sum(isinstance(i, TextRegion) for i in self.items) + 1, element.line,
                                 title=_plain(element.text))
        self.items.append(self.region)

    def _on_text(self, element: Element) -> None:
        self.current = None
        if self.region is None:
            self.region = TextRegion(sum(isinstance(i, TextRegion) for i in self.items) + 1, element.line)
            self.items.append(self.region)
        self.region.text, self.region = self.text(element, f"text block {self.region.number}"), None

    def quiz(self) -> Quiz:
        """The model's quiz; raises SourceError with every problem of the file."""
        built = []
        for index, item in enumerate(self.items):
            question = build(self, item) if isinstance(item, QuestionDraft) else self._description(item)
            if question is not None:
                built.append((index, question))
        questions, pools = read_pools(self, built)
        description = self.text(self.description, "the quiz description") if self.description else None
        assets = self._load_assets()
        if not questions and not self.problems:
            self.error("E966", "the quiz has no question lmsexport can carry", self.items[0].line if isinstance(
                self.items[0], TextRegion) else self.items[0].element, "add a question other than a file upload")
        if self.problems:
            raise SourceError(self.problems)
        stem = file_stem(self.source)
        shuffle = self.options.get("quiz_shuffle_answers", False)
        return Quiz(id=slug(stem), title=self.title or stem or "Quiz", description=description,
                    settings=Settings(shuffle=shuffle), questions=tuple(questions), pools=pools, assets=assets)

    def _description(self, region: TextRegion) -> Description | None:
        if region.text is None and region.title is None:
            return None  # its text could not be read, which is reported
        prompt = region.text or Text(region.title)
        return Description(id=f"t{region.number}", title=region.title, points=0.0, prompt=prompt,
                           source=SourceSpan(self.source, region.line, 1))

    def _load_assets(self) -> tuple[Asset, ...]:
        loaded = []
        for path, line in self.images.items():
            media_type = MEDIA_TYPES.get(posixpath.splitext(path)[1].lower())
            if path.startswith(("/", "~", "\\", "../")) or ":" in path or path == "..":
                problem = f"image {path!r} is not a file in the quiz's folder", "put the image beside the quiz " \
                          "(or in a folder below it) and refer to it by a relative path, or link an http(s) image"
            elif media_type is None:
                problem = f"image {path!r} is not a PNG, JPEG, GIF, SVG or WebP file", "convert it to one of those"
            elif self.loader is None:
                problem = f"image {path!r} cannot be loaded: the quiz was not read from a folder", \
                          "build the quiz from its file, with its images beside it"
            else:
                try:
                    loaded.append(Asset(path=path, media_type=media_type, data=self.loader(path),
                                        source=SourceSpan(self.source, line)))
                    continue
                except OSError as exc:
                    problem = f"image {path!r} cannot be read: {exc.strerror or exc}", \
                              "check the path: it is relative to the quiz's file"
            self.error("E965", problem[0], line, problem[1])
        return tuple(loaded)


def read(data: str | bytes, *, source: str, log: Log, assets: Callable[[str], bytes] | None = None) -> Quiz:
    """Read a text2qti quiz; raises SourceError listing every problem found.

    `assets(path)` returns the bytes of an image the quiz shows, by its path relative to the
    quiz, or raises OSError; without it, local images are an error."""
    reader = Reader(decode(data, source), source, log, assets)
    reader.read()
    return reader.quiz()
