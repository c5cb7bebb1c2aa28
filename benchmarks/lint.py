"""Time lint rule by rule on an already-read quiz (CPU seconds, `time.process_time`).

    python benchmarks/lint.py QUIZ.txt [QUIZ.txt ...] [--runs 3] [--profile RULE]

In a fresh process per quiz, reads the quiz as `lmsexport lint` does (wall time, without the
cyclic collector), then times a first `check()` (with the language model's load, and numpy's
import, if it needs them: it says whether it did), the parts every rule shares, each rule,
`check()` as a whole (the minimum of `--runs`, with the model loaded; CPU), and the command's
own check, split over two cores from 5,000 questions (`split=True`, wall time): read plus split
check is what `lmsexport lint` of one quiz takes, but for start-up and the report. With
`--profile L020` it prints the cProfile of that rule instead. The language model's cache is
whatever `LMSEXPORT_CACHE_DIR` says (docs/lint.md).
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import json
import pstats
import subprocess
import sys
import time
from pathlib import Path


def _timed(function, runs: int, setup=lambda: None, clock=time.process_time) -> float:
    best = float("inf")
    for _ in range(runs):
        setup()
        start = clock()
        function()
        best = min(best, clock() - start)
    return best


def measure(path: Path, runs: int) -> dict:
    """Times of one quiz, in this process (call it in a fresh one: the model loads once)."""
    import lmsexport
    from lmsexport import rules
    from lmsexport.memory import uncollected
    from lmsexport.rules import runner

    gc.set_threshold(100_000, 50, 50)  # as the console entry does (cli.run)
    start = time.perf_counter()
    with uncollected():
        quiz = lmsexport.read(path)
    times = {"questions": len(quiz.questions), "read (wall)": time.perf_counter() - start}
    start = time.process_time()
    runner.check([quiz])
    times["first check"] = time.process_time() - start  # with the model's load (and numpy's import) if needed
    times["model"] = "lmsexport.rules.langmodel" in sys.modules
    times["numpy"] = "numpy" in sys.modules

    def parts():
        rules.forget()
        rules.quiz_parts(quiz)

    times["parts"] = _timed(parts, runs)
    for rule in runner.RULES:  # each on its own: what rules share is made again, but for the parts
        run = (lambda: list(rule.function([quiz]))) if rule.batch else (lambda: list(rule.function(quiz)))
        times[rule.code] = _timed(run, runs, setup=parts)
    times["check"] = _timed(lambda: runner.check([quiz]), runs, setup=rules.forget)
    with uncollected():
        times["split check (wall)"] = _timed(lambda: runner.check([quiz], split=True), runs, setup=rules.forget,
                                             clock=time.perf_counter)
    return times


def profile(path: Path, code: str) -> None:
    import lmsexport
    from lmsexport import rules
    from lmsexport.rules import runner

    gc.set_threshold(100_000, 50, 50)
    quiz = lmsexport.read(path)
    rule = runner.BY_CODE[code]
    rules.quiz_parts(quiz)
    profiler = cProfile.Profile()
    profiler.runcall(lambda: list(rule.function([quiz] if rule.batch else quiz)))
    pstats.Stats(profiler).sort_stats("cumulative").print_stats(25)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("quizzes", type=Path, nargs="+")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--profile", metavar="RULE")
    parser.add_argument("--one", action="store_true", help=argparse.SUPPRESS)  # the fresh process
    args = parser.parse_args()
    if args.profile:
        for path in args.quizzes:
            profile(path, args.profile)
        return
    if args.one:
        print(json.dumps(measure(args.quizzes[0], args.runs)))
        return
    rows = []
    for path in args.quizzes:
        command = [sys.executable, __file__, str(path), "--runs", str(args.runs), "--one"]
        rows.append((path, json.loads(subprocess.run(command, check=True, capture_output=True, text=True).stdout)))
    keys = list(rows[0][1])
    print("| quiz | " + " | ".join(keys) + " |")
    print("|---|" + "---:|" * len(keys))
    for path, times in rows:
        cells = [("yes" if value else "no") if isinstance(value, bool) else f"{value:.3f}" if isinstance(value, float)
                 else str(value) for value in times.values()]
        print(f"| {path.parent.name}/{path.name} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
