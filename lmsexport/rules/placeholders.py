"""Debris: what translation, templating and encoding left in the text a learner sees.

    L010  a machine-translation placeholder or model token: `_AIU_PROTECTED_11__`,
          `__PH0__`, `<unk>`, `[MASK]`, `<|endoftext|>`, `▁`
    L011  template code never filled in: `{{ name }}`, `{% if %}`, `${x}`, `%s`, `%(n)d`,
          `{0}`, `{first_name}`, `[[link]]`
    L012  an HTML entity shown literally: `&amp;` in plain text, `&amp;quot;` in HTML
    L013  an unbalanced bracket, typographic quote, `**`, `__` or backtick
    L014  mojibake: UTF-8 decoded as Windows-1252 (`cafÃ©`, `Viá»‡t`), or U+FFFD
    L015  Markdown or TeX in plain text (`**bold**`, `![alt](img.png)`, `$x^2$`), shown as typed

Code is exempt from L011 and L013: `backtick spans` in plain text and
<code>/<pre> in HTML, where `%s` or `{0}` are what the question is about.
TeX math (`$x^2$`, `$$...$$`, `\\(...\\)`, `\\[...\\]`) is exempt from L011 too: its
braces (`\\frac{1}{2}`) are not template code.
"""

from __future__ import annotations

import html.entities
import re
import unicodedata
from typing import Iterator

from ..model import Quiz
from . import ERROR, WARNING, Finding, Rule, candidates, quiz_parts, texts, visible

_MACHINE_TOKENS = (
    (
        # `_AIU_PROTECTED_11__`: a term a translation pipeline protected and never put back.
        re.compile(r"(?<![\w])_{1,2}(?=[A-Z0-9_]*\d)[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*_{1,2}(?![\w])"
                   r"|\b\w*(?:PROTECTED|PLACEHOLDER)_?\d+\w*"),
        "a placeholder that machine translation left in",
        "put back the term it stood for (compare with the quiz in its original language)",
    ),
    (
        re.compile(r"<(?:unk|pad|mask|extra_id_\d+)>|\[(?:UNK|MASK|PAD|CLS|SEP)\]|<\|[a-z_]+\|>|▁", re.IGNORECASE),
        "a token a language model emits for text it could not produce",
        "restore the missing words from the original",
    ),
)

_MACHINE_HINTS = ("_", "<", "[", "▁", "PROTECTED", "PLACEHOLDER")
"""What every token above holds: a text without any of these has none (`candidates`)."""

_TEMPLATE_HINTS = ("{", "%", "[[")
"""What every template pattern below holds."""
_TEMPLATE = re.compile(
    r"\{\{.*?\}\}|\{%.*?%\}|\$\{[^{}\n]*\}"
    r"|(?<![\w%])%(?:\(\w+\)|\d\$)?[sd](?!\w)"
    r"|\{\d+\}|\{[a-z]+(?:_[a-z]+)+\}"
    r"|\[\[[^\[\]\n]+\]\]"
)
_TEX = re.compile(
    r"\$\$.+?\$\$|\\\(.+?\\\)|\\\[.+?\\\]"
    r"|\$(?![\s{$])[^$\n]*?(?<=[^\s$])\$(?!\d)",  # pandoc's rule: no space inside the $s, no digit after
    re.DOTALL,
)
"""TeX math; a `${name}` template is not (its `$` is followed by `{`)."""
_MARKDOWN_MARKS = (
    (re.compile(r"!\[[^\]\n]*\]\([^)\s]+\)"), "a Markdown image"),
    (re.compile(r"(?<!\S)\[[^\]\n]+\]\((?:https?://|\.{0,2}/)?[^)\s]+\)"), "a Markdown link"),
    (re.compile(r"\*\*(?=\S)[^*\n]+(?<=\S)\*\*"), "Markdown bold"),  # not __x__: __init__ is a name
    (re.compile(r"\$\$.+?\$\$|\$(?![\s{$])[^$\n]*?[\\^_][^$\n]*?(?<=[^\s$])\$(?!\d)|\\\(.+?\\\)"),
     "TeX math"),
)
"""What a quiz written without `markup: markdown` shows as typed (TeX: only with `^`, `_` or `\\`)."""
_MARKDOWN_HINTS = ("[", "*", "$", "\\")
"""What every mark above holds."""
_ENTITY = re.compile(r"&(?:#\d+|#[xX][0-9a-fA-F]+|[A-Za-z][A-Za-z0-9]*);")
_DOUBLE_ENTITY = re.compile(r"&amp;(?:#\d+|#[xX][0-9a-fA-F]+|[A-Za-z][A-Za-z0-9]*);")

