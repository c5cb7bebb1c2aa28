"""GIFT texts as the model's texts: the four text formats, math, images.

A text may start with its format (`parse_text_with_format()` in Moodle's format.php); without
one it has its question text's format, and a question text without one is `moodle`:

- `[moodle]` (Moodle's auto-format): plain text in which HTML is allowed, each new line a line
  break; read as plain text, or as HTML with its line breaks when it holds markup;
- `[html]`: HTML (new lines are spaces);
- `[plain]`: plain text, shown as written;
- `[markdown]`: Markdown, rendered by lmsexport.markup (CommonMark) to HTML.

All HTML passes the one allow-list sanitiser (lmsexport.markup.Sanitiser: what it removes is
warned, W010; a text it leaves with nothing to show is an error, E010). TeX between `\\(..\\)`,
`\\[..\\]` or `$$..$$` is math, as Moodle's MathJax filter shows it, so a text holding it is HTML.
Images: a GIFT file carries no files, so an image Moodle keeps in its file store
(`@@PLUGINFILE@@/...`) is left out with a warning; an image beside the GIFT file (a relative path)
becomes one of the quiz's assets when the reader is given a loader, else it is left out too.
"""

from __future__ import annotations

import html
import posixpath
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field

from ...diagnostics import Diagnostic, Log, SourceSpan
from ...markup import Sanitiser, render
from ...model import MEDIA_TYPES, XML_ILLEGAL, Asset, ModelError, Text
from .lexer import Chars

TEXT_FORMATS = ("moodle", "html", "plain", "markdown")
"""The names a GIFT text may start with, in brackets (format_name_to_const())."""
_MATH = re.compile(r"\\\(.+?\\\)|\\\[.+?\\\]|\$\$.+?\$\$", re.DOTALL)
_DOLLARS = re.compile(r"\$\$(.+?)\$\$", re.DOTALL)
_MARKUP = re.compile(r"<[A-Za-z/!][^>]*>|&(?:#\d+|#[xX][0-9a-fA-F]+|[A-Za-z][A-Za-z0-9]*);")
_IMG = re.compile(r"<img\b[^>]*>")
_ATTRIBUTE = r'\b{}="([^"]*)"'
_PLUGINFILE_LINK = re.compile(r'<a\b[^>]*\bhref="(@@PLUGINFILE@@[^"]*)"[^>]*>(.*?)</a>', re.DOTALL)
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:")
_TAG = re.compile(r"<[^>]*>")
_SPACE = re.compile(r"\s+")
_BREAK = re.compile(r"<br\s*/?>")
_BLOCK_END = re.compile(r"</(?:p|div|li|h[1-6]|tr|pre|blockquote|table|ul|ol)\s*>")
_PLAIN_TAGS = re.compile(r"</?p>|<br>")
_BLANK_LINES = re.compile(r"\n{3,}")
Locate = Callable[[str], SourceSpan]
"""Where a part of a text stands in its file (for the warnings about it)."""
_PLUGINFILE_HINT = ("export the question as Moodle XML (Question bank > Export > Moodle XML format), which carries "
                    "its files, or put the image beside the GIFT file and link it by its name")


def split_format(chars: Chars, default: str) -> tuple[str, Chars]:
    """A text's format and the text without its `[format]` (an unknown name stays in the text, as in Moodle)."""
    chars = chars.strip()
    if chars.text.startswith("["):
        end = chars.text.find("]")
        if chars.text[1:end] in TEXT_FORMATS:
            return chars.text[1:end], chars[end + 1:].strip()
    return default, chars


def safe(value: str) -> str:
    """NFC, without characters XML cannot carry (a sanitiser or an entity may bring either back)."""
    return XML_ILLEGAL.sub("", unicodedata.normalize("NFC", value))


def visible(fragment: str) -> str:
    """The words of an HTML fragment as plain text: breaks and paragraphs as new lines, other markup gone."""
    text = _BREAK.sub("\n", _SPACE.sub(" ", fragment))
    text = html.unescape(_TAG.sub("", _BLOCK_END.sub("\n\n", text)))
    lines = "\n".join(line.strip(" ") for line in text.split("\n"))
    return safe(_BLANK_LINES.sub("\n\n", lines).strip())


def only_breaks(fragment: str) -> bool:
    """True if the fragment's markup is paragraphs and line breaks only (its plain text loses nothing)."""
    return "<" not in _PLAIN_TAGS.sub("", fragment) and not _MATH.search(fragment)


