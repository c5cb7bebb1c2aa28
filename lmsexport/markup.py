"""Markdown to safe HTML for the model: rendering, math protection, sanitising.

Markdown is rendered by markdown-it-py (CommonMark, plus tables and strikethrough);
raw HTML is allowed in the source but everything is then sanitised by nh3 (the
Rust ammonia sanitiser) to an allow-list: no script, no event handlers, no
`javascript:` URLs. TeX math (`$..$`, `$$..$$`, `\\(..\\)`, `\\[..\\]`) is taken out
before rendering, so Markdown never touches a `_` or `*` inside it, and put back in
the model's convention: `\\(..\\)` inline, `\\[..\\]` display (see model.Text).
"""

from __future__ import annotations

import functools
import html
import re

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
    """`fragment` reduced to the allowed tags and attributes (links: http, https, mailto only)."""
    import nh3

    return nh3.clean(
        fragment,
        tags=TAGS,
        attributes=ATTRIBUTES,
        attribute_filter=_url,
        url_schemes={"http", "https", "mailto"},
        link_rel="noopener noreferrer",
        strip_comments=True,
    )


def render(text: str) -> tuple[str, bool]:
    """Markdown `text` as safe HTML, and whether it holds any markup at all.

    One paragraph comes out without its `<p>`, so an option or a title stays inline.
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
    rendered = sanitize(rendered)
    rendered = _TOKEN_BACK.sub(lambda m: spans[int(m.group(1))], rendered)
    return rendered, bool(spans) or rendered != html.escape(text.strip(), quote=False)


def image_sources(fragment: str) -> list[str]:
    """The `src` of every image in a sanitised fragment, in order."""
    return [html.unescape(src) for src in _IMG_SRC.findall(fragment)]
