"""Pools: a pool that is no draw.

    L060  a pool draws every one of its questions, so every attempt shows them all:
          a plain section, not a pool (only their order may change)

Questions repeated where a pool may draw both are L061, in `repeats`, which finds repeats.
"""

from __future__ import annotations

from typing import Iterator

from ..model import Quiz
from . import WARNING, Finding, Rule


def _draws_all(quiz: Quiz) -> Iterator[Finding]:
    for pool in quiz.pools:
        if pool.draw == len(pool.questions):
            yield Finding(
                f"{quiz.label(pool)} draws {_all(pool.draw)}: every attempt shows each of them",
                "draw fewer, or add questions to it; to show them all, make them fixed questions "
                "(remove the pool's lines)",
                quiz.members(pool)[0], pool.source,
            )


def _all(draw: int) -> str:
    return "its one question" if draw == 1 else f"all {draw} of its questions"


RULES = (
    Rule("L060", "pool-draws-all", WARNING,
         "A pool draws every one of its questions: it is a plain section, not a pool.", _draws_all),
)
