"""Hypothesis strategies over the model: quizzes of every kind, in many scripts (pandoc's Arbitrary).

Texts are words of Latin, Vietnamese and Yoruba letters, Cyrillic, Greek, Arabic and Hebrew (right
to left), Chinese, Japanese, Korean, Devanagari and Thai, with XML's and HTML's own characters
among them; as plain text or as HTML in the form the readers give it back (a sanitised fragment:
paragraphs, emphasis, code, lists, a link, TeX math, an image of the quiz). Values stay where the
formats carry them exactly (credits on Moodle's grade list, numbers of 7 decimals at most), so a
round trip is equal but for the lossy fields each format's page documents.
"""

from __future__ import annotations

import base64
import dataclasses

from hypothesis import strategies as st

from lmsexport.model import (
    Answer, Asset, Choice, Description, Essay, FillBlanks, Gap, Matching, MatchPair, MultipleChoice, Numeric,
    NumericAnswer, OrderItem, Ordering, Quiz, Settings, ShortAnswer, Text, TrueFalse,
)

WORDS = {
    "en": ["gradient", "shard", "optimizer", "café", "naïve", "x²", "2.5", "a<b", "R&D", '"quoted"', "it's", "]]>"],
    "vi": ["Nguyễn", "dữ", "liệu", "song", "song", "mô", "hình"],
    "yo": ["ẹ̀kọ́", "ìbéèrè", "Ọlọ́run", "àwọn"],
    "ru": ["привет", "мир", "данные", "модель"],
    "el": ["λόγος", "αλήθεια", "μάθημα"],
    "ar": ["مرحبا", "العالم", "البيانات", "نموذج"],
    "he": ["שלום", "עולם", "נתונים"],
    "zh": ["中文", "数据", "并行", "模型"],
    "ja": ["日本語", "データ", "並列"],
    "ko": ["한국어", "데이터", "병렬"],
    "hi": ["नमस्ते", "डेटा", "मॉडल"],
    "th": ["ภาษาไทย", "ข้อมูล"],
}
"""Words per language, NFC. Each quiz and question draws its words from its own language."""
PNG = base64.b64decode("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==")
IMAGE = Asset(path="img/dot.png", media_type="image/png", data=PNG)
GRADES = (100.0, 50.0, 33.33333, 25.0, 20.0, 10.0, 0.0)
"""Credits of a wrong or partly right typed answer: on Moodle's grade list, 7 decimals at most."""


def words(lang: str, *, least: int = 1, most: int = 6):
    """Words of `lang` joined by single spaces, as a person writes a short text."""
    return st.lists(st.sampled_from(WORDS[lang]), min_size=least, max_size=most).map(" ".join)


def _escape(value: str) -> str:
    return value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def html(lang: str, *, image: bool = False):
    """An HTML fragment as the sanitiser gives it back: one of a few shapes, with words of `lang`."""
    w = words(lang).map(_escape)
    shapes = [
        st.tuples(w, w).map(lambda p: f"<p>{p[0]} <strong>{p[1]}</strong></p>"),
        st.tuples(w, w).map(lambda p: f"<p>{p[0]}</p><p><em>{p[1]}</em></p>"),
        st.tuples(w, w).map(lambda p: f"<ul><li>{p[0]}</li><li>{p[1]}</li></ul>"),
        w.map(lambda p: f"<p><code>{p}</code></p>"),
        w.map(lambda p: f"<p>{p} \\(x^2 + 1\\)</p>"),
    ]
    if image:
        shapes = [w.map(lambda p: f'<p>{p} <img src="{IMAGE.path}" alt="a dot"></p>')]
    return st.one_of(shapes)


def text(lang: str, *, image: bool = False, plain_only: bool = False):
    """A Text in `lang`: plain words (sometimes over two lines), or an HTML fragment."""
    plain = st.one_of(words(lang), st.tuples(words(lang), words(lang)).map("\n".join)).map(Text)
    if plain_only:
        return plain
    return st.one_of(plain, html(lang, image=image).map(lambda value: Text(value, "html")))


