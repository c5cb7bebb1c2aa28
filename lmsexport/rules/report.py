"""Lint findings as text, JSON or SARIF 2.1.0 (`lmsexport lint --format`).

SARIF is the OASIS Static Analysis Results Interchange Format, version 2.1.0
(https://docs.oasis-open.org/sarif/sarif/v2.1.0/sarif-v2.1.0.html), which code
scanning in CI turns into annotations on the quiz lines. The JSON form is
lmsexport's own, versioned like the model's (`"lmsexport-lint": 1`).
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Sequence
from urllib.parse import quote

from .._version import __version__
from .runner import BY_CODE, RULES
from ..diagnostics import Diagnostic

LINT_VERSION = 1
"""Major version of the JSON report; bumped when a key changes meaning or goes away."""
SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"


def counts(diagnostics: Sequence[Diagnostic]) -> dict[str, int]:
    found = Counter(d.severity.value for d in diagnostics)
    return {"error": found["error"], "warning": found["warning"]}


def to_text(diagnostics: Sequence[Diagnostic]) -> str:
    return "".join(d.render() + "\n" for d in diagnostics)


def to_json(diagnostics: Sequence[Diagnostic]) -> str:
    findings = []
    for diagnostic in diagnostics:
        rule = BY_CODE.get(diagnostic.code)
        findings.append({**diagnostic.as_dict(), "rule": rule.name if rule else None})
    document = {"lmsexport-lint": LINT_VERSION, "findings": findings, "counts": counts(diagnostics)}
    return json.dumps(document, ensure_ascii=False, indent=2) + "\n"


def _uri(source: str) -> dict:
    """An artifactLocation: relative paths against the checkout root, as code scanning expects."""
    if source.startswith("/"):
        return {"uri": "file://" + quote(source)}
    return {"uri": quote(source), "uriBaseId": "%SRCROOT%"}


def _result(diagnostic: Diagnostic, index: dict[str, int]) -> dict:
    span = diagnostic.span
    # Code scanning places a result only with a line; findings about a whole quiz get line 1.
    region = {"startLine": span.line or 1}
    if span.column:
        region["startColumn"] = span.column
    text = f"{diagnostic.message}; {diagnostic.hint}" if diagnostic.hint else diagnostic.message
    result = {"ruleId": diagnostic.code}
    if diagnostic.code in index:
        result["ruleIndex"] = index[diagnostic.code]
    result.update(
        level=diagnostic.severity.value,
        message={"text": text},
        locations=[{"physicalLocation": {"artifactLocation": _uri(span.source), "region": region}}],
    )
    return result


def to_sarif(diagnostics: Sequence[Diagnostic]) -> str:
    rules = [
        {
            "id": rule.code,
            "name": rule.name,
            "shortDescription": {"text": rule.summary},
            "defaultConfiguration": {"level": rule.severity.value},
        }
        for rule in RULES
    ]
    index = {rule.code: i for i, rule in enumerate(RULES)}
    run = {
        "tool": {"driver": {"name": "lmsexport", "version": __version__, "rules": rules}},
        "columnKind": "unicodeCodePoints",
        "results": [_result(diagnostic, index) for diagnostic in diagnostics],
    }
    document = {"$schema": SARIF_SCHEMA, "version": "2.1.0", "runs": [run]}
    return json.dumps(document, ensure_ascii=False, indent=2) + "\n"


RENDERERS = {"text": to_text, "json": to_json, "sarif": to_sarif}
