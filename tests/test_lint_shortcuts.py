"""The shortcuts lint takes on common texts say what the long way says.

L020 decides from a text's first words whether the model must judge it (`_evidence`): one
pattern match sees three plain words at once, else the words are walked one by one. L040 and
L061 blank punctuation (`_words`): ASCII's without a call back into Python, the rest only when
some is left. A text that starts with "¿" takes the long way in both (no pattern match, a
mark left) and has the same words, so each function must give it the same answer.

L013 passes a text whose brackets only open and close in turn with one match (`_ONE_DEEP`);
with that match switched off, every bracket is walked, and must find nothing wrong in it.

The rules' quick look for a hint (`candidates`) searches the quiz's texts joined a chunk at a
time, and a text without code is its own prose: both must find what a look at each text finds.
"""

from __future__ import annotations

import re

from hypothesis import given, settings, strategies as st

from lmsexport import rules
from lmsexport.rules import language, placeholders, repeats
from lmsexport.text import html_words

from model_strategies import quizzes

_PIECES = [
    "tham", "số", "Mô", "HÌNH", "GPU", "PyTorch", "x1", "a_b", "torch.cuda", "don't", "all-reduce", "²", "Ⅻ",
    "ǅa", "توازي", "البيانات", "数据", "并行", "ìpínlẹ̀", "e\u0301", "A", "b", "3", "½", "٣", "፩", "naïve",
    "İstanbul", "ﬁx", "...", "…", "—", "(1)?", "#1.a", "'", "’s", "-", ".", "_", "“", "”", "。", "\u200b",
]
_SEPARATORS = [" ", "  ", "\t", "\n", "", ". ", ", ", "\u00a0", "\u3000"]
_TEXTS = st.lists(st.tuples(st.sampled_from(_PIECES), st.sampled_from(_SEPARATORS)), max_size=8).map(
    lambda pairs: "".join(piece + separator for piece, separator in pairs))


@settings(max_examples=1500, deadline=None)
@given(st.sampled_from(["", " ", "\n"]), _TEXTS)
def test_the_first_words_decide_as_the_walk_over_every_word_does(start, text):
    assert language._evidence(start + text) == language._evidence("¿" + text)


@settings(max_examples=1500, deadline=None)
@given(_TEXTS | st.text(max_size=20))
def test_words_blanked_at_once_are_the_words_blanked_mark_by_mark(text):
    assert repeats._words(text) == repeats._words("¿" + text)


_BRACKETED = st.lists(st.sampled_from(["a", " ", "1", "(", ")", "[", "]", "{", "}", "“", "”", "«", "»", ":", ";", "-",
                                       "\n"]), max_size=14).map("".join)


@settings(max_examples=1500, deadline=None)
@given(_BRACKETED)
def test_brackets_seen_in_one_match_are_what_walking_them_finds(text):
    quick = placeholders._bracket_problem(text)
    one_deep, placeholders._ONE_DEEP = placeholders._ONE_DEEP, re.compile(r"(?!)")  # matches nothing
    try:
        assert placeholders._bracket_problem(text) == quick
    finally:
        placeholders._ONE_DEEP = one_deep


_HINTS = ("{", "%", "&", "`", "<", "a", re.compile(r"[0-9]"), re.compile(r"\\\("))


@settings(max_examples=300, deadline=None)
@given(quizzes(), st.integers(1, 6), st.lists(st.sampled_from(_HINTS), min_size=1, max_size=3, unique=True))
def test_hints_found_in_texts_joined_a_chunk_at_a_time_are_those_in_each_text(quiz, chunk, hints):
    joined, rules.JOINED = rules.JOINED, chunk  # chunks of a few parts: boundaries inside questions
    rules.forget()
    try:
        for kind in ("value", "visible", "prose"):
            texts = rules.texts(quiz, kind)
            each = [index for index, text in enumerate(texts)
                    if any((hint in text) if isinstance(hint, str) else hint.search(text) for hint in hints)]
            assert rules.candidates(quiz, tuple(hints), kind) == each
        for part, shown, prose in zip(rules.quiz_parts(quiz), rules.texts(quiz, "visible"), rules.texts(quiz, "prose")):
            if part.format == "plain":
                assert prose == (re.sub(r"`[^`\n]+`", " ", part.value) if "`" in part.value else part.value)
            else:
                assert prose == html_words(part.value, code=False)
                assert prose is shown or "<code" in part.value or "<pre" in part.value
    finally:
        rules.JOINED = joined
        rules.forget()
