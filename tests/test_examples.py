"""Every example in examples/ runs and does what it says."""

from __future__ import annotations

import subprocess
import sys

import pytest

import lmsexport
from conftest import ROOT
from lmsexport import formats as registry

EXAMPLES = ROOT / "examples"


def test_api_example_runs():
    out = subprocess.run([sys.executable, str(EXAMPLES / "api.py")], capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert "6 questions, 12 points" in out.stdout
    assert "q3: Which of these are prime numbers?" in out.stdout and "-> ab" in out.stdout
    assert "broken.txt:3:1: question 1 has no correct answer marked" in out.stdout
    assert "valid" in out.stdout and "built ['features.json']" in out.stdout


@pytest.mark.parametrize("format_name", sorted(registry.flavours()))
def test_feature_example_builds_in_every_format(format_name):
    quiz = lmsexport.read(EXAMPLES / "features.txt")
    package = lmsexport.write(quiz, format_name)
    assert lmsexport.validate(package) == []
    # features.txt has a pass mark, which a Moodle question bank cannot hold (W660), nor a Canvas
    # quiz, which has no tags either (W861)
    expected = {"moodle": ["W660"], "canvas": ["W861", "W861"]}
    assert [warning.code for warning in package.warnings] == expected.get(format_name, [])


def test_feature_example_uses_every_syntax_feature():
    quiz = lmsexport.read(EXAMPLES / "features.txt")
    settings = quiz.settings
    assert (quiz.id, quiz.lang, settings.shuffle, settings.pass_mark, settings.feedback) == (
        "features", "en", True, 60.0, "immediate")
    assert quiz.tags == ("example", "every feature") and quiz.description is not None
    assert all(q.points == 2 for q in quiz.questions)
    assert any(q.multiple_response for q in quiz.questions)
    assert any("\n\n" in q.prompt.value for q in quiz.questions)
    assert any(q.explanation and "\n" in q.explanation.value for q in quiz.questions)
    assert quiz.questions[-1].correct_choices[0].id == "c"  # from the answer key


@pytest.mark.parametrize("format_name", sorted(registry.flavours()))
def test_pools_example_builds_in_every_format_each_lms_getting_its_pools(format_name):
    """examples/pools: two pools among fixed questions. Each format says the pools in its own
    terms, or warns what to do by hand (Moodle: W662 per pool)."""
    quiz = lmsexport.read(EXAMPLES / "pools" / "quiz.txt")
    assert [(pool.draw, len(pool.questions)) for pool in quiz.pools] == [(2, 4), (1, 3)]
    package = lmsexport.write(quiz, format_name)
    assert lmsexport.validate(package) == []
    codes = [warning.code for warning in package.warnings]
    # The example has an essay, an ordering question and a pass mark: what each format says of them.
    expected = {"moodle": ["W660", "W662", "W662"], "canvas": ["W851", "W861"], "qti": ["W809", "W813"],
                "scorm12": ["W603"], "scorm2004": ["W603"]}
    assert codes == expected.get(format_name, [])
