"""Validating a Moodle XML document: lmsexport's schema, then moodlerules' question checks.

The format's part of `lmsexport validate` (lmsexport/validation.py asks every format's
`validation` module): `owns()` claims a parsed document, `check()` checks it, and `stream()`
checks the bytes of one question by question, since a 10,000-question bank is 20 MB of XML but ~240 MB as one lxml tree. Both
give the same findings: `schemas/moodle/moodle-xml.xsd` relates nothing across questions (its
identity constraints stay inside one `<question>`), so a question validated in a `<quiz>` of
its own gets the findings it gets in its file, and `QuestionRules` carries from question to
question what its checks need (the category, the idnumbers seen).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import BinaryIO

from lxml import etree

from ...diagnostics import Diagnostic, SourceSpan
from ...schemas import load_schema, schema_findings
from .rules import QuestionRules

_OTHER_NODES = (etree.Comment, etree.ProcessingInstruction)
"""Nodes that neither the schema nor Moodle's importer reads."""
_HARDENED = {"resolve_entities": False, "no_network": True, "huge_tree": False}
"""xml.parser()'s settings, for iterparse()."""


def owns(root) -> bool:
    """A `<quiz>`, or a bare `<question>` (a Moodle fragment: check() says why it fails)."""
    return root.tag in ("quiz", "question")


def check(root, content: bytes, *, source: str) -> list[Diagnostic]:
    """Every problem Moodle's importer would have with a Moodle XML document: root, schema, rules."""
    if root.tag != "quiz":
        return [Diagnostic(
            "V301", f"a Moodle XML file has <quiz> as its root, not <{root.tag}>: Moodle imports nothing from it "
            "(qformat_xml::readquestions reads quiz/question only)", SourceSpan(source, root.sourceline or 0),
            "wrap the <question> elements in <quiz> ... </quiz>")]
    rules = QuestionRules(source)
    broken = [finding for question in root.iterchildren("question") for finding in rules.check(question)]
    return _in_order(schema_findings(load_schema("moodle"), root, source), broken)


def stream(opener: Callable[[], BinaryIO], *, source: str) -> list[Diagnostic] | None:
    """check() of the document `opener()` reads, keeping a few questions at a time as trees
    (and, from a spooled bank, a chunk of its bytes).

    None when it is not a plain bank: not well-formed, a DOCTYPE (whose entities a question
    taken out of the document would lose), a root other than `<quiz>` or one with attributes
    or text, anything but questions (and comments) in it, or no question at all. The caller
    then validates it whole, where the parser and the schema word what is wrong."""
    if not _plain_start(opener):
        return None
    bank = _Bank(source)
    with opener() as handle:
        events = etree.iterparse(handle, events=("end",), tag="question", **_HARDENED)
        try:
            for _, question in events:
                quiz = question.getparent()
                if quiz is None or quiz.getparent() is not None:
                    continue  # inside another question, validated with it
                # Only the nodes before this question are complete, tails included: the parser may
                # still be adding text to its tail, so it stays in place until the next one ends.
                while quiz[0] is not question:
                    bank.take(quiz[0])
            root = events.root
            if root.attrib or not _blank(root.text):
                raise _NotPlain
            for node in list(root):
                bank.take(node)
            if not bank.questions:
                raise _NotPlain
        except (etree.XMLSyntaxError, _NotPlain):
            return None
    return _in_order(bank.invalid, bank.broken)


class _NotPlain(Exception):
    """The document holds more than questions in a bare `<quiz>`."""


class _Bank:
    """The findings so far, and a `<quiz>` that holds one question at a time for the schema
    (which declares `<question>` inside `<quiz>` only, so that a bare one is no document)."""

    def __init__(self, source: str):
        self.source = source
        self.schema = load_schema("moodle")
        self.rules = QuestionRules(source)
        self.quiz = etree.Element("quiz")
        self.invalid: list[Diagnostic] = []
        self.broken: list[Diagnostic] = []
        self.questions = 0

    def take(self, node) -> None:
        """Validate a complete child of the document's `<quiz>`, then drop it."""
        if not _blank(node.tail):
            raise _NotPlain
        if node.tag in _OTHER_NODES:
            node.getparent().remove(node)
            return
        if node.tag != "question":
            raise _NotPlain
        self.quiz.append(node)
        self.invalid += schema_findings(self.schema, self.quiz, self.source)
        self.broken += self.rules.check(node)
        self.quiz.remove(node)
        self.questions += 1


def _in_order(invalid: list[Diagnostic], broken: list[Diagnostic]) -> list[Diagnostic]:
    """Schema findings, then rule findings, sorted by line (on one line, the schema's first)."""
    return sorted(invalid + broken, key=lambda finding: finding.span.line)


def _plain_start(opener: Callable[[], BinaryIO]) -> bool:
    """True if the document starts with `<quiz>` and no DOCTYPE, read without parsing the rest."""
    try:
        with opener() as handle:
            for _, root in etree.iterparse(handle, events=("start",), **_HARDENED):
                return root.tag == "quiz" and not root.getroottree().docinfo.doctype
    except etree.XMLSyntaxError:
        return False
    return False


def _blank(text: str | None) -> bool:
    return not text or not text.strip()
