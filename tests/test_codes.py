"""Every diagnostic code the product emits is documented, and docs/codes.md covers its range."""

from __future__ import annotations

import re

from conftest import ROOT

CODE = re.compile(r'"([AEVWL]\d{3})"')


def _emitted() -> set[str]:
    return {code for path in (ROOT / "lmsexport").rglob("*.py") for code in CODE.findall(path.read_text(encoding="utf-8"))}


def test_every_code_is_documented():
    docs = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "docs").rglob("*.md"))
    missing = sorted(code for code in _emitted() if code not in docs)
    assert not missing, f"document these codes in docs/ (and their range in docs/codes.md): {missing}"


def test_codes_md_has_a_range_for_every_code():
    table = (ROOT / "docs" / "codes.md").read_text(encoding="utf-8")
    ranges = [(a[0], int(a[1:]), int(b[1:])) for a, b in re.findall(r"\b([AEVWL]\d{3})–([AEVWL]\d{3})\b", table)]
    singles = set(re.findall(r"\b[AEVWL]\d{3}\b", table))
    uncovered = sorted(
        code for code in _emitted()
        if code not in singles and not any(code[0] == kind and low <= int(code[1:]) <= high for kind, low, high in ranges)
    )
    assert not uncovered, f"docs/codes.md has no range for {uncovered}"
