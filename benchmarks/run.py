"""Time whole CLI runs side by side with text2qti and print a table; see benchmarks/README.md.

    python benchmarks/run.py [--runs 7] [--skip-text2qti] [--large] [--scale 1.0]

Generates its inputs under a temporary folder with benchmarks/generate.py and runs every
scenario as a fresh process, as a course designer would. Each run records the CPU time of
the process tree (user + system, lint's child included: `os.wait4`), the wall time and the
peak memory (max RSS of the largest process). A scenario with a text2qti counterpart runs
in pairs: text2qti and lmsexport one after the other on the same questions, the order
alternating, so both see the same machine; the table gives medians and the median of
the per-pair CPU ratios. `--large` adds the memory curve (10,000 and 100,000 questions to
every format), lint of 100,000 questions and a build of a 200 MB Moodle XML bank. Lint's
language model is cached in a folder of the run's own. No network needed.
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
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from generate import generate  # noqa: E402
from moodle_read import make_bank  # noqa: E402

LMSEXPORT = [sys.executable, "-m", "lmsexport"]
CACHE = "LMSEXPORT_CACHE_DIR"


@dataclass
class Run:
    cpu: float
    wall: float
    megabytes: float


@dataclass
class Scenario:
    name: str
    command: list[str]
    cwd: Path
    prepare: object = None
    """Called before each run (e.g. remove the previous output)."""
    rival: list[str] | None = None
    """text2qti's command on the same questions, run in pairs with this one."""
    rival_cwd: Path | None = None
    target: str = ""
    runs: int | None = None


def once(command: list[str], cwd: Path) -> Run:
    """One fresh process: CPU of it and its reaped children, wall time, peak RSS."""
    with tempfile.TemporaryFile() as errors:  # not a pipe: a run with many warnings would fill it and block
        started = time.perf_counter()
        process = subprocess.Popen(command, cwd=cwd, stdout=subprocess.DEVNULL, stderr=errors)
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - started
        process.returncode = os.waitstatus_to_exitcode(status)
        if process.returncode != 0:
            errors.seek(0)
            raise SystemExit(f"{' '.join(command)} failed ({process.returncode}):\n{errors.read()[-3000:].decode()}")
    return Run(usage.ru_utime + usage.ru_stime, wall, usage.ru_maxrss / 1024)


def measure(scenario: Scenario, runs: int) -> tuple[list[Run], list[Run]]:
    """The scenario's runs and, when it has a rival, text2qti's, paired and order-alternating."""
    ours, theirs = [], []
    for index in range(scenario.runs or runs):
        if scenario.rival and index % 2:
            theirs.append(once(scenario.rival, scenario.rival_cwd))
        if scenario.prepare:
            scenario.prepare()
        ours.append(once(scenario.command, scenario.cwd))
        if scenario.rival and not index % 2:
            theirs.append(once(scenario.rival, scenario.rival_cwd))
    return ours, theirs


def row(scenario: Scenario, ours: list[Run], theirs: list[Run]) -> str:
    median = statistics.median
    cells = [scenario.name, f"{median(r.cpu for r in ours):.3f}", f"{median(r.wall for r in ours):.3f}",
             f"{max(r.megabytes for r in ours):.0f}"]
    if theirs:
        cells += [f"{median(r.cpu for r in theirs):.3f}", f"{median(r.wall for r in theirs):.3f}",
                  f"{median(a.cpu / b.cpu for a, b in zip(ours, theirs)):.2f}",
                  f"{median(a.wall / b.wall for a, b in zip(ours, theirs)):.2f}"]
    else:
        cells += ["", "", "", ""]
    return "| " + " | ".join([*cells, scenario.target]) + " |"