def _feedback(lang: str):
    return st.none() | text(lang)


@st.composite
def _common(draw, number: int, lang: str, *, scored: bool = True, image: bool = False, credits: bool = False) -> dict:
    """What every kind has. With partial `credits`, whole points: a credit of 33.33333 % of 0.5
    points takes 8 decimals, which QTI's 7 round (W802, documented)."""
    return {
        "id": f"q{number}",
        "title": draw(st.none() | words(lang, most=3)),
        "points": draw(st.sampled_from((1.0, 2.0) if credits else (1.0, 2.0, 0.5))) if scored else 0.0,
        "prompt": draw(text(lang, image=image)),
        "explanation": draw(_feedback(lang)),
        "tags": tuple(draw(st.lists(st.sampled_from(("week-1", "ml", "hard")), unique=True, max_size=2))),
        "lang": None,
    }


def _right_wrong(draw, lang: str) -> dict:
    return {"correct_feedback": draw(_feedback(lang)), "incorrect_feedback": draw(_feedback(lang))}


def _distinct_texts(draw, lang: str, count: int, *, plain_only: bool = False) -> list[Text]:
    """`count` texts a learner can tell apart (lint's L002 aside, formats keep duplicates too)."""
    return [Text(f"{draw(words(lang, most=3))} {n}") if plain_only or n % 2 else
            Text(f"<p>{_escape(draw(words(lang, most=3)))} {n}</p>", "html") for n in range(1, count + 1)]


@st.composite
def multiple_choice(draw, number: int, lang: str, image: bool = False) -> MultipleChoice:
    count = draw(st.integers(2, 5))
    multiple = draw(st.booleans())
    right = set(draw(st.lists(st.integers(0, count - 1), min_size=1, max_size=count if multiple else 1, unique=True)))
    choices = tuple(Choice(id=f"c{n}", text=option, correct=n in right, feedback=draw(_feedback(lang)))
                    for n, option in enumerate(_distinct_texts(draw, lang, count)))
    return MultipleChoice(**draw(_common(number, lang, image=image)), **_right_wrong(draw, lang),
                          multiple_response=multiple, choices=choices)


@st.composite
def true_false(draw, number: int, lang: str, image: bool = False) -> TrueFalse:
    return TrueFalse(**draw(_common(number, lang, image=image)), **_right_wrong(draw, lang), answer=draw(st.booleans()))


@st.composite
def short_answer(draw, number: int, lang: str, image: bool = False) -> ShortAnswer:
    texts = draw(st.lists(words(lang, most=2), min_size=1, max_size=3, unique=True))
    credits = [100.0] + [draw(st.sampled_from(GRADES)) for _ in texts[1:]]
    answers = tuple(Answer(text=t, credit=c, feedback=draw(_feedback(lang))) for t, c in zip(texts, credits))
    return ShortAnswer(**draw(_common(number, lang, image=image, credits=True)), **_right_wrong(draw, lang), answers=answers,
                       case_sensitive=draw(st.booleans()))


@st.composite
def numeric(draw, number: int, lang: str, image: bool = False) -> Numeric:
    values = draw(st.lists(st.sampled_from((0.0, 1.0, -2.5, 3.1415927, 1e6, 0.0125)), min_size=1, max_size=3,
                           unique=True))
    answers = tuple(NumericAnswer(value=v, tolerance=draw(st.sampled_from((0.0, 0.5, 0.01))),
                                  credit=100.0 if n == 0 else draw(st.sampled_from(GRADES)))
                    for n, v in enumerate(values))
    return Numeric(**draw(_common(number, lang, image=image, credits=True)), **_right_wrong(draw, lang), answers=answers)


@st.composite
def essay(draw, number: int, lang: str, image: bool = False) -> Essay:
    return Essay(**draw(_common(number, lang, image=image)), lines=draw(st.integers(1, 30)))


