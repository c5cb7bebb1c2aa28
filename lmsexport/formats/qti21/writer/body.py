"""Model text as QTI 2.1 content: plain lines, HTML as QTI's XHTML subset, TeX as MathML, images.

QTI 2.1 info model, section 4 (content model): https://www.imsglobal.org/question/qtiv2p1/imsqti_infov2p1.html
Part of the QTI writer (writers/qti21.py). HTML elements go where QTI allows them (inline
content in p, h1-h6, pre; blocks in div, li, td; only li in lists, only p and other blocks in
blockquote, only rows in tables); what must be wrapped is wrapped (text in a blockquote gets
a p), what QTI cannot hold is unwrapped with its text kept, with a warning (W801). TeX
becomes MathML (lmsexport/math.py) or stays TeX with a warning (W804). Images keep their
alt text; a quiz's own image is written relative to the file that shows it and recorded,
so the manifest can list it (W805 for an image the quiz does not carry).
"""

from __future__ import annotations

import re
from html import escape

from ....diagnostics import Log, SourceSpan
from ....model import Asset, Text, is_language_tag
from ....text import html_words, number
from ....xml import NS, html_fragment, sub

_LENGTH = re.compile(r"[0-9]+%?\Z")
"""QTI 2.1 `Length.Type` (img width and height): pixels or a percentage."""
_INLINE = frozenset("a abbr acronym b big br cite code dfn em i img kbd q samp small span strong sub sup tt var"
                    .split())
_BLOCK = frozenset("p h1 h2 h3 h4 h5 h6 pre address div ul ol dl hr blockquote table".split())
_CONTENT = {
    **dict.fromkeys(_INLINE - {"br", "img"}, "inline"),
    **dict.fromkeys("p h1 h2 h3 h4 h5 h6 pre address caption dt".split(), "inline"),
    **dict.fromkeys("div li dd td th".split(), "flow"),
    "ul": "list", "ol": "list", "dl": "terms", "blockquote": "blocks",
    "table": "table", "thead": "rows", "tbody": "rows", "tfoot": "rows", "tr": "row",
}
"""What the content of each element may be (QTI 2.1 XSD: `Div.Type` flow, `P.Type` inline, ...)."""
_ALLOWED = {
    "flow": _INLINE | _BLOCK, "inline": _INLINE, "blocks": _BLOCK, "list": {"li"}, "terms": {"dt", "dd"},
    "table": {"caption", "thead", "tfoot", "tbody"}, "rows": {"tr"}, "row": {"td", "th"},
}
_KNOWN = _INLINE | _BLOCK | set(_CONTENT)
_TEXT = {"flow", "inline"}
"""Contexts that hold text; elsewhere text and inline elements go into a wrapper."""
_WRAPPER = {"blocks": "p", "list": "li", "terms": "dd", "table": "tbody", "rows": "tr", "row": "td"}
_ATTRIBUTES = {
    "a": ("href", "type"), "img": ("src", "alt", "longdesc", "height", "width"), "q": ("cite",),
    "td": ("headers", "scope", "abbr", "axis", "rowspan", "colspan"),
}
_ATTRIBUTES["th"] = _ATTRIBUTES["td"]
_UNSAID = {"a": {"rel"}}
"""Attributes left out without a warning: `rel` is the sanitiser's note to browsers (markup.py),
not part of the text; the QTI reader's sanitiser puts it back."""
_VALUES = {"lang": is_language_tag, "width": _LENGTH.match, "height": _LENGTH.match,
           "rowspan": str.isdigit, "colspan": str.isdigit, "alt": lambda value: True}
"""Checks on attribute values (others must not be empty); an empty alt marks a decorative image."""
_SKIPPED = frozenset({"script", "style", "template", "iframe", "object", "embed", "svg", "math"})
_MADE = "made-by-lmsexport"
"""Marks, while converting, a wrapper the converter made (so that what follows joins it)."""
_GAP = re.compile("\ue000([^\ue001]*)\ue001")
"""A gap's place in a fill-in text while it is converted: private-use characters around its id."""


