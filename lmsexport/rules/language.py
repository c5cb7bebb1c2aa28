"""Language: text left in English in a quiz declared to be in another language.

    L020  a question, an option, an explanation, the title or the description is
          in English, but the quiz (or the question, or the text itself) says `lang: yo`

Detection uses py3langid's model (a Naive Bayes classifier over byte n-grams, 139
languages, inside its wheel; no download), applied by langmodel.py. The question lint asks is
not "which of 139 languages is this?" but "did English leak in?", so the model
is restricted to {expected language, en}: with all languages, short English
options lose to some third language, and Indonesian drifts to Malay. Each text
is judged on its own (joined, the English option of a Vietnamese question
disappears), and only when it has at least MIN_WORDS natural words: names and
terms (GPU, PyTorch, `_AIU_PROTECTED_11__`, all-reduce) are not evidence.
It is English when P(en) >= P_ENGLISH. Both numbers were tuned on the three
quizzes in quizzes/ plus French, Spanish and Arabic quizzes and 58 code-mixed
lines (docs/lint.md, "How the language is detected"): on the seeds every
non-English text scores below 0.14 and every English one above 0.998.

Quizzes in English, or with no `lang`, are not checked; neither are languages
the model does not know.
"""

from __future__ import annotations

import functools
import re
import threading
from concurrent.futures import Future
from typing import Iterator, Sequence

from ..model import Quiz
from . import WARNING, Finding, Part, Rule, question_parts, quiz_parts, visible

MIN_WORDS = 3
P_ENGLISH = 0.85

_TOKEN = re.compile(r"\w(?:[\w'’.\-]*\w)?")
# BCP 47 primary subtags the model knows under another code.
_ALIASES = {"fil": "tl", "nb": "no", "in": "id", "iw": "he", "ji": "yi"}


def _natural(token: str) -> bool:
    """A word that tells a language apart: not GPU, PyTorch, 3D, torch.cuda, snake_case."""
    if "_" in token or "." in token or (not token.isalpha() and any(map(str.isdigit, token))):
        return False
    return token.islower() or sum(map(str.isupper, token)) < 2


def _enough_words(text: str) -> bool:
    """At least MIN_WORDS natural words; stops counting there (most texts pass early)."""
    count = 0
    for match in _TOKEN.finditer(text):
        if _natural(match.group()):
            count += 1
            if count >= MIN_WORDS:
                return True
    return False


def preload() -> None:
    """Start loading the model in a background thread, so that reading or writing overlaps
    it (numpy's import and, without a cached copy, LZMA decompression)."""
    _loading()


@functools.cache
def _loading() -> Future:
    future: Future = Future()

    def load() -> None:
        try:
            from .langmodel import Model

            future.set_result(Model.load())
        except BaseException as exc:  # handed to whoever asks for the model
            future.set_exception(exc)

    threading.Thread(target=load, name="lmsexport-language-model", daemon=True).start()
    return future


def _model():
    """The model, loaded once per process; imported here so that `lmsexport --version`
    and every command that does not lint never load numpy."""
    return _loading().result()


@functools.lru_cache(maxsize=None)
def _model_language(tag: str | None) -> str | None:
    """The model's code for a BCP 47 tag, or None when there is nothing to check."""
    if not tag:
        return None
    primary = tag.split("-")[0].lower()
    primary = _ALIASES.get(primary, primary)
    if primary == "en" or primary not in _model().labels:
        return None
    return primary


def _verdicts(parts: Sequence[Part]) -> list[bool | None]:
    """Per part: is it English? None when it is too short to judge or not checked. The
    texts are scored together, a batch per language (langmodel.py)."""
    verdicts: list[bool | None] = [None] * len(parts)
    judged: dict[str, tuple[list[int], list[str]]] = {}
    for index, part in enumerate(parts):
        language, text = _model_language(part.lang), visible(part)
        if language is not None and _enough_words(text):
            indexes, texts = judged.setdefault(language, ([], []))
            indexes.append(index)
            texts.append(text)
    for language, (indexes, texts) in judged.items():
        for index, probability in zip(indexes, _model().english(texts, language)):
            verdicts[index] = probability >= P_ENGLISH
    return verdicts


def _not_in(part: Part, quiz: Quiz) -> str:
    whose = "the quiz's language" if part.lang == quiz.lang else "its declared language"
    return f"not in {whose} ({part.lang})"


def _hint(part: Part) -> str:
    return (
        f"translate it into {part.lang}; if it is meant to stay in English, "
        "switch the rule off for this quiz with lint: -L020"
    )


def _question_findings(quiz: Quiz, verdicts: list[tuple[Part, bool | None]]) -> Iterator[Finding]:
    """One finding for a question wholly in English, else one per English text."""
    judged = [verdict for _, verdict in verdicts if verdict is not None]
    prompt, verdict = next((part, verdict) for part, verdict in verdicts if part.kind == "prompt")
    if verdict and all(judged):
        yield Finding(f"{quiz.label(prompt.question)} is in English, {_not_in(prompt, quiz)}", _hint(prompt), prompt.question, prompt.span)
        return
    for part, verdict in verdicts:
        if verdict:
            yield Finding(f"{part.name} is in English, {_not_in(part, quiz)}", _hint(part), part.question, part.span)


def _wrong_language(quiz: Quiz) -> Iterator[Finding]:
    parts = quiz_parts(quiz)
    verdicts = list(zip(parts, _verdicts(parts)))
    start = 0
    for part, verdict in verdicts:
        if part.question is not None:
            break
        start += 1
        if verdict:
            yield Finding(f"{part.name} is in English, {_not_in(part, quiz)}", _hint(part))
    for position in range(1, len(quiz.questions) + 1):
        end = start + len(question_parts(quiz, position))
        yield from _question_findings(quiz, verdicts[start:end])
        start = end


RULES = (
    Rule("L020", "wrong-language", WARNING,
         "Text is in English in a quiz whose lang says another language.", _wrong_language),
)
