"""Text as people read it: the one HTML -> visible words, the one shortener, the one writing direction,
the one number format of every output (`2.5`), the one English count of things (`2 options`).

Every place that needs a text without its markup (a QTI item title, a Moodle question name, a
SCORM description or drop-down label, lint) takes it from here, so one prompt gives one title in
every format. The writing direction of a language comes from Unicode and CLDR data, never from a
list kept by hand: its script is the tag's script subtag, else the script CLDR's likely subtags
give the language (and region: `pa-PK` is Arabic, `pa` Gurmukhi), read through Babel; a script
runs right to left when its letters have the bidirectional class R or AL (UAX #9), read from the
Unicode tables of the `regex` module (the standard library has no Script property).
https://www.rfc-editor.org/rfc/rfc5646, https://cldr.unicode.org/, https://www.unicode.org/reports/tr9/
"""

from __future__ import annotations

import functools
import unicodedata
from typing import TYPE_CHECKING, Iterator

from .vocabulary import XML_ILLEGAL

if TYPE_CHECKING:  # a build with nothing to rebuild counts its questions without loading the model
    from .model import Text

TITLE_LENGTH = 60
"""Characters of its prompt that make the title of a question without one (LMSs list questions by it)."""

_BLOCKS = frozenset({"address", "blockquote", "br", "dd", "div", "dl", "dt", "figcaption", "figure", "h1", "h2",
                     "h3", "h4", "h5", "h6", "hr", "li", "ol", "p", "pre", "table", "td", "th", "tr", "ul"})
"""Elements that separate words: their text is kept apart from the text around them."""
_NOT_TEXT = frozenset({"script", "style", "template", "noscript", "iframe", "object", "svg", "math"})
"""Elements whose content is never words a learner reads."""
_CODE = frozenset({"code", "pre", "kbd", "samp"})


def words(text: Text | None) -> str:
    """What a learner reads in `text`, on one line: see html_words(); plain text has its
    whitespace collapsed."""
    if text is None:
        return ""
    return html_words(text.value) if text.format == "html" else " ".join(text.value.split())


@functools.lru_cache(maxsize=4096)
def html_words(fragment: str, *, code: bool = True) -> str:
    """The words an HTML fragment shows, on one line: markup dropped, entities decoded, a block
    or a line break a space between words, an image its alt text, whitespace collapsed, a
    reference to a character no XML can hold (`&#1;`) dropped, the result NFC.

    `code=False` leaves out code (`<code>`, `<pre>`, `<kbd>`, `<samp>`), for lint's look at
    prose. Cached: lint asks for the same text from several rules."""
    if "<" not in fragment and "&" not in fragment:
        return " ".join(fragment.split())
    from lxml import etree

    from .xml import html_parser

    document = etree.fromstring(fragment, html_parser())
    body = document.find("body") if document is not None else None
    if body is None:
        return ""
    shown = " ".join(XML_ILLEGAL.sub("", "".join(_shown(body, _NOT_TEXT if code else _NOT_TEXT | _CODE))).split())
    return unicodedata.normalize("NFC", shown)  # a reference may stand for a combining mark


def _shown(root, dropped: frozenset[str]) -> Iterator[str]:
    """The pieces of text under `root` in document order (its own tail excluded), with a space
    around each block and an image's alt text; `dropped` elements show nothing."""
    from lxml import etree

    hidden = 0  # how deep inside a dropped element
    for event, node in etree.iterwalk(root, events=("start", "end")):
        if event == "start":
            if hidden or node.tag in dropped:
                hidden += 1
            else:
                yield " " if node.tag in _BLOCKS else ""
                yield f" {node.get('alt')} " if node.tag == "img" and node.get("alt") else ""
                yield node.text or ""
            continue
        if hidden:
            hidden -= 1
            if hidden:
                continue
        elif node.tag in _BLOCKS:
            yield " "
        if node is not root:
            yield node.tail or ""


