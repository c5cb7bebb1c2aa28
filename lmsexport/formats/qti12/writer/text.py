"""Model text as QTI 1.2 material: `mattext` holding HTML as text (entity-escaped, as Canvas writes it).

QTI ASI 1.2.1, section 3.6 (material): https://www.imsglobal.org/question/qtiv1p2/imsqti_asi_infov1p2.html
Canvas's importer takes `text/html` text as an opaque HTML string and `text/plain` as text
(QTIMigrationTool `imsqtiv1.py` MatText), then sanitises the HTML with its own allow-list, which
keeps everything markup.py's allow-list lets through. The flavour decides how an image of the quiz
and a formula are written (Canvas: `$IMS-CC-FILEBASE$/<path>` and its equation images). Where
Canvas takes plain text only (drop-down choices, matching options), HTML is reduced to its text
with a warning (W857); an image that is not one of the quiz's files is a warning (W858).
"""

from __future__ import annotations

import html as entities

from .. import names
from ....math import Math, split_math
from ....model import Asset, Question, Text
from ....xml import html_fragment, sub
from .parts import Notes

_NOT_MATH = frozenset({"code", "pre", "kbd", "samp", "math"})
"""Elements whose text is never math (as in lmsexport/math.py)."""


class TextWriter:
    """Writes the texts of one question (or of the quiz's description) as QTI 1.2 material."""

    def __init__(self, notes: Notes, question: Question | None, assets: dict[str, Asset], flavour):
        self.notes, self.question, self.assets, self.flavour = notes, question, assets, flavour

    def stem(self, parent, text: Text, lang: str | None, markup: str | None = None) -> None:
        """The question text: always HTML, in a `div` (Canvas's exporter writes `<div>text</div>`),
        carrying the question's language. `markup` is ready HTML (a fill-in text) instead of `text`."""
        root = self._tree(text.html() if markup is None else markup)
        if text.lang or lang:
            root.set("lang", text.lang or lang)
        self._mattext(sub(parent, "qti12:material"), "text/html", _serialise(root, whole=True))

    def material(self, parent, text: Text) -> None:
        """`text` in a material: text/plain when it has no markup, else text/html (Canvas's `html_mat_text`;
        HTML holding text only would reach a learner as escaped entities, so it goes as plain text)."""
        material = sub(parent, "qti12:material")
        if text.format == "plain" and "\n" not in text.value and not text.lang:
            return self._mattext(material, "text/plain", text.value)
        root = self._tree(text.html())
        if text.lang:
            root.set("lang", text.lang)
            return self._mattext(material, "text/html", _serialise(root, whole=True))
        if not len(root):
            return self._mattext(material, "text/plain", root.text or "")
        self._mattext(material, "text/html", _serialise(root))

    def html(self, text: Text) -> str:
        """`text` as an HTML string (the quiz description in assessment_meta.xml)."""
        root = self._tree(text.html())
        if text.lang:
            root.set("lang", text.lang)
            return _serialise(root, whole=True)
        return _serialise(root)

    def plain(self, text: Text, what: str) -> str:
        """`text` where Canvas takes characters only: its text, a warning if markup is left out."""
        if text.format == "plain" and "\n" not in text.value and not text.lang:
            return text.value
        root = html_fragment(text.html())
        words = " ".join(root.text_content().split())
        if len(root) and not all(child.tag == "br" for child in root.iter() if child is not root) or text.lang:
            self._warn("W857", f"{what} is plain text in Canvas: its HTML (formatting, images, language) is left "
                       f"out and its text kept ({words!r}); a formula stays TeX",
                       "keep drop-down choices and matching options to plain words")
        return words

    def _mattext(self, material, texttype: str, value: str) -> None:
        sub(material, "qti12:mattext", {"texttype": texttype}, value)

    def _tree(self, value: str):
        """The HTML as a tree, with the quiz's images and the formulas written the flavour's way."""
        root = names.fragment(value)
        self._images(root)
        self._formulas(root)
        return root

    def _images(self, root) -> None:
        for image in root.iter("img"):
            src = image.get("src", "")
            if src in self.assets:
                image.set("src", self.flavour.media_src(src))
            elif ":" not in src.split("/")[0]:
                self._warn("W858", f"the image {src!r} is not one of the quiz's files, so the package cannot carry it",
                           "add the file beside the quiz, or link an http(s) image")

    def _formulas(self, root) -> None:
        """Each `\\(..\\)` and `\\[..\\]` in the text becomes the flavour's formula element."""
        for node in list(root.iter()):
            if not isinstance(node.tag, str) or any(n.tag in _NOT_MATH for n in (node, *node.iterancestors())):
                continue
            if node.text and "\\" in node.text:
                node.text = self._splice(node, 0, node.text)
            for child in list(node):
                if child.tail and "\\" in child.tail:
                    child.tail = self._splice(node, node.index(child) + 1, child.tail)

    def _splice(self, parent, position: int, text: str) -> str | None:
        """Put the formulas of `text` into `parent` from `position`; return the text before the first."""
        lead, last = [], None
        for part in split_math(text):
            if isinstance(part, Math):
                last = parent.makeelement("img", self.flavour.formula(part.tex, part.display))
                parent.insert(position, last)
                position += 1
            elif last is None:
                lead.append(part)
            else:
                last.tail = (last.tail or "") + part
        return "".join(lead) or None

    def _warn(self, code: str, message: str, hint: str = "") -> None:
        subject = f"{self.notes.label(self.question)}: " if self.question else "the quiz description: "
        self.notes.warn(self.question, code, subject + message, hint)


def _serialise(root, whole: bool = False) -> str:
    """The HTML under `root` (or `root` itself, the question's div) as a string, as browsers write it."""
    from lxml import html

    if whole:
        return html.tostring(root, encoding="unicode")
    inner = entities.escape(root.text or "", quote=False)
    return inner + "".join(html.tostring(child, encoding="unicode") for child in root)
