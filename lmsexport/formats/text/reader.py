"""The lmsexport quiz text format (docs/format.md), read into the model.

    ---                         optional header: key: value lines
    lang: yo
    ---
    Quiz title                  first non-blank line
    Description.                everything before the first question

    1. Question prompt          a number and `.` or `)`; following lines continue it
       @points: 2               question attributes (points, title, lang, tags, case, lines, scoring, unit)
       • option                 bullet (• - ◦ ▪ ‣) or label (a) A. b.)
       *• correct option        `*` right before the bullet or label marks it correct
       • [x] / • [ ]            checkboxes: multiple response
       • left -> right          matching pairs          • [2] item    ordering positions
       >> feedback              for the option (or `=` answer) just above
    2. Typed answers
       = Paris                  accepted answer (`=50% Lyon` for partial credit);
                                numbers (`= 3,14 ± 0,01 m`, `= 1..5`) make it numeric,
                                as the quiz's language writes them (`numeric`),
                                `= true` / `= false` a true/false question
    3. Essay: a line of ___ under the prompt; gaps: The capital is {=Paris ~Rome}.
       > explanation            shown once answered; >+ when right, >- when wrong
    Text: a passage             a text block between questions (no number, no score)
    Pool: Warm-up               a pool (`pools`): @draw: 2, @points, @shuffle, @id lines,
    1. ...                      then its questions, one attempt draws `draw` of them;
    End pool                    pools do not nest

    Answers: 1a 2b 3ac          optional key at the end; letters count options in order

Lines are classified by a table of named patterns (`syntax`, as text2qti does) into
drafts; `questions` turns each draft into a question of the right kind. Every problem of
the file is collected before one SourceError is raised.
"""

from __future__ import annotations

import html
import posixpath
import re
import unicodedata
import warnings
from bisect import bisect_right
from itertools import islice
from typing import Callable

from ...diagnostics import ConversionWarning, Diagnostic, Log, SourceError, SourceSpan
from ...ids import file_stem, slug
from ...markup import Sanitiser
from ...model import DEFAULT_SCORING, XML_ILLEGAL, Quiz, Settings, Text
from ...textinput import TextLines, read_lines
from . import pools
from .header import header_messages, parse_header
from .images import load_images
from .questions import Builder, Draft, Option
from .syntax import (
    CHECKBOX, FOREIGN_KEY, GAP, LINE_PATTERNS, MATH, POSITION, PREAMBLE_BREAKS, STREAM_BREAKS, classify, join_lines,
)

READ_OPTIONS = ("defaults", "assets", "log", "pack")
"""`read` takes `defaults` (header values from lmsexport.toml, which a quiz's own header
overrides), `assets` (a loader for the images the quiz refers to), `log` (its warnings: what
the sanitiser removes from Markdown's HTML, W010; a number that reads two ways, W131) and
`pack` (hold the questions of a quiz past `PACK_FROM` packed: model/packed.py)."""

_RELATIVE = re.compile(r"(?![a-zA-Z][a-zA-Z0-9+.-]*:|[/\\])")
"""A relative reference: no URL scheme, no leading slash."""
_FEEDBACK_KINDS = {"item_feedback", "correct_feedback", "incorrect_feedback", "explanation"}
_SETTINGS = {"shuffle": "shuffle", "pass": "pass_mark", "feedback": "feedback", "attempts": "attempts",
             "scoring": "scoring", "time": "time_limit"}
"""Header keys that are quiz settings -> the model's field names."""
_HANDLERS = {kind: f"_on_{kind}" for kind in (*LINE_PATTERNS, "blank", "text")}
"""Line kind -> the name of the Parser method that takes such a line."""


