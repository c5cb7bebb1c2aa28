"""What an image file must be before any package carries it: what its name says, and inert.

A file is judged by its content, not its suffix: an HTML page, a zip or an empty file named
`.png` is not an image, and an LMS that serves it as one serves whatever it really is. An SVG
is XML that a browser runs scripts in when the file is opened on its own (on the package's
origin), so one that holds a script, an event handler, a `javascript:` link or embedded HTML
(`foreignObject`) is refused rather than rewritten: lmsexport does not guess what was meant.
"""

from __future__ import annotations

import re

_RASTER = (b"\x89PNG", b"\xff\xd8\xff", b"GIF8")
"""The leading bytes of PNG, JPEG and GIF (WebP: RIFF....WEBP): enough to tell an image from a
page or an archive. One raster type named as another (a GIF called `.jpg`, common in exports)
is drawn by browsers all the same, so it is accepted."""
_WHAT = ((b"PK\x03\x04", "a ZIP archive"), (b"%PDF", "a PDF document"), (b"<", "text or markup (HTML?)"))
_SVG = "http://www.w3.org/2000/svg"
_SCRIPTED = re.compile(r"\s*javascript:", re.IGNORECASE)
_UNSAFE_ELEMENTS = frozenset({"script", "foreignObject", "iframe", "embed", "object"})


def image_problem(data: bytes, media_type: str) -> str | None:
    """Why `data` is not a safe image of `media_type`, or None if it is."""
    if not data:
        return "the file is empty"
    if media_type == "image/svg+xml":
        return _svg_problem(data)
    if data.startswith(_RASTER) or (data[:4] == b"RIFF" and data[8:12] == b"WEBP"):
        return None
    what = next((name for magic, name in _WHAT if data.lstrip()[:len(magic)] == magic), "something else")
    return f"its content is not an image but {what}"


def _svg_problem(data: bytes) -> str | None:
    from lxml import etree

    from .xml import entity_reference, parser

    try:
        root = etree.fromstring(data, parser())
    except etree.XMLSyntaxError as exc:
        return f"it is not a well-formed SVG file ({exc.msg})"
    if root.tag != f"{{{_SVG}}}svg":
        return "its content is not SVG (its root element is not <svg>)"
    if entity_reference(root) is not None:
        return "the SVG uses entities declared in a DOCTYPE"
    for node in root.iter():
        if not isinstance(node.tag, str):
            continue
        local = node.tag.rpartition("}")[2]
        if local in _UNSAFE_ELEMENTS:
            return f"the SVG holds a <{local}> element, which runs code when the file is opened"
        for name, value in node.attrib.items():
            attribute = name.rpartition("}")[2]
            if attribute.lower().startswith("on"):
                return f"the SVG has an event handler ({attribute}=), which runs code when the file is opened"
            if attribute == "href" and _SCRIPTED.match(value):
                return "the SVG has a javascript: link"
    return None
