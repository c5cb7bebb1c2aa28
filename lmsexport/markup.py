"""Markdown to safe HTML for the model: rendering, math protection, sanitising.

Markdown is rendered by markdown-it-py (CommonMark, plus tables and strikethrough);
raw HTML is allowed in the source but everything is then sanitised by nh3 (the
Rust ammonia sanitiser) to an allow-list: no script, no event handlers, no
`javascript:` URLs. TeX math (`$..$`, `$$..$$`, `\\(..\\)`, `\\[..\\]`) is taken out
before rendering, so Markdown never touches a `_` or `*` inside it, and put back in
the model's convention: `\\(..\\)` inline, `\\[..\\]` display (see model.Text).

HTML from every source passes `sanitize`; a reader that takes HTML from a file uses a
`Sanitiser`, which tells the reader's log what the allow-list removed (W010: `question 3:
removed <script> from the prompt`) and reports a text it leaves empty as an error (E010),
so nothing is dropped without a word.
"""

from __future__ import annotations

import functools
import html
import re
import unicodedata
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from .diagnostics import Diagnostic, Log, SourceSpan
from .model import XML_ILLEGAL

# $$..$$ and \[..\] (display), then \(..\) and $..$ (inline). A $..$ span must not start
# or end with a space and not be followed by a digit, so "$5 and $10" is no math (pandoc's rule).
_MATH = re.compile(
    r"\$\$(?P<d1>.+?)\$\$|\\\[(?P<d2>.+?)\\\]|\\\((?P<i1>.+?)\\\)|(?<![\\$])\$(?P<i2>[^\s$](?:[^$]*?[^\s\\$])?)\$(?!\d)",
    re.DOTALL,
)
_TOKEN = "\ue000{}\ue001"
"""Private-use characters around a number stand for a math span while Markdown renders."""
_TOKEN_BACK = re.compile("\ue000(\\d+)\ue001")
_SINGLE_PARAGRAPH = re.compile(r"<p>((?:(?!<p>).)*)</p>\s*\Z", re.DOTALL)
_ALIGN = re.compile(r'(<t[hd]) style="text-align:(?:left|right|center)"')
"""How markdown-it aligns a table's column: not kept (QTI 2.1's XHTML has no place for it), and
not the author's HTML, so not the sanitiser's to report."""
_IMG_SRC = re.compile(r"<img\b[^>]*?\bsrc=\"([^\"]*)\"")

TAGS = {
    "p", "br", "hr", "strong", "em", "b", "i", "u", "s", "del", "sub", "sup", "code", "pre", "kbd", "blockquote",
    "ul", "ol", "li", "table", "thead", "tbody", "tr", "th", "td", "caption", "a", "img", "span", "div",
    "h1", "h2", "h3", "h4", "h5", "h6",
}
"""The HTML a quiz text may keep: what every writer can carry (QTI's XHTML subset has each)."""
ATTRIBUTES = {
    "*": {"lang", "dir"},
    "a": {"href", "title"},
    "img": {"src", "alt", "width", "height", "title"},
    "code": {"class"},
    "th": {"align"},
    "td": {"align"},
    "ol": {"start"},
}


@functools.cache
def _markdown():
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"])


_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:")
_NOT_IN_URL = re.compile(r"[\x00-\x1f\x7f<>\"]")


def _url(element: str, attribute: str, value: str) -> str | None:
    """A link or image address only if it is a URI reference (RFC 3986) every format accepts:
    nh3 lets `java%0ascript:x` through as a relative path, which no XSD's anyURI takes."""
    if attribute not in ("href", "src"):
        return value
    if _NOT_IN_URL.search(value):
        return None
    if _SCHEME.match(value):
        return value  # nh3 has kept only the allowed schemes
    first_segment = re.split(r"[/?#]", value, maxsplit=1)[0]
    return None if ":" in first_segment else value


def sanitize(fragment: str) -> str:
    """`fragment` reduced to the allowed tags and attributes (links: http, https, mailto only), NFC,
    without the characters XML cannot carry (which the references it resolves may bring)."""
    import nh3

    cleaned = nh3.clean(
        fragment,
        tags=TAGS,
        attributes=ATTRIBUTES,
        attribute_filter=_url,
        url_schemes={"http", "https", "mailto"},
        link_rel="noopener noreferrer",
        strip_comments=True,
    )
    return unicodedata.normalize("NFC", XML_ILLEGAL.sub("", cleaned))


_OPAQUE = re.compile(r"<!--.*?(?:-->|\Z)|<(script|style|template|textarea|xmp|noscript|iframe|noembed|"
                     r"noframes)\b[^>]*>.*?(?:</\1\s*>|\Z)", re.DOTALL | re.IGNORECASE)
"""Comments and elements whose content is no markup: what the tag scan looks past."""
_START_TAG = re.compile(r"<([A-Za-z][^\s/>]*)((?:\s+[^\s=/>]+(?:\s*=\s*(?:\"[^\"]*\"|'[^']*'|[^\s\"'>]+))?)*)\s*/?>")
_ATTRIBUTE = re.compile(r"([^\s=/>]+)(?:\s*=\s*(\"[^\"]*\"|'[^']*'|[^\s\"'>]+))?")
_ANY_TAG = re.compile(r"<[^>]*>")