_PAIRS = {")": "(", "]": "[", "}": "{", "”": "“", "»": "«"}
_CLOSERS, _OPENERS = re.escape("".join(_PAIRS)), re.escape("".join(_PAIRS.values()))
"""Escaped for a character class."""
_BRACKET = re.compile(f"[{_CLOSERS}{_OPENERS}]")
_SMILEY = re.compile(r"[:;]-?[()]")
_NOT_BRACKET = f"[^{_CLOSERS}{_OPENERS}]*"
_ONE_DEEP = re.compile(f"{_NOT_BRACKET}(?:[{_OPENERS}]{_NOT_BRACKET}[{_CLOSERS}]{_NOT_BRACKET})*")
"""Brackets that only open and close in turn, `a (b) c [d]`: nothing is unmatched (most texts
that have any), seen by one match."""
# `a)`, `2)`, `iv)` enumerate when nothing is open; inside `[0, 1)` the `)` closes the `[`.
_ENUMERATOR = re.compile(r"(?:^|\s)(?:[A-Za-z]|\d{1,2}|[ivx]{1,4})\Z")
_MARKDOWN = (("**", "Markdown bold"), ("__", "Markdown bold"), ("`", "a code span"))
_PAIRED = re.compile(f"[{_CLOSERS}{_OPENERS}*_`]")
_MARKS = (*_PAIRS, *_PAIRS.values(), "*", "_", "`", "&")
"""A text to look at for L013: one with a mark, or HTML with an entity (which may stand for one)."""

# Characters Windows-1252 (or Latin-1) gives the bytes 0x80-0xFF, to undo a wrong decoding.
_MOJIBAKE_RUN = re.compile(
    "[\u0080-\u00ff\u0152\u0153\u0160\u0161\u0178\u017d\u017e\u0192\u02c6\u02dc\u2013\u2014"
    "\u2018-\u201a\u201c-\u201e\u2020-\u2022\u2026\u2030\u2039\u203a\u20ac\u2122]{2,}"
)
_DAMAGE = (re.compile(_MOJIBAKE_RUN.pattern[:-len("{2,}")] * 2), "\ufffd")
"""What L014 looks for: two characters of a run in a row (twice as fast to find as the run), or U+FFFD."""
_UTF8_SEQUENCE = re.compile(rb"[\xc2-\xdf][\x80-\xbf]|[\xe0-\xef][\x80-\xbf]{2}|[\xf0-\xf4][\x80-\xbf]{3}")


def _placeholders(quiz: Quiz) -> Iterator[Finding]:
    parts = quiz_parts(quiz)
    for index in candidates(quiz, _MACHINE_HINTS, "visible", "value"):  # most texts: none, one scan for all
        part = parts[index]
        texts = (visible(part), part.value) if part.format == "html" else (part.value,)
        for pattern, what, hint in _MACHINE_TOKENS:
            tokens = dict.fromkeys(m.group() for text in texts for m in pattern.finditer(text))
            for token in tokens:
                yield Finding(f"{part.name} holds {token!r}, {what}", hint, part.question, part.span)


def _template_debris(quiz: Quiz) -> Iterator[Finding]:
    parts, proses = quiz_parts(quiz), texts(quiz, "prose")
    for index in candidates(quiz, _TEMPLATE_HINTS, "prose"):
        part, text = parts[index], proses[index]
        text = _TEX.sub(" ", text) if "$" in text or "\\" in text else text
        for token in dict.fromkeys(_TEMPLATE.findall(text)):
            yield Finding(
                f"{part.name} holds {token!r}, template code that was never filled in",
                "replace it with the text it stands for; if the quiz is about such code, "
                "switch the rule off for it with lint: -L011",
                part.question, part.span,
            )


def _html_entities(quiz: Quiz) -> Iterator[Finding]:
    parts = quiz_parts(quiz)
    for index in candidates(quiz, ("&",), "value"):
        part = parts[index]
        if part.format == "html":
            found = ["&" + m.group()[len("&amp;"):] for m in _DOUBLE_ENTITY.finditer(part.value)]
            why = "the entity is escaped twice"
        else:
            found = [m.group() for m in _ENTITY.finditer(part.value) if _known(m.group())]
            why = "the text is plain text, not HTML"
        for shown in dict.fromkeys(found):
            yield Finding(
                f"{part.name} shows {shown!r} literally: {why}",
                f"write the character itself ({_describe(html.unescape(shown))})",
                part.question, part.span,
            )


def _describe(character: str) -> str:
    if character.isprintable() and not character.isspace():
        return repr(character)
    return f"U+{ord(character[0]):04X} {unicodedata.name(character[0], 'a control character').lower()}"


def _known(entity: str) -> bool:
    return entity.startswith("&#") or entity[1:] in html.entities.html5


def _bracket_problem(text: str) -> str | None:
    """The first unmatched closer or unclosed opener; any closer closes any opener (`[0, 1)`)."""
    openers: list[str] = []
    text = _SMILEY.sub(" ", text)
    if _ONE_DEEP.fullmatch(text):
        return None
    for match in _BRACKET.finditer(text):  # only the brackets: other characters change nothing
        char, index = match.group(), match.start()
        if char in _PAIRS.values():
            openers.append(char)
        elif char in _PAIRS and openers:
            openers.pop()
        elif char in _PAIRS and not (char == ")" and _ENUMERATOR.search(text, 0, index)):
            return f"an unmatched {char!r}"
    return f"an unclosed {openers[0]!r}" if openers else None


