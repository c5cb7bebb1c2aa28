"""Fixture files holding many small cases: title, `.`, input, `.`, expected, `.`.

The markdown-it-py layout: one file per topic, each case a few lines, test ids
carrying the case's line so a failure points into the file. `--update-goldens`
rewrites the expected parts from what the code produces now.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

SEPARATOR = "."


@dataclass
class Case:
    title: str
    line: int
    input: str
    expected: str

    @property
    def id(self) -> str:
        return f"L{self.line}-{self.title}"


def load(path: Path) -> list[Case]:
    lines = path.read_text(encoding="utf-8").split("\n")
    cases, index = [], 0
    while index < len(lines):
        if not lines[index].strip():
            index += 1
            continue
        title, start = lines[index], index + 1
        assert lines[index + 1] == SEPARATOR, f"{path}:{index + 2}: expected '.' after the case title"
        parts, current, index = [], [], index + 2
        while len(parts) < 2:
            if lines[index] == SEPARATOR:
                parts.append("\n".join(current))
                current = []
            else:
                current.append(lines[index])
            index += 1
        cases.append(Case(title, start, parts[0], parts[1]))
    return cases


def save(path: Path, cases: list[Case]) -> None:
    blocks = [f"{c.title}\n.\n{c.input}\n.\n{c.expected}\n." for c in cases]
    path.write_text("\n\n".join(blocks) + "\n", encoding="utf-8")


def check(path: Path, case: Case, actual: str, request) -> None:
    """Assert that `case` of the file at `path` gives `actual`; with `--update-goldens`, write
    `actual` as its expected part instead (every test that runs a casefile goes through this)."""
    if request.config.getoption("--update-goldens"):
        cases = load(path)
        for other in cases:
            if other.title == case.title:
                other.expected = actual
        save(path, cases)
        return
    assert actual == case.expected, f"{path.name}:{case.line}: {case.title}"
