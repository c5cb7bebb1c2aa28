"""Time whole CLI runs (median of several) and print a table; see benchmarks/README.md.

    python benchmarks/run.py [--runs 5] [--skip-text2qti] [--scale 1.0]

Generates its inputs under a temporary folder with benchmarks/generate.py, runs each
scenario as a fresh process (as a course designer would), and reports the median
wall time and the peak memory (max RSS) of the process tree. Lint's language model is
cached in a folder of the run's own: the first scenario measures a run without it.
No network needed.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from generate import generate  # noqa: E402

LMSEXPORT = [sys.executable, "-m", "lmsexport"]
CACHE = "LMSEXPORT_CACHE_DIR"


def _peak_rss_mb(command: list[str], cwd: Path) -> float:
    """Max RSS of one run, measured in a fresh wrapper so earlier runs don't count."""
    probe = (
        "import resource, subprocess, sys; "
        f"subprocess.run({command!r}, cwd={str(cwd)!r}, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL); "
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    return int(out.stdout) / 1024


def measure(command: list[str], cwd: Path, runs: int, prepare=None) -> tuple[float, float]:
    times = []
    for _ in range(runs):
        if prepare:
            prepare()
        started = time.perf_counter()
        done = subprocess.run(command, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        times.append(time.perf_counter() - started)
        if done.returncode not in (0,):
            raise SystemExit(f"{' '.join(command)} failed ({done.returncode}):\n{done.stderr}")
    if prepare:
        prepare()
    megabytes = _peak_rss_mb(command, cwd)  # leaves the output in place for an incremental re-run
    return statistics.median(times), megabytes


def scenarios(work: Path, skip_text2qti: bool, scale: float = 1.0):
    big, latin, batch, huge = work / "big", work / "latin", work / "batch", work / "huge"
    size = lambda count: max(1, round(count * scale))  # noqa: E731
    generate(big, 1, size(2000), text2qti=True)
    generate(latin, 1, size(2000), text2qti=False, lang="vi")
    generate(batch, size(100), 20, text2qti=False)
    generate(huge, 1, size(10000), text2qti=False)
    out = work / "out"

    def clean():
        shutil.rmtree(out, ignore_errors=True)

    def clean_all():
        clean()
        shutil.rmtree(os.environ[CACHE], ignore_errors=True)

    to_qti = [*LMSEXPORT, "build", str(big / "quiz-000.txt"), "-f", "qti", "-o", str(out)]
    yield "lmsexport --version", [*LMSEXPORT, "--version"], work, None
    if not skip_text2qti and shutil.which("text2qti"):
        yield "text2qti --version", ["text2qti", "--version"], work, None
    yield "2,000 questions -> QTI 2.1, first run (no language model cache)", to_qti, work, clean_all
    yield "2,000 questions -> QTI 2.1", to_qti, work, clean
    yield "2,000 questions in Vietnamese -> QTI 2.1", [*LMSEXPORT, "build", str(latin / "quiz-000.txt"), "-f", "qti",
                                                       "-o", str(out)], work, clean
    if not skip_text2qti and shutil.which("text2qti"):
        yield "2,000 questions -> text2qti (QTI 1.2)", ["text2qti", "quiz-000.md"], big / "text2qti", None
    yield "2,000 questions -> all formats", [*LMSEXPORT, "build", str(big / "quiz-000.txt"), "-f", "all", "-o", str(out)], work, clean
    batch_all = [*LMSEXPORT, "build", str(batch), "-f", "all", "-o", str(out), "--jobs", "2"]
    yield "100 x 20 questions -> all formats, --jobs 2", batch_all, work, clean
    yield "same, incremental re-run, nothing changed", batch_all, work, None
    yield "10,000 questions -> all formats", [*LMSEXPORT, "build", str(huge / "quiz-000.txt"), "-f", "all", "-o", str(out)], work, clean


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--skip-text2qti", action="store_true")
    parser.add_argument("--scale", type=float, default=1.0, help="shrink the inputs (the test suite's smoke run)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        os.environ[CACHE] = str(Path(folder) / "cache")  # lint's model cache: this run's own
        print(f"| scenario | median of {args.runs} (s) | peak memory (MB) |")
        print("|---|---:|---:|")
        for name, command, cwd, prepare in scenarios(Path(folder), args.skip_text2qti, args.scale):
            seconds, megabytes = measure(command, cwd, args.runs, prepare)
            print(f"| {name} | {seconds:.3f} | {megabytes:.0f} |", flush=True)


if __name__ == "__main__":
    main()
