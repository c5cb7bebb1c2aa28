"""Lint one quiz in a forked process while the parent writes and validates its packages.

A single-source build used to lint after writing. Both are CPU-bound Python, so a thread
cannot overlap them, but a second core can. The child is forked once the parent has read
the quiz, before any thread starts (a fork copies only the calling thread: a lock a loading
thread held would stay held in the child for ever); it shares the quiz the parent read
(reading it again in the child cost a 2,000-question build 0.2 s of CPU; the pages the
child touches are copied, ~0.02 s), lints it and sends back its findings, pickled. The
parent never loads the language model, which keeps the model's memory out of the
writers' peak.

If the child dies without answering, `findings()` returns None and the caller lints in
process: the output is the same either way, only slower.
"""

from __future__ import annotations

import gc
import os
import pickle
import signal
import sys
import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..diagnostics import Diagnostic

if TYPE_CHECKING:  # the model is loaded by the build that has a quiz to lint, not by a no-op one
    from ..model import Quiz


def available() -> bool:
    """Fork is cheap and safe on Linux (macOS forks badly once libraries start threads), but
    only while this process has no other thread: one could hold a lock (an import, a model
    being loaded, a library's own) that the child would then wait for for ever. It pays only
    with a second core to run on: on one, the child's work comes on top of the parent's, with
    the pages it copies."""
    return (sys.platform == "linux" and hasattr(os, "fork") and threading.active_count() == 1
            and len(os.sched_getaffinity(0)) > 1)


class ForkedCheck:
    """A `check()` of one quiz running in a child process."""

    def __init__(self, pid: int, pipe: int, source: str):
        self.pid = pid
        self.pipe = pipe
        self.source = source

    @classmethod
    def start(cls, quiz: Quiz, ignore: Sequence[str], source: str) -> ForkedCheck:
        """Fork; the child lints `quiz` while the parent goes on."""
        read_end, write_end = os.pipe()
        gc.freeze()  # the child's collections leave the objects it shares with the parent alone,
        pid = os.fork()  # so their pages stay shared (Python's gc docs, on fork without exec)
        if pid == 0:  # the child: never returns, never runs the parent's exit handlers
            os.close(read_end)
            try:
                _answer(write_end, quiz, tuple(ignore), source)
            finally:
                os._exit(0)
        gc.unfreeze()
        os.close(write_end)
        return cls(pid, read_end, source)

    def findings(self) -> list[Diagnostic] | None:
        """The child's diagnostics (its exception re-raised here), or None if it died."""
        with os.fdopen(self.pipe, "rb") as pipe:
            data = pipe.read()
        os.waitpid(self.pid, 0)
        try:
            ok, payload = pickle.loads(data)
        except Exception:  # nothing or half an answer: the child was killed or crashed
            return None
        if not ok:
            raise payload
        return payload

    def cancel(self) -> None:
        """Stop the child and reap it (the build failed before lint was needed)."""
        try:
            os.kill(self.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        os.waitpid(self.pid, 0)
        os.close(self.pipe)


def _answer(pipe: int, quiz: Quiz, ignore: tuple[str, ...], source: str) -> None:
    from ..rules.runner import check

    try:
        payload = (True, check([quiz], ignore=ignore, sources=[source]))
    except Exception as exc:  # handed to the parent, as if it had run check() itself
        payload = (False, exc)
    with os.fdopen(pipe, "wb") as out:
        pickle.dump(payload, out)
