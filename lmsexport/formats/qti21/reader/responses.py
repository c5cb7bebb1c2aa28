"""An item's response declarations: the one an interaction names, and its correct values.

Shared by the readers of whole items (items.py) and of gaps (gaps.py).
"""

from __future__ import annotations

from ....xml import NS
from .text import Unreadable

_Q = f"{{{NS['qti']}}}"


def declaration(root, identifier: str):
    """The responseDeclaration called `identifier`, or Unreadable."""
    for node in root.iterfind(f"{_Q}responseDeclaration"):
        if node.get("identifier") == identifier:
            return node
    raise Unreadable(f"no responseDeclaration for the interaction's response {identifier!r}", root,
                     "declare each interaction's response: a responseDeclaration whose identifier is its "
                     "responseIdentifier")


def correct_values(declaration_) -> list[str]:
    return [node.text.strip() for node in declaration_.iterfind(f"{_Q}correctResponse/{_Q}value") if node.text]