class Parser:
    """Splits a quiz text into title, description, question drafts and answer key."""

    def __init__(self, lines: TextLines, source: str, log: Log | None = None):
        self.source = source
        self.lang: str | None = None
        """The quiz's language (`lang:` in the header): how its numbers are written."""
        self.markup = "plain"
        """How texts are written (`markup:` in the header): as they are, Markdown or HTML."""
        self.images: dict[str, None] = {}
        """Image paths the texts refer to (ordered by where the source first mentions them)."""
        self.lines = lines
        self.problems: list[Diagnostic] = []
        self.log = Log() if log is None else log
        self.sanitise = Sanitiser(self.log, self.problems)
        self.title: str | None = None
        self.description: list[str] = []
        self.drafts: list[Draft] = []
        self.key_lines: list[tuple[int, str, int]] = []  # line number, text, column offset
        self.previous = "blank"
        """Kind of the previous line, to tell an option's continuation from stray text."""
        self.after_key = False
        self.questions = 0
        self.blocks = 0
        """Numbered questions and `Text:` blocks so far."""
        self.pools: list[pools.PoolDraft] = []
        self.last_start: int | None = None
        """Index of the last line that starts a question or `Text:` block, once looked for."""
        self.written_number = 0
        """The number the last question was written with (questions are numbered by position)."""
        self.builder: Builder | None = None
        """Set for a quiz read streamed: it builds each draft as the next begins."""

    def text(self, value: str) -> Text:
        """A text as the model holds it: plain, or (with `markup: markdown` or `html`) safe HTML.

        In `markup: html` a text with a tag or TeX math is HTML (sanitised); any other is plain
        text with its character references decoded, so `&lt;` is `<` and `&#10;` a line break.
        The sanitiser reports what it removes, at the text's line."""
        if self.markup == "plain":
            return Text(value)
        from ...markup import image_sources, render

        cleaner = self._cleaner(value)
        if self.markup == "markdown":
            rendered, has_markup = render(value, cleaner)
            if not has_markup:
                return Text(value)
        elif "<" in value or MATH.search(value):
            rendered = cleaner(value)
        else:
            return Text(self._legal(html.unescape(cleaner(value)), value))
        for src in image_sources(rendered):
            path = posixpath.normpath(src) if _RELATIVE.match(src) else src
            if path != src:  # `./img/a.png` and `img/a.png` are one asset, named the same in the HTML
                rendered = rendered.replace(f'src="{html.escape(src)}"', f'src="{html.escape(path)}"')
            self.images.setdefault(path)
        return Text(self._legal(rendered, value), format="html")

    def _legal(self, decoded: str, value: str) -> str:
        """`decoded` in NFC; a character reference to a character XML cannot carry is an error."""
        decoded = unicodedata.normalize("NFC", decoded)
        found = XML_ILLEGAL.search(decoded)
        if found is None:
            return decoded
        first = next((line.strip() for line in value.split("\n") if line.strip()), "")
        located = self.lines.locate(first) if first else None
        line = located[0] if located else 1
        self.error("E104", f"a character reference stands for U+{ord(found.group()):04X}, which XML cannot carry",
                   line, hint="delete the reference (&#...;)")
        return XML_ILLEGAL.sub("\ufffd", decoded)

    def _cleaner(self, value: str) -> Callable[[str], str]:
        """The sanitiser for a text, reporting at the first line that holds the text's first line,
        for the question there.

        That line is looked for only when there is something to report: the fragment is first
        cleaned against a scratch log, as looking for every text of a bank is quadratic."""
        first = value.split("\n")[0]
        part = f"the text {_short(first)!r}"

        def clean(fragment: str) -> str:
            scratch = Sanitiser(Log(), [])
            cleaned = scratch(fragment, question="", part=part, span=self.span(1))
            if not scratch.log.diagnostics and not scratch.problems:
                return cleaned or ""
            line, column = self.lines.locate(first) or (1, 1)
            span = SourceSpan(self.source, line, column, len(first))
            return self.sanitise(fragment, question=self._owner(line), part=part, span=span) or ""

        return clean

    def _owner(self, line: int) -> str:
        """The name of the question (or `Text:` block) that line `line` is in, or `the quiz`."""
        index = bisect_right(self.drafts, line, key=lambda draft: draft.line)
        return self.drafts[index - 1].name if index else "the quiz"

    def span(self, line: int, column: int = 1, length: int = 1) -> SourceSpan:
        """A place in this source (options, answers and images keep theirs in the model)."""
        return SourceSpan(self.source, line, column, length)

    def find(self, text: str, start: int) -> SourceSpan:
        """Where `text` is first written at or after line `start` (a gap in a prompt), else that line."""
        located = self.lines.locate(text, start)
        return self.span(*located, len(text)) if located else self.span(start)

    def error(self, code: str, message: str, line: int, column: int = 1, hint: str = "", length: int = 1):
        span = self.span(line, column, length)
        self.problems.append(Diagnostic(code, message, span, hint, source_line=self.lines[line - 1]))

    def warn(self, code: str, message: str, line: int, column: int = 1, hint: str = "", length: int = 1):
        self.log.warn(code, message, self.span(line, column, length), hint)

    def parse(self, start: int) -> None:
        for index, line in enumerate(islice(self.lines, start, None), start):
            number = index + 1
            kind, match = classify(line)
            if kind == "comment":
                continue  # seen by no other rule: a comment changes nothing around it
            if kind == "text" and FOREIGN_KEY.match(line) and self._last_paragraph(index):
                self._foreign_key(number, line)
                continue
            if self.key_lines and kind not in ("blank", "key"):
                self._after_key(number, line, kind)
                continue
            if self.pools and pools.in_pool_head(self) and kind not in ("question", "pool", "pool_end", "key"):
                self.previous = pools.head_line(self, number, line, kind, match)
                continue
            if not self.drafts and kind not in PREAMBLE_BREAKS:  # after a pool without questions too (E243)
                self._preamble(line, kind)
                continue
            self.previous = getattr(self, _HANDLERS[kind])(number, line, match) or kind

    def _on_pool(self, number, line, match):
        pools.start_pool(self, number, match)
        return "blank"

    def _on_pool_end(self, number, line, match):
        pools.close_pool(self, number)
        return "blank"

    def _after_key(self, number: int, line: str, kind: str) -> None:
        if kind == "text":
            self.key_lines.append((number, line, 0))
        elif not self.after_key:
            self.after_key = True
            self.error("E306", "the answer key must come after the last question", number,
                       hint="move the Answers: lines to the end of the file")

    def _preamble(self, line: str, kind: str) -> None:
        if kind == "blank":
            if self.title is not None:
                self.description.append("")
        elif self.title is None:
            self.title = line.strip()
        else:
            self.description.append(line)

    @property
    def draft(self) -> Draft:
        return self.drafts[-1]

    def _start(self, draft: Draft) -> None:
        """Begin a draft; streamed, the one before it is complete and is built."""
        if self.builder is not None and self.drafts:
            self.builder.build(len(self.drafts) - 1)
        self.drafts.append(draft)

    def _on_blank(self, number, line, match):
        if not self.draft.has_body:
            self.draft.prompt.append("")
        return self.previous if self.previous in _FEEDBACK_KINDS else "blank"

    def _on_text(self, number, line, match):
        draft = self.draft
        if self.previous in _FEEDBACK_KINDS and self.previous != "blank":
            draft.feedback_lines(self.previous).append(line)
            return self.previous
        if not draft.has_body:
            draft.prompt.append(line)
        elif draft.options and self._continues_option(line):
            draft.options[-1].text += " " + line.strip()
            return "continuation"
        else:
            self.error(
                "E206",
                f"text after the answers of {draft.name} is not an option, an answer or feedback",
                number,
                len(line) - len(line.lstrip()) + 1,
                "start it with > to make it the explanation, with a bullet to make it an option, "
                "or indent it under the option it continues",
            )

    def _continues_option(self, line: str) -> bool:
        """An indented line right under an option (or its continuation) belongs to it."""
        indent = len(line) - len(line.lstrip())
        return self.previous in ("option", "continuation") and indent > self.draft.options[-1].indent

    def _last_paragraph(self, index: int) -> bool:
        """No question or `Text:` block follows line `index` (0-based); the last one is found once."""
        if self.last_start is None:
            starts = (i for i in range(len(self.lines) - 1, -1, -1)
                      if classify(self.lines[i])[0] in ("question", "text_block"))
            self.last_start = next(starts, -1)
        return index > self.last_start

    def _foreign_key(self, number: int, line: str) -> None:
        label = FOREIGN_KEY.match(line)
        self.error("E308", f"{label['label']!r} is not a label lmsexport reads: this line is not read as the "
                   "answer key", number, label.start("label") + 1,
                   f"write the key as Answers:{label['rest'].rstrip()} (the label is Answers: in a quiz in "
                   "any language)", len(label["label"]))

    def _numbering(self, number: int, match) -> None:
        """A question numbered other than one more than the last is told (W201); it counts by position."""
        written = int(match["number"])
        if written != self.written_number + 1:
            what = f"{written} again" if written == self.written_number else str(written)
            self.log.warn("W201", f"question {self.questions} is numbered {what}", self.span(
                number, match.start("number") + 1, len(match["number"])),
                f"number the questions 1, 2, 3, ...: they are counted by position, so this is question "
                f"{self.questions} (in the answer key too)")
        self.written_number = written

    def _on_question(self, number, line, match):
        rest = (match["rest"] or "").strip()
        self.questions += 1
        self._numbering(number, match)
        self._start(Draft(number=self.questions, line=number, prompt=[rest] if rest else []))

    def _on_text_block(self, number, line, match):
        rest = match["rest"].strip()
        self.blocks += 1
        self._start(Draft(number=0, block=self.blocks, line=number, prompt=[rest] if rest else []))

    def _on_option(self, number, line, match):
        draft = self.draft
        if draft.explanation:
            self.error("E208", f"an option of {draft.name} comes after its explanation", number,
                       hint="put the options first and the > explanation lines after them")
        rest = match["rest"] or ""
        indent = match.end("indent")  # the indent starts the line
        option = Option(line=number, column=indent + 1, indent=indent, star=match["star"] is not None, text="")
        box = CHECKBOX.match(rest) if rest.startswith("[") else None  # most options have no [x] or [2]
        if box:
            option.checkbox = box["mark"] != " "
            rest = rest[box.end():]
        position = POSITION.match(rest) if rest.startswith("[") else None
        if position:
            option.position = int(position["position"])
            rest = rest[position.end():]
        option.text = rest.strip()
        draft.options.append(option)

    def _on_answer(self, number, line, match):
        credit = float(match["credit"]) if match["credit"] else 100.0
        self.draft.answers.append((number, match.start("rest") + 1, credit, match["rest"], []))

    def _on_essay(self, number, line, match):
        self.draft.essay = number

    def _on_attribute(self, number, line, match):
        key = match["key"].lower()
        if key in self.draft.attributes:
            self.error("E212", f"@{key} is given twice for {self.draft.name}", number, hint="keep one")
        self.draft.attributes[key] = (number, match.start("rest") + 1, match["rest"])

    def _on_item_feedback(self, number, line, match):
        draft = self.draft
        target = draft.last_item(self.previous)
        if target is None:
            self.error("E213", ">> gives feedback for the option or = answer right above it, and there is none",
                       number, hint="put >> lines right under an option or an = answer; use > for the explanation")
            return "blank"
        target.append(match["rest"])

    def _on_correct_feedback(self, number, line, match):
        self.draft.correct_feedback.append(match["rest"])

    def _on_incorrect_feedback(self, number, line, match):
        self.draft.incorrect_feedback.append(match["rest"])

    def _on_explanation(self, number, line, match):
        draft = self.draft
        if draft.number and not draft.has_body and not GAP.search(join_lines(draft.prompt)):
            self.error("E208", f"the explanation of {draft.name} comes before its answers", number,
                       hint="put the > explanation lines after the options or answers")
            return "blank"
        draft.explanation.append(match["rest"])

    def _on_key(self, number, line, match):
        self.key_lines.append((number, match["rest"], match.start("rest")))

    def _on_stray_star(self, number, line, match):
        column = line.index("*") + 1
        kind, option = classify(line[: column - 1] + " " + line[column:].lstrip())
        self.error("E209", "a * must stand right before a bullet or a label to mark an option correct",
                   number, column, "write *• text or *b) text (no space after the *); use • or - as bullets")
        if kind == "option":
            self._on_option(number, line, option)
            self.draft.options[-1].star = True
        else:
            return self._on_text(number, line, None)


