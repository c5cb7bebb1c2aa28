"""The printable answer key of a quiz: every question with what earns its points, in one HTML file.

`lmsexport key` writes it; the preview serves it beside the player. For each question:
its prompt, its options with the correct ones marked (a check mark and bold, so it
reads in black and white), the accepted answers with their credit, numeric tolerances,
gaps filled in, pairs matched, items in order, its points, explanation and feedback.
The page is in the quiz's language and direction (`lang`, `dir`), with its interface
words from `lmsexport/interface` (the `key_` ones, and those it shares with the player), in
the same 34 languages, with the same fallback and warning (W610), the quiz's `messages:`
file over them and counted words by CLDR's plural rules; styled for paper (`templates/key.css`,
printed to PDF from the browser). It is self-contained (CSS inline, images as `data:` URIs, math
as MathML, which browsers draw) and deterministic: the same quiz gives the same bytes.
A pool's questions stand together under a heading saying how many of them an attempt draws.
"""

from __future__ import annotations

import base64
import html
import re
from collections.abc import Callable, Iterator
from pathlib import Path

from .._version import __version__
from ..batch.sources import quiz_sources
from ..diagnostics import Diagnostic, Log, SourceSpan
from ..interface import ANSWER_KEY, ENGLISH, Words, catalog, warn_fallback
from ..markup import sanitize
from ..model import Pool, Quiz, ShortAnswer, Text
from ..text import direction, number
from ..xml import html_fragment
from .pages import render as render_page
from .quizzes import read_quiz

SUFFIX = ".key.html"
SHARED = ("question", "information", "correct", "correct_answer", "true", "false", "blank", "explanation")
"""The player's words the key shows too, besides its own `key_` ones and the counted `points_...`."""


_WILDCARD = re.compile(r"(?<!\\)\*")


class _Texts:
    """Model Texts as safe HTML: sanitised (markup.py's one allow-list), math as MathML, images inline."""

    def __init__(self, quiz: Quiz):
        self.images = {asset.path: f"data:{asset.media_type};base64,{base64.b64encode(asset.data).decode('ascii')}"
                       for asset in quiz.assets}

    def __call__(self, text: Text | None):
        from markupsafe import Markup

        if text is None:
            return Markup("")
        if text.format == "plain":
            return Markup(text.html())
        return Markup(self._rich(sanitize(text.value)))

    def _rich(self, fragment: str) -> str:
        if "\\(" not in fragment and "\\[" not in fragment and "<img" not in fragment:
            return fragment
        from lxml import etree
        from lxml import html as lxml_html

        from ..math import MATHML, replace_math

        root = html_fragment(fragment)
        replace_math(root)  # TeX that cannot be converted stays TeX: the writers warn about it
        for node in root.iter():
            if isinstance(node.tag, str) and node.tag.startswith(f"{{{MATHML}}}"):
                node.tag = node.tag.split("}")[1]  # HTML puts <math> in the MathML namespace by itself
            elif node.tag == "img" and node.get("src") in self.images:
                node.set("src", self.images[node.get("src")])
        etree.cleanup_namespaces(root)
        lead = html.escape(root.text or "", quote=False)
        return lead + "".join(lxml_html.tostring(child, encoding="unicode") for child in root)


def _attempt_questions(quiz: Quiz) -> int | None:
    """How many questions one attempt shows, when pools make it fewer than the quiz holds."""
    if not quiz.pools:
        return None
    return sum(item.draw if isinstance(item, Pool) else item.kind != "description" for item in quiz.items)


def _words(quiz: Quiz, log: Log) -> Words:
    """The key's words in the quiz's language; W610 when it has none, as the player warns."""
    shown = tuple(key for key in catalog(ENGLISH) if key.startswith(ANSWER_KEY)) + SHARED
    words = Words(quiz.lang, dict(quiz.settings.messages), shown)
    warn_fallback(log, words, quiz.where(), "the answer key", "headings and labels")
    return words


def _wildcards(question: ShortAnswer) -> bool:
    """Whether an accepted answer has a `*` that matches anything (`\\*` is a literal star)."""
    return any(_WILDCARD.search(answer.text) for answer in question.answers)


def render(quiz: Quiz, log: Log | None = None) -> str:
    """The answer key of `quiz` as a complete HTML page; what it cannot say goes to `log` (W610)."""
    words = _words(quiz, Log() if log is None else log)
    lang = quiz.lang or ENGLISH
    return render_page(
        "key.html.jinja",
        quiz=quiz,
        lang=lang,
        dir=direction(lang),
        m=words.messages,
        count=words.count,
        texts=_Texts(quiz),
        questions=sum(question.kind != "description" for question in quiz.questions),
        pool_starts={pool.questions[0]: pool for pool in quiz.pools},
        pool_ends={pool.questions[-1] for pool in quiz.pools},
        attempt_questions=_attempt_questions(quiz),
        points=lambda value: words.count("points", value),
        number=number,
        direction=direction,
        other_lang=lambda question: question.lang if question.lang and question.lang != quiz.lang else None,
        wildcards=_wildcards,
        version=__version__,
    )


def answer_keys(paths: list[Path], out_dir: Path, source_format: str | None = None,
                ignored: Callable[[Path], None] | None = None,
                ) -> Iterator[tuple[Path, Path | None, bytes | None, list[Diagnostic]]]:
    """Per source under `paths`, in order: where its key goes (`out_dir/<quiz id>.key.html`) and
    the key, or None twice when it has none, and the reader's diagnostics (every error when it
    could not be read).

    Sources are found and read as `build` does: a file a folder search found that is no quiz
    gets no key and is no error (`ignored` is told of it); of two quizzes with one id, the second
    gets no key (E003)."""
    owners: dict[Path, Path] = {}
    for path, data in quiz_sources(paths, out_dir, source_format, ignored):
        quiz, found = read_quiz(path, data, source_format=source_format)
        if quiz is None:
            yield path, None, None, found
            continue
        target = out_dir / f"{quiz.id}{SUFFIX}"
        owner = owners.setdefault(target, path)
        if owner != path:
            clash = Diagnostic("E003", f"{target.name} would be written by {owner.as_posix()} and by this source "
                               "(same quiz id)", SourceSpan(path.as_posix()),
                               "give one of them its own id in its header (id: ...)")
            yield path, None, None, [*found, clash]
            continue
        log = Log()
        page = render(quiz, log).encode("utf-8")
        yield path, target, page, [*found, *log.diagnostics]
