"""Memory a build has freed, handed back to the operating system.

glibc keeps the blocks freed by a format's lxml trees for the process, so without this
the next format's peak stacks on the last one's and a 10,000-question `--format all`
build peaks higher than any one format needs; and it keeps the pieces of a large source
once they are read (chunks.py), which the model read from them cannot use.
"""

from __future__ import annotations

import functools


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