def gap_token(gap_id: str) -> str:
    return f"\ue000{gap_id}\ue001"


class TextWriter:
    """Writes the texts and numbers of one question (or of the test) into QTI elements, with a
    warning at `where` for what QTI cannot say, and notes the quiz's images they show (`used`, in
    first-use order) for the manifest. `prefix` is the way from the file written to the items'
    folder, where the images are (`items/` for the test)."""

    def __init__(self, log: Log, where: SourceSpan, assets: dict[str, Asset], prefix: str = ""):
        self.log, self.where, self.assets, self.prefix = log, where, assets, prefix
        self.used: list[str] = []
        self.holders: set = set()
        """The elements holding text: written as built (`xml.serialize(verbatim=...)`)."""

    def warn(self, code: str, message: str, hint: str = "", span: SourceSpan | None = None) -> None:
        self.log.warn(code, message, span or self.where, hint)

    def number(self, value: float, what: str, part: object | None = None) -> str:
        """`value` as QTI files carry it (7 decimals), with a warning (at `part`, an answer, where it
        has a place) when that rounds it."""
        text = number(value)
        if float(text) != value:
            self.warn("W802", f"{what} {value!r} is written rounded to {text}",
                      "QTI files written by lmsexport carry 7 decimals", getattr(part, "source", None))
        return text

    def put(self, parent, text: Text) -> None:
        """`text` as the content of `parent` (which holds flow content)."""
        self.holders.add(parent)
        if text.lang:
            parent.set(f"{{{NS['xml']}}}lang", text.lang)
        if text.format == "html":
            self._html(parent, text.value)
        else:
            _plain(parent, text.value)

    def put_with_gaps(self, parent, text: Text, interactions: dict) -> None:
        """`text` (holding `gap_token()`s) into `parent`, each token replaced by its interaction."""
        self.put(parent, text)
        for node in list(parent.iter()):
            if isinstance(node.tag, str) and not node.tag.startswith(f"{{{NS['m']}}}"):
                _place_gaps(node, interactions)

    def put_plain(self, parent, text: Text) -> None:
        """`text` where QTI allows characters only (inlineChoice): HTML is reduced to its text."""
        self.holders.add(parent)
        if text.lang:
            parent.set(f"{{{NS['xml']}}}lang", text.lang)
        if text.format == "html":
            plain = html_words(text.value)
            if escape(plain, quote=False) != " ".join(text.value.split()):
                self.warn("W801", "HTML in a drop-down choice is left out, its text kept: "
                              "QTI 2.1 inline choices hold text only")
            parent.text = plain
        else:
            parent.text = text.value

    def _html(self, parent, value: str) -> None:
        from ....math import replace_math

        if not value.strip():
            return
        self._content(parent, html_fragment(value), "flow")
        for node in parent.iter():
            node.attrib.pop(_MADE, None)
        for error in replace_math(parent):
            self.warn("W804", f"the formula \\({error.tex}\\) cannot be written as MathML "
                          f"({error}); it is shown as TeX", "check the TeX: braces balanced, every ^ and _ with an "
                          "argument, commands latex2mathml knows")

    def _content(self, target, source, context: str) -> None:
        self._text(target, source.text, context)
        for node in source:
            if isinstance(node.tag, str):
                self._element(target, node, context)
            else:
                self.warn("W801", "an HTML comment or processing instruction is left out")
            self._text(target, node.tail, context)

    def _text(self, target, text: str | None, context: str) -> None:
        """Text where it goes; space between elements stays (even in a table, where XML
        Schema allows it), other text in a table, list or quote goes into a wrapper."""
        if not text:
            return
        if context not in _TEXT and text.strip():
            target, context = _wrapper(target, context)
            return self._text(target, text, context)
        if len(target):
            target[-1].tail = (target[-1].tail or "") + text
        else:
            target.text = (target.text or "") + text

    def _element(self, target, node, context: str) -> None:
        tag = node.tag.lower()
        if tag in _SKIPPED or (tag == "img" and not node.get("src")):
            what = "<img> without src is left out" if tag == "img" else f"<{tag}> is left out with its content"
            self.warn("W801", f"HTML {what}: QTI 2.1 cannot show it")
        elif tag == "a" and not node.get("href"):
            self._unwrap(target, node, context, "HTML <a> without href is not allowed; its content is kept without it")
        elif tag not in _ALLOWED[context] and context in _WRAPPER and tag in _KNOWN:
            wrapper, inner = _wrapper(target, context)
            self._element(wrapper, node, inner)
        elif tag not in _ALLOWED[context]:
            where = "here" if tag in _KNOWN else "in QTI 2.1"
            self._unwrap(target, node, context, f"HTML <{tag}> is not allowed {where}; its content is kept without it")
        else:
            out = sub(target, f"qti:{tag}", self._attributes(tag, node))
            if tag == "img":
                self._image(out)
            self._content(out, node, _CONTENT.get(tag, "inline"))
            if tag == "table":
                self._complete_table(target, out)

    def _complete_table(self, target, table) -> None:
        """QTI tables need a tbody (`Table.Type`): a header-only table's head becomes its body."""
        parts = {child.tag.rpartition("}")[2]: child for child in table}
        if "tbody" in parts:
            return
        if "thead" in parts:
            parts["thead"].tag = f"{{{NS['qti']}}}tbody"
            return
        self.warn("W801", "an HTML table without rows is left out")
        target.remove(table)

    def _unwrap(self, target, node, context: str, message: str) -> None:
        self.warn("W801", message)
        self._content(target, node, context)

    def _attributes(self, tag: str, node) -> dict:
        allowed = ("class", "lang", *_ATTRIBUTES.get(tag, ()))
        kept, dropped = {}, []
        for name, value in node.attrib.items():
            if name in allowed and _VALUES.get(name, bool)(value):
                kept["xml:lang" if name == "lang" else name] = value
            elif name not in _UNSAID.get(tag, ()):
                dropped.append(f"{name}={value!r}")
        if dropped:
            self.warn("W801", f"HTML <{tag}> {', '.join(dropped)} left out: "
                          "QTI 2.1 allows no such attribute or value")
        return kept

    def _image(self, img) -> None:
        """QTI requires alt (empty marks a decorative image); a quiz image is written from here."""
        if img.get("alt") is None:
            img.set("alt", "")
        src = img.get("src")
        if src in self.assets:
            img.set("src", self.prefix + src)
            if src not in self.used:
                self.used.append(src)
        elif ":" not in src.split("/")[0]:
            self.warn("W805", f"the image {src!r} is not one of the quiz's files, so the package "
                          "cannot carry it", "add the file beside the quiz, or link an http(s) image")


