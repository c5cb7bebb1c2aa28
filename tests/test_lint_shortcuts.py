"""The shortcuts lint takes on common texts say what the long way says.

L020 decides from a text's first words whether the model must judge it (`_evidence`): one
pattern match sees three plain words at once, else the words are walked one by one. L040 and
L061 blank punctuation (`_words`): ASCII's without a call back into Python, the rest only when
some is left. A text that starts with "¿" takes the long way in both (no pattern match, a
mark left) and has the same words, so each function must give it the same answer.
"""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

from lmsexport.rules import language, repeats

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