def _markup_problem(text: str) -> str | None:
    for mark, what in _MARKDOWN:
        if text.count(mark) % 2:
            return f"an odd number of {mark!r} ({what})"
        text = text.replace(mark, " ")
    return None


def _unbalanced(quiz: Quiz) -> Iterator[Finding]:
    parts, proses = quiz_parts(quiz), texts(quiz, "prose")
    for index in candidates(quiz, _MARKS, "value"):
        part = parts[index]
        if not _PAIRED.search(part.value) and part.format != "html":
            continue  # nothing to balance (removing code and debris below only takes marks away)
        text = _without_debris(proses[index])
        problem = _bracket_problem(text) or _markup_problem(text)
        if problem:
            yield Finding(
                f"{part.name} has {problem}",
                "close or remove it; translation often drops one half of a pair, "
                "and Markdown is not rendered (plain text shows the marks as they are)",
                part.question, part.span,
            )


def _without_debris(text: str) -> str:
    """The text with what L014, L010 and L011 report blanked out, so that L013 does not report
    its marks too; each is looked for only where its hints are."""
    if _DAMAGE[0].search(text):
        text = _MOJIBAKE_RUN.sub(lambda m: " " if _undo_cp1252(m.group()) else m.group(), text)
    if any(map(text.__contains__, _MACHINE_HINTS)):
        for pattern, _, _ in _MACHINE_TOKENS:
            text = pattern.sub(" ", text)
    if any(map(text.__contains__, _TEMPLATE_HINTS)):
        text = _TEMPLATE.sub(" ", text)
    return text


def _undo_cp1252(run: str) -> tuple[str, str] | None:
    """(the damaged characters, what they were) if a run of Windows-1252 text was UTF-8."""
    # One character per byte, so byte offsets are character offsets.
    data = b"".join(char.encode("cp1252", errors="ignore") or char.encode("latin-1") for char in run)
    sequences = list(_UTF8_SEQUENCE.finditer(data))
    if not sequences:
        return None
    start, end = sequences[0].start(), sequences[-1].end()
    return run[start:end], data[start:end].decode("utf-8", errors="replace")


def _mojibake(quiz: Quiz) -> Iterator[Finding]:
    parts, shown = quiz_parts(quiz), texts(quiz, "visible")
    for index in candidates(quiz, _DAMAGE, "visible"):
        part, text = parts[index], shown[index]
        if "\ufffd" in text:
            yield Finding(
                f"{part.name} holds U+FFFD (�): characters were lost when the text was converted",
                "retype the damaged words, or export the source again as UTF-8",
                part.question, part.span,
            )
        damaged = (_undo_cp1252(run) for run in _MOJIBAKE_RUN.findall(text))
        for bad, meant in dict.fromkeys(pair for pair in damaged if pair):
            yield Finding(
                f"{part.name} holds {bad!r}, UTF-8 read as Windows-1252 (it was {meant!r})",
                f"replace it with {meant!r}, and export the source again as UTF-8",
                part.question, part.span,
            )


def _markdown_in_plain_text(quiz: Quiz) -> Iterator[Finding]:
    parts, proses = quiz_parts(quiz), texts(quiz, "prose")
    for index in candidates(quiz, _MARKDOWN_HINTS, "prose"):
        part, text = parts[index], proses[index]
        if part.format != "plain" or part.kind == "answer":
            continue  # HTML was rendered; a typed answer is compared as typed
        found = next(((m.group(), what) for pattern, what in _MARKDOWN_MARKS if (m := pattern.search(text))), None)
        if found:
            yield Finding(
                f"{part.name} holds {found[0]!r}, {found[1]} that is shown as typed: the quiz is plain text",
                "add markup: markdown to the quiz's header to render Markdown, images and TeX math "
                "(or switch the rule off with lint: -L015 if the marks are meant to show)",
                part.question, part.span,
            )


RULES = (
    Rule("L010", "leaked-placeholder", ERROR,
         "A machine-translation placeholder or language-model token is left in the text.", _placeholders),
    Rule("L011", "template-debris", WARNING,
         "Template code was never filled in ({{...}}, %s, {0}, [[...]]).", _template_debris),
    Rule("L012", "html-entity", WARNING, "An HTML entity would be shown literally.", _html_entities),
    Rule("L013", "unbalanced-markup", WARNING,
         "A bracket, quote or Markdown mark is not closed.", _unbalanced),
    Rule("L014", "mojibake", ERROR,
         "Text was decoded with the wrong encoding (cafÃ©), or holds U+FFFD.", _mojibake),
    Rule("L015", "markdown-in-plain-text", WARNING,
         "Markdown or TeX math in a plain-text quiz is shown as typed.", _markdown_in_plain_text),
)
