"""Profile one lmsexport command with cProfile and print where its time goes.

    python benchmarks/profiling.py [--top 40] [--sort tottime] [--out run.prof] -- build quiz.txt -f qti -o out

The console entry ends with `os._exit` (cli.run), which leaves a profiler no chance to
write its data, so this runs the command's `main()` in this process instead. A build's
lint normally runs in a forked child, which cProfile cannot follow: profile `lint` on
its own (`-- lint quiz.txt`) to see the rules, and the build with `--no-lint`.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import pstats
import sys


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--top", type=int, default=40)
    parser.add_argument("--sort", default="tottime", help="a pstats key: tottime, cumulative, ncalls ...")
    parser.add_argument("--out", help="also save the raw profile here (for snakeviz, pstats ...)")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="the lmsexport command line, after --")
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    from lmsexport.cli import main as lmsexport

    gc.set_threshold(100_000, 50, 50)  # as the console entry sets it
    profile = cProfile.Profile()
    try:
        profile.runcall(lmsexport, command, prog_name="lmsexport", standalone_mode=False)
    except SystemExit:
        pass
    if args.out:
        profile.dump_stats(args.out)
    pstats.Stats(profile, stream=sys.stderr).sort_stats(args.sort).print_stats(args.top)


if __name__ == "__main__":
    main()
