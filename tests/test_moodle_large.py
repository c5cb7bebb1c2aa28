"""A large Moodle bank is written and validated question by question, in bounded memory."""

from __future__ import annotations

import functools
import io
import subprocess
import sys
from pathlib import Path

import pytest
from lxml import etree

import lmsexport
from conftest import ROOT
from lmsexport.formats.moodle import validation as moodlevalidation
from lmsexport.formats.moodle import writer as moodle

QUESTIONS = 1_500
"""Enough for 76,000 lines: past the 65,535 that libxml2 keeps in a node's own line field."""

_MEMORY = """
import sys
from pathlib import Path

import lmsexport
from lmsexport.memory import return_freed_memory
from lmsexport.validation import validate_files
from lmsexport.formats.moodle import writer as moodle


def rss(key):
    line = next(line for line in Path("/proc/self/status").read_text().splitlines() if line.startswith(key))
    return int(line.split()[1]) * 1024


def growth(step):
    '''What `step` adds to the process's peak memory, and its result.'''
    return_freed_memory()
    Path("/proc/self/clear_refs").write_text("5")  # the peak (VmHWM) starts again from here
    start = rss("VmRSS:")
    result = step()
    return rss("VmHWM:") - start, result


quiz = lmsexport.read(sys.argv[1])
validate_files({"warm.xml": b"<quiz/>"}, source="warm")  # the schema, compiled once
written, package = growth(lambda: moodle.write(quiz))
validated, findings = growth(lambda: validate_files(package.files, source="bank"))
(content,) = package.files.values()
print(len(content), written, validated, len(findings))
"""


@pytest.fixture(scope="module")
def source(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("large")
    subprocess.run([sys.executable, str(ROOT / "benchmarks" / "generate.py"), str(folder), "--quizzes", "1",
                    "--questions", str(QUESTIONS)], check=True)
    return folder / "quiz-000.txt"


@pytest.fixture(scope="module")
def bank(source) -> bytes:
    (content,) = moodle.write(lmsexport.read(source)).files.values()
    return content


def test_a_large_bank_validates_question_by_question(bank):
    assert bank.count(b"<question ") == QUESTIONS + 1 and bank.count(b"\n") > 65_535
    assert moodlevalidation.stream(functools.partial(io.BytesIO, bank), source="bank.xml") == []


def test_an_invalid_question_deep_in_a_large_bank_is_found_on_its_line(bank, tmp_path):
    lines = bank.split(b"\n")
    penalty = next(i for i, line in enumerate(lines) if i > 70_000 and b"<penalty>" in line)
    grade = next(i for i, line in enumerate(lines) if i > 40_000 and b'fraction="0"' in line)
    lines[penalty] = lines[penalty].replace(b"<penalty>0.3333333<", b"<penalty>1.5<")
    lines[grade] = lines[grade].replace(b'fraction="0"', b'fraction="45"')
    path = tmp_path / "bank.moodle.xml"
    path.write_bytes(b"\n".join(lines))
    findings = lmsexport.validate(path)
    assert {(f.code, f.span.line) for f in findings} == {("V302", grade + 1), ("V103", penalty + 1)}
    assert "'1.5'" in next(f.message for f in findings if f.code == "V103")
    whole = moodlevalidation.check(etree.fromstring(path.read_bytes()), b"", source=path.as_posix())
    assert [f.render() for f in findings] == [f.render() for f in whole]


@pytest.mark.skipif(not Path("/proc/self/clear_refs").exists(), reason="needs Linux's /proc to measure peak memory")
def test_writing_and_validating_a_bank_takes_no_tree_of_it(source):
    """As one lxml tree, the bank would take ~11 times its size in memory, to write and again to validate."""
    out = subprocess.run([sys.executable, "-c", _MEMORY, str(source)], capture_output=True, text=True, check=True,
                         cwd=ROOT)  # so that it imports this checkout's lmsexport
    size, written, validated, findings = map(int, out.stdout.split())
    assert findings == 0
    # 3-4 times its size (the pieces, then the file): the read leaves no freed memory to write into
    # any more (before, ~0.7 times the bank of it lowered this measure); a tree would be ~11 times.
    # The allocator moves it by a MB from run to run (11.6-12.8 MB for this 3.2 MB bank): 5 times.
    assert written < 5 * size, f"writing {size:,} bytes took {written:,} bytes more at the peak"
    assert validated < size, f"validating {size:,} bytes took {validated:,} bytes more at the peak"


_READ_MEMORY = """
import sys
from pathlib import Path

from lmsexport.memory import return_freed_memory
from lmsexport.formats.moodle import reader


def rss(key):
    line = next(line for line in Path("/proc/self/status").read_text().splitlines() if line.startswith(key))
    return int(line.split()[1]) * 1024


content = Path(sys.argv[1]).read_bytes()
reader.read(b"<quiz>" + content[content.index(b"<question type=\\"multichoice\\""):], source="warm")
return_freed_memory()
Path("/proc/self/clear_refs").write_text("5")
start = rss("VmRSS:")
quiz = reader.read(content, source="bank.xml")
print(len(content), len(quiz.questions), rss("VmHWM:") - start)
"""


@pytest.mark.skipif(not Path("/proc/self/clear_refs").exists(), reason="needs Linux's /proc to measure peak memory")
def test_reading_a_bank_takes_one_question_tree_at_a_time(bank, tmp_path):
    """As one lxml tree the bank would take ~11 times its size; read question by question, the
    reader holds little more than the quiz it makes (benchmarks/moodle_read.py: 200 MB)."""
    path = tmp_path / "bank.moodle.xml"
    path.write_bytes(bank)
    out = subprocess.run([sys.executable, "-c", _READ_MEMORY, str(path)], capture_output=True, text=True, check=True,
                         cwd=ROOT)
    size, questions, grown = map(int, out.stdout.split())
    assert questions == QUESTIONS
    assert grown < 3 * size, f"reading {size:,} bytes took {grown:,} bytes more at the peak"
