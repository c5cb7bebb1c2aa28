"""Hypothesis strategies for model quizzes (pandoc-types' Arbitrary instances, in Python).

`quizzes()` draws quizzes of every kind, with texts in many scripts, plain and HTML, full of
what a text format must escape: line-start syntax (`1.`, `-`, `=`, `>`, `@`), arrows, brackets,
braces, quotes, backslashes, `&` and `<`, spaces at the ends, tabs, no-break spaces, CR and
blank-line runs, and options that read the same as others. They keep to what the lmsexport text
format holds exactly (docs/formats/text.md): choice, pair, item and gap ids as it letters and
numbers them, no language on single texts, no empty feedback, no feedback in gaps, images shown
in the description in the order carried, no two options with nothing to tell them apart.
"""

from __future__ import annotations

import functools
import html
import re
import unicodedata
from dataclasses import replace

from hypothesis import strategies as st

from lmsexport.markup import sanitize
from lmsexport.model import (Answer, Asset, Choice, Description, Essay, FillBlanks, Gap, Matching, MatchPair,
                             MultipleChoice, Numeric, NumericAnswer, OrderItem, Ordering, Pool, Quiz, Settings,
                             ShortAnswer, Text, TrueFalse)

SCRIPTS = "aZqé中文العربيةẹ̀ỗПривет日本語한글हिन्दीΩ🎓"
SYNTAX = "019.)(-–•*=>+@_{}~[]x→\\&<\"';:%#/ \t\n\r\u00a0"
LETTERS = "abcdefghijklmnopqrstuvwxyz"


def _nfc(value: str) -> str:
    return unicodedata.normalize("NFC", value)


@functools.cache
def raw(min_size: int = 0, max_size: int = 24, alphabet: str = SCRIPTS + SYNTAX):
    return st.text(st.sampled_from(alphabet), min_size=min_size, max_size=max_size).map(_nfc)


@functools.cache
def one_line(min_size: int = 1, exclude: str = ""):
    """A field the format keeps on one line: no line break, no space at the ends."""
    inner = "".join(c for c in SCRIPTS + SYNTAX if c not in "\n\r" + exclude)
    ends = "".join(c for c in inner if not c.isspace())
    end = st.sampled_from(ends)
    middle = raw(0, 14, inner)
    return st.one_of(end, st.tuples(end, middle, end).map("".join)).map(_nfc).filter(
        lambda v: v == v.strip() and len(v) >= min_size)


@functools.cache
def tame(min_size: int = 1):
    """Words as most quizzes have them, which `markup: plain` mostly holds as they are."""
    word = st.text(st.sampled_from(LETTERS + "éẹ中ع?,'<>&\"*=@[]→\\19.-"), min_size=1, max_size=8)
    return st.lists(word, min_size=min_size, max_size=5).map(" ".join).map(_nfc)


@functools.cache
def _html_inline():
    leaf = st.one_of(
        raw(1, 10).map(lambda v: html.escape(v, quote=False)),
        raw(1, 6, "abxyz+^_{}").map(lambda tex: f"\\({tex}\\)"),
        st.just("<br>"),
        st.just("&nbsp;"),
    )
    tags = st.sampled_from(["b", "em", "strong", "code", "sub", "sup", "i", "s", "span"])
    return st.recursive(
        leaf,
        lambda children: st.one_of(
            st.tuples(tags, children).map(lambda t: f"<{t[0]}>{t[1]}</{t[0]}>"),
            st.lists(children, min_size=2, max_size=3).map("".join),
        ),
        max_leaves=5,
    )


@functools.cache
def html_text():
    """Safe HTML as the sanitiser keeps it (the model's HTML), with at least one tag."""
    inline = _html_inline()
    block = st.one_of(
        inline,
        st.lists(inline.map(lambda v: f"<p>{v}</p>"), min_size=1, max_size=3).map("\n".join),
        raw(1, 16).map(lambda v: f"<pre>{html.escape(v, quote=False)}</pre>"),
        st.lists(inline.map(lambda v: f"<li>{v}</li>"), min_size=1, max_size=2).map(lambda v: f"<ul>{''.join(v)}</ul>"),
    )
    wrapped = st.one_of(block, st.tuples(st.sampled_from(["b", "em", "span"]), block).map(
        lambda t: f"<{t[0]}>{t[1]}</{t[0]}>"))
    return wrapped.map(lambda v: _nfc(sanitize(v))).filter(lambda v: "<" in v and sanitize(v) == v).map(
        lambda v: Text(v, "html"))


