"""`lmsexport preview` without a browser: what it serves, what it refuses, how it follows changes.

A preview of a folder of sources runs in this process (127.0.0.1, a free port) and is
asked with http.client, which sends a path exactly as written (a browser would resolve `..`
before asking). The command itself runs in a subprocess for Ctrl-C. The browser side is
in tests/browser/test_preview.py.
"""

from __future__ import annotations

import dataclasses
import http.client
import json
import os
import re
import socket
import threading
from pathlib import Path

import pytest
from click.testing import CliRunner
from lxml import html

import lmsexport
from lmsexport.cli import main
from lmsexport.preview import assets, pages
from lmsexport.preview.quizzes import Quizzes
from lmsexport.preview.server import Preview
from lmsexport.rules.runner import check
from running import Running, retrying

GOOD = """---
pass: 60
---
A quiz with an essay

1. Which planet is closest to the Sun?
   • Venus {0}
   *• Mercury

2. Why?
   ___
"""
BROKEN = GOOD.replace("   *• Mercury\n", "   • Mercury\n")


@pytest.fixture
def folder(tmp_path) -> Path:
    (tmp_path / "good.txt").write_text(GOOD, encoding="utf-8")
    return tmp_path


def _serving(folder: Path):
    shown = Preview([folder])
    thread = threading.Thread(target=shown.serve_forever, daemon=True)
    thread.start()
    try:
        yield shown
    finally:
        shown.shutdown()
        shown.close()
        thread.join(timeout=10)


@pytest.fixture(scope="module")
def shared(tmp_path_factory) -> Path:
    """A folder that no test changes, and its preview, shared by the tests that only ask."""
    folder = tmp_path_factory.mktemp("served")
    (folder / "good.txt").write_text(GOOD, encoding="utf-8")
    yield from _serving(folder)


@pytest.fixture
def preview(folder):
    yield from _serving(folder)


def ask(preview, path: str, host: str | None = None, method: str = "GET") -> http.client.HTTPResponse:
    port = preview.server.server_address[1]
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    connection.putrequest(method, path, skip_host=True)
    connection.putheader("Host", host or f"127.0.0.1:{port}")
    connection.endheaders()
    response = connection.getresponse()
    response.body = response.read() if "event-stream" not in (response.getheader("Content-Type") or "") else b""
    return response


def test_it_listens_on_127_0_0_1_only(shared):
    assert shared.server.server_address[0] == "127.0.0.1"
    assert re.fullmatch(r"http://127\.0\.0\.1:\d+/", shared.url)


def test_the_index_lists_the_quizzes(shared):
    response = ask(shared, "/")
    assert response.status == 200 and response.getheader("Content-Type") == "text/html; charset=utf-8"
    page = html.fromstring(response.body)
    assert [a.text_content() for a in page.xpath("//tbody//td[1]/a")] == ["A quiz with an essay"]
    assert page.xpath("//tbody//a/@href") == ["/quiz/good/", "/quiz/good/key"]
    assert "script-src 'self'" in response.getheader("Content-Security-Policy")


def test_the_quiz_page_shows_lint_and_every_formats_warnings_with_their_lines(shared):
    page = html.fromstring(ask(shared, "/quiz/good/").body)
    formats = page.xpath("//section[@id='problems']/h3/@data-format")
    assert formats == list(lmsexport.formats.flavours())
    essay_line = GOOD.splitlines().index("2. Why?") + 1
    for name in ("scorm12", "scorm2004"):
        (heading,) = page.xpath(f"//h3[@data-format='{name}']")
        found = heading.getnext().xpath("./li")
        assert [(li.get("data-code"), li.get("data-line")) for li in found] == [("W603", str(essay_line))]
        assert f"good.txt:{essay_line}" in found[0].text_content()
    assert page.xpath("//h3[@data-format='qti']/following-sibling::*[1]/@class") == ["none"]
    lint = page.xpath("//section[@id='problems']/h3[starts-with(., 'Lint')]")[0].getnext()
    expected = check([lmsexport.read(shared.quizzes.get("good").source)])
    assert expected, "the quiz should have lint findings to show"
    assert [(li.get("data-code"), li.get("data-line")) for li in lint.xpath("./li")] == \
        [(d.code, str(d.span.line)) for d in expected]


