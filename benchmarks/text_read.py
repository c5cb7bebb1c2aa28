"""Read large generated quizzes in the text format: CPU, peak memory and the model's size (issue 19).

    python benchmarks/text_read.py [--questions 2000 10000 100000] [--lang vi] [--tree PATH]

For each size, generates one quiz (generate.py: 4 options and an explanation per question) in a
temporary folder and reads it with `lmsexport.read` in fresh processes: one for the CPU seconds
(best of `--runs` reads, with the cyclic garbage collector as lmsexport's command line sets it,
and with Python's default, as a library caller has it) and the peak resident memory
(`ru_maxrss`, and how much the read added to it: VmHWM after the read minus VmRSS before);
one under tracemalloc for the bytes the model keeps per question and the read's own peak
(Python allocations only). `--tree` measures another checkout (the lmsexport package in PATH).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

_CPU = """
import gc, resource, sys, time
from pathlib import Path

sys.path.insert(0, sys.argv[1])
import lmsexport
from lmsexport.diagnostics import Log
import lmsexport.formats.text.reader, lmsexport.batch.pipeline


def rss(key):
    line = next(line for line in Path("/proc/self/status").read_text().splitlines() if line.startswith(key))
    return int(line.split()[1]) * 1024


path, runs = Path(sys.argv[2]), int(sys.argv[3])
python_default = gc.get_threshold()
gc.set_threshold(100_000, 50, 50)  # as lmsexport's command line sets it (cli.py)
Path("/proc/self/clear_refs").write_text("5")  # the peak (VmHWM) starts again from here
start = rss("VmRSS:")
began = time.process_time()
quiz = lmsexport.read(path, log=Log())
seconds = [time.process_time() - began]
added, maxrss = rss("VmHWM:") - start, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
gc.collect()
kept = rss("VmRSS:") - start
del quiz
default = []
for times, threshold in ((seconds, None), (default, python_default)):
    if threshold:
        gc.set_threshold(*threshold)
    while len(times) < runs:
        gc.collect()
        began = time.process_time()
        quiz = lmsexport.read(path, log=Log())
        times.append(time.process_time() - began)
        del quiz
print(min(seconds), min(default), maxrss, added, kept)
"""

_TRACE = """
import gc, sys, tracemalloc
from pathlib import Path

sys.path.insert(0, sys.argv[1])
import lmsexport
from lmsexport.diagnostics import Log
import lmsexport.formats.text.reader, lmsexport.batch.pipeline

tracemalloc.start()
quiz = lmsexport.read(Path(sys.argv[2]), log=Log())
gc.collect()
kept, peak = tracemalloc.get_traced_memory()
print(kept, peak, len(quiz.questions))
"""


def measure(tree: Path, quiz: Path, runs: int) -> str:
    """One row of the table: CPU, memory and model size of reading `quiz` with the package in `tree`."""
    def run(script: str, *args: str) -> list[float]:
        out = subprocess.run([sys.executable, "-c", script, str(tree), str(quiz), *args], capture_output=True,
                             text=True, check=True, cwd=quiz.parent)
        return [float(value) for value in out.stdout.split()]

    cpu, default, maxrss, added, kept_rss = run(_CPU, str(runs))
    kept, peak, questions = run(_TRACE)
    mb = 1 << 20
    return (f"| {int(questions):,} | {quiz.stat().st_size / 1e6:.1f} | {cpu:.2f} | {default:.2f} | "
            f"{maxrss / mb:.0f} | {added / mb:.0f} | {kept_rss / mb:.0f} | {kept / questions:,.0f} | "
            f"{kept / mb:.1f} | {peak / mb:.1f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--questions", type=int, nargs="+", default=[2000, 10000, 100000])
    parser.add_argument("--lang", default="vi")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--tree", type=Path, default=ROOT, help="the checkout whose lmsexport package to measure")
    args = parser.parse_args()
    print("| questions | MB | CPU s | CPU s (default gc) | max RSS MB | read added MB | kept MB (RSS) "
          "| model B/question | model MB | read peak MB (traced) |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as folder:
        for count in args.questions:
            out = Path(folder) / str(count)
            subprocess.run([sys.executable, str(ROOT / "benchmarks" / "generate.py"), str(out), "--quizzes", "1",
                            "--questions", str(count), "--lang", args.lang], check=True)
            print(measure(args.tree.resolve(), out / "quiz-000.txt", args.runs), flush=True)


if __name__ == "__main__":
    main()
