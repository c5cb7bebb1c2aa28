"""Model texts as lines of the lmsexport text format, so that the reader gets them back exactly.

Part of the text writer (docs/formats/text.md). A quiz is first written with its texts as they
are (`markup: plain`). A text that cannot be written that way (HTML, a line break in an
option, a prompt line that would read as an option, spaces that line stripping would lose)
raises `NeedsHTML`, and the quiz is written again with `markup: html`, where every text is
HTML and anything that would read as syntax becomes a character reference: `&#10;` for a
line break that cannot be one, `&#49;.` for a `1.` that starts a line, `-&gt;` for an arrow.
The reader decodes the references (sanitising HTML as it does every HTML), so what comes back
is the model's text; a plain text comes back plain, because it has no tag. The same references
spell an option apart from an identical one above it (`respell`), and an image the reader would
refuse (a web address, E162) is written as a link to it.
"""

from __future__ import annotations

import html
import re
from decimal import Decimal
from html.parser import HTMLParser

from ...model import Text
from .syntax import CHECKBOX, MATCH, POSITION, PREAMBLE_BREAKS, classify, escape_gap, fold, join_lines, outside_folder

INDENT = "   "
"""Where option, answer and continuation lines start under a question's number."""
_LITERAL_MATH = re.compile(r"\\(?=[(\[])")
_GAP_START = re.compile(r"\{(?=[=~])")
_ARROWS = (("->", "-&gt;"), ("→", "&#8594;"))
_IMAGE = re.compile(r"<img\b[^>]*>")
"""An image in sanitised HTML, which escapes `>` in attribute values."""
_ATTRIBUTE = re.compile(r'(?P<name>[\w:-]+)="(?P<value>[^"]*)"')
_LINK_EDGE = re.compile(r"<a[\s>]|</a>")
_TAG = re.compile(r"<[^>]*>")
_SPELLING = re.compile(r"(?P<tag><[^>]*>)|(?P<reference>&(?:#\d+|#[xX][0-9a-fA-F]+|[A-Za-z][A-Za-z0-9]*);)|(?P<raw>.)",
                       re.DOTALL)
_MATH_EDGE = re.compile(r"\\[()\[\]]")
"""`\\(`, `\\)`, `\\[`, `\\]`: TeX math, whose characters stay as they are."""


class NeedsHTML(Exception):
    """A text `markup: plain` cannot carry exactly: the quiz is written with `markup: html`."""


def reference(character: str) -> str:
    """A character as an HTML numeric character reference."""
    return f"&#{ord(character)};"


def _edges(line: str) -> str:
    """Leading and trailing whitespace (which the reader strips) as character references."""
    if not line.strip():
        return "".join(reference(c) for c in line)
    start, end = len(line) - len(line.lstrip()), len(line.rstrip())
    return "".join(reference(c) for c in line[:start]) + line[start:end] + "".join(reference(c) for c in line[end:])


def _physical(content: str) -> list[str]:
    """Where a text's line breaks can be real line breaks: between lines the reader keeps as
    they are (no space at either side, at most one blank line between); `&#10;` elsewhere."""
    pieces = content.replace("\r", "&#13;").split("\n")
    lines, index = [pieces[0]], 1
    while index < len(pieces):
        piece, previous = pieces[index], lines[-1]
        clean_end = bool(previous) and previous == previous.rstrip()
        following = pieces[index + 1] if index + 1 < len(pieces) else ""
        if piece and piece == piece.lstrip() and clean_end:
            lines.append(piece)
        elif not piece and clean_end and following and following == following.lstrip():
            lines += ["", following]
            index += 1
        else:
            lines[-1] += "&#10;" + piece
        index += 1
    return lines


def reads_as_syntax(line: str, context: str, index: int) -> bool:
    """Whether a line of a text would be read as something else where it stands."""
    if not line.strip():
        return False
    if context == "preamble":
        return classify(line)[0] in (*PREAMBLE_BREAKS, "comment")
    if context == "prompt":
        return index > 0 and classify(INDENT + line)[0] != "text"
    return False


