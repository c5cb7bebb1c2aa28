"""QTI 1.2 material back into model text: HTML sanitised, images to quiz files, equation images to TeX.

QTI ASI 1.2.1, section 3.6 (material): https://www.imsglobal.org/question/qtiv1p2/imsqti_asi_infov1p2.html
Part of the QTI 1.2 reader. A `mattext` is plain text unless its `texttype` says HTML (Canvas
escapes its HTML into the text; other tools put XHTML elements inside); `matimage` is an image,
`matbreak` a line break; Blackboard's `mat_extension/mat_formattedtext` is HTML too. HTML then
goes through what the writer did, backwards (docs/formats/canvas.md):
the `<div>` around a question text (and its `lang`) comes off, an image `$IMS-CC-FILEBASE$/<path>`
becomes the quiz file `<path>` (its bytes in `web_resources/`, or wherever in the package the path
ends), an equation image of Canvas's editor becomes its TeX, `\\(..\\)` or `\\[..\\]`; then the one
sanitiser (markup.py). A text of nothing but words and line breaks (no formula) comes back as
plain text.
"""

from __future__ import annotations

import copy
import html as entities
import posixpath
import unicodedata
from dataclasses import dataclass

from .. import names
from ....diagnostics import Diagnostic, Log, SourceSpan
from ....images import image_problem
from ....markup import Sanitiser
from ....model import MEDIA_TYPES, XML_ILLEGAL, Asset, ModelError, Text, is_language_tag
from ....paths import unsafe_path
from ....xml import local_name, replace_with_text

_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
_RESPONSES = frozenset({"response_lid", "response_str", "response_num", "response_xy", "response_grp",
                        "response_extension"})
_WEB = ("http://", "https://", "data:", "mailto:")


@dataclass
class Where:
    """Where texts are read, for their messages: the log, what they belong to (`question q3`,
    `the quiz`) and its place in the file."""

    log: Log
    subject: str
    span: SourceSpan

    def warn(self, code: str, message: str, hint: str = "") -> None:
        self.log.warn(code, f"{self.subject}: {message}", self.span, hint)


class Emptied(Exception):
    """A text the sanitiser leaves with nothing to show (E010's message): its question is skipped."""


def materials(node) -> list:
    """The `material` elements below `node` in document order, but those of its responses (a
    question text is the material of its `presentation` outside the choices and blanks)."""
    found = []
    for child in node:
        name = local_name(child)
        if name == "material":
            found.append(child)
        elif name and name not in _RESPONSES:
            found += materials(child)
    return found


