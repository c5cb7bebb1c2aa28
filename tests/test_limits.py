"""Attempts and time limit: read from the header, written where each format can say them."""

from __future__ import annotations

import pytest
from lxml import etree

from lmsexport import formats as registry
from lmsexport.package import WriteOptions
from lmsexport.formats.text.reader import read
from lmsexport.validation import validate_files
from lmsexport.formats.moodle import writer as moodle
from lmsexport.formats.qti21 import writer as qti21
from lmsexport.formats.scorm import writer as scorm

SOURCE = "---\nattempts: 2\ntime: 1 h 5 min\npass: 50\n---\nQuiz\n\n1. Which?\n   *• x\n   • y\n"


@pytest.fixture(scope="module")
def quiz():
    return read(SOURCE, source="limits.txt")


@pytest.mark.parametrize(
    "value, seconds",
    [("30", 1800), ("45 min", 2700), ("1 h", 3600), ("1h 30min", 5400), ("90 s", 90)],
)
def test_time_limit_values(value, seconds):
    assert read(f"---\ntime: {value}\n---\nQ\n\n1. A?\n   *• x\n   • y\n", source="t.txt").settings.time_limit == seconds


def test_settings_are_read(quiz):
    assert (quiz.settings.attempts, quiz.settings.time_limit) == (2, 3900)


def test_qti_writes_the_time_limit_and_warns_about_attempts(quiz):
    package = qti21.write(quiz)
    assert validate_files(package.files, source="q") == []
    test = etree.fromstring(package.files["test.xml"])
    limits = test.find(".//{http://www.imsglobal.org/xsd/imsqti_v2p1}timeLimits")
    assert limits.get("maxTime") == "3900"
    assert [w.code for w in package.warnings] == ["W808"]
    back = registry.reader("qti21").read(package.to_bytes(), source="q.zip")
    assert back.settings.time_limit == 3900 and back.settings.attempts is None  # attempts: lossy


def test_scorm12_writes_maxtimeallowed_and_warns_about_attempts(quiz):
    package = scorm.write(quiz, WriteOptions("1.2"))
    assert validate_files(package.files, source="s") == []
    manifest = package.files["imsmanifest.xml"].decode()
    assert "<adlcp:maxtimeallowed>0001:05:00</adlcp:maxtimeallowed>" in manifest
    assert "<adlcp:timelimitaction>exit,message</adlcp:timelimitaction>" in manifest
    assert [w.code for w in package.warnings] == ["W607"]


def test_scorm2004_writes_limit_conditions(quiz):
    package = scorm.write(quiz, WriteOptions("2004"))
    assert validate_files(package.files, source="s") == []
    manifest = package.files["imsmanifest.xml"].decode()
    assert '<imsss:limitConditions attemptLimit="2" attemptAbsoluteDurationLimit="PT3900S"/>' in manifest
    assert "<adlcp:timeLimitAction>exit,message</adlcp:timeLimitAction>" in manifest
    assert package.warnings == []


def test_moodle_says_the_quiz_settings_stay_behind(quiz):
    package = moodle.write(quiz)
    (warning,) = package.warnings
    assert warning.code == "W660"
    assert "the pass mark, the time limit, the number of attempts" in warning.message
