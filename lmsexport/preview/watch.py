"""Watching sources for changes, for the live preview and `lmsexport build --watch`.

watchfiles (https://watchfiles.helpmanual.io/, the Rust `notify` crate: inotify, FSEvents,
ReadDirectoryChangesW) does the watching, in a thread of its own, and hands each batch of
changes over a queue; iterating a `Watcher` yields them until `stop()`. The thread also tells
the build that forking is unsafe (forked.py: a fork copies one thread only), so a
build run meanwhile never forks around watchfiles' own threads.

A folder given is watched with everything under it; a file given, through its folder (an
editor that saves by writing a new file and renaming it over the old one would leave a
watch on the file itself looking at a deleted file), which also sees the images beside it.
watchfiles' default filter drops editors' swap and backup files and folders such as `.git`;
`ignore` drops more (the output folder of a build).
"""

from __future__ import annotations

import os
import queue
import threading
from collections.abc import Iterator
from pathlib import Path

DEBOUNCE_MS = 400
"""Longest a batch of changes is gathered for: a save touching several files is one batch."""
STEP_MS = 50
"""Quiet time that ends a batch; also how often the thread checks whether it should stop."""


def roots(paths: list[Path]) -> list[Path]:
    """The folders to watch: each folder given, and the folder of each file given, each once,
    none inside another."""
    folders = sorted({(path if path.is_dir() else path.parent).resolve() for path in paths})
    return [folder for folder in folders if not any(other in folder.parents for other in folders)]


class Watcher:
    """The changes under `paths` (batches of changed paths), from a thread, until `stop()`."""

    def __init__(self, paths: list[Path], *, ignore: tuple[Path, ...] = ()):
        self._stop = threading.Event()
        self._batches: queue.Queue[set[Path] | None] = queue.Queue()
        self.error: BaseException | None = None
        """What ended the watching early (the OS refused a watch), re-raised by iteration."""
        self._thread = threading.Thread(target=self._run, args=(roots(paths), ignore), name="lmsexport-watch",
                                        daemon=True)
        self._thread.start()

    def _run(self, folders: list[Path], ignore: tuple[Path, ...]) -> None:
        from watchfiles import DefaultFilter, watch

        # DefaultFilter compares path prefixes as strings: a separator after each, so dist/ is not dist2/.
        ignored = [str(path.resolve()) + os.sep for path in ignore]
        try:
            for changes in watch(*folders, watch_filter=DefaultFilter(ignore_paths=ignored), stop_event=self._stop,
                                 debounce=DEBOUNCE_MS, step=STEP_MS, raise_interrupt=False):
                self._batches.put({Path(path) for _, path in changes})
        except Exception as exc:  # handed to the iterating thread, which knows what to say
            self.error = exc
        finally:
            self._batches.put(None)

    def __iter__(self) -> Iterator[set[Path]]:
        while True:
            batch = self._batches.get()
            if batch is None:
                if self.error is not None:
                    raise self.error
                return
            yield batch

    def stop(self) -> None:
        """Stop watching; iteration ends (watchfiles looks at the stop event every STEP_MS)."""
        self._stop.set()
        self._thread.join(timeout=5)