def test_the_player_is_the_packages_own_with_what_the_lms_takes_from_the_manifest(shared):
    page = html.fromstring(ask(shared, "/quiz/good/?format=scorm12").body)
    setup = json.loads(page.get_element_by_id("preview-data").text)
    assert setup == {"slug": "good", "format": "scorm12", "version": "1.2", "launch": "/quiz/good/scorm12/index.html",
                     "preload": {}}  # the essay leaves pass or fail to a person: no mastery score (W603)
    package = lmsexport.write(lmsexport.read(shared.quizzes.get("good").source), "scorm12")
    for name, data in package.files.items():
        response = ask(shared, f"/quiz/good/scorm12/{name}")
        assert (response.status, response.body) == (200, data), name
    assert ask(shared, "/quiz/good/scorm12/index.html").getheader("Content-Type") == "text/html; charset=utf-8"
    assert ask(shared, "/quiz/good/scorm12/player.js").getheader("Content-Type") == "text/javascript; charset=utf-8"
    assert ask(shared, "/quiz/good/?format=qti").status == 404  # no player in that format


def test_a_pass_mark_reaches_the_runtime_as_an_lms_hands_it_over(tmp_path):
    (tmp_path / "q.txt").write_text(GOOD.replace("2. Why?\n   ___\n", ""), encoding="utf-8")
    quizzes = Quizzes([tmp_path])
    quizzes.refresh()
    players = quizzes.get("q").players
    assert players["scorm12"].preload == {"student_data": {"mastery_score": "60"}}
    assert players["scorm2004"].preload == {"scaled_passing_score": "0.6"}


def test_its_own_files_and_scorm_again_are_served(shared):
    response = ask(shared, f"/static/{assets.SCORM_AGAIN}")
    assert response.status == 200 and response.getheader("Content-Type").startswith("text/javascript")
    assert response.body == assets.static_file(assets.SCORM_AGAIN)
    assert ask(shared, "/static/host.js").status == 200
    assert ask(shared, "/static/host.js", method="HEAD").body == b""


@pytest.mark.parametrize("path", [
    "/static/../../pyproject.toml",
    "/static/%2e%2e/%2e%2e/pyproject.toml",
    "/static/..%2f..%2fpyproject.toml",
    "/quiz/good/scorm2004/../../../../etc/passwd",
    "/quiz/good/scorm2004/%2E%2E%2F%2E%2E%2Fgood.txt",
    "/quiz/good/scorm2004/..%5c..%5cgood.txt",
    "/quiz/good/scorm2004/index.html%00.txt",
    "/quiz/good/./key",
])
def test_a_path_leading_outside_is_refused(shared, path):
    response = ask(shared, path)
    assert response.status == 403, path
    assert b"outside" in response.body


@pytest.mark.parametrize("path", ["/good.txt", "/quiz/good/good.txt", "/quiz/good/scorm2004/imsmanifest.xml.bak",
                                  "/static/README.md", "/quiz/nothing/", "/pyproject.toml", "*", "abc", "?x"])
def test_anything_else_is_not_found(shared, path):
    assert ask(shared, path).status == 404


def test_a_request_for_another_host_is_refused(shared):
    assert ask(shared, "/", host="attacker.example:80").status == 403
    port = shared.server.server_address[1]
    assert ask(shared, "/", host=f"localhost:{port}").status == 200


