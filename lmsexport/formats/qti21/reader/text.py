"""QTI 2.1 content back into model text: XHTML to HTML, MathML to TeX, images to quiz files.

Part of the QTI reader (readers/qti21.py). What writers/qti21_body.py writes comes back
as it was: plain text (text and <br/> only) as plain, anything else as HTML in lxml's
HTML serialisation; a MathML formula with its TeX annotation as `\\(..\\)` / `\\[..\\]`
(one without stays MathML); an image of the package as a quiz file (model.Asset) whose
path is the image's path in the package less `items/`, where lmsexport puts them.
"""

from __future__ import annotations

import copy
import posixpath
import unicodedata
from html import escape
from math import isfinite, nan

from .. import names
from ....diagnostics import Diagnostic, Log, SourceSpan
from ....images import image_problem
from ....markup import Sanitiser, sanitize
from ....math import MATHML, annotation_tex
from ....model import MEDIA_TYPES, Asset, ModelError, Text
from ....xml import NS, replace_with_text


class Unreadable(Exception):
    """A problem that stops reading one item, at the element `node` (the item is skipped)."""

    code = "E803"
    fatal = False
    """True for what refuses the whole package even when its other items read (a hostile image)."""

    def __init__(self, message: str, node=None, hint: str = ""):
        super().__init__(message)
        self.line = getattr(node, "sourceline", 0) or 0
        self.hint = hint


class NoKind(Unreadable):
    """An item the model has no kind for (adaptive, template, graphic, custom ...): skipped, W881."""

    code = "E807"


class Emptied(Unreadable):
    """A text of the item that the sanitiser leaves with nothing to show (E010)."""

    code = "E010"


NO_CORRECT_RESPONSE = "give the responseDeclaration a <correctResponse> with the right answer"
"""The hint for an item whose answer is nowhere (no correctResponse, nor a mapping or rules that say it)."""


def read_number(value: str | None, node, what: str) -> float:
    """`value` (an attribute or the text of `node`) as a finite number, else Unreadable at `node`:
    a package from elsewhere may hold anything where QTI wants an xs:double."""
    try:
        found = float(value)
    except (TypeError, ValueError):
        found = nan
    if not isfinite(found):
        raise Unreadable(f"{what} is {value!r}, not a number", node, "write a number such as 1 or 2.5")
    return found


_Q = f"{{{NS['qti']}}}"
_LANG = f"{{{NS['xml']}}}lang"