def _wrapper(target, context: str):
    """The element that takes what `context` cannot hold directly: the last one made, or a new one."""
    tag = _WRAPPER[context]
    last = target[-1] if len(target) else None
    if last is not None and last.tag == f"{{{NS['qti']}}}{tag}" and last.get(_MADE) and not (last.tail or "").strip():
        return last, _CONTENT[tag]
    return sub(target, f"qti:{tag}", {_MADE: "1"}), _CONTENT[tag]


def _plain(parent, value: str) -> None:
    """Plain text: its lines joined by <br/>."""
    first, *rest = value.split("\n")
    parent.text = first or None
    for line in rest:
        sub(parent, "qti:br").tail = line or None


def _place_gaps(node, interactions: dict) -> None:
    """Replace the gap tokens in the text and tails directly under `node` by their interactions."""
    for child in [None, *list(node)]:
        text = node.text if child is None else child.tail
        if not text or "\ue000" not in text:
            continue
        pieces = _GAP.split(text)
        if child is None:
            node.text = pieces[0] or None
            position = 0
        else:
            child.tail = pieces[0] or None
            position = node.index(child) + 1
        for gap_id, after in zip(pieces[1::2], pieces[2::2], strict=True):
            interaction = interactions[gap_id]
            interaction.tail = after or None
            node.insert(position, interaction)
            position += 1
