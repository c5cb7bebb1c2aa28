"""TeX math in the model's HTML text, converted to MathML for the writers that show it.

The model keeps math as TeX between `\\(` `\\)` (inline) and `\\[` `\\]` (display), the
MathJax convention (see model.Text). `split_math` finds those spans in a run of text,
`tex_to_mathml` converts one with latex2mathml (https://github.com/roniemartinez/latex2mathml),
and `replace_math` does both over an lxml tree (the QTI writer's XHTML, the SCORM player's HTML).

The MathML validates against MathML 2.0 (https://www.w3.org/TR/MathML2/), the version the
QTI 2.1 schema imports, and is MathML Core that browsers draw: attributes MathML 2 does not
allow where latex2mathml puts them are left out, and the TeX rides along as an `annotation`
(`application/x-tex`) inside `semantics`, so readers can give the TeX back while renderers
show only the first child of `semantics`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .xml import local_name

MATHML = "http://www.w3.org/1998/Math/MathML"
TEX_ENCODING = "application/x-tex"
"""The `annotation/@encoding` that marks the TeX a formula was made from."""

_SPAN = re.compile(r"\\\((?P<inline>.+?)\\\)|\\\[(?P<display>.+?)\\\]", re.DOTALL)
_ARITY = {"mfrac": 2, "mroot": 2, "msub": 2, "msup": 2, "munder": 2, "mover": 2, "msubsup": 3, "munderover": 3}
"""MathML elements with a fixed number of children (MathML 2, 3.1.3.2): latex2mathml writes
fewer for broken TeX such as `\\frac{a}`, which no renderer can draw."""
_MATHML3_ONLY = {"mpadded": ("voffset",)}
"""Attributes MathML 3 added that latex2mathml writes (MathML 2, 3.3.6 has no voffset): left out."""
_PRESENTATION = frozenset({
    "math", "mi", "mn", "mo", "mtext", "mspace", "ms", "mglyph", "mrow", "mfrac", "msqrt", "mroot", "mstyle",
    "merror", "mpadded", "mphantom", "mfenced", "menclose", "msub", "msup", "msubsup", "munder", "mover",
    "munderover", "mmultiscripts", "mprescripts", "none", "mtable", "mlabeledtr", "mtr", "mtd", "maligngroup",
    "malignmark", "maction", "semantics", "annotation", "annotation-xml",
})
"""MathML 2's presentation elements (MathML 2, chapter 3), all latex2mathml should write."""
_NOT_MATH = frozenset({"code", "pre", "kbd", "samp", "script", "style", "math"})
"""Elements whose text is never math: `\\(` in code is code (and math is not converted twice)."""


class MathError(ValueError):
    """TeX that cannot be written as MathML (a syntax error or a command latex2mathml lacks)."""

    def __init__(self, message: str, tex: str = ""):
        super().__init__(message)
        self.tex = tex


@dataclass(frozen=True, slots=True)
class Math:
    """One TeX span found in text: its TeX (without delimiters) and whether it is display math."""

    tex: str
    display: bool


def split_math(text: str) -> list[str | Math]:
    """`text` cut at its `\\(..\\)` and `\\[..\\]` spans: strings and Math in order, no empty
    strings. `text` is character data, not markup (unescape HTML first)."""
    parts: list[str | Math] = []
    end = 0
    for match in _SPAN.finditer(text):
        parts.append(text[end:match.start()])
        inline = match["inline"]
        parts.append(Math(inline if inline is not None else match["display"], inline is None))
        end = match.end()
    parts.append(text[end:])
    return [part for part in parts if part != ""]


def tex_to_mathml(tex: str, display: bool, *, annotate: bool = True):
    """`tex` as an lxml `math` element in the MathML namespace (`display="block"` for display math).

    With `annotate`, its content is `semantics`: the presentation, then the TeX as an
    annotation. Raises MathError for TeX latex2mathml cannot convert, or converts to
    something unreadable (a missing argument, an unknown command shown by its name)."""
    from latex2mathml import exceptions
    from latex2mathml.converter import convert
    from lxml import etree

    failures = tuple(getattr(exceptions, name) for name in dir(exceptions) if name.endswith("Error"))
    try:
        root = etree.fromstring(convert(tex, display="block" if display else "inline"))
    except (*failures, IndexError, KeyError, ValueError, etree.XMLSyntaxError) as exc:
        raise MathError(str(exc) or type(exc).__name__, tex) from None
    _check(root, tex)
    if annotate:
        _annotate(root, tex)
    return root


def _check(root, tex: str) -> None:
    for node in root.iter():
        if not isinstance(node.tag, str) or local_name(node) not in _PRESENTATION:
            # latex2mathml copies `\text{<b>x</b>}` into its output unescaped
            raise MathError("the TeX holds markup (<...>) that is not math; write it outside the formula", tex)
        if "href" in node.attrib:
            raise MathError("\\href links are not possible inside math (MathML 2 has no links)", tex)
        name = local_name(node)
        if name in _ARITY and len(node) != _ARITY[name]:
            raise MathError(f"<{name}> needs {_ARITY[name]} parts, the TeX gives it {len(node)}", tex)
        if name in ("mi", "mo") and len(node.text or "") > 1 and node.text.startswith("\\"):
            raise MathError(f"unknown command {node.text}", tex)
        for attribute in _MATHML3_ONLY.get(name, ()):
            node.attrib.pop(attribute, None)


def _annotate(root, tex: str) -> None:
    from lxml import etree

    children = list(root)
    semantics = etree.SubElement(root, f"{{{MATHML}}}semantics")
    if len(children) == 1:
        semantics.append(children[0])
    else:
        etree.SubElement(semantics, f"{{{MATHML}}}mrow").extend(children)
    etree.SubElement(semantics, f"{{{MATHML}}}annotation", encoding=TEX_ENCODING).text = tex


def annotation_tex(math) -> str | None:
    """The TeX a `math` element was made from (its `application/x-tex` annotation), or None."""
    for node in math.iter(f"{{{MATHML}}}annotation"):
        if node.get("encoding") == TEX_ENCODING:
            return node.text or ""
    return None


def replace_math(root) -> list[MathError]:
    """Replace every TeX span in the text under `root` (an lxml tree) by a MathML element.

    Text inside code, pre, kbd, samp and existing math is left alone; a span that cannot be
    converted stays as TeX text, and its MathError is returned (for the writer's warning)."""
    errors: list[MathError] = []
    for node in list(root.iter()):
        if not isinstance(node.tag, str) or any(local_name(n) in _NOT_MATH for n in (node, *node.iterancestors())):
            continue
        if node.text and "\\" in node.text:
            node.text = _insert(node, 0, node.text, errors)
        for child in list(node):
            if child.tail and "\\" in child.tail and local_name(child) != "math":
                child.tail = _insert(node, node.index(child) + 1, child.tail, errors)
    return errors


def _insert(parent, position: int, text: str, errors: list[MathError]) -> str | None:
    """Put the math of `text` into `parent` from `position`; return the text before the first formula."""
    parts = split_math(text)
    lead: list[str] = []
    last = None
    for part in parts:
        element = None
        if isinstance(part, Math):
            try:
                element = tex_to_mathml(part.tex, part.display)
            except MathError as error:
                errors.append(error)
            part = ("\\[{}\\]" if part.display else "\\({}\\)").format(part.tex) if element is None else part
        if element is None and last is None:
            lead.append(part)
        elif element is None:
            last.tail = (last.tail or "") + part
        else:
            parent.insert(position, element)
            position += 1
            last = element
    return "".join(lead) or None
