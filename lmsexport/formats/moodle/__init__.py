"""Moodle XML: question banks for Moodle's Question bank > Import (docs/formats/moodle.md).

https://docs.moodle.org/en/Moodle_XML_format. Everything Moodle-specific lives here: the
importer's rules and limits (`rules`), Cloze (`cloze`), the reader, the writer (one bank
per quiz, or one for many quizzes), and question-by-question validation (`validate`)."""

from __future__ import annotations

from ...package import Flavour
from ...sniffing import xml_root

NAME = "moodle"
DESCRIPTION = "Moodle XML question bank"
EXTENSIONS = (".xml",)
FLAVOURS = (Flavour("moodle", "Moodle XML question bank (.moodle.xml) for Question bank > Import", bank=True),)


def sniff(data: bytes) -> float:
    """A `<quiz>` root without a namespace (what Moodle exports); a bare `<question>` less surely."""
    root = xml_root(data)
    if root == ("", "quiz"):
        return 1.0
    return 0.6 if root == ("", "question") else 0.0
