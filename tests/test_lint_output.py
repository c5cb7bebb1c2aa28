"""`lmsexport lint` reports: JSON against its own schema, SARIF against the SARIF 2.1.0 schema."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

import lmsexport
from conftest import ROOT
from lmsexport.rules.runner import BY_CODE, RULES, check
from lmsexport.diagnostics import Diagnostic, Severity, SourceSpan
from lmsexport.rules.report import to_json, to_sarif, to_text

FIXTURES = Path(__file__).parent / "fixtures"
SARIF_SCHEMA = json.loads((FIXTURES / "sarif" / "sarif-2.1.0-rtm.5.json").read_text(encoding="utf-8"))
REPORT_SCHEMA = json.loads((FIXTURES / "lint" / "report.schema.json").read_text(encoding="utf-8"))
READ_ERROR = Diagnostic("E201", "question 1 has no correct answer marked", SourceSpan("no key.txt", 3, 1), "mark one")
WHOLE_FILE = Diagnostic("E103", "the file is empty", SourceSpan("/tmp/empty.txt"))


@pytest.fixture
def seed_findings(monkeypatch) -> list[Diagnostic]:
    monkeypatch.chdir(ROOT)
    quizzes = [lmsexport.read(path.relative_to(ROOT)) for path in sorted((ROOT / "quizzes").glob("*.txt"))]
    return check(quizzes)


def _sarif_errors(document: dict) -> list[str]:
    validator = jsonschema.Draft4Validator(SARIF_SCHEMA)
    return [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(document)]


def test_json_matches_its_schema(seed_findings):
    document = json.loads(to_json(seed_findings + [READ_ERROR, WHOLE_FILE]))
    jsonschema.Draft202012Validator(REPORT_SCHEMA).validate(document)
    assert document["counts"] == {"error": 3, "warning": 10}
    placeholder = next(f for f in document["findings"] if f["code"] == "L010")
    assert placeholder == {
        "code": "L010",
        "severity": "error",
        "message": "option a of question 4 holds '_AIU_PROTECTED_11__', a placeholder that machine translation left in",
        "hint": "put back the term it stood for (compare with the quiz in its original language)",
        "source": "quizzes/fsdp-yo.txt",
        "line": 25,
        "column": 4,
        "rule": "leaked-placeholder",
    }
    assert document["findings"][-2]["rule"] is None  # a read error has no lint rule


def test_empty_json_report():
    assert json.loads(to_json([])) == {"lmsexport-lint": 1, "findings": [], "counts": {"error": 0, "warning": 0}}


def test_sarif_is_valid_against_the_sarif_schema(seed_findings):
    document = json.loads(to_sarif(seed_findings + [READ_ERROR, WHOLE_FILE]))
    assert _sarif_errors(document) == []


def test_sarif_schema_check_catches_a_broken_log(seed_findings):
    document = json.loads(to_sarif(seed_findings))
    document["runs"][0]["results"][0]["level"] = "fatal"
    del document["runs"][0]["tool"]["driver"]["name"]
    assert len(_sarif_errors(document)) == 2


def test_sarif_describes_every_rule():
    driver = json.loads(to_sarif([]))["runs"][0]["tool"]["driver"]
    assert [(r["id"], r["name"], r["shortDescription"]["text"], r["defaultConfiguration"]["level"])
            for r in driver["rules"]] == [(r.code, r.name, r.summary, r.severity.value) for r in RULES]
    assert driver["name"] == "lmsexport" and driver["version"] == lmsexport.__version__


def test_sarif_results_point_at_rules_and_lines(seed_findings):
    run = json.loads(to_sarif(seed_findings))["runs"][0]
    assert len(run["results"]) == len(seed_findings)
    for result, diagnostic in zip(run["results"], seed_findings):
        assert run["tool"]["driver"]["rules"][result["ruleIndex"]]["id"] == result["ruleId"] == diagnostic.code
        assert result["level"] == BY_CODE[diagnostic.code].severity.value
        location = result["locations"][0]["physicalLocation"]
        assert location["artifactLocation"] == {"uri": diagnostic.span.source, "uriBaseId": "%SRCROOT%"}
        assert location["region"]["startLine"] == (diagnostic.span.line or 1)
    placeholder = next(r for r in run["results"] if r["ruleId"] == "L010")
    assert placeholder["locations"][0]["physicalLocation"]["region"] == {"startLine": 25, "startColumn": 4}
    assert placeholder["message"]["text"].endswith("; put back the term it stood for "
                                                  "(compare with the quiz in its original language)")


def test_sarif_read_errors_and_paths():
    results = json.loads(to_sarif([READ_ERROR, WHOLE_FILE]))["runs"][0]["results"]
    assert "ruleIndex" not in results[0] and results[0]["ruleId"] == "E201"
    assert results[0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "no%20key.txt"
    whole = results[1]["locations"][0]["physicalLocation"]
    assert whole == {"artifactLocation": {"uri": "file:///tmp/empty.txt"}, "region": {"startLine": 1}}


def test_text_report_is_the_rendered_diagnostics():
    warning = Diagnostic("L013", "x has an unclosed '('", SourceSpan("q.txt", 4, 1), "close it", Severity.WARNING)
    assert to_text([warning]) == "q.txt:4:1: warning: x has an unclosed '(' [L013]\n  hint: close it\n"
    assert to_text([]) == ""


@pytest.mark.parametrize("format_", ["json", "sarif", "text"])
def test_a_report_written_a_piece_at_a_time_is_the_whole_one(tmp_path, monkeypatch, format_):
    """The reports are encoded a piece at a time (`jsonout`): 100,000 findings as one SARIF
    `json.dumps` took 550 MB. Cut every few characters, a report is still `json.dumps` of itself,
    on stdout as in the file."""
    from click.testing import CliRunner

    from lmsexport import jsonout
    from lmsexport.cli import main

    monkeypatch.setattr(jsonout, "CHUNK", 3)
    quizzes = sorted(str(path) for path in (ROOT / "quizzes").glob("*.txt"))
    out = tmp_path / f"report.{format_}"
    written = CliRunner().invoke(main, ["lint", *quizzes, "--format", format_, "-o", str(out)])
    shown = CliRunner().invoke(main, ["lint", *quizzes, "--format", format_])
    assert written.exit_code == shown.exit_code == 1, written.output  # an L010 error in the seeds
    report = out.read_text(encoding="utf-8")
    assert report == shown.stdout and report.count("[L0" if format_ == "text" else '"L0') >= 3
    if format_ != "text":
        assert report == json.dumps(json.loads(report), ensure_ascii=False, indent=2) + "\n"
