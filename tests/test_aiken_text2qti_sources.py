"""Aiken and text2qti files among lmsexport's own: which reader each `.txt` goes to, and that
every Aiken and text2qti golden builds to every output format from the command line.

`.txt` is shared by lmsexport text, Aiken and text2qti; the registry asks Aiken and text2qti
first, so neither may claim an lmsexport text quiz (sniff below 0.5), and each must claim
its own clear files.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from lmsexport import formats as registry
from lmsexport.cli import main
from lmsexport.formats import aiken, text2qti

from conftest import GOLDEN, ROOT

TEXT_QUIZZES = sorted([*(ROOT / "quizzes").rglob("*.txt"), *(ROOT / "examples").rglob("*.txt"),
                       *(GOLDEN / "readers" / "text").glob("*.txt"), *(ROOT / "tests" / "cli" / "files").glob("*.txt")])
README = ROOT / "tests" / "fixtures" / "text2qti" / "readme"
CLEAR_TEXT2QTI = ["01-addition.md", "02-multiple-answers.md", "03-numerical.md", "05-essay.md", "06-file-upload.md",
                  "07-text-region.md", "13-group.md", "14-code-block.md", "19-solution.md",
                  "20-group-solutions-pick.md"]
"""README examples with a mark only text2qti has (00 is `1.` with `a)` choices, which lmsexport
text reads the same way; 04 has only `*` answers, which a Markdown list has too)."""
GOLDENS = sorted(p for name in ("aiken", "text2qti") for p in (GOLDEN / "readers" / name).iterdir()
                 if p.suffix not in (".json", ".log"))


def _ids(paths):
    return [p.relative_to(ROOT).as_posix() for p in paths]


@pytest.mark.parametrize("path", TEXT_QUIZZES, ids=_ids(TEXT_QUIZZES))
def test_lmsexport_text_quizzes_are_not_claimed(path):
    data = path.read_bytes()
    own = registry.declaration("text").sniff(data)
    assert aiken.sniff(data) < max(own, 0.5) and text2qti.sniff(data) < max(own, 0.5)
    if own > 0:
        assert registry.detect(path, data)[0] == "text"


@pytest.mark.parametrize("name", CLEAR_TEXT2QTI)
def test_text2qti_examples_in_txt_files_are_read_as_text2qti(name):
    data = (README / name).read_bytes()
    assert registry.detect(Path(name).with_suffix(".txt"), data) == ("text2qti", text2qti.sniff(data))


def test_an_aiken_file_named_txt_is_read_as_aiken():
    data = (ROOT / "tests" / "fixtures" / "aiken" / "aiken_errors.txt").read_bytes()
    assert registry.detect("bank.txt", data)[0] == "aiken"
    assert text2qti.sniff(data) == 0.0


@pytest.mark.parametrize("path", GOLDENS, ids=_ids(GOLDENS))
def test_every_golden_builds_to_every_format_from_the_command_line(path, tmp_path):
    result = CliRunner().invoke(main, ["build", str(path), "-f", "all", "-f", "json", "-o", str(tmp_path)])
    assert result.exit_code == 0, result.output
    built = sorted(p.relative_to(tmp_path).parts[0] for p in tmp_path.rglob("*") if p.is_file()
                   and not p.name.startswith("."))
    assert built == sorted([*registry.everything(), "json"])


@pytest.mark.parametrize("text", [
    "1. No options here\n", "Quiz\n\n1. A?\n   a) x\n   *b) y\n", "1. A?\n- x\n*- y\n", "1. A?\n= 3.14 ± 0.01\n",
    "Title: Geography\n\n1. Capital of Peru?\n   = Lima\n", "1. Explain.\n___\n"
], ids=["no-options", "labels", "dashes", "numeric", "title-line", "essay"])
def test_unfinished_or_small_text_quizzes_go_to_the_text_reader(text):
    data = text.encode("utf-8")
    assert registry.detect("quiz.txt", data)[0] == "text"


GIFT = """// GIFT, Moodle's other text format
$CATEGORY: $course$/Geography

::Capital:: What is the capital of France? {=Paris ~Lyon ~Nice}

::Prime:: Which numbers are prime? {~%50%2 ~%50%3 ~%-100%4}

Two plus two is {#4:0}.

1. Numbered text with a gap {=yes ~no}
"""


def test_gift_is_claimed_by_neither():
    data = GIFT.encode("utf-8")
    assert aiken.sniff(data) == 0.0 and text2qti.sniff(data) < 0.1
