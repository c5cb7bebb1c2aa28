"""Read a large Moodle XML bank and report its size, the time and the reader's peak memory (issue 17).

    python benchmarks/moodle_read.py [--megabytes 200]

Generates the bank in a temporary folder: a bank that lmsexport's Moodle writer wrote for a
generated 2,000-question quiz (generate.py), its questions repeated until the file has the
size asked for, and one HTML text per question with markup the sanitiser removes (a style and
a script), as exports of Moodle's editors have. Then reads it in a fresh process and prints
the bytes, the questions read, the seconds, and how much the reading added to the process's
peak memory (VmHWM on Linux), past the bytes of the file itself.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

_MEASURE = """
import gc, sys, time
from pathlib import Path

from lmsexport.formats.moodle import reader


def rss(key):
    line = next(line for line in Path("/proc/self/status").read_text().splitlines() if line.startswith(key))
    return int(line.split()[1]) * 1024


gc.set_threshold(100_000, 50, 50)  # as lmsexport's command line sets it (lmsexport/cli/__init__.py)
data = Path(sys.argv[1]).read_bytes()
Path("/proc/self/clear_refs").write_text("5")  # the peak (VmHWM) starts again from here
start, began = rss("VmRSS:"), time.perf_counter()
quiz = reader.read(data, source="bank.xml")
print(len(data), len(quiz.questions), f"{time.perf_counter() - began:.1f}", rss("VmHWM:") - start)
"""


def make_bank(folder: Path, megabytes: int) -> Path:
    """A Moodle XML bank of about `megabytes` MB, from lmsexport's own writer output."""
    subprocess.run([sys.executable, str(ROOT / "benchmarks" / "generate.py"), str(folder), "--quizzes", "1",
                    "--questions", "2000"], check=True)
    sys.path.insert(0, str(ROOT))
    import lmsexport
    from lmsexport.formats.moodle import writer

    (content,) = writer.write(lmsexport.read(folder / "quiz-000.txt")).files.values()
    start, end = content.index(b"<question type=\"multichoice\""), content.rindex(b"</question>") + len(b"</question>")
    questions = content[start:end].replace(
        b"<questiontext format=\"html\">\n      <text>",
        b"<questiontext format=\"html\">\n      <text>&lt;p style=\"color: red\"&gt;&lt;script&gt;x()&lt;/script&gt;"
        b"&lt;/p&gt;")
    copies = max(1, megabytes * 1_000_000 // len(questions))
    path = folder / "bank.moodle.xml"
    with path.open("wb") as out:
        out.write(content[:start])
        for _ in range(copies):
            out.write(questions)
        out.write(content[end:])
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--megabytes", type=int, default=200)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        bank = make_bank(Path(folder), args.megabytes)
        out = subprocess.run([sys.executable, "-c", _MEASURE, str(bank)], capture_output=True, text=True,
                             check=True, cwd=ROOT)
        size, questions, seconds, peak = out.stdout.split()
        print(f"{int(size) / 1e6:.0f} MB, {int(questions):,} questions: read in {seconds} s, "
              f"peak memory +{int(peak) / 1e6:.0f} MB over the file's bytes")


if __name__ == "__main__":
    main()