def read(
    data: str | bytes,
    *,
    source: str,
    defaults: dict | None = None,
    assets: Callable[[str], bytes] | None = None,
    log: Log | None = None,
    pack: bool = False,
) -> Quiz:
    """Read a quiz text; raises SourceError listing every problem found.

    Its warnings go to `log`, else each is issued as a ConversionWarning. `assets(path)` returns
    the bytes of a file the quiz refers to (an image), by its path relative to the quiz, or
    raises OSError; without it, images are an error. With `pack`, a quiz of `PACK_FROM`
    questions or more holds them packed (`model.packed.Packed`).
    """
    caught = Log() if log is None else log
    quiz = _read(data, source, caught, defaults, assets, pack)
    if log is None:
        for diagnostic in caught.diagnostics:
            warnings.warn(diagnostic.render(), ConversionWarning, stacklevel=2)
    return quiz


def _read(data: str | bytes, source: str, log: Log, defaults: dict | None,
          assets: Callable[[str], bytes] | None, pack: bool) -> Quiz:
    """The quiz, read streamed where it can be (`questions.Builder`), else as a whole.

    A source with a problem is read again as a whole, which tells its problems as it finds them:
    a draft built before a later line's problem is found is checked further than one built after."""
    lines = read_lines(data, source)
    if not lines.search(STREAM_BREAKS):
        attempt = Log()
        try:
            quiz = _parse(lines, source, attempt, defaults, assets, pack, streamed=True)
        except SourceError:
            pass
        else:
            log.extend(attempt)
            return quiz
    return _parse(lines, source, log, defaults, assets, pack, streamed=False)


