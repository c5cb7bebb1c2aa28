"""Quiz text for the SCORM player: math as MathML, images pointing into the package.

HTML text is changed at build time, not in the browser, so the package needs no
math library and no network: TeX between `\\(` `\\)` / `\\[` `\\]` becomes MathML
(lmsexport/math.py), which Chromium, Firefox and Safari draw natively (MathML Core),
and `<img src="img/a.png">` naming one of the quiz's assets becomes
`<img src="media/img/a.png">`, the file the package carries. Everything else is left
as written; the player's own sanitiser (static/sanitize.js) still filters the result
in the browser. What cannot be carried is reported as a warning, never dropped.
"""

from __future__ import annotations

import html
from urllib.parse import quote

from ...diagnostics import Log
from ...model import Asset, Quiz, Text
from ...text import direction

MEDIA = "media/"
"""Folder of the package that holds the quiz's assets, under their own paths."""


def media_path(asset: Asset) -> str:
    """Where an asset goes in the package (a zip entry name and a manifest href)."""
    return MEDIA + asset.path


class TextConverter:
    """Turns model Texts into the player's `{value, format, lang, dir}`, warning in `log`.

    `where` is the span that warnings point to; the caller sets it per question."""

    def __init__(self, quiz: Quiz, log: Log):
        self.sources = {asset.path: quote(media_path(asset), safe="/") for asset in quiz.assets}
        self.log = log
        self.where = quiz.where()

    def __call__(self, text: Text | None) -> dict | None:
        if text is None:
            return None
        data = {"value": self.html(text.value) if text.format == "html" else text.value, "format": text.format}
        if text.lang:
            data["lang"] = text.lang
            data["dir"] = direction(text.lang)
        return data

    def html(self, value: str) -> str:
        """An HTML fragment with its math converted and its images pointing into the package."""
        if "\\(" not in value and "\\[" not in value and "<img" not in value:
            return value
        from lxml import etree
        from lxml import html as lxml_html

        from ...math import MATHML, replace_math
        from ...xml import html_fragment

        root = html_fragment(value)
        for error in replace_math(root):
            self._warn("W605", f"the formula {error.tex!r} cannot be converted to MathML ({error}); "
                       "the player shows it as TeX", "check the TeX: braces balanced, every ^ and _ with an argument")
        for node in root.iter():
            if isinstance(node.tag, str) and node.tag.startswith(f"{{{MATHML}}}"):
                # In HTML the parser puts <math> and its children in the MathML namespace by itself.
                node.tag = node.tag.split("}")[1]
            elif node.tag == "img":
                self._image(node)
        etree.cleanup_namespaces(root)
        out = html.escape(root.text or "", quote=False)
        return out + "".join(lxml_html.tostring(child, encoding="unicode") for child in root)

    def _image(self, node) -> None:
        src = node.get("src", "")
        if src in self.sources:
            node.set("src", self.sources[src])
        elif src and ":" not in src.split("/")[0]:
            self._warn("W606", f"the image {src!r} is not one of the quiz's files, so the package cannot carry it; "
                       "the player shows its alt text", "add the file beside the quiz, or link an http(s) image")

    def _warn(self, code: str, message: str, hint: str) -> None:
        self.log.warn(code, message, self.where, hint)
