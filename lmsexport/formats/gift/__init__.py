"""GIFT: Moodle's text format for questions (docs/formats/gift.md).

https://docs.moodle.org/en/GIFT_format, read as Moodle's importer reads it
(moodle/moodle `question/format/gift/format.php`). The reader is `reader`, with `lexer`
(questions, comments, escapes), `parts` (a question's title, text and answers), `answers`
(weights and feedback), `kinds` (one builder per question type) and `texts` (text formats,
images). There is no writer.
"""

from __future__ import annotations

import re

from ...sniffing import Pattern, head_text

NAME = "gift"
DESCRIPTION = "GIFT, Moodle's text format for questions (::title:: text {=right ~wrong})"
EXTENSIONS = (".gift", ".txt")
FLAVOURS = ()

_ANSWERS = Pattern(r"(?<!\\)\{\s*(?:[~=#]|%-?\d|(?:T|TRUE|F|FALSE)\s*[#}]|}|####)")
"""The opening of a GIFT answer block: `{=`, `{~`, `{#`, `{T}`, `{}`, `{####`."""
_GIFT_ONLY = Pattern(r"(?<!\\)\{\s*(?:#|(?:T|TRUE|F|FALSE)\s*[#}])|(?<!\\)[=~]%-?\d[\d.]*%|(?<!\\)\{[^{}]*->[^{}]*}")
"""What only GIFT writes: a numerical or true/false block, a weight, a matching pair inside braces."""
_TITLE = Pattern(r"^[ \t]*::[^\n]*?(?<!\\)::", re.MULTILINE)
_CATEGORY = Pattern(r"^[ \t]*\$CATEGORY:", re.MULTILINE)
_COMMENT = Pattern(r"^[ \t]*//.*$", re.MULTILINE)
_NUMBERED = Pattern(r"^[ \t]*\d+[.)][ \t]+\S", re.MULTILINE)
"""A numbered question: lmsexport text and text2qti number theirs, GIFT does not."""
_OTHER = Pattern(r"\A\s*---[ \t]*$|^(?:Quiz title|ANSWER)[ \t]*:", re.MULTILINE | re.IGNORECASE)
"""An lmsexport text header, a text2qti quiz title, an Aiken answer line."""


def sniff(data: bytes) -> float:
    """Answer blocks (`{=..}`, `{~..}`, `{#..}`, `{T}`, `{}`), `::titles::` and `$CATEGORY:` lines.

    A file with an lmsexport header, a text2qti title or Aiken `ANSWER:` lines is one of those
    formats unless titles or categories say otherwise; one that numbers its questions is
    lmsexport text (which writes gaps as `{=Paris ~Rome}` too) unless it has marks only GIFT has."""
    text = head_text(data)
    comments = _COMMENT.search(text)
    text = _COMMENT.sub("", text)
    marked = bool(_TITLE.search(text) or _CATEGORY.search(text))
    answers = len(_ANSWERS.findall(text))
    if marked:
        return 1.0 if answers else 0.4
    if not answers or _OTHER.search(text):
        return 0.0
    if len(_NUMBERED.findall(text)) >= answers:
        # Numbered like lmsexport text, whose gaps are {=a ~b} too: below the text format's sniff
        # when it sees its own options, so it wins then, and GIFT-only marks decide when it does not.
        return 0.4 if _GIFT_ONLY.search(text) else 0.0
    return 0.9 if answers > 1 or comments else 0.8
