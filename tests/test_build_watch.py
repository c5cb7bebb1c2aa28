"""`lmsexport build --watch`: after the first build, each change is rebuilt, errors and all, until Ctrl-C.

The command runs in a subprocess; every wait is bounded, and the process is killed at the
end whatever happened. A change is made again if the watcher, just started, missed it.
"""

from __future__ import annotations

from running import Running, retrying

QUIZ = "{title}\n\n1. Which planet is closest to the Sun?\n   • Venus\n   *• Mercury\n"
BROKEN = "{title}\n\n1. Which planet is closest to the Sun?\n   • Venus\n   • Mercury\n"
REBUILT = r"^\d\d:\d\d:\d\d rebuilt \S*/{name}\.txt -> \S*/{name}\.json$"


def test_watch_rebuilds_what_changed_and_keeps_going_after_errors(tmp_path):
    sources = tmp_path / "quizzes"
    sources.mkdir()
    for name in ("a", "b"):
        (sources / f"{name}.txt").write_text(QUIZ.format(title=f"Quiz {name}"), encoding="utf-8")
    out = tmp_path / "out"
    with Running("build", str(sources), "-f", "json", "-o", str(out), "--watch", "--no-lint") as running:
        running.wait_for_stderr("(Ctrl-C to stop)")
        assert sorted(p.name for p in out.glob("*.json")) == ["a.json", "b.json"]
        untouched = (out / "b.json").stat().st_mtime_ns

        def write(name: str, text: str):
            return lambda: (sources / f"{name}.txt").write_text(text, encoding="utf-8")

        retrying(write("a", QUIZ.format(title="Quiz a, edited")),
                 lambda: running.expect(REBUILT.format(name="a"), timeout=3))
        assert "Quiz a, edited" in (out / "a.json").read_text(encoding="utf-8")

        retrying(write("a", BROKEN.format(title="Quiz a")),
                 lambda: running.expect(r"^\d\d:\d\d:\d\d failed \S*/a\.txt: 1 error$", timeout=3))
        running.wait_for_stderr("a.txt:3:1: error:")  # stderr is read apart from stdout: it may come after

        retrying(write("a", QUIZ.format(title="Quiz a, fixed")),
                 lambda: running.expect(REBUILT.format(name="a"), timeout=3))
        retrying(write("c", QUIZ.format(title="Quiz c, new")),
                 lambda: running.expect(REBUILT.format(name="c"), timeout=3))
        assert (out / "c.json").exists()

        assert running.interrupt() == 0
        assert running.stderr[-1] == "stopped watching"
        rebuilt = [line for line in running.stdout if " rebuilt " in line or " failed " in line]
        assert not any("b.txt" in line for line in rebuilt), rebuilt  # unchanged: never rebuilt
        assert (out / "b.json").stat().st_mtime_ns == untouched
