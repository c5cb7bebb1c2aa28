"""Reader goldens: `tests/golden/readers/<format>/<case>` -> `<case>.json` (the model) and
`<case>.log` (the reader's warnings, when it has any), as pandoc's `X -> native` tests.

Add a case by dropping a source file into its format's folder and running
`pytest --update-goldens`; review the model it produced. Every case is also read through
sniffing (it must pick its own format), and every case's model builds to every output format
and validates against the schemas.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import lmsexport
from lmsexport import formats as registry
from lmsexport.formats.json.writer import dumps

from conftest import GOLDEN, ROOT

READERS = GOLDEN / "readers"


def _cases() -> list[Path]:
    cases = []
    for folder in sorted(p for p in READERS.iterdir() if p.is_dir()):
        for path in sorted(folder.iterdir()):
            expected = path.suffix == ".log" or (path.suffix == ".json" and path.with_suffix("").is_file())
            if path.is_file() and not expected:
                cases.append(path)
    return cases


CASES = _cases()
IDS = [f"{path.parent.name}/{path.name}" for path in CASES]


def _read(path: Path) -> tuple[lmsexport.Quiz, list[lmsexport.Diagnostic]]:
    log = lmsexport.Log()
    quiz = lmsexport.read(path.relative_to(ROOT), format=path.parent.name, log=log)
    return quiz, log.diagnostics


@pytest.fixture(autouse=True)
def _relative_paths(monkeypatch):
    """Messages name the case as tests/golden/readers/..., whatever folder pytest runs in."""
    monkeypatch.chdir(ROOT)


@pytest.mark.parametrize("path", CASES, ids=IDS)
def test_reads_as_its_golden_model(path, goldens):
    quiz, warnings = _read(path)
    goldens.check(Path(f"{path}.json"), dumps(quiz))
    log = Path(f"{path}.log")
    if warnings or log.exists() or goldens.update:
        text = "".join(d.render() + "\n" for d in warnings)
        if text:
            goldens.check(log, text)
        elif log.exists():
            log.unlink()


@pytest.mark.parametrize("path", CASES, ids=IDS)
def test_sniffing_picks_its_format(path):
    name, score = registry.detect(path, path.read_bytes())
    assert name == path.parent.name, f"{path.name} sniffs as {name} ({score:.2f}), not {path.parent.name}"


@pytest.mark.parametrize("path", CASES, ids=IDS)
def test_builds_to_every_format_and_validates(path):
    quiz, _ = _read(path)
    for flavour in registry.flavours():
        package = lmsexport.write(quiz, flavour)
        assert lmsexport.validate(package) == [], f"{path.name} as {flavour}"
