"""CLI transcripts (tests/cli/*.md): every user-facing message, pinned (pandoc's test/command).

A block in a transcript:

    ```
    % lmsexport build no-key.txt -f json -o OUT
    a line on stdout
    2> a line on stderr
    => 1
    ```

A command that reads standard input has the input's lines next, ended by a `^D` line:

    ```
    % lmsexport convert - --to json -o -
    Quiz
    1. A?
       *• x
       • y
    ^D
    {
    ...
    ```

Commands run in tests/cli/files/ with OUT standing for a fresh output folder.
Timings are shown as `N.NN s`. `pytest --update-goldens` rewrites the expected lines.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from lmsexport.cli import main

HERE = Path(__file__).parent / "cli"
BLOCK = re.compile(r"```\n% (?P<command>.*)\n(?:(?P<stdin>(?:(?!```|\^D\n).*\n)*?)\^D\n)?(?P<expected>(?:(?!```).*\n)*)```")
TIMING = re.compile(r"\b\d+\.\d\d s\b")


def _blocks():
    for path in sorted(HERE.glob("*.md")):
        text = path.read_text(encoding="utf-8")
        for match in BLOCK.finditer(text):
            line = text.count("\n", 0, match.start()) + 2
            yield pytest.param(path, match["command"], id=f"{path.stem}:{line}")


def _run(command: str, stdin: str | None, out: Path, monkeypatch) -> str:
    monkeypatch.chdir(HERE / "files")
    args = [arg.replace("OUT", str(out)) for arg in shlex.split(command)]
    assert args[0] == "lmsexport"
    result = CliRunner().invoke(main, args[1:], prog_name="lmsexport", input=stdin)
    stdout = [line for line in result.stdout.splitlines()]
    stderr = [f"2> {line}" if line else "2>" for line in result.stderr.splitlines()]
    text = "\n".join(stdout + stderr + [f"=> {result.exit_code}"]) + "\n"
    return TIMING.sub("N.NN s", text.replace(str(out), "OUT"))


@pytest.mark.parametrize("path, command", _blocks())
def test_transcript(path, command, tmp_path, monkeypatch, request):
    text = path.read_text(encoding="utf-8")
    block = next(m for m in BLOCK.finditer(text) if m["command"] == command)
    actual = _run(command, block["stdin"], tmp_path / "out", monkeypatch)
    if request.config.getoption("--update-goldens"):
        path.write_text(text[: block.start("expected")] + actual + text[block.end("expected") :], encoding="utf-8")
        return
    assert actual == block["expected"], f"{path.name}: {command}"
