"""The files of a Moodle XML bank as the quiz's assets (part of the Moodle reader).

import_text_with_files() stores each `<file>` of a text in the question's file area, where
the text links it as `@@PLUGINFILE@@/path/name`; here each image becomes one of the quiz's
assets and its links the asset's path. Moodle 1.9 exports carried a question's image as
`<image>` and `<image_base64>`, which import_headers() still reads, appending the image to
the question text. A file name that would leave the package is an error (E609), as is an
image whose content is not one (E610); a link to a file the bank does not carry as an image
(a PDF, a file left out of the export) keeps its text, with a warning (W688).
"""

from __future__ import annotations

import base64
import html
import itertools
import re
from urllib.parse import quote, unquote

from ...images import image_problem
from ...model import MEDIA_TYPES, Asset
from ...paths import unsafe_path
from .reader_context import Reading


_LEFT_LINK = re.compile(r'<a\b[^>]*\bhref="@@PLUGINFILE@@([^"]*)"[^>]*>(.*?)</a>', re.DOTALL)
_LEFT_IMAGE = re.compile(r'<img\b[^>]*\bsrc="@@PLUGINFILE@@([^"]*)"[^>]*>')
_ALT = re.compile(r'\balt="([^"]*)"')
_FILE_NASTIES = re.compile(r"[\x00-\x1f\x7f&<>\"`|':\\/]")


def old_image(node) -> None:
    """import_headers(): `<image>` with `<image_base64>` (Moodle 1.9) becomes a file of the question
    text, shown after it, as Moodle's importer does; the text is then read as any other."""
    from lxml import etree

    name, data = (node.findtext("image") or "").strip(), (node.findtext("image_base64") or "").strip()
    questiontext = node.find("questiontext")
    if not name or not data or questiontext is None:
        return
    name = _FILE_NASTIES.sub("", name.replace("/", "_"))  # clean_param(PARAM_FILE) after str_replace('/', '_')
    text = questiontext.find("text")
    if text is None:
        text = etree.SubElement(questiontext, "text")
    text.text = f'{text.text or ""} <img src="@@PLUGINFILE@@/{html.escape(name)}" />'
    file = etree.SubElement(questiontext, "file", name=name, path="/", encoding="base64")
    file.text = data
    file.sourceline = node.find("image_base64").sourceline


def link_files(r: Reading, fragment: str, node) -> str:
    """`@@PLUGINFILE@@/path/name` links to the field's `<file>`s, as the paths of the quiz's assets."""
    for file in node.iterchildren("file"):
        folder, name = file.get("path", "/"), file.get("name", "")
        links = [f"@@PLUGINFILE@@{quote(folder + name)}", f"@@PLUGINFILE@@{folder}{name}"]
        if not any(link in fragment for link in links):
            continue
        path = f"{folder.strip('/')}/{name}".lstrip("/")
        reason = unsafe_path(path)
        if reason is not None:
            r.problem("E609", file, f"the file name {path!r} is unsafe: {reason}",
                      "an LMS could write it outside its folder: give the file a plain relative name")
            continue
        data = "".join((file.text or "").split())
        problem = _image_problem(path, data)
        if problem is not None:
            r.problem("E610", file, f"the image {path!r} cannot be carried: {problem}",
                      "replace it in Moodle by a plain image file of the type its name says, and export again")
            continue
        target = _asset(r, path, data)
        if target is None:
            continue
        r.mentions.setdefault(target, node.sourceline or 0)
        for link in links:
            fragment = fragment.replace(link, html.escape(target))
    return fragment


def _image_problem(path: str, data: str) -> str | None:
    """Why a `<file>` named as an image is not a safe one (other files are left out, with a warning)."""
    media_type = _media_type(path)
    if media_type is None:
        return None
    try:
        return image_problem(base64.b64decode(data), media_type)
    except ValueError:  # binascii.Error, or a character beyond ASCII, which b64decode() refuses before decoding
        return "its base64 data is damaged"


def _media_type(path: str) -> str | None:
    return MEDIA_TYPES.get(path[path.rfind("."):].lower()) if "." in path else None


def _asset(r: Reading, path: str, data: str) -> str | None:
    """The asset path for an image (a new one when two questions hold different files of one name);
    None for a file the model's assets cannot hold (not an image)."""
    media_type = _media_type(path)
    if media_type is None:
        return None
    try:
        content = base64.b64decode(data)
        candidates = itertools.chain([path], (f"{r.question_id}/{path}",),
                                     (f"{r.question_id}-{n}/{path}" for n in itertools.count(2)))
        for candidate in candidates:
            if candidate not in r.assets:
                r.assets[candidate] = Asset(path=candidate, media_type=media_type, data=content)
            if r.assets[candidate].data == content:
                return candidate
    except ValueError:  # ModelError, binascii.Error, a character beyond ASCII
        return None
    return None


def unlinked(r: Reading, fragment: str, node) -> str:
    """A sanitised text without the links to files the quiz does not carry: an image is replaced by
    its alt text, a link by its text, each with a warning (W688)."""
    def left_out(name: str, instead: str) -> None:
        r.warn("W688", node, f"{r.subject}: the file {unquote(html.unescape(name)).lstrip('/')!r} is left out of "
               f"<{node.tag}>{instead}: the bank carries it not, or not as an image (PNG, JPEG, GIF, SVG, WebP)",
               "export the question again with its files, or link the file from the web")

    def image(match: re.Match) -> str:
        alt = _ALT.search(match[0])
        left_out(match[1], f"; its alt text {html.unescape(alt[1])!r} is shown instead" if alt else "")
        return alt[1] if alt else ""

    def link(match: re.Match) -> str:
        left_out(match[1], ", the link's text kept")
        return match[2]

    return _LEFT_LINK.sub(link, _LEFT_IMAGE.sub(image, fragment))
