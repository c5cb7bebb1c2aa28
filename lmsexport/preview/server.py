"""`lmsexport preview`: a local web server that shows each quiz in its SCORM player, live.

The stdlib's ThreadingHTTPServer, bound to 127.0.0.1 only; pages learn of changes through
server-sent events (https://html.spec.whatwg.org/multipage/server-sent-events.html). Its addresses:

    /                                the index of the quizzes found
    /events                          server-sent events: `change`, with the slugs whose page changed
    /static/<name>                   the pages' own files and scorm-again (assets.py)
    /quiz/<slug>/[?format=scorm12]   the quiz in its player, hosted by scorm-again, with the panels
    /quiz/<slug>/key                 its answer key (key.py)
    /quiz/<slug>/<format>/<file>     a file of its SCORM package of that flavour, as packaged

Every file served comes out of a table (the packages in memory, `assets.MEDIA_TYPES`), never
from a path joined onto a folder, so nothing else can be reached. A request whose path holds a
`.` or `..` segment (encoded or not), a backslash or a NUL is refused all the same (403), and so
is one whose Host header names another server (a DNS-rebinding page). The watcher's thread
refreshes the quizzes when files change and tells every open page (`Hub`), which reloads
itself if it shows one of them: no polling in the page.
"""

from __future__ import annotations

import http.server
import json
import mimetypes
import queue
import sys
import threading
from pathlib import Path
from typing import Callable
from urllib.parse import parse_qs, unquote, urlsplit

from . import assets, key, pages
from .quizzes import Quizzes

HOST = "127.0.0.1"
KEEPALIVE = 15.0
"""Seconds between comments on an idle event stream: a page that went away is noticed then."""
_CLOSED = None
_GONE = (BrokenPipeError, ConnectionResetError, ConnectionAbortedError)
"""What a write to a client that closed its connection raises: nobody is left to tell."""


def _media_type(name: str) -> str:
    """The media type of a package's file (text in UTF-8, as the writers write it)."""
    guessed = {".js": "text/javascript"}.get(Path(name).suffix.lower()) or mimetypes.guess_type(name)[0]
    guessed = guessed or "application/octet-stream"
    return f"{guessed}; charset=utf-8" if guessed.startswith("text/") else guessed


class Hub:
    """The open event streams; each is a queue that gets every change (a list of slugs)."""

    def __init__(self) -> None:
        self._streams: set[queue.Queue] = set()
        self._lock = threading.Lock()
        self._closed = False

    def subscribe(self) -> queue.Queue:
        stream: queue.Queue = queue.Queue()
        with self._lock:
            if self._closed:
                stream.put(_CLOSED)
            self._streams.add(stream)
        return stream

    def unsubscribe(self, stream: queue.Queue) -> None:
        with self._lock:
            self._streams.discard(stream)

    def publish(self, slugs: list[str]) -> None:
        with self._lock:
            for stream in self._streams:
                stream.put(list(slugs))

    def close(self) -> None:
        """End every stream (the server is stopping)."""
        with self._lock:
            self._closed = True
            for stream in self._streams:
                stream.put(_CLOSED)