@dataclass
class Texts:
    """Turns the texts of one file into the model's, collecting the images they show."""

    log: Log
    loader: Callable[[str], bytes] | None
    assets: dict[str, Asset] = field(default_factory=dict)
    problems: list[Diagnostic] = field(default_factory=list)
    """Where a text the sanitiser leaves with nothing to show is reported (E010)."""

    def __post_init__(self) -> None:
        self.sanitise = Sanitiser(self.log, self.problems)

    def text(self, value: str, text_format: str, question: str, locate: Locate) -> Text | None:
        """The model's text for a GIFT text of `text_format`; None when nothing of it shows.

        `locate(part)` is where a part of the text (an image's path) stands in the file, for warnings."""
        value = safe(value.strip())
        if not value:
            return None
        if text_format == "plain":
            return Text(value)
        clean = self.sanitise.bound(question=question, part="a text", span=locate(value.split("\n")[0]))
        if text_format == "markdown":
            rendered, has_markup = render(value, clean)
            return self._html(rendered, question, locate) if has_markup else Text(value)
        if not _MARKUP.search(value) and (text_format == "moodle" or "\n" not in value):
            return _plain_or_math(value)  # nothing for the sanitiser to do, nothing HTML would show otherwise
        fragment = value.replace("\n", "<br>") if text_format == "moodle" else value
        return self._html(clean(fragment), question, locate)

    def _html(self, fragment: str, question: str, locate: Locate) -> Text | None:
        fragment = _DOLLARS.sub(r"\\[\1\\]", safe(fragment))
        fragment = _IMG.sub(lambda image: self._image(image.group(), question, locate), fragment)
        fragment = _PLUGINFILE_LINK.sub(lambda link: self._unlinked(link, question, locate), fragment)
        if not visible(fragment) and "<img" not in fragment:
            return None
        if "<" not in _BREAK.sub("", fragment) and "\n" not in fragment and not _MATH.search(fragment):
            return Text(safe(html.unescape(_BREAK.sub("\n", fragment))))
        return Text(fragment, "html")

    def _unlinked(self, link: re.Match, question: str, locate: Locate) -> str:
        self.log.warn("W903", f"{question}: a link to a file in Moodle's file store (@@PLUGINFILE@@) is left out, "
                      "with its text kept: a GIFT file does not carry files", locate(html.unescape(link.group(1))),
                      _PLUGINFILE_HINT)
        return link.group(2)

    def _image(self, tag: str, question: str, locate: Locate) -> str:
        """The `<img>` as the quiz keeps it: as written, one of the quiz's assets, or its alt text (warned)."""
        src = _attribute(tag, "src")
        alt = _attribute(tag, "alt") or ""
        instead = f"; its alt text {html.unescape(alt)!r} is shown instead" if alt else ""
        if src is None or src.startswith(("//", "@@PLUGINFILE@@")):
            what = (f"image {src!r} is in Moodle's file store (@@PLUGINFILE@@)" if src and src.startswith("@@")
                    else "an image with no usable source")
            self.log.warn("W903", f"{question}: {what} and is left out: a GIFT file does not carry files{instead}",
                          locate(html.unescape(src or "<img")), _PLUGINFILE_HINT)
            return alt
        if _SCHEME.match(src):
            return tag  # on the web: every output links it as it is
        path, problem = self._asset(html.unescape(src))
        if problem:
            self.log.warn("W903", f"{question}: image {src!r} is left out: {problem}{instead}",
                          locate(html.unescape(src)),
                          "put the image beside the GIFT file, under the path the text gives, and build from the file")
            return alt
        return tag.replace(f'src="{src}"', f'src="{html.escape(path)}"')

    def _asset(self, src: str) -> tuple[str, str | None]:
        """The asset path of a relative image, loaded once; or why it cannot be one."""
        path = posixpath.normpath(src)
        media_type = MEDIA_TYPES.get(posixpath.splitext(path)[1].lower())
        if path.startswith("/") or path == ".." or path.startswith("../") or "\\" in path:
            return path, "it is not a file in the GIFT file's folder"
        if media_type is None:
            return path, "it is not a PNG, JPEG, GIF, SVG or WebP image"
        if path in self.assets:
            return path, None
        if self.loader is None:
            return path, "the GIFT file was not read from a folder"
        try:
            self.assets[path] = Asset(path=path, media_type=media_type, data=self.loader(path))
        except FileNotFoundError:
            return path, "there is no such file beside the GIFT file"
        except OSError as exc:
            return path, f"it cannot be read ({exc.strerror or exc})"
        except ModelError:
            return path, "its path cannot name a file in a package"
        return path, None


def _attribute(tag: str, name: str) -> str | None:
    found = re.search(_ATTRIBUTE.format(name), tag)
    return found.group(1) if found else None


def _plain_or_math(value: str) -> Text:
    """A plain text, or the HTML of one when it holds TeX math (which only HTML texts carry)."""
    if not _MATH.search(value):
        return Text(value)
    escaped = html.escape(value, quote=False).replace("\n", "<br>")
    return Text(_DOLLARS.sub(r"\\[\1\\]", escaped), "html")
