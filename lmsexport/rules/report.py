"""Lint findings as text, JSON or SARIF 2.1.0 (`lmsexport lint --format`).

SARIF is the OASIS Static Analysis Results Interchange Format, version 2.1.0
(https://docs.oasis-open.org/sarif/sarif/v2.1.0/sarif-v2.1.0.html), which code
scanning in CI turns into annotations on the quiz lines. The JSON form is
lmsexport's own, versioned like the model's (`"lmsexport-lint": 1`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Sequence
from urllib.parse import quote

from .. import jsonout
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
    return "".join(text_pieces(diagnostics))


def to_json(diagnostics: Sequence[Diagnostic]) -> str:
    return "".join(json_pieces(diagnostics))


def to_sarif(diagnostics: Sequence[Diagnostic]) -> str:
    return "".join(sarif_pieces(diagnostics))


def text_pieces(diagnostics: Sequence[Diagnostic]) -> Iterator[str]:
    """The findings as the terminal shows them, a thousand at a time."""
    for start in range(0, len(diagnostics), 1000):
        yield "".join(d.render() + "\n" for d in diagnostics[start:start + 1000])


def json_pieces(diagnostics: Sequence[Diagnostic]) -> Iterator[str]:
    """lmsexport's own report, a piece at a time (`jsonout`: 100,000 findings made one string
    and their dicts at once)."""
    def finding(diagnostic: Diagnostic) -> dict:
        rule = BY_CODE.get(diagnostic.code)
        return {**diagnostic.as_dict(), "rule": rule.name if rule else None}

    document = {"lmsexport-lint": LINT_VERSION, "findings": list(diagnostics), "counts": counts(diagnostics)}
    return jsonout.pieces(document, diagnostic=finding, ensure_ascii=False, indent=2)


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


def sarif_pieces(diagnostics: Sequence[Diagnostic]) -> Iterator[str]:
    """SARIF 2.1.0, a piece at a time, each result made in its turn (100,000 findings as one
    `json.dumps` took 550 MB)."""
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
        "results": list(diagnostics),
    }
    document = {"$schema": SARIF_SCHEMA, "version": "2.1.0", "runs": [run]}
    return jsonout.pieces(document, diagnostic=lambda d: _result(d, index), ensure_ascii=False, indent=2)


RENDERERS = {"text": text_pieces, "json": json_pieces, "sarif": sarif_pieces}
"""`--format` -> the report's pieces of text, in order."""