@dataclass(frozen=True, slots=True)
class Cleaned:
    """A fragment after the allow-list, and what the allow-list took out of it."""

    html: str
    removed: tuple[str, ...] = ()
    """For a warning, in the order met: `<script>`, `the onerror attribute`, `a javascript: link`, with a
    count when it was more than one (`the style attribute (3)`)."""

    @property
    def blank(self) -> bool:
        """True if nothing of it shows: no words and no image."""
        return "<img" not in self.html and not html.unescape(_ANY_TAG.sub("", self.html)).strip()


def clean(fragment: str) -> Cleaned:
    """`sanitize(fragment)` and what it removed, found by comparing the tags and attributes
    before and after (the allow-list's own output needs no second look)."""
    cleaned = sanitize(fragment)
    if cleaned == fragment:
        return Cleaned(cleaned)
    lost = _markup(fragment) - _markup(cleaned)
    return Cleaned(cleaned, tuple(f"{what} ({count})" if count > 1 else what for what, count in lost.items()))


def _markup(fragment: str) -> Counter:
    """The tags and attributes of a fragment as a warning names them, counted."""
    found: Counter = Counter()
    for match in _OPAQUE.finditer(fragment):
        if match[1]:
            found[f"<{match[1].lower()}>"] += 1
    for tag in _START_TAG.finditer(_OPAQUE.sub("", fragment)):
        name = tag[1].lower()
        found[f"<{name}>"] += 1
        for attribute in _ATTRIBUTE.finditer(tag[2]):
            found[_attribute(attribute[1].lower(), html.unescape((attribute[2] or "").strip("\"'")))] += 1
    return found


def _attribute(name: str, value: str) -> str:
    """`the style attribute`; a link or image address by its scheme (`a javascript: link`)."""
    scheme = _SCHEME.match(value.strip())
    if name in ("href", "src") and scheme:
        return f"a {scheme[0].lower()} {'link' if name == 'href' else 'image source'}"
    return f"the {name} attribute"


@dataclass
class Sanitiser:
    """The one sanitiser as a reader of a file uses it: what it removes is a warning in the
    reader's log (W010), a text it leaves with nothing to show an error in `problems` (E010)."""

    log: Log
    problems: list[Diagnostic]

    def __call__(self, fragment: str, *, question: str, part: str, span: SourceSpan) -> str | None:
        """`fragment` made safe, or None (an error reported) when nothing of it is left to show.

        `question` names the question (`question 3`, or `the quiz` for its description), `part`
        the text in it (`the prompt`, `option b`)."""
        cleaned = clean(fragment)
        if cleaned.removed:
            self.log.warn("W010", f"{question}: removed {', '.join(cleaned.removed)} from {part}", span,
                          "lmsexport keeps the HTML every LMS shows safely (docs/limits.md, HTML); no scripts, "
                          "frames, styles or event handlers")
        if cleaned.blank and (cleaned.removed or not Cleaned(fragment).blank):
            what = ", ".join(cleaned.removed) or "its markup"
            self.problems.append(Diagnostic(
                "E010", f"{question}: {part} has nothing left to show once {what} is removed", span,
                "write the text itself: lmsexport keeps no scripts, frames or other unsafe HTML"))
            return None
        return cleaned.html

    def bound(self, *, question: str, part: str, span: SourceSpan) -> Callable[[str], str]:
        """This sanitiser for one text, as `render()` takes it (an emptied text comes back empty)."""
        return lambda fragment: self(fragment, question=question, part=part, span=span) or ""


def render(text: str, clean_html: Callable[[str], str] = sanitize) -> tuple[str, bool]:
    """Markdown `text` as safe HTML, and whether it holds any markup at all.

    One paragraph comes out without its `<p>`, so an option or a title stays inline. The
    HTML passes `clean_html` (a reader gives its `Sanitiser`, `bound` to the text).
    """
    spans: list[str] = []

    def protect(match: re.Match) -> str:
        display = match["d1"] is not None or match["d2"] is not None
        tex = next(group for group in match.group("d1", "d2", "i1", "i2") if group is not None)
        spans.append(("\\[{}\\]" if display else "\\({}\\)").format(html.escape(tex.strip(), quote=False)))
        return _TOKEN.format(len(spans) - 1)

    rendered = _markdown().render(_MATH.sub(protect, text)).strip()
    single = _SINGLE_PARAGRAPH.match(rendered)
    if single and "\n\n" not in text.strip():
        rendered = single.group(1)
    rendered = clean_html(_ALIGN.sub(r"\1", rendered))
    rendered = _TOKEN_BACK.sub(lambda m: spans[int(m.group(1))], rendered)
    return rendered, bool(spans) or rendered != html.escape(text.strip(), quote=False)


def image_sources(fragment: str) -> list[str]:
    """The `src` of every image in a sanitised fragment, in order."""
    return [html.unescape(src) for src in _IMG_SRC.findall(fragment)]
