"""The images a text quiz shows (`![alt](path)` in Markdown, `<img src>` in HTML), loaded from
the quiz's folder: each is a file below it, of a kind every format carries (PNG, JPEG, GIF, SVG,
WebP) and what its name says, or an error at the line that first mentions it."""

from __future__ import annotations

import posixpath
from typing import Callable

from ...images import image_problem
from ...model import MEDIA_TYPES, Asset
from .syntax import outside_folder


def load_images(parser, assets: Callable[[str], bytes] | None) -> tuple[Asset, ...]:
    """The images the texts refer to, loaded; each problem located at the first mention."""
    loaded = []
    for (line, column), src in sorted((_mention(parser, src), src) for src in parser.images):
        path = src
        media_type = MEDIA_TYPES.get(posixpath.splitext(path)[1].lower())
        problem = None
        if outside_folder(src):
            problem = ("E162", f"image {src!r} is not a file in the quiz's folder",
                       "put the image in the quiz's folder (or below it) and refer to it by a relative path")
        elif media_type is None:
            problem = ("E163", f"image {src!r} is not a PNG, JPEG, GIF, SVG or WebP file",
                       "convert it to one of those formats")
        elif assets is None:
            problem = ("E161", f"image {src!r} cannot be loaded: the quiz was not read from a folder",
                       "build the quiz from its file, with its images beside it")
        if problem is None:
            try:
                data = assets(path)
            except OSError as exc:
                problem = ("E161", f"image {src!r} cannot be read: {exc.strerror or exc}",
                           "check the path: it is relative to the quiz's file")
            else:
                unsafe = image_problem(data, media_type)
                if unsafe is None:
                    loaded.append(Asset(path=path, media_type=media_type, data=data,
                                        source=parser.span(line, column, len(src))))
                    continue
                problem = ("E164", f"image {src!r} cannot be carried: {unsafe}",
                           "save the image again from an image editor, in the format its name says")
        parser.error(problem[0], problem[1], line, column, problem[2], len(src))
    return tuple(loaded)


def _mention(parser, src: str) -> tuple[int, int]:
    """Line and column where a text refers to `src` (the first line that holds it)."""
    return parser.lines.locate(src) or (1, 1)
