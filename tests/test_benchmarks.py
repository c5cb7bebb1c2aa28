"""The benchmark scripts run (tiny inputs, one run each); timings are not asserted here."""

from __future__ import annotations

import os
import subprocess
import sys

from conftest import ROOT


def test_generator_is_deterministic_and_readable(tmp_path):
    for run in ("a", "b"):
        subprocess.run([sys.executable, str(ROOT / "benchmarks" / "generate.py"), str(tmp_path / run),
                        "--quizzes", "3", "--questions", "5", "--text2qti"], check=True)
    first = {p.relative_to(tmp_path / "a"): p.read_bytes() for p in (tmp_path / "a").rglob("*") if p.is_file()}
    second = {p.relative_to(tmp_path / "b"): p.read_bytes() for p in (tmp_path / "b").rglob("*") if p.is_file()}
    assert first == second and len(first) == 6
    import lmsexport

    quiz = lmsexport.read(tmp_path / "a" / "quiz-001.txt")
    assert len(quiz.questions) == 5 and all(q.explanation for q in quiz.questions)


def test_benchmark_smoke_run(tmp_path):
    out = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "run.py"), "--runs", "1", "--scale", "0.002", "--skip-text2qti"],
        capture_output=True, text=True, cwd=tmp_path,
    )
    assert out.returncode == 0, out.stderr
    rows = [line for line in out.stdout.splitlines() if line.startswith("| ") and "scenario" not in line]
    assert len(rows) == 8, out.stdout


def test_text_read_benchmark_smoke_run(tmp_path):
    out = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "text_read.py"), "--questions", "20", "--runs", "1"],
                         capture_output=True, text=True, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    (row,) = [line for line in out.stdout.splitlines() if line.startswith("| 20 |")]
    assert len(row.split("|")) == 12, out.stdout


def test_profiling_runs_a_command_in_process_and_prints_its_profile(tmp_path):
    out = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "profiling.py"), "--top", "5", "--out", str(tmp_path / "run.prof"),
         "--", "build", str(ROOT / "quizzes" / "fsdp-yo.txt"), "-f", "qti", "-o", str(tmp_path / "out"), "--no-lint"],
        capture_output=True, text=True, cwd=tmp_path,
    )
    assert out.returncode == 0, out.stderr
    assert "function calls" in out.stderr and (tmp_path / "run.prof").stat().st_size > 0
    assert (tmp_path / "out" / "fsdp-yo.qti.zip").is_file()


def test_lint_benchmark_times_every_rule(tmp_path):
    out = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "lint.py"), str(ROOT / "quizzes" / "fsdp-yo.txt"),
                          "--runs", "1"], capture_output=True, text=True, cwd=tmp_path,
                         env={**os.environ, "LMSEXPORT_CACHE_DIR": str(tmp_path / "cache")})
    assert out.returncode == 0, out.stderr
    assert "L020" in out.stdout and "L040" in out.stdout