@functools.cache
def texts(min_size: int = 1, plain: bool = False):
    """A text: plain (any characters) or HTML; with `plain`, words a plain quiz has."""
    if plain:
        return tame(min_size).map(Text)
    return st.one_of(raw(min_size).map(Text), tame(min_size).map(Text), html_text())


@functools.cache
def _feedback(plain: bool):
    return st.one_of(st.none(), texts(1, plain))


@functools.cache
def _credits(size: int):
    credit = st.one_of(st.sampled_from([100.0, 50.0, 0.0, -25.0, 33.333333333333336, 12.5]),
                       st.floats(-100, 100, allow_nan=False))
    return st.lists(credit, min_size=size, max_size=size).map(lambda c: [100.0, *c[1:]])


def _folded(text: Text) -> str:
    return " ".join(text.value.casefold().split())


def _spellable(text: Text) -> bool:
    """Whether a text has a character outside its tags, which the writer can spell as a reference
    to tell it from an identical option (E204); two empty options, or two `<br>`, it cannot (W457)."""
    return bool(re.sub(r"<[^>]*>", "", text.value))


def _repeat(text: Text, swapped: bool) -> Text:
    """An option again: the same text, or (plain) with its letters' case swapped, which the reader folds."""
    return Text(_nfc(text.value.swapcase())) if swapped and text.format == "plain" else text


@st.composite
def _choices(draw, multiple: bool, plain: bool):
    options = draw(st.lists(texts(0, plain), min_size=2, max_size=5, unique_by=_folded))
    repeated = draw(st.lists(st.sampled_from([t for t in options if _spellable(t)] or [None]), max_size=2))
    options += [_repeat(text, draw(st.booleans())) for text in repeated if text is not None]
    right = draw(st.integers(0, len(options) - 1))
    correct = (draw(st.lists(st.booleans(), min_size=len(options), max_size=len(options))) if multiple
               else [i == right for i in range(len(options))])
    if not any(correct):
        correct[0] = True
    return tuple(Choice(id=LETTERS[i], text=t, correct=c, feedback=draw(_feedback(plain)))
                 for i, (t, c) in enumerate(zip(options, correct)))


@st.composite
def _typed_answers(draw, text, cls, plain: bool):
    values = draw(st.lists(text, min_size=1, max_size=3))
    credits = draw(_credits(len(values)))
    if cls is Answer:
        return tuple(Answer(text=v, credit=c, feedback=draw(_feedback(plain))) for v, c in zip(values, credits))
    return tuple(NumericAnswer(value=v, tolerance=draw(st.floats(0, 1e6)), credit=c, feedback=draw(_feedback(plain)))
                 for v, c in zip(values, credits))


@st.composite
def _gap(draw, number: int, plain: bool) -> Gap:
    if draw(st.booleans()):
        answers = draw(st.lists(one_line(), min_size=1, max_size=3))
        credits = draw(_credits(len(answers)))
        return Gap(id=f"g{number}", answers=tuple(Answer(text=a, credit=c) for a, c in zip(answers, credits)))
    options = draw(st.lists(texts(1, plain), min_size=2, max_size=4))
    right = draw(st.integers(0, len(options) - 1))
    return Gap(id=f"g{number}", choices=tuple(Choice(id=LETTERS[i], text=t, correct=i == right)
                                              for i, t in enumerate(options)))


@st.composite
def _sentence(draw, plain: bool) -> tuple:
    words = one_line(exclude="{}")
    segments: list = []
    for number in range(1, draw(st.integers(1, 3)) + 1):
        if draw(st.booleans()) or not segments:
            segments.append(draw(words) + draw(st.sampled_from(["", " "])))
        segments.append(draw(_gap(number, plain)))
    if draw(st.booleans()):
        segments.append(draw(st.sampled_from(["", " "])) + draw(words))
    return tuple(segments)


