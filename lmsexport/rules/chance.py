"""How likely a pattern in a quiz's answer key is by chance, in time linear in its questions.

Lint's answer rules (L030, L032) ask P(X >= k) for X the number of successes of independent
trials with chances p_i: a Poisson binomial tail. The textbook dynamic programme adds one
trial at a time to a distribution as long as the trials so far, n^2/2 steps: 50,000 questions
took a minute. Here the trials are grouped by chance, which comes from a question's number of
options and so takes a few values: the trials of one chance make one binomial, whose
probabilities come from log-gamma at O(1) each, and those below `NEGLIGIBLE` are left out,
so each takes O(sqrt(n)) numbers (about 23 standard deviations). The binomials are convolved,
O(sqrt(n) * sqrt(n)) = O(n) for each of the few groups. The result is the exact tail but for
less than 1e-27, far below any threshold a rule uses.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence

NEGLIGIBLE = 1e-30
"""A binomial's probabilities below this are left out: its tails fall off faster than
geometrically, so what is left out sums to about as little."""


def at_least(chances: Sequence[float], count: int) -> float:
    """P(at least `count` successes) over independent trials with these chances."""
    start, distribution = 0, [1.0]  # distribution[i] is P(X = start + i) over the groups so far
    for chance, trials in sorted(Counter(chances).items()):
        first, probabilities = binomial(trials, chance)
        start, distribution = start + first, convolve(distribution, probabilities)
    return math.fsum(distribution[max(0, count - start):])


def binomial(trials: int, chance: float) -> tuple[int, list[float]]:
    """The probabilities of Binomial(trials, chance) that are not `NEGLIGIBLE`: the count they
    start at, and them (from its mode outwards: a binomial has one peak)."""
    if chance <= 0 or chance >= 1:
        return (trials if chance >= 1 else 0), [1.0]
    log_p, log_q, log_all = math.log(chance), math.log1p(-chance), math.lgamma(trials + 1)

    def probability(k: int) -> float:
        return math.exp(log_all - math.lgamma(k + 1) - math.lgamma(trials - k + 1) + k * log_p + (trials - k) * log_q)

    mode = min(trials, math.floor((trials + 1) * chance))
    low = high = mode
    while low > 0 and probability(low - 1) >= NEGLIGIBLE:
        low -= 1
    while high < trials and probability(high + 1) >= NEGLIGIBLE:
        high += 1
    return low, [probability(k) for k in range(low, high + 1)]


def convolve(a: list[float], b: list[float]) -> list[float]:
    """The distribution of the sum of two independent counts with these distributions."""
    if len(a) * len(b) <= 4096:
        out = [0.0] * (len(a) + len(b) - 1)
        for i, x in enumerate(a):
            for j, y in enumerate(b):
                out[i + j] += x * y
        return out
    import numpy  # past a few thousand products: C; numpy is a lint dependency (py3langid)

    return numpy.convolve(a, b).tolist()