class _Handler(http.server.BaseHTTPRequestHandler):
    server: PreviewServer
    server_version = "lmsexport-preview"

    def log_message(self, format, *args) -> None:
        pass  # the library never prints; the terminal shows the address and nothing more

    def do_GET(self) -> None:
        self._respond(head=False)

    def do_HEAD(self) -> None:
        self._respond(head=True)

    def _respond(self, head: bool) -> None:
        if self.headers.get("Host", "") not in self.server.hosts:
            return self._send(403, "text/plain", b"this preview answers to its own address only\n", head)
        address = urlsplit(self.path)
        parts = unquote(address.path).split("/")[1:]
        if any(part in (".", "..") or "\\" in part or "\x00" in part for part in parts):
            return self._send(403, "text/plain", b"that address leads outside the preview\n", head)
        if parts == ["events"]:
            return self._events(head)
        found = self._route(parts, parse_qs(address.query))
        if found is None:
            return self._send(404, "text/plain", b"not found\n", head)
        media_type, body, policy = found
        self._send(200, media_type, body, head, policy)

    def _route(self, parts: list[str], query: dict) -> tuple[str, bytes, str | None] | None:
        """What an address shows: (media type, body, content security policy), or None."""
        quizzes = self.server.quizzes
        if not parts:
            return None  # a request target that is no path (`*`, `abc`, `?x`)
        if parts == [""]:
            return pages.HTML, pages.index_page(quizzes.all(), self.server.trouble), pages.PAGE_POLICY
        if parts[0] == "static" and "/".join(parts[1:]) in assets.MEDIA_TYPES:
            name = "/".join(parts[1:])
            return assets.MEDIA_TYPES[name], assets.static_file(name), None
        shown = quizzes.get(parts[1]) if parts[0] == "quiz" and len(parts) > 2 else None
        if shown is None:
            return None
        if parts[2:] == [""]:
            page = pages.quiz_page(shown, query.get("format", [""])[0])
            return (pages.HTML, page, pages.PAGE_POLICY) if page is not None else None
        if parts[2:] == ["key"] and shown.quiz is not None:
            return pages.HTML, key.render(shown.quiz).encode("utf-8"), pages.KEY_POLICY
        player = shown.players.get(parts[2])
        name = "/".join(parts[3:])
        if player is None or name not in player.files:
            return None
        return _media_type(name), player.files[name], None

    def _send(self, status: int, media_type: str, body: bytes, head: bool, policy: str | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", media_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Referrer-Policy", "no-referrer")
        if policy:
            self.send_header("Content-Security-Policy", policy)
        self.end_headers()
        if not head:
            self.wfile.write(body)

    def _events(self, head: bool) -> None:
        """One page's event stream, until the page goes away or the server stops."""
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream; charset=utf-8")
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        if head:
            return
        stream = self.server.hub.subscribe()
        try:
            self._write(b"retry: 1000\n\n")
            while True:
                try:
                    slugs = stream.get(timeout=KEEPALIVE)
                except queue.Empty:
                    self._write(b": still here\n\n")
                    continue
                if slugs is _CLOSED:
                    return
                self._write(f"event: change\ndata: {json.dumps(slugs)}\n\n".encode("utf-8"))
        except OSError:
            pass  # the page was closed or reloaded
        finally:
            self.server.hub.unsubscribe(stream)

    def _write(self, data: bytes) -> None:
        self.wfile.write(data)
        self.wfile.flush()


class PreviewServer(http.server.ThreadingHTTPServer):
    """The HTTP server of one preview, on 127.0.0.1 (`port` 0: any free port)."""

    daemon_threads = True
    """An event stream never ends by itself: its thread must not keep the process alive."""

    def __init__(self, quizzes: Quizzes, port: int = 0, report: Callable[[BaseException], None] | None = None):
        super().__init__((HOST, port), _Handler)
        self.quizzes = quizzes
        self.report = report
        """Told of each unexpected error a request met (a bug in lmsexport); None: not told."""
        self.hub = Hub()
        self.trouble: str | None = None
        """Why the quizzes could not be refreshed last time, shown on the index."""
        port = self.server_address[1]
        self.hosts = {f"{HOST}:{port}", f"localhost:{port}"}

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.server_address[1]}/"

    def handle_error(self, request, client_address) -> None:
        """An exception that ended a request's thread: a page that went away mid-answer is no
        error at all; anything else goes to `report` (the CLI prints one line), never a
        traceback on the terminal (socketserver's own handle_error). The server goes on."""
        error = sys.exc_info()[1]
        if isinstance(error, _GONE) or error is None:
            return
        if self.report is not None:
            self.report(error)


class Preview:
    """A preview of the sources under `paths`: the quizzes, the server, the watcher keeping them live.

    `serve_forever()` until Ctrl-C (KeyboardInterrupt) or `shutdown()` from another thread,
    then `close()`. Raises OSError when the port cannot be had. `report` is told of each
    unexpected error a request meets (the request fails, the server goes on)."""

    def __init__(self, paths: list[Path], *, port: int = 0, source_format: str | None = None,
                 report: Callable[[BaseException], None] | None = None):
        from .watch import Watcher

        self.quizzes = Quizzes(paths, source_format)
        self.watcher = Watcher(paths)  # before the first look: a change made meanwhile is not missed
        try:
            self.quizzes.refresh()
            self.server = PreviewServer(self.quizzes, port, report)
        except BaseException:
            self.watcher.stop()
            raise
        self._follower = threading.Thread(target=self._follow, name="lmsexport-preview-refresh", daemon=True)
        self._follower.start()

    @property
    def url(self) -> str:
        return self.server.url

    def _follow(self) -> None:
        """On each batch of changes: refresh, then tell the pages."""
        for _ in self.watcher:
            try:
                changed = self.quizzes.refresh()
                self.server.trouble = None
            except Exception as exc:  # keep the server up; the index says what went wrong
                self.server.trouble = f"{type(exc).__name__}: {exc}"
                changed = ["*"]
            if changed:
                self.server.hub.publish(changed)

    def serve_forever(self) -> None:
        self.server.serve_forever(poll_interval=0.25)

    def shutdown(self) -> None:
        """Stop `serve_forever()` running in another thread."""
        self.server.shutdown()

    def close(self) -> None:
        """Stop watching, end the event streams, close the socket."""
        self.watcher.stop()
        self._follower.join(timeout=5)
        self.server.hub.close()
        self.server.server_close()