class TextReader:
    """Reads the texts of one document of a package (`path` in `files`), noting the images used."""

    def __init__(self, path: str = "", files: dict[str, bytes] | None = None, assets: dict | None = None, *,
                 log: Log | None = None, subject: str = "the item", span: SourceSpan | None = None):
        self.path, self.files = path, files or {}
        self.assets: dict[str, Asset] = {} if assets is None else assets
        """Quiz files found so far, by path (shared by every document of the package)."""
        self.log = Log() if log is None else log
        """Where what the item holds that the model leaves out is told."""
        self.subject, self.span = subject, span or SourceSpan(path)
        """The item as messages name it (`question 3 (item 'choice')`), and where it is."""

    def clean(self, fragment: str, part: str = "its <itemBody>") -> str:
        """HTML of the item through the one sanitiser: what it removes is warned (W010), a text left
        with nothing to show stops the item (E010)."""
        problems: list[Diagnostic] = []
        cleaned = Sanitiser(self.log, problems)(fragment, question=self.subject, part=part, span=self.span)
        if cleaned is None:
            raise Emptied(problems[0].message, hint=problems[0].hint)
        return cleaned

    def text(self, container) -> Text:
        """The content of `container`: plain text when it is only text and <br/>, else HTML."""
        unindent(container)
        lang = container.get(_LANG)
        if all(child.tag == f"{_Q}br" and not child.attrib for child in container):
            value = (container.text or "") + "".join("\n" + (child.tail or "") for child in container)
            return Text(unicodedata.normalize("NFC", value), "plain", lang)
        part = f"its <{container.tag.rpartition('}')[2]}>"
        return html_text(self.inner_html(container), lang, lambda fragment: self.clean(fragment, part))

    def block_text(self, node) -> Text:
        """The text of a modalFeedback or rubricBlock: of its one div (as lmsexport writes), else its own."""
        unindent(node)
        only = node[0] if len(node) == 1 and not node.text and not node[0].tail else None
        return self.text(only) if only is not None and only.tag == f"{_Q}div" else self.text(node)

    def inner_html(self, node) -> str:
        return escape(node.text or "", quote=False) + "".join(self.html(child) for child in node)

    def html(self, node) -> str:
        """An XHTML element of QTI as HTML: no namespace, `lang` for `xml:lang`, TeX for MathML
        written by lmsexport, quiz paths for images; its tail included."""
        from lxml import etree

        if node.tag == f"{{{MATHML}}}math" and annotation_tex(node) is not None:
            return escape(_delimited(node) + (node.tail or ""), quote=False)
        node = copy.deepcopy(node)
        for shown in list(node.iter(f"{_Q}feedbackInline", f"{_Q}feedbackBlock")):
            self.log.warn("W884", f"{self.subject}: its {shown.tag.rpartition('}')[2]} {shown.get('identifier')!r} "
                          "is left out: the model's feedback is shown after the answer, not inside the text",
                          self.span, "put its text in the item's modal feedback")
            _drop(shown)
        if node.tag in (f"{_Q}feedbackInline", f"{_Q}feedbackBlock"):
            return escape(node.tail or "", quote=False)
        for math in list(node.iter(f"{{{MATHML}}}math")):
            _math_to_tex(math)
        for element in node.iter():
            if not isinstance(element.tag, str):
                continue
            element.tag = element.tag.rpartition("}")[2]
            if _LANG in element.attrib:
                element.set("lang", element.attrib.pop(_LANG))
            if element.tag == "img" and element.get("src"):
                element.set("src", self.image(element.get("src")))
        etree.cleanup_namespaces(node)
        return etree.tostring(node, method="html", encoding="unicode", with_tail=True)

    def image(self, src: str) -> str:
        """The quiz's path for an image the document shows, noted as a quiz file if the package has it."""
        if ":" in src.split("/")[0]:
            return src
        path = posixpath.normpath(posixpath.join(posixpath.dirname(self.path), src.split("#")[0]))
        media_type = MEDIA_TYPES.get(posixpath.splitext(path)[1].lower())
        if path not in self.files or media_type is None:
            return src
        quiz_path = path.removeprefix(names.MEDIA_FOLDER)
        problem = image_problem(self.files[path], media_type)
        if problem is not None:
            error = Unreadable(f"the image {src!r} cannot be carried: {problem}",
                               hint="replace it in the package by a plain image file of the type its name says")
            error.fatal = True
            raise error
        try:
            self.assets.setdefault(quiz_path, Asset(path=quiz_path, media_type=media_type, data=self.files[path]))
        except ModelError:
            return src
        return quiz_path


def html_text(html: str, lang: str | None = None, clean=sanitize) -> Text:
    """HTML from a package as model text: sanitised to the model's subset, as HTML from any
    source is (no script, no event handlers, no javascript: links); `clean` is the item's
    `TextReader.clean`, which tells what it removed."""
    return Text(unicodedata.normalize("NFC", clean(html)), "html", lang)


def _drop(node) -> None:
    """Take `node` out of its tree, keeping the text after it."""
    if node.getparent() is not None:
        replace_with_text(node)


def unindent(node) -> None:
    """Take out the layout of pretty-printed XML below `node`: whitespace-only runs between
    elements, where every run is blank and one starts a new line with indentation. A text's own
    space between elements (`<p>a</p>\n<p>b</p>`, `<b>a</b> <i>b</i>`, written as built) stays."""
    children = list(node)
    runs = [node.text, *(child.tail for child in children)]
    if children and all(not (run or "").strip() for run in runs) and any(
            "\n " in (run or "") or "\n\t" in (run or "") for run in runs):
        node.text = None
        for child in children:
            child.tail = None
    for child in children:
        if isinstance(child.tag, str):
            unindent(child)


def _math_to_tex(math) -> None:
    """Replace a MathML formula that carries its TeX by the TeX between its delimiters."""
    if annotation_tex(math) is None:
        return
    replace_with_text(math, _delimited(math))


def _delimited(math) -> str:
    tex = annotation_tex(math)
    return ("\\[{}\\]" if math.get("display") == "block" else "\\({}\\)").format(tex)


def order_assets(assets: dict[str, Asset], manifest) -> tuple[Asset, ...]:
    """The quiz files in the order the manifest lists them (lmsexport lists them in the quiz's
    order), those it does not list after them in the order they were first shown."""
    listed = [] if manifest is None else [
        node.get("href", "").removeprefix(names.MEDIA_FOLDER) for node in manifest.iter("{*}file")
    ]
    rank = {path: n for n, path in reversed(list(enumerate(listed)))}
    first_use = list(assets)
    return tuple(sorted(assets.values(), key=lambda a: (rank.get(a.path, len(rank)), first_use.index(a.path))))
