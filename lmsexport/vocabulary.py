"""The values a quiz's settings and texts are checked against, apart from the model's classes.

The model's objects check them on construction; a header, an lmsexport.toml and a messages
file are checked against them before any quiz exists. They live outside `model/` so that a
build with nothing to rebuild, which reads only lmsexport.toml files, does not import the
model's classes (15-20 ms of a 0.13 s no-op build of 100 quizzes).
"""

from __future__ import annotations

import re

FEEDBACK_MODES = ("immediate", "end")
TIME_LIMIT_MAX = 2**53
"""Seconds a time limit holds at most: what a double (JSON, QTI's xs:double) counts exactly, some
285 million years; more is no limit, and would overflow the formats that count in doubles."""
SCORING_POLICIES = ("partial", "all_or_nothing")
"""How a question of several parts earns credit (docs/scoring.md has the exact rules):

* `partial`: each right part earns its share of the points. Multiple response: each right
  option ticked earns points / (right options) and each wrong one ticked takes as much away,
  never below 0 ("right minus wrong"). Matching: points / pairs for each left item matched
  right. Ordering: points / items for each item in its right place. Fill in the blanks:
  points / gaps times the credit of the answer in each gap (never below 0).
* `all_or_nothing`: the points when every part is right (what `partial` would give in
  full), else 0.
"""
_ID = re.compile(r"[A-Za-z_][A-Za-z0-9_.-]*\Z")
# BCP 47 in its common shape: language, then script / region / variant subtags.
_LANG = re.compile(r"[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*\Z")
# Characters XML 1.0 cannot carry at all (lxml refuses them too).
XML_ILLEGAL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def is_identifier(value: str) -> bool:
    """True if `value` is a usable id: an XML NCName in ASCII (safe in every format)."""
    return bool(_ID.match(value))


def is_language_tag(value: str) -> bool:
    return bool(_LANG.match(value))
