"""`lmsexport` running in a subprocess for a test: its output read with bounded waits, always stopped.

Used by the tests of the commands that keep running (`preview`, `build --watch`). Every wait
has a timeout; `close()` (the context manager's exit) kills whatever is still running.
"""

from __future__ import annotations

import os
import queue
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


class Running:
    """`python -m lmsexport ARGS...`, with this checkout first on the path."""

    def __init__(self, *args: str, cwd: Path | None = None):
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "lmsexport", *args], cwd=cwd, env=env, stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, encoding="utf-8",
        )
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.stdout: list[str] = []
        self.stderr: list[str] = []
        self._readers = [threading.Thread(target=self._read, args=(self.process.stdout, self.stdout, True), daemon=True),
                         threading.Thread(target=self._read, args=(self.process.stderr, self.stderr, False), daemon=True)]
        for reader in self._readers:
            reader.start()

    def _read(self, stream, kept: list[str], queued: bool) -> None:
        for line in stream:
            kept.append(line.rstrip("\n"))
            if queued:
                self.lines.put(line.rstrip("\n"))
        if queued:
            self.lines.put(None)

    def expect(self, pattern: str, timeout: float = 20.0) -> re.Match:
        """The next stdout line matching `pattern` (lines before it are skipped), within `timeout` seconds."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            try:
                line = self.lines.get(timeout=max(left, 0.01))
            except queue.Empty:
                raise AssertionError(f"no line matching {pattern!r} within {timeout} s; {self.output()}") from None
            if line is None:
                raise AssertionError(f"the command ended before printing {pattern!r}; {self.output()}")
            found = re.search(pattern, line)
            if found:
                return found

    def wait_for_stderr(self, text: str, timeout: float = 20.0) -> None:
        deadline = time.monotonic() + timeout
        while not any(text in line for line in self.stderr):
            if time.monotonic() > deadline or self.process.poll() is not None:
                raise AssertionError(f"no {text!r} on stderr within {timeout} s; {self.output()}")
            time.sleep(0.05)

    def interrupt(self, timeout: float = 20.0) -> int:
        """Ctrl-C, then the exit status (within `timeout` seconds)."""
        self.process.send_signal(signal.SIGINT)
        code = self.process.wait(timeout=timeout)
        for reader in self._readers:
            reader.join(timeout=timeout)
        return code

    def output(self) -> str:
        return "stdout:\n" + "\n".join(self.stdout) + "\nstderr:\n" + "\n".join(self.stderr)

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(timeout=20)

    def __enter__(self) -> Running:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def retrying(change, check, attempts: int = 8) -> None:
    """Make `change` and wait for `check` (which raises AssertionError when it waited in vain),
    making the change again if it was missed: a watcher that has just started may not see
    the first one. Every attempt is bounded by `check`'s own timeout."""
    for attempt in range(attempts):
        change()
        try:
            check()
            return
        except AssertionError:
            if attempt == attempts - 1:
                raise