@st.composite
def matching(draw, number: int, lang: str, image: bool = False) -> Matching:
    count = draw(st.integers(2, 4))
    lefts = _distinct_texts(draw, lang, count)
    rights = _distinct_texts(draw, lang, count + 1, plain_only=True)  # Moodle shows right items as plain text
    pairs = tuple(MatchPair(id=f"p{n}", left=left, right=right) for n, (left, right) in enumerate(zip(lefts, rights)))
    distractors = tuple(rights[count:]) if draw(st.booleans()) else ()
    return Matching(**draw(_common(number, lang, image=image)), **_right_wrong(draw, lang), pairs=pairs,
                    distractors=distractors)


@st.composite
def ordering(draw, number: int, lang: str, image: bool = False) -> Ordering:
    items = tuple(OrderItem(id=f"i{n}", text=t) for n, t in enumerate(_distinct_texts(draw, lang, draw(st.integers(2, 5)))))
    return Ordering(**draw(_common(number, lang, image=image)), **_right_wrong(draw, lang), items=items)


@st.composite
def fill_blanks(draw, number: int, lang: str, image: bool = False) -> FillBlanks:
    segments: list = []
    for n in range(draw(st.integers(1, 3))):
        segments.append(draw(words(lang, most=3)) + " ")
        if draw(st.booleans()):
            answers = tuple(Answer(text=t, credit=100.0) for t in draw(st.lists(words(lang, most=1), min_size=1,
                                                                                 max_size=2, unique=True)))
            segments.append(Gap(id=f"g{n}", answers=answers))
        else:
            options = draw(st.lists(words(lang, most=1), min_size=2, max_size=3, unique=True))
            segments.append(Gap(id=f"g{n}", choices=tuple(Choice(id=f"g{n}c{m}", text=Text(o), correct=m == 0)
                                                         for m, o in enumerate(options))))
    segments.append(" " + draw(words(lang, most=2)))
    prompt = "".join(part if isinstance(part, str) else "___" for part in segments)
    gaps = sum(isinstance(part, Gap) for part in segments)
    # A whole number of points per gap: Moodle's Cloze gaps weigh whole marks (W658).
    common = {**draw(_common(number, lang)), "prompt": Text(prompt), "points": float(gaps * draw(st.integers(1, 2)))}
    return FillBlanks(**common, **_right_wrong(draw, lang), segments=tuple(segments),
                      case_sensitive=draw(st.booleans()))


@st.composite
def description(draw, number: int, lang: str, image: bool = False) -> Description:
    return Description(**draw(_common(number, lang, scored=False, image=image)))


KINDS = (multiple_choice, true_false, short_answer, numeric, essay, matching, ordering, fill_blanks, description)
"""One strategy per kind of the model (model.QUESTION_KINDS), in its order."""


@st.composite
def quizzes(draw, *, most: int = 4) -> Quiz:
    """A quiz of 1..`most` questions of any kinds, in one language, sometimes with an image."""
    lang = draw(st.sampled_from(sorted(WORDS)))
    image = draw(st.booleans())
    kinds = draw(st.lists(st.sampled_from(KINDS), min_size=1, max_size=most))
    langs = [draw(st.sampled_from((lang, lang, lang, *sorted(WORDS)))) for _ in kinds]  # mostly the quiz's
    questions = [dataclasses.replace(draw(kind(number, own, image=image and number == 1)),
                                     lang=own if own != lang else None)
                 for number, (kind, own) in enumerate(zip(kinds, langs), 1)]
    settings = Settings(shuffle=draw(st.booleans()), pass_mark=draw(st.none() | st.sampled_from((50.0, 75.0))),
                        feedback=draw(st.sampled_from(("immediate", "end"))),
                        attempts=draw(st.none() | st.integers(1, 3)),
                        time_limit=draw(st.none() | st.sampled_from((60, 1800, 3600))))
    uses_image = any(IMAGE.path in q.prompt.value for q in questions)
    return Quiz(id="generated", title=draw(words(lang, most=4)), lang=lang, questions=tuple(questions),
                description=draw(st.none() | text(lang)), settings=settings,
                tags=tuple(draw(st.lists(st.sampled_from(("ml", "exam")), unique=True, max_size=2))),
                assets=(IMAGE,) if uses_image else ())
