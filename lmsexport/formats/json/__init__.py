"""The lmsexport model as JSON, versioned (`{"lmsexport-model": N, "quiz": {...}}`).

The lossless dump of a quiz for tools and tests: `writer` writes it, `reader` reads it back."""

from __future__ import annotations


from ...package import Flavour
from ...sniffing import Pattern, head_text

NAME = "json"
DESCRIPTION = "the lmsexport model as JSON, versioned (for tools and tests)"
EXTENSIONS = (".json",)
FLAVOURS = (Flavour("json", "the lmsexport model as JSON (for tools and tests)", in_all=False),)

_MODEL = Pattern(r'\A\s*\{\s*"lmsexport-model"\s*:')


def sniff(data: bytes) -> float:
    text = head_text(data)
    if _MODEL.match(text):
        return 1.0
    return 0.2 if text.lstrip().startswith("{") else 0.0