UNITS = ["m/s²", "%", "٪", "°C", "Kč", "km h⁻¹", "± 1", "1/s", "e5", "..", "m ± cm"]
"""Units a text writes after the number, and units it must give as `@unit:` (spaces, signs, digits first)."""


@functools.cache
def _unit():
    return one_line(exclude="\t").filter(lambda v: len(v) <= 50)


@functools.cache
def _kind_fields(kind: str, plain: bool):
    """A strategy for the fields that make a question of `kind`."""
    if kind == "multiple_choice":
        return st.booleans().flatmap(lambda m: _choices(m, plain).map(lambda c: {"multiple_response": m, "choices": c}))
    if kind == "true_false":
        return st.booleans().map(lambda a: {"answer": a})
    if kind == "short_answer":
        answer = one_line().filter(lambda v: bool(v.strip()))
        return st.fixed_dictionaries({"answers": _typed_answers(answer, Answer, plain), "case_sensitive": st.booleans()})
    if kind == "numeric":
        return st.fixed_dictionaries({"answers": _typed_answers(st.floats(-1e12, 1e12), NumericAnswer, plain),
                                      "unit": st.one_of(st.none(), st.sampled_from(UNITS), _unit())})
    if kind == "essay":
        return st.integers(1, 100).map(lambda n: {"lines": n})
    if kind == "matching":
        pair = st.tuples(texts(1, plain), texts(1, plain))
        return st.fixed_dictionaries({
            "pairs": st.lists(pair, min_size=2, max_size=4).map(
                lambda ps: tuple(MatchPair(id=LETTERS[i], left=l, right=r) for i, (l, r) in enumerate(ps))),
            "distractors": st.lists(texts(1, plain), max_size=2).map(tuple)})
    if kind == "ordering":
        return st.lists(texts(0, plain), min_size=2, max_size=4).map(
            lambda items: {"items": tuple(OrderItem(id=LETTERS[i], text=t) for i, t in enumerate(items))})
    if kind == "fill_blanks":
        return st.fixed_dictionaries({"segments": _sentence(plain), "case_sensitive": st.booleans()})
    return st.just({})


KINDS = {"multiple_choice": MultipleChoice, "true_false": TrueFalse, "short_answer": ShortAnswer,
         "numeric": Numeric, "essay": Essay, "matching": Matching, "ordering": Ordering,
         "fill_blanks": FillBlanks, "description": Description}


@st.composite
def question(draw, question_id: str, kind: str, plain: bool = False):
    fields = draw(_kind_fields(kind, plain))
    if kind == "fill_blanks":
        prompt = Text("".join(s if isinstance(s, str) else "___" for s in fields["segments"]))
    else:
        prompt = draw(texts(1, plain))
    return KINDS[kind](
        id=question_id, prompt=prompt, **fields,
        title=draw(st.one_of(st.none(), one_line())),
        lang=draw(st.sampled_from([None, "en", "yo", "ar", "pt-BR"])),
        tags=tuple(draw(st.lists(one_line(exclude=","), max_size=2))),
        points=0.0 if kind == "description" else draw(st.one_of(st.sampled_from([1.0, 2.0, 0.0]),
                                                                 st.floats(0, 1000))),
        explanation=draw(_feedback(plain)), correct_feedback=draw(_feedback(plain)),
        incorrect_feedback=draw(_feedback(plain)),
    )


@st.composite
def _images(draw, plain: bool) -> tuple[tuple[Asset, ...], Text | None]:
    """Images and the description that shows them, in the order they are carried."""
    count = 0 if plain else draw(st.integers(0, 2))
    if not count:
        return (), draw(st.one_of(st.none(), texts(1, plain)))
    suffixes = draw(st.lists(st.sampled_from([".png", ".svg", ".jpg"]), min_size=count, max_size=count))
    media = {".png": "image/png", ".svg": "image/svg+xml", ".jpg": "image/jpeg"}
    data = {".png": b"\x89PNG%d", ".jpg": b"\xff\xd8\xff%d", ".svg": b'<svg xmlns="http://www.w3.org/2000/svg" id="p%d"/>'}
    assets = tuple(Asset(path=f"img/p{n}{s}", media_type=media[s], data=data[s] % n) for n, s in enumerate(suffixes))
    alts = [draw(one_line(exclude='<&>"')) for _ in assets]
    shown = "".join(f'<img src="{a.path}" alt="{alt}">' for a, alt in zip(assets, alts))
    return assets, Text(_nfc(sanitize(f"<p>{shown}</p>")), "html")


