"""The files the preview's pages load, served from the package by name (never from a path).

`static/` holds the pages' own script and styles, copied byte for byte as the SCORM
player's are, and scorm-again (https://github.com/jcputney/scorm-again, MIT), the SCORM
runtime that hosts each quiz's player in the page, pinned to the version the browser
tests use (`static/scorm-again/README.md`).
"""

from __future__ import annotations

import functools
from importlib import resources

SCORM_AGAIN_VERSION = "3.4.3"
"""The scorm-again release shipped: the one tests/browser/package-lock.json pins."""
SCORM_AGAIN = "scorm-again/scorm-again.min.js"
SCORM_AGAIN_SHA256 = "f30f4574fea51d7c61dd03c90a1bf1e4edc71fbc2ffaeb0b271c83b81e63ec84"
"""sha256 of `static/scorm-again/scorm-again.min.js`, as npm installed it from the lockfile."""

MEDIA_TYPES = {
    "host.js": "text/javascript; charset=utf-8",
    "live.js": "text/javascript; charset=utf-8",
    "preview.css": "text/css; charset=utf-8",
    SCORM_AGAIN: "text/javascript; charset=utf-8",
    "scorm-again/LICENSE": "text/plain; charset=utf-8",
    "scorm-again/README.md": "text/markdown; charset=utf-8",
}
"""Every file under `static/` the server hands out, with its media type: nothing else is served."""


@functools.cache
def static_file(name: str) -> bytes:
    """A static file exactly as shipped; KeyError for a name that is not one of them."""
    if name not in MEDIA_TYPES:
        raise KeyError(name)
    node = resources.files("lmsexport.preview") / "static"
    for part in name.split("/"):
        node = node / part
    return node.read_bytes()
