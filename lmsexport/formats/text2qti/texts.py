"""The Markdown of a text2qti file, read as text2qti reads it, as the model's text.

text2qti (`text2qti/markdown.py`) treats every question, choice, feedback and description as
Markdown with LaTeX math between single dollars (`$F = ma$`, no space inside the dollars; `$$`
is two dollar signs, not display math; `\\$` one dollar sign), strips HTML comments, and turns
a subset of siunitx (`\\num{1.2e3}`, `\\si{m/s}`, `\\SI{3}{\\ohm}`) into plain LaTeX. This module
does the same before lmsexport's one renderer (`markup.render`: CommonMark, the allow-list
sanitiser, math as `\\(..\\)`) takes the text; code spans and blocks are left as written.
"""

from __future__ import annotations

import html
import re
from typing import Callable

from ...markup import image_sources, render
from ...model import Text

_PREPARED = re.compile(
    r"^(?P<block_code>(?P<indent>[ \t]*)(?P<fence>```+(?!`)|~~~+(?!~)).*?\n(?:[ \t]*\n|(?P=indent).*\n)*?"
    r"(?P=indent)(?P=fence)[ \t]*(?:\n|$))"
    r"|\\num\{(?P<num>[^{}]+)\}|\\si\{(?P<si>[^{}]+)\}|\\SI\{(?P<SI_number>[^{}]+)\}\{(?P<SI_unit>[^{}]+)\}"
    r"|(?P<escape>\\\$)|(?P<skip>\\.|\\\n|\$\$+(?!\$))|(?P<comment><!--(?:.|\n)*?-->)"
    r"|(?P<inline_code>(?P<ticks>`+(?!`))(?:.|\n[ \t]*(?![ \t\n]))+?(?<!`)(?P=ticks)(?!`))"
    r"|\$(?=[^ \t\n])(?P<math>(?:[^$\n\\]|\\.|\\?\n[ \t]*(?:[^ \t\n$]))+)(?<![ \t\n])\$(?!\$)",
    re.MULTILINE,
)
_SIUNITX = re.compile(r"\\num\{(?P<num>[^{}]+)\}|\\si\{(?P<si>[^{}]+)\}"
                      r"|\\SI\{(?P<SI_number>[^{}]+)\}\{(?P<SI_unit>[^{}]+)\}")
_NUMBER = re.compile(r"[+-]?(?:0|(?:[1-9][0-9]*(?:\.[0-9]+)?|0?\.[0-9]+)(?:[eE][+-]?[0-9]*[1-9][0-9]*)?)\Z")
_UNIT_MACROS = {r"\degree": r"^\circ", r"\celsius": r"^\circ\textrm{C}", r"\fahrenheit": r"^\circ\textrm{F}",
                r"\ohm": r"\Omega", r"\micro": r"\mu"}
_UNIT_TOKEN = re.compile(r"(?P<space> )|(?P<dot>\.)|(?P<power>\^[0-9])|(?P<caret>\^(?=\\))|(?P<slash>/)"
                         r"|(?P<macro>\\[A-Za-z]*)|(?P<letters>[A-Za-z]+)")
_CODE_DOLLAR = "\ue002"
"""Stands for `$` in code while lmsexport's renderer looks for math (which is never in code)."""
_ENTITIES = {"\\(": "&#40;", "\\)": "&#41;", "\\[": "&#91;", "\\]": "&#93;"}
"""Markdown escapes that would read as lmsexport's math delimiters: the characters they stand for."""
IMAGE_ATTRIBUTES = re.compile(r"(?P<image>!\[[^\]]*\]\([^)]*\))\{(?P<attributes>[^}]*)\}")
"""Pandoc attributes after an image (`![a](b.png){width=10em}`), which text2qti reads."""
REMOTE = re.compile(r"https?://", re.IGNORECASE)


class TexError(ValueError):
    """siunitx notation text2qti does not convert either."""


def siunitx_number(number: str) -> str:
    r"""`\num{1.5e3}` as plain LaTeX: `1.5\times 10^{3}`."""
    number = number.strip()
    number = f"0{number}" if number.startswith(".") else number
    if not _NUMBER.match(number):
        raise TexError(f"unsupported siunitx number {number!r}")
    significand, _, magnitude = number.lower().partition("e")
    if not magnitude:
        return significand
    sign = "-" if magnitude.startswith("-") else ""
    return f"{significand}\\times 10^{{{sign}{magnitude.lstrip('+-').lstrip('0')}}}"


def siunitx_unit(unit: str) -> str:
    r"""`\si{N.m/s^2}` as plain LaTeX: each letter run upright, `.` a centred dot."""
    parts, position, unit = [], 0, unit.strip()
    while position < len(unit):
        token = _UNIT_TOKEN.match(unit, position)
        if token is None or token.group() == "\\":
            raise TexError(f"unsupported siunitx unit {unit!r}")
        kind, value = token.lastgroup, token.group()
        parts.append({"space": "", "dot": r"\!\cdot\!", "power": f"^{{{value[1:]}}}", "caret": "^", "slash": "/",
                      "letters": f"\\text{{{value}}}"}.get(kind) or _UNIT_MACROS.get(value, value))
        position = token.end()
    return "{" + "".join(parts) + "}"


def _siunitx(match: re.Match) -> str:
    if match["num"] is not None:
        return siunitx_number(match["num"])
    if match["si"] is not None:
        return siunitx_unit(match["si"])
    return f"{siunitx_number(match['SI_number'])}\\,{siunitx_unit(match['SI_unit'])}"


def _prepare(match: re.Match) -> str:
    """One special span of text2qti's Markdown, as lmsexport's renderer takes it."""
    if match["comment"] is not None:
        return ""
    if match["math"] is not None:
        tex = " ".join(part.strip() for part in match["math"].split("\n"))
        return f"\\({_SIUNITX.sub(_siunitx, tex)}\\)"
    if match["skip"] is not None:
        skipped = match["skip"]
        return _ENTITIES.get(skipped) or (skipped.replace("$", "\\$") if skipped.startswith("$") else skipped)
    if match["num"] is not None or match["si"] is not None or match["SI_unit"] is not None:
        return f"\\({_siunitx(match)}\\)"
    if match["block_code"] is not None or match["inline_code"] is not None:
        return match.group().replace("$", _CODE_DOLLAR)
    return match.group()  # `\$`, which the renderer shows as `$`


def prepare(markdown: str) -> str:
    """text2qti's Markdown as lmsexport's renderer takes it; raises TexError."""
    return _PREPARED.sub(_prepare, markdown)


def to_text(markdown: str, image: Callable[[str], str]) -> Text:
    """Markdown rendered to the model's text (plain when it holds no markup). `image(src)` is
    told of every local image shown and returns the path the HTML refers to it by. Raises
    TexError for siunitx notation text2qti does not convert either."""
    prepared = prepare(markdown)
    rendered, has_markup = render(prepared)
    if not has_markup:
        return Text(prepared.strip().replace(_CODE_DOLLAR, "$"))
    for src in image_sources(rendered):
        if not REMOTE.match(src):
            path = image(src)
            rendered = rendered.replace(f'src="{html.escape(src)}"', f'src="{html.escape(path)}"')
    return Text(rendered.replace(_CODE_DOLLAR, "$"), format="html")
