"""Cell text as the model's `Text`: plain as typed, or Markdown (`markup | markdown`) made safe HTML.

Markdown goes through the one renderer and allow-list sanitiser (lmsexport/markup.py), so a
sheet can hold bold, lists, code, TeX math (`$x^2$`) and images (`![graph](img/graph.png)`,
a file beside the sheet, loaded through the `assets` loader the reader is given).
"""

from __future__ import annotations

import html
import posixpath
import re
from typing import Callable

from ...diagnostics import Diagnostic
from ...model import MEDIA_TYPES, Asset, Text
from .grid import Grid, Row

_RELATIVE = re.compile(r"(?![a-zA-Z][a-zA-Z0-9+.-]*:|[/\\])")
"""A relative reference: no URL scheme, no leading slash."""


class Texts:
    """Makes the quiz's texts and remembers the images they show, with the cell of first mention."""

    def __init__(self, markdown: bool):
        self.markdown = markdown
        self.images: dict[str, tuple[Row, int]] = {}

    def text(self, value: str, row: Row, column: int) -> Text:
        if not self.markdown:
            return Text(value)
        from ...markup import image_sources, render

        rendered, has_markup = render(value)
        if not has_markup:
            return Text(value)
        for src in image_sources(rendered):
            path = posixpath.normpath(src) if _RELATIVE.match(src) else src
            if path != src:  # `./img/a.png` and `img/a.png` are one asset, named the same in the HTML
                rendered = rendered.replace(f'src="{html.escape(src)}"', f'src="{html.escape(path)}"')
            self.images.setdefault(path, (row, column))
        return Text(rendered, format="html")


def load_assets(texts: Texts, assets: Callable[[str], bytes] | None, grid: Grid,
                problems: list[Diagnostic]) -> tuple[Asset, ...]:
    """The images the texts show, loaded; each problem placed at the cell that first shows it."""
    loaded = []
    for path, (row, column) in texts.images.items():
        media_type = MEDIA_TYPES.get(posixpath.splitext(path)[1].lower())
        problem = None
        if "://" in path or path.startswith(("data:", "/", "\\", "..")):
            problem = ("E988", f"image {path!r} is not a file in the sheet's folder",
                       "put the image in the sheet's folder (or below it) and refer to it by a relative path")
        elif media_type is None:
            problem = ("E988", f"image {path!r} is not a PNG, JPEG, GIF, SVG or WebP file", "convert it to one of those")
        elif assets is None:
            problem = ("E988", f"image {path!r} cannot be loaded: the sheet was not read from a folder",
                       "build the quiz from its file, with its images beside it")
        if problem is None:
            try:
                loaded.append(Asset(path=path, media_type=media_type, data=assets(path),
                                    source=grid.span(row, column)))
                continue
            except OSError as exc:
                problem = ("E988", f"image {path!r} cannot be read: {exc.strerror or exc}",
                           "check the path: it is relative to the sheet's file")
        problems.append(grid.error(problem[0], problem[1], row, column, problem[2]))
    return tuple(loaded)