def _parse(lines: TextLines, source: str, log: Log, defaults: dict | None,
           assets: Callable[[str], bytes] | None, pack: bool, *, streamed: bool) -> Quiz:
    parser = Parser(lines, source, log)
    header, places, body_start = parse_header(parser.lines, parser.error)
    header = {**(defaults or {}), **header}
    parser.lang = header.get("lang")
    parser.markup = header.get("markup", "plain")
    parser.title = header.get("title")
    builder = Builder(parser, header, pack=pack, streamed=streamed)
    parser.builder = builder if streamed else None
    parser.parse(body_start)
    parser.builder = None
    pools.finish(parser)
    if not parser.drafts and not parser.problems:
        parser.error("E401", "no questions found", min(body_start + 1, len(parser.lines)),
                     hint="start each question with its number and a dot (1. What is ...?) "
                     "and list its options under it (• option)")
    pool_settings = pools.pool_settings(parser, header)
    questions = builder.finish()
    quiz_pools = pools.build_pools(parser, pool_settings, questions)
    stem = file_stem(source)
    description = join_lines(parser.description)
    description_text = parser.text(description) if description else None
    loaded = load_images(parser, assets)
    messages, problems = header_messages(parser.lines[:body_start], header, source, assets)
    parser.problems += problems
    if parser.problems:
        raise SourceError(parser.problems)
    return Quiz(
        id=header.get("id") or slug(stem),
        title=parser.title or stem,
        description=description_text,
        lang=header.get("lang"),
        settings=Settings(
            shuffle=header.get("shuffle", False),
            pass_mark=header.get("pass"),
            feedback=header.get("feedback", "immediate"),
            attempts=header.get("attempts"),
            time_limit=header.get("time"),
            scoring=header.get("scoring", DEFAULT_SCORING),
            messages=messages,
            spans={_SETTINGS[key]: SourceSpan(source, *place) for key, place in places.items() if key in _SETTINGS},
        ),
        tags=header.get("tags", ()),
        lint_ignore=header.get("lint", ()),
        questions=questions,
        pools=quiz_pools,
        assets=loaded,
    )


def _short(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