def scenarios(work: Path, with_text2qti: bool, large: bool, scale: float = 1.0, runs: int = 7):
    size = lambda count: max(1, round(count * scale))  # noqa: E731
    vi, ar, batch = work / "vi", work / "ar", work / "batch"
    generate(vi, 1, size(2000), text2qti=True, lang="vi")
    generate(ar, 1, size(2000), text2qti=True, lang="ar")
    generate(batch, size(100), 20, text2qti=False)
    out = work / "out"

    def clean():
        shutil.rmtree(out, ignore_errors=True)

    def clean_all():
        clean()
        shutil.rmtree(os.environ[CACHE], ignore_errors=True)

    def build(folder: Path, *options: str) -> list[str]:
        return [*LMSEXPORT, "build", str(folder / "quiz-000.txt"), "-o", str(out), *options]

    def rival(folder: Path) -> dict:
        if not with_text2qti:
            return {}
        return {"rival": ["text2qti", "quiz-000.md"], "rival_cwd": folder / "text2qti"}

    version = {"rival": ["text2qti", "--version"], "rival_cwd": work} if with_text2qti else {}
    yield Scenario("`--version`", [*LMSEXPORT, "--version"], work, target="<= 0.5 x", **version)
    yield Scenario("2,000 vi -> QTI 2.1", build(vi, "-f", "qti"), work, clean, target="CPU <= 0.40 x", **rival(vi))
    yield Scenario("2,000 vi -> QTI 2.1, `--no-lint`", build(vi, "-f", "qti", "--no-lint"), work, clean,
                   target="CPU <= 0.30 x", **rival(vi))
    yield Scenario("2,000 vi -> all formats", build(vi, "-f", "all"), work, clean, target="CPU <= 0.90 x", **rival(vi))
    yield Scenario("2,000 ar -> QTI 2.1", build(ar, "-f", "qti"), work, clean, **rival(ar))
    yield Scenario("2,000 vi -> QTI 2.1, first run (no language model cache)", build(vi, "-f", "qti"), work,
                   clean_all, **rival(vi))
    batch_all = [*LMSEXPORT, "build", str(batch), "-f", "all", "-o", str(out), "--jobs", "2"]
    yield Scenario("100 x 20 -> all formats, `--jobs 2`", batch_all, work, clean)
    # Paired with `--version` itself (in the rival's columns), thrice as many runs: a ratio of two
    # short runs, both moved by the machine's speed from minute to minute.
    yield Scenario("same, no-op incremental re-run (rival: lmsexport `--version`)", batch_all, work,
                   target="<= 1.5 x `--version`", rival=[*LMSEXPORT, "--version"], rival_cwd=work, runs=3 * runs)
    if not large:
        return
    for count in (10_000, 100_000):
        folder = work / f"q{count}"
        generate(folder, 1, size(count), text2qti=False, lang="vi")
        for name in ("qti", "canvas", "moodle", "scorm12", "scorm2004"):
            yield Scenario(f"{count:,} vi -> {name}, `--no-lint`", build(folder, "-f", name, "--no-lint"), work,
                           clean, target="<= 300 MB, 100k <= 1.5 x 10k", runs=1)
    lint = [*LMSEXPORT, "lint", str(work / "q100000" / "quiz-000.txt")]
    yield Scenario("lint of 100,000 questions", lint, work, target="<= 10 s", runs=1)
    bank = make_bank(work / "moodle", round(200 * scale))
    yield Scenario("200 MB Moodle XML bank -> QTI 2.1", [*LMSEXPORT, "build", str(bank), "-f", "qti", "-o", str(out),
                                                        "--no-lint"], work, clean, target="< 500 MB", runs=1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--skip-text2qti", action="store_true")
    parser.add_argument("--large", action="store_true", help="add the memory curve, lint of 100k, a 200 MB Moodle bank")
    parser.add_argument("--scale", type=float, default=1.0, help="shrink the inputs (the test suite's smoke run)")
    args = parser.parse_args()
    with_text2qti = not args.skip_text2qti and shutil.which("text2qti") is not None
    if os.environ.pop("PYTHONDONTWRITEBYTECODE", None) is not None:  # both tools run as installed ones do
        print("PYTHONDONTWRITEBYTECODE is unset for the runs: with it, every run compiles its modules again "
              "(+20 ms of a no-op rebuild's 0.13 s)", file=sys.stderr)
    with tempfile.TemporaryDirectory() as folder:
        os.environ[CACHE] = str(Path(folder) / "cache")  # lint's model cache: this run's own
        print(f"| scenario (median of {args.runs}) | CPU s | wall s | peak MB | text2qti CPU s | text2qti wall s "
              "| CPU ratio | wall ratio | target |")
        print("|---|---:|---:|---:|---:|---:|---:|---:|---|")
        for scenario in scenarios(Path(folder), with_text2qti, args.large, args.scale, args.runs):
            print(row(scenario, *measure(scenario, args.runs)), flush=True)
        cache = Path(os.environ[CACHE])
        size = sum(f.stat().st_size for f in cache.rglob("*") if f.is_file()) if cache.exists() else 0
        print(f"\nlanguage-model cache on disk: {size / 1e6:.1f} MB")


if __name__ == "__main__":
    main()
