"""Work done in a forked child process while this one goes on: lint on a second core.

Lint, the writers and the validators are CPU-bound Python, so a thread cannot overlap them,
but a second core can. A build forks a child to lint its one source while it writes the
packages; `lmsexport lint` forks one to run the language rule while it runs the others. The
child is forked once the quiz is read, before any thread starts (a fork copies only the
calling thread: a lock a loading thread held would stay held in the child for ever); it
shares what the parent read (reading it again in the child cost a 2,000-question build 0.2 s
of CPU; the pages the child touches are copied, ~0.02 s), and sends back its result, pickled.

If the child dies without answering, `result()` does the work in this process: the output
is the same either way, only slower.
"""

from __future__ import annotations

import gc
import os
import pickle
import signal
import sys
import threading
from typing import Any, Callable, TypeVar

T = TypeVar("T")


def available() -> bool:
    """Fork is cheap and safe on Linux (macOS forks badly once libraries start threads), but
    only while this process has no other thread: one could hold a lock (an import, a model
    being loaded, a library's own) that the child would then wait for for ever. It pays only
    with a second core to run on: on one, the child's work comes on top of the parent's, with
    the pages it copies."""
    return (sys.platform == "linux" and hasattr(os, "fork") and threading.active_count() == 1
            and len(os.sched_getaffinity(0)) > 1)


class Forked:
    """`function(*args, **kwargs)` running in a child process."""

    def __init__(self, pid: int, pipe: int):
        self.pid = pid
        self.pipe = pipe

    @classmethod
    def start(cls, function: Callable[..., Any], *args: Any, **kwargs: Any) -> Forked:
        """Fork (call only when `available()`); the child runs `function` while the parent goes on."""
        read_end, write_end = os.pipe()
        gc.freeze()  # the child's collections leave the objects it shares with the parent alone,
        pid = os.fork()  # so their pages stay shared (Python's gc docs, on fork without exec)
        if pid == 0:  # the child: never returns, never runs the parent's exit handlers
            os.close(read_end)
            try:
                _answer(write_end, function, args, kwargs)
            finally:
                os._exit(0)
        gc.unfreeze()
        os.close(write_end)
        return cls(pid, read_end)

    def result(self, otherwise: Callable[[], T]) -> T:
        """What the child's `function` returned (what it raised is raised here), or
        `otherwise()` if the child died without answering."""
        with os.fdopen(self.pipe, "rb") as pipe:
            data = pipe.read()
        os.waitpid(self.pid, 0)
        try:
            ok, payload = pickle.loads(data)
        except Exception:  # nothing or half an answer: the child was killed or crashed
            return otherwise()
        if not ok:
            raise payload
        return payload

    def cancel(self) -> None:
        """Stop the child and reap it (its work is no longer needed)."""
        try:
            os.kill(self.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        os.waitpid(self.pid, 0)
        os.close(self.pipe)


def _answer(pipe: int, function: Callable[..., Any], args: tuple, kwargs: dict) -> None:
    try:
        payload = (True, function(*args, **kwargs))
    except Exception as exc:  # handed to the parent, as if it had made the call itself
        payload = (False, exc)
    with os.fdopen(pipe, "wb") as out:
        pickle.dump(payload, out)
