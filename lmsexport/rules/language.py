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
terms (GPU, PyTorch, `_AIU_PROTECTED_11__`, all-reduce) are not evidence. English is
written in Latin letters: a text none of whose natural words has one is not English, and is
not scored (an Arabic or Chinese text, whatever names, terms or `#1.a` it holds), so a quiz
in such a script may never need the model. It is English when P(en) >= P_ENGLISH. Both
numbers were tuned on the three
quizzes in quizzes/ plus French, Spanish and Arabic quizzes and 58 code-mixed
lines (docs/lint.md, "How the language is detected"): on the seeds every
non-English text scores below 0.14 and every English one above 0.998.

Quizzes in English, or with no `lang`, are not checked; neither are languages
the model does not know. The model is loaded once per process, and only when some text is
left for it (`needs_model()`).
"""

from __future__ import annotations

import functools
import re
import threading
from typing import Collection, Iterable, Iterator, Sequence

from ..model import Quiz
from . import WARNING, Finding, Part, Rule, question_parts, quiz_parts, shared, texts

MIN_WORDS = 3
P_ENGLISH = 0.85

LANGUAGES = frozenset("""
    ace af am an ar ary arz as az ba bcl be bg bn br bs ca crh cs cy da de dz el en eo es et eu ext fa
    fi fo fr fuv fy ga gcf gcr gd gl gom grc gu gug guw ha hbo he hi hr ht hu hy id ig is it ja jv ka
    kab kik kk km kn ko ku ky la lb lg lij ln lo lt ltg lv mg mk ml mn mr ms mt my ne nl nn no nso oc om
    or pa pcm pl ps pt qu ro ru rw sa sdh se si sk sl sn so sq sr st sv sw ta te tg th tk tl tr tt ug uk
    ur uz uzs vec vi vo wa wuu xh yo yue zh zu zxx
""".split())
"""The languages the model knows (its labels; a test compares them): whether a quiz's language
can be checked is known without loading the model."""

_TOKEN = re.compile(r"\w(?:[\w'’.\-]*\w)?")
_LATIN = re.compile(r"[A-Za-z]")
# BCP 47 primary subtags the model knows under another code.
_ALIASES = {"fil": "tl", "nb": "no", "in": "id", "iw": "he", "ji": "yi"}


def _natural(token: str) -> bool:
    """A word that tells a language apart: not GPU, PyTorch, 3D, torch.cuda, snake_case."""
    if not token.isalpha() and ("_" in token or "." in token or any(map(str.isdigit, token))):
        return False
    return token.islower() or sum(map(str.isupper, token)) < 2


_HEAD = re.compile(r"\s*" + r"\s+".join([r"[^\W\d_]+"] * MIN_WORDS) + r"(?![\w'’.\-]*\w)")
"""A text's first MIN_WORDS tokens (`_TOKEN`), when they are words between spaces (most texts)."""


def _evidence(text: str) -> bool | None:
    """What a text's words say before the model is asked. None: fewer than MIN_WORDS natural
    words, so it is not judged. False: enough, but none in Latin letters, so it is not English
    (whatever the model would make of its names and terms). True: the model judges it. Stops
    as soon as it knows (most texts: after three words, seen by one match)."""
    head = _HEAD.match(text)
    if head is not None:
        letters = "".join(head.group().split())
        if letters.isalpha() and letters[1:].islower():  # words of letters, one capital at most: natural
            if _LATIN.search(letters) is not None:
                return True
            if _LATIN.search(text) is None:
                return False
    latin_letters = _LATIN.search(text) is not None  # without any, no word can be in Latin letters
    count, latin = 0, False
    for match in _TOKEN.finditer(text):
        token = match.group()
        if _natural(token):
            count += 1
            latin = latin or (latin_letters and (token.isascii() or _LATIN.search(token) is not None))
            if count >= MIN_WORDS and (latin or not latin_letters):
                return latin
    return False if count >= MIN_WORDS else None


@functools.lru_cache(maxsize=None)
def _model_language(tag: str | None) -> str | None:
    """The model's code for a BCP 47 tag, or None when there is nothing to check."""
    if not tag:
        return None
    primary = tag.split("-")[0].lower()
    primary = _ALIASES.get(primary, primary)
    if primary == "en" or primary not in LANGUAGES:
        return None
    return primary


def _screened(quiz: Quiz) -> tuple[list[bool | None], dict[str, tuple[list[int], list[str]]]]:
    """Per part, its verdict as far as its words tell (`_evidence`), and the texts left for the
    model, by language: (their parts' indexes, the texts). Made once a quiz, for preload()
    and the rule."""
    return shared("language", quiz, lambda: _screen(quiz_parts(quiz), texts(quiz, "visible")))


def _screen(parts: Sequence[Part], shown: Sequence[str]) -> tuple[list[bool | None], dict]:
    verdicts: list[bool | None] = [None] * len(parts)
    asked: dict[str, tuple[list[int], list[str]]] = {}
    for index, (part, text) in enumerate(zip(parts, shown)):
        language = _model_language(part.lang)
        if language is None:
            continue
        verdict = verdicts[index] = _evidence(text)
        if verdict:
            indexes, pending = asked.setdefault(language, ([], []))
            indexes.append(index)
            pending.append(text)
    return verdicts, asked


def needs_model(quizzes: Iterable[Quiz], ignore: Collection[str] = ()) -> bool:
    """Whether L020 needs the language model for any of `quizzes` (those that do not switch it
    off, by their `lint:` header or by `ignore`): some text in a language the model knows, not
    English, of MIN_WORDS natural words or more, some of them in Latin letters."""
    if "L020" in ignore:
        return False
    return any(_screened(quiz)[1] for quiz in quizzes if "L020" not in quiz.lint_ignore)


def preload(quizzes: Iterable[Quiz] = (), ignore: Collection[str] = ()) -> None:
    """Start loading the model in a background thread if some of `quizzes` needs it (without
    quizzes, nothing does), so that the other rules overlap the load: without a cached copy,
    0.4 s of LZMA decompression, which releases the GIL. `check()` calls it for each quiz
    before its rules run."""
    if needs_model(quizzes, ignore):
        _loading()


@functools.cache
def _loading():
    from concurrent.futures import Future

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
    """The model, loaded once per process, when a text needs it; imported here so that
    `lmsexport --version` and every command that does not lint never load it."""
    return _loading().result()


def _verdicts(quiz: Quiz) -> list[bool | None]:
    """Per part: is it English? None when it is too short to judge or not checked. The texts
    left for the model are scored together, a batch per language (langmodel.py)."""
    screened, asked = _screened(quiz)
    verdicts = list(screened)
    for language, (indexes, shown) in asked.items():
        for index, probability in zip(indexes, _model().english(shown, language)):
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
    verdicts = _verdicts(quiz)
    start = 0
    for part, verdict in zip(parts, verdicts):
        if part.question is not None:
            break
        start += 1
        if verdict:
            yield Finding(f"{part.name} is in English, {_not_in(part, quiz)}", _hint(part))
    if not any(verdicts[start:]):
        return  # most quizzes: no question has an English text
    for number in range(1, len(quiz.questions) + 1):
        end = start + len(question_parts(quiz, number))
        if True in verdicts[start:end]:
            yield from _question_findings(quiz, list(zip(parts[start:end], verdicts[start:end])))
        start = end


RULES = (
    Rule("L020", "wrong-language", WARNING,
         "Text is in English in a quiz whose lang says another language.", _wrong_language),
)