def _inline_breaks(value: str, slot: str) -> bool:
    """Whether a one-line text would read as other syntax in its slot (see Encoder.inline)."""
    if slot in ("choice", "left") and (CHECKBOX.match(value) or POSITION.match(value)):
        return True
    return slot in ("choice", "left", "item") and bool(MATCH.match(value))


class Encoder:
    """Writes texts in one `markup` (`plain` or `html`), noting what each question loses."""

    def __init__(self, markup: str):
        self.markup = markup
        self.notes: list[tuple[str, str, str]] = []
        """(code, feature, what is written instead) for what the texts written since the last
        drain could not carry."""
        self.images: dict[str, None] = {}
        """The `src` of every image in the HTML written, in order."""

    def block(self, text: Text, context: str) -> list[str]:
        """A text of several lines: `prompt` (its lines after the first must read as text, and
        no `{=` may start a gap), `preamble` (the quiz's description) or `feedback` (each line
        after a `>` marker)."""
        self._language(text)
        if self.markup == "plain":
            lines = text.value.split("\n")
            if (text.format == "html" or "\r" in text.value or join_lines(lines) != text.value
                    or any(reads_as_syntax(line, context, i) for i, line in enumerate(lines))
                    or (context == "prompt" and _GAP_START.search(text.value))):
                raise NeedsHTML
            return lines
        content = self._content(text)
        if context == "prompt":
            content = _GAP_START.sub("&#123;", content)
        lines = [_edges(line) for line in _physical(content)]
        return [reference(line[0]) + line[1:] if reads_as_syntax(line, context, i) else line
                for i, line in enumerate(lines)]

    def inline(self, text: Text, slot: str) -> str:
        """A text on one line: an option (`choice`), a matching pair's `left` or `right` side,
        an ordering `item`, or a drop-down choice in a `gap`."""
        self._language(text)
        if self.markup == "plain":
            value = text.value
            if text.format == "html" or "\n" in value or "\r" in value or value != value.strip() \
                    or _inline_breaks(value, slot):
                raise NeedsHTML
            return escape_gap(value) if slot == "gap" else value
        content = _edges(self._content(text).replace("\r", "&#13;").replace("\n", "&#10;"))
        if slot in ("choice", "left", "item"):
            for arrow, escaped in _ARROWS:
                content = content.replace(arrow, escaped)
        if slot in ("choice", "left") and (CHECKBOX.match(content) or POSITION.match(content)):
            content = reference("[") + content[1:]
        return escape_gap(content) if slot == "gap" else content

    def repeat(self, text: Text, written: str, taken: set[str]) -> str | None:
        """An option `written` as one above it is (the reader refuses identical options, E204),
        spelt apart from every option in `taken` (folded); None when nothing in it can be."""
        if self.markup == "plain":
            if text.value:
                raise NeedsHTML
            return None
        return respell(written, taken)

    def drain(self) -> list[tuple[str, str, str]]:
        """The notes since the last drain, each once, in order."""
        notes, self.notes = list(dict.fromkeys(self.notes)), []
        return notes

    def _language(self, text: Text) -> None:
        if text.lang:
            self.notes.append(("W451", f"the language of a single text ({text.lang})",
                               "it is written in the language of its question (@lang) or quiz"))

    def _content(self, text: Text) -> str:
        """The text as `markup: html` source: HTML as the sanitiser keeps it, plain text escaped."""
        if text.format == "plain":
            return _LITERAL_MATH.sub("&#92;", html.escape(text.value, quote=False))
        from ...markup import image_sources, sanitize

        kept = sanitize(text.value)
        if _events(kept) != _events(text.value):
            self.notes.append(("W452", "HTML beyond what lmsexport keeps (such as style attributes and fonts)",
                               "it is written as lmsexport's sanitiser keeps it"))
        kept, linked = images_as_links(kept)
        for src in linked:
            self.notes.append(("W455", f"the image {src}, which is not in the quiz's folder (the text reader refuses "
                               "images by URL or outside the folder, E162)", "it is written as a link to it: to show "
                               "the image again, save it beside the quiz and refer to it by its path"))
        self.images.update(dict.fromkeys(image_sources(kept)))
        return kept