@st.composite
def quizzes(draw, plain: bool = False):
    """A quiz the lmsexport text format holds exactly: read_text(write_text(q)) == q; with
    `plain`, one whose texts are words, as most typed quizzes have (mostly `markup: plain`)."""
    kinds = draw(st.lists(st.sampled_from(sorted(KINDS)), min_size=1, max_size=5))
    counts = {True: 0, False: 0}
    questions = []
    explicit = draw(st.lists(st.from_regex(r"[A-Za-z][A-Za-z0-9_.-]{0,6}", fullmatch=True), unique=True,
                             min_size=len(kinds), max_size=len(kinds)))
    for kind, own_id in zip(kinds, explicit):
        block = kind == "description"
        counts[block] += 1
        numbered = f"{'t' if block else 'q'}{counts[block]}"
        questions.append(draw(question(numbered if draw(st.booleans()) else own_id, kind, plain)))
    ids = [q.id for q in questions]
    if len(set(ids)) != len(ids):
        questions = [replace(q, id=f"{'t' if q.kind == 'description' else 'q'}x{n}") for n, q in enumerate(questions)]
    questions, pools = draw(_pools(questions))
    assets, description = draw(_images(plain))
    return Quiz(
        id=draw(st.from_regex(r"[A-Za-z][A-Za-z0-9_.-]{0,10}", fullmatch=True)),
        title=draw(one_line()), lang=draw(st.sampled_from([None, "en", "yo", "vi", "ar", "pt-BR"])),
        description=description, tags=tuple(draw(st.lists(one_line(exclude=","), max_size=2))),
        lint_ignore=tuple(draw(st.lists(st.from_regex(r"L0[0-5][0-9]", fullmatch=True), max_size=2, unique=True))),
        settings=Settings(shuffle=draw(st.booleans()), pass_mark=draw(st.one_of(st.none(), st.floats(0, 100))),
                          feedback=draw(st.sampled_from(["immediate", "end"])),
                          attempts=draw(st.one_of(st.none(), st.integers(1, 9))),
                          time_limit=draw(st.one_of(st.none(), st.integers(1, 200_000)))),
        questions=tuple(questions), pools=pools, assets=assets,
    )


@st.composite
def _pools(draw, questions: list) -> tuple[list, tuple[Pool, ...]]:
    """Up to two pools over runs of questions (never text blocks); a pool's `points`, when it
    has them, become the points of each of its questions."""
    runs, run = [], []
    for index, question in enumerate(questions):
        if question.kind == "description":
            runs, run = runs + ([run] if run else []), []
        else:
            run.append(index)
    runs += [run] if run else []
    pools, questions = [], list(questions)
    for number, run in enumerate(draw(st.lists(st.sampled_from(runs), max_size=2, unique_by=tuple)) if runs else []):
        points = draw(st.one_of(st.none(), st.sampled_from([1.0, 2.5, 3.0])))
        if points is not None:
            for index in run:
                questions[index] = replace(questions[index], points=points)
        taken = {q.id for q in questions}
        names = [name for name in (f"pool{number + 1}", f"Pool_{number}", f"Pool_{number}_") if name not in taken]
        own = draw(st.sampled_from(names[:2]))
        pools.append(Pool(id=own, title=draw(
            st.one_of(st.none(), one_line())), draw=draw(st.integers(1, len(run))), points=points,
            shuffle=draw(st.booleans()), questions=tuple(questions[index].id for index in run)))
    pools.sort(key=lambda pool: [q.id for q in questions].index(pool.questions[0]))
    return questions, tuple(pools)