class TextReader:
    """Reads the texts of one QTI 1.2 document (`path` in the package `files`), noting the images
    it shows as quiz files in `assets` (shared by every document of the package)."""

    def __init__(self, files: dict[str, bytes], path: str, assets: dict[str, Asset]):
        self.files, self.path, self.assets = files, path, assets

    def text(self, holders: list, where: Where, part: str, lang: str | None = None, stem: bool = False) -> Text:
        """The text of `holders` (material elements, or elements holding them), as the model keeps
        it; `lang` is the question's language, which a text in it does not repeat; a `stem` (the
        question text) loses the `<div>` the exporter wraps it in. `part` names it in messages."""
        parts = [piece for holder in holders for piece in self._parts(holder, where)]
        if all(kind == "plain" for kind, _, _ in parts):
            value = "".join(value for _, value, _ in parts)
            langs = {part_lang for _, _, part_lang in parts} - {None}
            return Text(_clean(value), "plain", _own(langs.pop() if len(langs) == 1 else None, lang))
        fragment = "".join(value if kind == "html" else entities.escape(value, quote=False) for kind, value, _ in parts)
        return self.html(fragment, where, part, lang, stem)

    def words(self, holders: list, where: Where, part: str) -> str:
        """The words of a place the model keeps as plain text (a blank's answer, a fill-in text)."""
        text = self.text(holders, where, part)
        if text.format == "plain":
            return text.value
        from ....text import html_words

        words = html_words(text.value)
        where.warn("W879", f"{part} is plain text in lmsexport: its HTML is reduced to its words ({words!r})",
                   "nothing to do, unless the formatting mattered")
        return words

    def html(self, fragment: str, where: Where, part: str, lang: str | None, stem: bool = False) -> Text:
        """An HTML fragment from the package as model text (see the module docstring), through the
        one sanitiser: what it removes is a warning (W010), a text it empties stops the question."""
        root = names.fragment(_clean(fragment))
        text_lang = _unwrap(root, stem)
        for image in list(root.iter("img")):
            self._image(image, where)
        for link in list(root.iter("a")):
            self._link(link, where)
        text_lang = _own(text_lang, lang)
        value = lines(root)
        if value is not None and "\\(" not in value and "\\[" not in value:
            return Text(_clean(value), "plain", text_lang)
        problems: list[Diagnostic] = []
        cleaned = Sanitiser(where.log, problems)(_serialised(root), question=where.subject, part=part,
                                                 span=where.span)
        if cleaned is None:
            raise Emptied(problems[0].message.removeprefix(f"{where.subject}: "))
        return Text(_clean(cleaned), "html", text_lang)

    def _parts(self, holder, where: Where) -> list[tuple[str, str, str | None]]:
        """(plain or html, content, language) for each piece of a material, in order."""
        if local_name(holder) != "material":
            return [part for material in materials(holder) for part in self._parts(material, where)]
        parts = []
        for child in holder:
            name = local_name(child)
            if name in ("mattext", "matemtext"):
                parts.append(_mattext(child, name == "matemtext"))
            elif name == "matimage" and child.get("uri"):
                attributes = {"src": child.get("uri"), "alt": child.get("label") or ""}
                parts.append(("html", html_element("img", attributes), None))
            elif name == "matbreak":
                parts.append(("html", "<br>", None))
            elif name == "mat_extension" and any(local_name(c) == "mat_formattedtext" for c in child):
                parts += [_formatted(c) for c in child if local_name(c) == "mat_formattedtext"]
            elif name:
                where.warn("W874", f"its <{name}> material is left out: lmsexport carries text and images",
                           "put what it shows into the text")
        return parts

    def _image(self, image, where: Where) -> None:
        equation = names.equation_tex(image.attrib)
        if equation is not None:
            tex, display = equation
            replace_with_text(image, ("\\[{}\\]" if display else "\\({}\\)").format(tex))
            return
        src = image.get("src", "")
        if src.lower().startswith(_WEB):
            return
        path, problem = self._file(src)
        if problem is None:
            image.set("src", path)
            return
        where.warn("W877", f"the image {src!r} is left out: {problem}", "add the image file to the package")
        replace_with_text(image, "")

    def _file(self, src: str) -> tuple[str, str | None]:
        """The quiz path of an image the document shows, made one of the quiz's files; or why not."""
        quiz_path = names.media_path(src)
        member = self._member(quiz_path, src)
        if member is None:
            return "", "the package does not hold it"
        quiz_path = posixpath.normpath(quiz_path if quiz_path is not None else member).removeprefix(names.MEDIA_FOLDER)
        media_type = MEDIA_TYPES.get(posixpath.splitext(member)[1].lower())
        if media_type is None:
            return "", "it is not a PNG, JPEG, GIF, SVG or WebP image"
        problem = unsafe_path(quiz_path) or image_problem(self.files[member], media_type)
        if problem is not None:
            return "", problem
        known = self.assets.get(quiz_path)
        if known is not None and known.data != self.files[member]:
            return "", f"another image of the package has the path {quiz_path!r}"
        try:
            self.assets.setdefault(quiz_path, Asset(path=quiz_path, media_type=media_type, data=self.files[member]))
        except ModelError as exc:
            return "", str(exc)
        return quiz_path, None

    def _member(self, quiz_path: str | None, src: str) -> str | None:
        """The package file an image refers to: `web_resources/<path>` or a file whose path ends
        with it (as Canvas's link migrator matches them), or `src` relative to the document."""
        from urllib.parse import unquote

        if quiz_path is not None:
            for name in (names.MEDIA_FOLDER + quiz_path, quiz_path):
                if name in self.files:
                    return name
            return next((name for name in sorted(self.files) if name.endswith("/" + quiz_path)), None)
        relative = unquote(src.split("#")[0].split("?")[0])
        if not relative or unsafe_path(relative) is not None:
            return None
        name = posixpath.normpath(posixpath.join(posixpath.dirname(self.path), relative))
        return name if name in self.files else None

    def _link(self, link, where: Where) -> None:
        """A link to a file of the package (not an image) cannot travel: its text stays."""
        href = link.get("href", "")
        if names.media_path(href) is None:
            return
        where.warn("W877", f"the link to the package's file {names.media_path(href)!r} is left out (its text is "
                   "kept): lmsexport carries a quiz's images only", "link to the file where it is published on the web")
        link.drop_tag()