def images_as_links(fragment: str) -> tuple[str, list[str]]:
    """Sanitised HTML with each image that is no file in the quiz's folder (E162) as a link to
    its address, the alt text (else the address) its text; inside a link (which cannot hold
    another), the text alone. Returns the HTML and the addresses so linked."""
    linked: list[str] = []

    def link(image: re.Match) -> str:
        attributes = {found["name"]: found["value"] for found in _ATTRIBUTE.finditer(image.group())}
        src = attributes.get("src")
        if src is None or not outside_folder(html.unescape(src)):
            return image.group()
        linked.append(html.unescape(src))
        label = attributes.get("alt") or src
        edges = _LINK_EDGE.findall(fragment, 0, image.start())
        if edges and edges[-1] != "</a>":
            return label
        title = f' title="{attributes["title"]}"' if "title" in attributes else ""
        return f'<a href="{src}"{title}>{label}</a>'

    return _IMAGE.sub(link, fragment), linked


def respell(written: str, taken: set[str]) -> str | None:
    """`written` (`markup: html` source) with one character as a numeric reference, so that it
    folds to none of `taken` yet reads the same: `.` as `&#46;`, then `&#046;`, `&#0046;` for
    further repeats. The first character of text that is not a space, else a space, else one
    in an attribute value (an image's address); None when there is none (no text, `<br>`)."""
    candidates = [(int(character.isspace()), unit.start(), unit.end(), character)
                  for unit, character in _characters(written)]
    for tag in _TAG.finditer(written):
        for value in _ATTRIBUTE.finditer(tag.group()):
            offset = tag.start() + value.start("value")
            candidates += [(2, offset + unit.start(), offset + unit.end(), character)
                           for unit, character in _characters(value["value"])]
    if not candidates:
        return None
    _, start, end, character = min(candidates)
    zeros = 0
    while fold(spelt := f"{written[:start]}&#{'0' * zeros}{ord(character)};{written[end:]}") in taken:
        zeros += 1  # each count of zeros spells it apart from the others: one is free
    return spelt


def _characters(source: str):
    """Each character `source` spells outside its tags (raw, or as a reference) that a numeric
    reference can spell too, but those of TeX math's delimiters."""
    math = {index for edge in _MATH_EDGE.finditer(source) for index in range(edge.start(), edge.end())}
    for unit in _SPELLING.finditer(source):
        character = html.unescape(unit.group())
        if unit["tag"] or unit.start() in math or len(character) != 1 or (unit["raw"] and character in '<>&'):
            continue
        if html.unescape(f"&#{ord(character)};") == character:
            yield unit, character


def number(value: float) -> str:
    """A number as the reader reads it back exactly: positional (`0.00001`, not `1e-05`, which
    credits cannot be written as), without a needless `.0`."""
    written = format(Decimal(repr(float(value))), "f")
    return written.removesuffix(".0") if written.endswith(".0") else written


class _Events(HTMLParser):
    """What an HTML fragment says, whatever its spelling: tags, attributes (but `rel`, which the
    sanitiser adds to links) and decoded text, so `]]>` and `]]&gt;` or `<br/>` and `<br>` are one."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.events: list[tuple] = []

    def handle_starttag(self, tag, attrs):
        self.events.append(("start", tag, tuple(sorted((k, v or "") for k, v in attrs if k != "rel"))))

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)

    def handle_endtag(self, tag):
        self.events.append(("end", tag))

    def handle_data(self, data):
        if self.events and self.events[-1][0] == "data":
            self.events[-1] = ("data", self.events[-1][1] + data)
        else:
            self.events.append(("data", data))


def _events(fragment: str) -> list[tuple]:
    parser = _Events()
    parser.feed(fragment)
    parser.close()
    return parser.events


def one_line(value: str) -> tuple[str, bool]:
    """A field that is one line whatever the markup (a title, a tag): its line breaks as
    spaces and its ends stripped, and whether that changed it."""
    written = " ".join(value.replace("\r", "\n").split("\n")).strip()
    return written, written != value
