"""Use lmsexport from Python: read a quiz, look inside it, change it, write and check it.

Run from the repository root:  python examples/api.py
"""

from __future__ import annotations

import dataclasses
import sys
import tempfile
from pathlib import Path

import lmsexport

HERE = Path(__file__).resolve().parent


def main() -> int:
    quiz = lmsexport.read(HERE / "features.txt")
    print(f"{quiz.title!r} ({quiz.lang}): {len(quiz.questions)} questions, {quiz.total_points:g} points")
    for question in quiz.questions:
        key = "".join(choice.id for choice in question.correct_choices)
        print(f"  {question.id}: {question.prompt.value.splitlines()[0][:60]}  -> {key}")

    # The model is immutable: derive a new quiz instead of editing this one.
    harder = dataclasses.replace(quiz, id="features-pass-80", settings=dataclasses.replace(quiz.settings, pass_mark=80))

    package = lmsexport.write(harder, "json")
    problems = lmsexport.validate(package)
    print(f"{sorted(package.files)}: {'valid' if not problems else problems}")

    # Bad input raises SourceError; every problem carries file, line and a hint.
    try:
        lmsexport.read("broken.txt", data="A quiz\n\n1. Which?\n   • this\n   • that\n")
    except lmsexport.SourceError as error:
        for diagnostic in error.diagnostics:
            print(f"  {diagnostic.span}: {diagnostic.message}")

    with tempfile.TemporaryDirectory() as out:
        results = list(lmsexport.build([HERE / "features.txt"], ["json"], out))
        print(f"built {[path.name for result in results for path in result.written]}")
    return 0 if not problems else 1


if __name__ == "__main__":
    sys.exit(main())
