"""Work in a forked child (lmsexport.forked): its result, its exception, its death; and a lint
split between two processes saying exactly what one process says."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from lmsexport import forked

ROOT = Path(__file__).resolve().parent.parent
needs_fork = pytest.mark.skipif(not forked.available(), reason="forks only on Linux, single-threaded, with two cores")


@needs_fork
def test_the_child_s_result_comes_back():
    assert forked.Forked.start(sorted, [3, 1, 2], reverse=True).result(otherwise=list) == [3, 2, 1]


@needs_fork
def test_what_the_child_raises_is_raised_in_the_parent():
    with pytest.raises(ValueError, match="invalid literal"):
        forked.Forked.start(int, "three").result(otherwise=lambda: 0)


@needs_fork
def test_a_child_that_dies_without_answering_leaves_the_work_to_the_parent():
    assert forked.Forked.start(os._exit, 3).result(otherwise=lambda: "done here") == "done here"


@needs_fork
def test_a_cancelled_child_is_reaped():
    child = forked.Forked.start(time.sleep, 30)
    child.cancel()
    with pytest.raises(ChildProcessError):
        os.waitpid(child.pid, os.WNOHANG)


_SPLIT = """
import sys
import lmsexport
from lmsexport import forked
from lmsexport.rules import runner

starts = []
start = forked.Forked.start
forked.Forked.start = lambda *args, **kwargs: starts.append(1) or start(*args, **kwargs)
quizzes = [lmsexport.read(path) for path in sys.argv[1:]]
one = runner.check(quizzes, ignore={"L031"})
runner.SPLIT_FROM = 1  # these quizzes are small: split them all the same
two = runner.check(quizzes, ignore={"L031"}, split=True)
assert starts == [1], starts
assert one == two, (one, two)
without = runner.check(quizzes, ignore={"L031", "L020"}, split=True)
assert starts == [1], "a child with L020 switched off"
assert without == [d for d in one if d.code != "L020"]
print(sorted({d.code for d in one}))
"""


_MIXED = """---
lang: yo
lint: -L099
---
Àdánwò

1. Kí ni ìpínlẹ̀ ìṣàpẹẹrẹ túmọ̀ sí?
   *• Àwọn pàràmítà tí a pín
   • Ìrántí GPU kan ṣoṣo

2. Which collective gathers every shard before the forward pass?
   *• All-gather of the parameters
   • Reduce-scatter of the gradients

3. Kí ni ìpínlẹ̀ ìṣàpẹẹrẹ túmọ̀ sí?
   *• Àwọn pàràmítà tí a pín
   • Ìrántí GPU kan ṣoṣo
"""


@needs_fork
def test_lint_split_between_two_processes_finds_what_one_process_finds(tmp_path):
    """L020 runs in the child; every other rule, the unknown codes a quiz switches off (L000)
    and the order of findings, in the parent."""
    (tmp_path / "mixed.txt").write_text(_MIXED, encoding="utf-8")
    sources = [tmp_path / "mixed.txt", *sorted((ROOT / "quizzes").glob("*.txt"))]
    run = subprocess.run([sys.executable, "-c", _SPLIT, *map(str, sources)], capture_output=True, text=True,
                         env={**os.environ, "LMSEXPORT_CACHE_DIR": str(tmp_path / "cache")})
    assert run.returncode == 0, run.stderr
    assert all(f"'{code}'" in run.stdout for code in ("L000", "L020", "L030", "L040")), run.stdout


_FAILING = """
import dataclasses, os, sys
import lmsexport
from lmsexport import forked
from lmsexport.rules import runner

started = []
start = forked.Forked.start
forked.Forked.start = lambda *args, **kwargs: started.append(start(*args, **kwargs)) or started[-1]
runner.SPLIT_FROM = 1

def broken(quiz):
    raise RuntimeError("a rule that fails")

runner.RULES = tuple(dataclasses.replace(rule, function=broken) if rule.code == "L001" else rule for rule in runner.RULES)
try:
    runner.check([lmsexport.read(sys.argv[1])], split=True)
except RuntimeError:
    pass
try:
    os.waitpid(started[0].pid, os.WNOHANG)
except ChildProcessError:
    print("reaped")
"""


@needs_fork
def test_a_rule_failing_in_the_parent_stops_and_reaps_the_child(tmp_path):
    run = subprocess.run([sys.executable, "-c", _FAILING, str(ROOT / "quizzes" / "fsdp-yo.txt")], capture_output=True,
                         text=True, env={**os.environ, "LMSEXPORT_CACHE_DIR": str(tmp_path / "cache")})
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "reaped"
