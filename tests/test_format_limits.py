"""Length limits: declared once by the format whose target has them, each finding reported once.

Moodle and SCORM declare `LIMITS` in their `limits.py`; lint (L050, L051) asks the registry for
them, and a build that writes a format leaves that format's limits to its writer.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import lmsexport
from lmsexport import formats as registry
from lmsexport.ids import letters
from lmsexport.model import Choice, MultipleChoice, Quiz, Text
from lmsexport.rules.limits import CHECKS, TARGETS
from lmsexport.rules.runner import check

LONG_TAG = "a tag far too long for Moodle which keeps only fifty characters"
LIMIT_CODES = {"W652", "W653", "W601", "W608", "W609", "L050", "L051"}


def _source(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "quiz.txt"
    path.write_text(text, encoding="utf-8")
    return path


def _limit_codes(tmp_path: Path, text: str, flavour: str) -> list[str]:
    (result,) = lmsexport.build([_source(tmp_path, text)], [flavour], tmp_path / "out")
    return [d.code for d in result.diagnostics if d.code in LIMIT_CODES]


def _options(count: int) -> str:
    return "\n".join(f"   {'*' if n == 0 else ''}• option {n}" for n in range(count))


@pytest.mark.parametrize("flavour, codes", [("moodle", ["W653"]), ("qti", ["L050"]), ("scorm12", ["L050"])])
def test_a_long_tag_is_reported_once_by_the_moodle_writer_else_by_lint(tmp_path, flavour, codes):
    assert _limit_codes(tmp_path, f"---\ntags: {LONG_TAG}\n---\nQuiz\n\n1. A?\n   *• x\n   • y\n", flavour) == codes


@pytest.mark.parametrize("flavour, codes", [("scorm12", ["W601"]), ("scorm2004", ["W608"]), ("qti", ["L051"])])
def test_a_long_title_is_reported_once_by_the_scorm_writer_else_by_lint(tmp_path, flavour, codes):
    assert _limit_codes(tmp_path, "T" * 201 + "\n\n1. A?\n   *• x\n   • y\n", flavour) == codes


@pytest.mark.parametrize("flavour, codes", [("scorm12", ["W609"]), ("scorm2004", ["W609"]), ("moodle", ["L051"])])
def test_too_many_options_are_reported_once_by_the_scorm_writer_else_by_lint(tmp_path, flavour, codes):
    assert _limit_codes(tmp_path, f"Quiz\n\n1. Which?\n{_options(37)}\n", flavour) == codes


def _quiz_over(field: str, length: int) -> Quiz:
    """A quiz whose `field` is `length` long (characters, or options)."""
    count = length if field == "options" else 2
    choices = tuple(Choice(id=letters(n), text=Text(f"option {n}"), correct=n == 0) for n in range(count))
    question = MultipleChoice(id="q1", prompt=Text("Which?"), choices=choices,
                              title="T" * length if field == "question_title" else None)
    return Quiz(id="quiz", title="T" * length if field == "quiz_title" else "Quiz", questions=(question,),
                tags=("t" * length,) if field == "tag" else ())


@pytest.mark.parametrize("code, target", [(code, target) for code, (target, _) in TARGETS.items()])
def test_lint_checks_the_lengths_the_format_declares(code, target):
    limits = registry.limits(target)
    assert limits, f"{target} declares no LIMITS in formats/{target}/limits.py"
    for limit in limits:
        assert [d.code for d in check([_quiz_over(limit.field, limit.size)])] == []
        (finding,) = check([_quiz_over(limit.field, limit.size + 1)])
        assert finding.code == code and limit.reason in finding.message


@pytest.mark.parametrize("name", registry.FORMATS)
def test_every_declared_limit_is_one_lint_can_check(name):
    assert {limit.field for limit in registry.limits(name)} <= set(CHECKS)
    assert bool(registry.limits(name)) == (name in {target for target, _ in TARGETS.values()})


def test_the_moodle_writer_cuts_a_tag_at_the_length_lint_checks():
    (limit,) = [limit for limit in registry.limits("moodle") if limit.field == "tag"]
    assert lmsexport.write(_quiz_over("tag", limit.size), "moodle").warnings == []
    assert [w.code for w in lmsexport.write(_quiz_over("tag", limit.size + 1), "moodle").warnings] == ["W653"]
