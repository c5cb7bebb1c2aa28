"""Validating Moodle XML: lmsexport's schema plus moodlerules, on cases, the corpus and our own output."""

from __future__ import annotations

from pathlib import Path

import pytest

import casefile
from lmsexport.validation import validate_bytes

FIXTURES = Path(__file__).parent / "fixtures" / "moodle"
CASES = FIXTURES / "validate.txt"
CORPUS = sorted(FIXTURES.glob("*.xml"))
INVALID = {
    "broken_cloze_questions.xml": ["V312"] * 5,  # qtype_multianswer's own cases of what its parser refuses
    "testimportlong.moodle.xml": ["V301"],  # a qtype_ordering unit-test fragment: a bare <question>
    "validate-invalid.xml": ["V302", "V302", "V302", "V304", "V307"],  # hand-made, one of each rule
}


def _verdict(document: str) -> str:
    findings = validate_bytes(document.encode("utf-8"), source="case.xml")
    return "\n".join(f.render() for f in findings) or "valid"


@pytest.mark.parametrize("case", casefile.load(CASES), ids=lambda c: c.id)
def test_cases(case, request):
    actual = _verdict(case.input)
    if request.config.getoption("--update-goldens"):
        cases = casefile.load(CASES)
        for other in cases:
            if other.title == case.title:
                other.expected = actual
        casefile.save(CASES, cases)
        return
    assert actual == case.expected, f"{CASES.name}:{case.line}: {case.title}"


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.name)
def test_fixture_verdicts(path):
    """Exports written by Moodle and its plugins pass (Moodle imports them); the others do not."""
    findings = validate_bytes(path.read_bytes(), source=path.name)
    assert [f.code for f in findings] == INVALID.get(path.name, []), [f.render() for f in findings]