def lines(root) -> str | None:
    """The text under `root` if it is only text and line breaks (a plain text, written as HTML),
    each `<br>` a new line; else None."""
    if not all(child.tag == "br" and not child.attrib and not len(child) for child in root):
        return None
    return (root.text or "") + "".join("\n" + (child.tail or "") for child in root)


def html_element(tag: str, attributes: dict[str, str]) -> str:
    from lxml import html

    return html.tostring(html.Element(tag, attributes), encoding="unicode")


def _mattext(node, emphasised: bool) -> tuple[str, str, str | None]:
    """A mattext's content: HTML when its texttype says so (escaped in its text, as Canvas writes
    it, or as XHTML elements inside it), plain text otherwise."""
    from lxml import etree

    lang = node.get(_LANG)
    is_html = "html" in (node.get("texttype") or "").lower() or len(node)
    if len(node):
        node = copy.deepcopy(node)
        for child in node.iter():
            if isinstance(child.tag, str):
                child.tag = local_name(child)
        etree.cleanup_namespaces(node)
        value = entities.escape(node.text or "", quote=False) + "".join(
            etree.tostring(child, encoding="unicode", with_tail=True) for child in node)
    else:
        value = node.text or ""
    if emphasised:
        return "html", f"<em>{value if is_html else entities.escape(value, quote=False)}</em>", lang
    return ("html" if is_html else "plain"), value, lang


def _formatted(node) -> tuple[str, str, str | None]:
    """Blackboard's text: `mat_extension/mat_formattedtext type="HTML"` (its HTML escaped in it)."""
    return ("html" if (node.get("type") or "").upper() == "HTML" else "plain"), node.text or "", None


def _unwrap(root, stem: bool) -> str | None:
    """Take off a `<div>` around the whole text: always around a question text (the exporter's),
    elsewhere only when it carries the text's language (as the writer puts it). Its `lang`."""
    only = root[0] if len(root) == 1 and not (root.text or "").strip() and not (root[0].tail or "").strip() else None
    if only is None or only.tag != "div" or set(only.attrib) - {"lang", "dir"} or not (stem or only.get("lang")):
        return None
    lang = only.get("lang")
    only.drop_tag()
    return lang


_VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track",
                   "wbr"})


def _serialised(root) -> str:
    """The HTML under `root` for the sanitiser, which writes it again as HTML: serialised as XML,
    since lxml's HTML serialisation would percent-escape an image path (`a b.png` -> `a%20b.png`),
    with every element but the void ones written with an end tag (`<p></p>`, never `<p/>`)."""
    from lxml import etree

    for node in root.iter():
        if isinstance(node.tag, str) and node.tag not in _VOID and node.text is None and not len(node):
            node.text = ""
    return entities.escape(root.text or "", quote=False) + "".join(
        etree.tostring(child, method="xml", encoding="unicode", with_tail=True) for child in root)


def _own(text_lang: str | None, lang: str | None) -> str | None:
    """A text's language only where it differs from its question's (model.Text.lang)."""
    return text_lang if text_lang and text_lang != lang and is_language_tag(text_lang) else None


def _clean(value: str) -> str:
    """NFC, without the characters XML cannot carry (a character reference may bring them)."""
    return unicodedata.normalize("NFC", XML_ILLEGAL.sub("", value))