def shorten(text: str, limit: int) -> str:
    """`text` in at most `limit` characters, ended with `…` if cut: at the last space when one is
    in the second half, and never inside a character with its accents or an emoji sequence (an
    extended grapheme cluster, UAX #29)."""
    if len(text) <= limit:
        return text
    import regex

    # The clusters of the first `limit` characters: all but the last end by `limit - 1`, and
    # the last, cut or not, starts on a true boundary (one depends on the text before it only).
    end = limit - len(regex.findall(r"\X", text, endpos=limit)[-1])
    cut = text[:end]
    space = cut.rfind(" ")
    if space > limit // 2:
        cut = cut[:space]
    return cut.rstrip() + "…"


def number(value: float) -> str:
    """One number format for every output: `1`, `2.5`, `33.33333` (no `1.0`, no exponent)."""
    text = f"{value:.7f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def counted(count: float, noun: str, plural: str | None = None) -> str:
    """A count and its noun as messages say them: `1 option`, `2 options`, `1.5 points` (the count
    in the one number format, `number`); `plural` for a noun that does not take an s
    (`categories`). English: lmsexport's messages are."""
    return f"{number(count)} {noun if count == 1 else plural or noun + 's'}"


def default_title(prompt: Text, fallback: str) -> str:
    """The title a question without one gets in every format: the start of its prompt's words,
    else `fallback` (its id)."""
    return shorten(words(prompt), TITLE_LENGTH) or fallback


@functools.lru_cache(maxsize=None)
def direction(lang: str | None) -> str:
    """`rtl` or `ltr`: how text in the BCP 47 tag `lang` runs (`ltr`, HTML's default, for no tag
    or a language CLDR does not know). A script subtag decides (`az-Arab`, `ar-Latn`)."""
    found = script(lang)
    return (_script_direction(found) if found else None) or "ltr"


@functools.lru_cache(maxsize=None)
def script(lang: str | None) -> str | None:
    """The ISO 15924 script of text in the BCP 47 tag `lang`: its script subtag when Unicode
    encodes letters of it, else the one CLDR's likely subtags give; None for no tag or a language
    CLDR does not know."""
    if not lang:
        return None
    language, found, region = _subtags(lang)
    if found is None or _script_direction(found) is None:
        found = _likely_script(language, region)
    return found


def _subtags(lang: str) -> tuple[str, str | None, str | None]:
    """The language, script and region subtags of a tag (RFC 5646 section 2.1), in CLDR's case;
    an extended language subtag (`zh-yue`) is the language."""
    language, *rest = lang.split("-")
    language, script, region = language.lower(), None, None
    for subtag in rest:
        if len(subtag) == 1 or region is not None:
            break  # an extension or private use (`-x-`), or a variant after the region
        if len(subtag) == 3 and subtag.isalpha() and script is None:
            language = subtag.lower()
        elif len(subtag) == 4 and subtag.isalpha() and script is None:
            script = subtag.title()
        elif (len(subtag) == 2 and subtag.isalpha()) or (len(subtag) == 3 and subtag.isdigit()):
            region = subtag.upper()
        else:
            break
    return language, script, region


def _likely_script(language: str, region: str | None) -> str | None:
    """The script CLDR's likely subtags give a language, in a region if one is named."""
    from babel.core import get_global

    likely = get_global("likely_subtags")
    for key in ((f"{language}_{region}",) if region else ()) + (language,):
        if key in likely:
            return likely[key].split("_")[1]
    return None


@functools.lru_cache(maxsize=None)
def _script_direction(script: str) -> str | None:
    """`rtl` when the first letter Unicode gives the ISO 15924 script has the bidirectional class
    R or AL, else `ltr`; None for a code Unicode encodes no letter of (`Zxxx`, `Qaaa`, `Hans`).

    Unicode gives every letter of a script one strong direction, so its first letter answers
    for all of them. Code points are searched in blocks of 4,096, so Latin or Arabic costs one
    block and Adlam thirty; each script is looked up once a process."""
    import regex

    try:
        letter = regex.compile(rf"[\p{{Script={script}}}&&\p{{L}}]", regex.V1)
    except regex.error:
        return None
    for start in range(0, 0x110000, 0x1000):
        found = letter.search("".join(map(chr, range(start, start + 0x1000))))
        if found:
            return "rtl" if regex.match(r"[\p{Bidi_Class=R}\p{Bidi_Class=AL}]", found[0]) else "ltr"
    return None
