"""Memory a build has freed, handed back to the operating system; work that makes no cycles,
done without the cyclic collector.

glibc keeps the blocks freed by a format's lxml trees for the process, so without this
the next format's peak stacks on the last one's and a 10,000-question `--format all`
build peaks higher than any one format needs; and it keeps the pieces of a large source
once they are read (chunks.py), which the model read from them cannot use.
"""

from __future__ import annotations

import contextlib
import functools
import gc
from typing import Iterator


@functools.cache
def _malloc_trim():
    """glibc's malloc_trim, or None where there is none (macOS, Windows, musl)."""
    try:
        import ctypes

        return ctypes.CDLL("libc.so.6").malloc_trim
    except (OSError, AttributeError):
        return None


def return_freed_memory() -> None:
    """Give freed memory back to the OS (10,000 questions, every format, no lint: a
    peak of 390 MB without this, 320 MB with it); a no-op where there is no glibc."""
    trim = _malloc_trim()
    if trim is not None:
        trim(0)


@contextlib.contextmanager
def uncollected() -> Iterator[None]:
    """Run the block without the cyclic collector, for work that makes millions of objects
    and no cycles of its own: `lmsexport lint` of 100,000 questions reads ~3 million objects
    that live to its end (a collection after its read and check finds only 50 to 300 left
    from imports), and the collector walked them again and again: 12.4 s of wall time
    without this, 10.4 s with it. What the block made then goes to the oldest generation,
    which a full collection walks only once it has grown by a quarter, instead of the
    youngest, whose next collection would walk it all."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        gc.unfreeze()
        if enabled:
            gc.enable()