def test_a_change_reaches_the_open_pages_as_an_event(preview, folder):
    port = preview.server.server_address[1]
    stream = socket.create_connection(("127.0.0.1", port), timeout=5)
    try:
        stream.sendall(f"GET /events HTTP/1.0\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
        received = b""
        while b"retry: 1000\n\n" not in received:
            received += stream.recv(4096)
        assert b"text/event-stream" in received

        def change():
            (folder / "good.txt").write_text(GOOD.replace("closest", "nearest"), encoding="utf-8")

        def check():
            nonlocal received
            try:
                while b"event: change" not in received:
                    received += stream.recv(4096)
            except TimeoutError:
                raise AssertionError("no event") from None

        retrying(change, check)
        assert b'data: ["good"]' in received
    finally:
        stream.close()
    assert "nearest" in ask(preview, "/quiz/good/scorm2004/index.html").body.decode("utf-8")


def test_a_broken_source_shows_its_located_errors_then_recovers(folder):
    quizzes = Quizzes([folder])
    assert quizzes.refresh() == ["good"]
    assert quizzes.refresh() == []  # nothing changed: nothing redone
    (folder / "good.txt").write_text(BROKEN, encoding="utf-8")
    assert quizzes.refresh() == ["good"]
    shown = quizzes.get("good")
    assert shown.quiz is None and shown.errors
    assert all(error.span.line for error in shown.errors)
    (folder / "good.txt").write_text(GOOD, encoding="utf-8")
    assert quizzes.refresh() == ["good"]
    assert quizzes.get("good").quiz is not None and quizzes.get("good").errors == ()


def test_new_sources_appear_and_removed_ones_go(folder):
    quizzes = Quizzes([folder])
    quizzes.refresh()
    (folder / "more.txt").write_text(GOOD, encoding="utf-8")
    assert quizzes.refresh() == ["more"]
    (folder / "good.txt").unlink()
    assert quizzes.refresh() == ["good"]
    assert [shown.slug for shown in quizzes.all()] == ["more"]


def test_a_file_a_folder_search_finds_that_is_no_quiz_is_not_shown_as_build_skips_it(folder):
    (folder / "README.txt").write_text("Quizzes for week 3.\n\nEdit them, then build.\n", encoding="utf-8")
    (folder / "broken.txt").write_text(BROKEN, encoding="utf-8")
    quizzes = Quizzes([folder])
    assert quizzes.refresh() == ["broken", "good"]
    assert quizzes.ignored == [folder / "README.txt"]
    assert quizzes.get("broken").errors  # a quiz with mistakes is still a quiz
    (folder / "README.txt").write_text(GOOD, encoding="utf-8")  # it becomes a quiz: it appears
    assert quizzes.refresh() == ["readme"] and quizzes.ignored == []
    named = Quizzes([folder / "broken.txt", folder / "notes.txt"])
    (folder / "notes.txt").write_text("- reword question 3\n", encoding="utf-8")
    named.refresh()
    assert [error.code for error in named.get("notes").errors] == ["E401"]  # a file named is always read


def test_the_command_says_which_files_it_skipped_as_build_does(folder, monkeypatch):
    (folder / "README.txt").write_text("Quizzes for week 3.\n", encoding="utf-8")
    monkeypatch.setattr(Preview, "serve_forever", lambda self: None)
    result = CliRunner().invoke(main, ["preview", str(folder)])
    assert result.exit_code == 0, result.output
    skipped, previewing = result.stdout.splitlines()
    assert skipped == (f"skipped {(folder / 'README.txt').as_posix()}: not a quiz in any format lmsexport reads "
                       "(name it on the command line to see why)")
    assert previewing.startswith("previewing 1 quiz at ")


def test_an_image_the_quiz_uses_is_followed_too(tmp_path):
    (tmp_path / "pic.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg"/>', encoding="utf-8")
    (tmp_path / "q.txt").write_text("---\nmarkup: markdown\n---\nQ\n\n1. ![a picture](pic.svg)\n   *• a\n   • b\n",
                                    encoding="utf-8")
    quizzes = Quizzes([tmp_path])
    quizzes.refresh()
    assert quizzes.get("q").quiz.assets
    (tmp_path / "pic.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" width="2"/>', encoding="utf-8")
    assert quizzes.refresh() == ["q"]


def _failing_index(monkeypatch, error: BaseException) -> None:
    def index_page(*args):
        raise error

    monkeypatch.setattr(pages, "index_page", index_page)


@pytest.mark.parametrize("error, reported", [(RuntimeError("boom"), 1), (BrokenPipeError(), 0),
                                             (ConnectionResetError(), 0)])
def test_a_request_that_fails_is_reported_not_printed_and_the_server_goes_on(folder, monkeypatch, capfd,
                                                                            error, reported):
    """An unexpected error goes to `report` (the CLI prints one line); a client gone away is
    no error. Neither is a traceback on the terminal (socketserver's handle_error)."""
    errors = []
    shown = Preview([folder], report=errors.append)
    thread = threading.Thread(target=shown.serve_forever, daemon=True)
    thread.start()
    try:
        _failing_index(monkeypatch, error)
        with pytest.raises(http.client.RemoteDisconnected):
            ask(shown, "/")
        monkeypatch.undo()
        assert ask(shown, "/").status == 200
    finally:
        shown.shutdown()
        shown.close()
        thread.join(timeout=10)
    assert errors == [error] * reported
    assert capfd.readouterr() == ("", "")


def test_the_command_says_a_failed_request_in_one_line(folder, monkeypatch):
    def serve_once(self):
        _failing_index(monkeypatch, RuntimeError("boom"))
        thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        thread.start()
        try:
            with pytest.raises(http.client.RemoteDisconnected):
                ask(self, "/")
        finally:
            self.server.shutdown()
            thread.join(timeout=10)

    monkeypatch.setattr(Preview, "serve_forever", serve_once)
    result = CliRunner().invoke(main, ["preview", str(folder)])
    assert result.exit_code == 0, result.output
    assert result.stderr.splitlines() == [
        "lmsexport: internal error answering a preview request: RuntimeError: boom "
        "(rerun with --debug for the details, and please report it)",
        "preview stopped"]
    debugged = CliRunner().invoke(main, ["--debug", "preview", str(folder)])
    assert debugged.stderr.startswith("Traceback (most recent call last):\n")
    assert debugged.stderr.endswith("RuntimeError: boom\npreview stopped\n")


def test_a_busy_port_is_a_usage_error(folder):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = CliRunner().invoke(main, ["preview", str(folder), "--port", str(port)])
    assert result.exit_code == 2
    assert f"cannot serve on 127.0.0.1:{port}" in result.stderr


def test_ctrl_c_stops_it_cleanly(folder):
    with Running("preview", str(folder)) as running:
        url = running.expect(r"previewing 1 quiz at (http://127\.0\.0\.1:\d+/) \(Ctrl-C to stop\)")[1]
        port = int(url.rsplit(":", 1)[1].strip("/"))
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        connection.request("GET", "/")
        assert connection.getresponse().status == 200
        assert running.interrupt() == 0
        assert running.stderr[-1] == "preview stopped"
        with pytest.raises(OSError):
            socket.create_connection(("127.0.0.1", port), timeout=2).close()


def test_open_shows_it_in_the_browser_and_ctrl_c_ends_with_status_0(folder, monkeypatch):
    opened, served = [], []

    def interrupted(self):
        served.append(self)
        raise KeyboardInterrupt

    monkeypatch.setattr("webbrowser.open", opened.append)
    monkeypatch.setattr(Preview, "serve_forever", interrupted)
    result = CliRunner().invoke(main, ["preview", str(folder), "--open"])
    assert result.exit_code == 0, result.output
    (url,) = opened
    assert result.stdout == f"previewing 1 quiz at {url} (Ctrl-C to stop)\n"
    assert result.stderr == "preview stopped\n"
    (preview,) = served
    assert preview.server.socket.fileno() == -1  # closed
    assert not preview.watcher._thread.is_alive()


def test_a_quiz_no_scorm_writer_could_write_still_shows_its_panels(folder, monkeypatch):
    quizzes = Quizzes([folder])
    quizzes.refresh()
    shown = dataclasses.replace(quizzes.get("good"), players={}, failures={"scorm2004": "ValueError: boom"})
    page = html.fromstring(pages.quiz_page(shown, ""))
    assert page.xpath("//iframe") == [] and page.xpath("//section[@id='lms']") == []
    assert "ValueError: boom" in page.xpath("//section[@id='problems']")[0].text_content()


def test_images_inside_a_source_do_not_make_it_change_at_every_look(tmp_path):
    """A Moodle bank carries its images (base64 `<file>`s), with no file of their own beside it:
    only what the reader loaded from the folder is compared, so an unchanged bank stays as it was."""
    bank = Path(__file__).parent / "golden" / "readers" / "moodle" / "moodle-bank-exemple.xml"
    (tmp_path / bank.name).write_bytes(bank.read_bytes())
    quizzes = Quizzes([tmp_path])
    quizzes.refresh()
    assert quizzes.get("moodle-bank-exemple").quiz.assets
    assert quizzes.refresh() == []


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
def test_a_named_pipe_in_a_folder_is_an_error_of_its_own_not_a_read_that_waits(tmp_path):
    """A FIFO named like a source: the preview reports it (E001) instead of reading it, as a
    build does. A writer stands by, so a preview that did read it would get a quiz, not hang."""
    pipe = tmp_path / "pipe.txt"
    os.mkfifo(pipe)

    def write() -> None:
        try:
            with open(pipe, "w", encoding="utf-8") as out:
                out.write(GOOD)
        except OSError:
            pass  # the preview opened the pipe and closed it without reading

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    try:
        quizzes = Quizzes([tmp_path])
        quizzes.refresh()
        shown = quizzes.get("pipe")
        assert shown.quiz is None
        assert [error.code for error in shown.errors] == ["E001"]
        assert "named pipe" in shown.errors[0].message
    finally:
        release = os.open(pipe, os.O_RDONLY | os.O_NONBLOCK)  # a writer still waiting for a reader goes on
        writer.join()
        os.close(release)
