"""One sanitiser for every source's HTML: what it removes is a warning naming the question, a text
it empties an error, and nothing hostile reaches any output (docs/limits.md, HTML)."""

from __future__ import annotations

import json

import pytest

import lmsexport
from conftest import GOLDEN
from lmsexport import SourceError, formats as registry
from lmsexport.markup import clean

HOSTILE = [GOLDEN / "readers" / "moodle" / "hostile-html.moodle.xml", GOLDEN / "readers" / "qti21" / "hostile-html.xml",
           GOLDEN / "readers" / "json" / "hostile-html.json"]
TELLTALES = (b"alert(", b"steal(", b"onerror", b"onmouseover", b"javascript:", b"<iframe", b"<object", b"evil")
"""What the hostile sources hold (the SCORM player's own page has scripts of its own)."""


@pytest.mark.parametrize("source", HOSTILE, ids=lambda p: p.parent.name)
def test_hostile_html_is_warned_and_reaches_no_output(source):
    log = lmsexport.Log()
    quiz = lmsexport.read(source, log=log)
    assert [d.code for d in log.diagnostics if d.code == "W010"], "every removal is a warning"
    assert all(d.message.startswith(("question ", "the ")) for d in log.diagnostics)
    for flavour in registry.flavours():
        for name, content in lmsexport.write(quiz, flavour).files.items():
            if name.endswith((".xml", ".html", ".json")):
                found = [t for t in TELLTALES if t in content.replace(b"evil.swf", b"").lower()]
                assert not found, f"{source.name} as {flavour}: {name} holds {found}"


@pytest.mark.parametrize("fragment, removed", [
    ('<p style="a" onclick="x">hi</p>', ("the style attribute", "the onclick attribute")),
    ("<script>alert(1)</script>ok", ("<script>",)),
    ('<a href="javascript:alert(1)">x</a>', ("a javascript: link",)),
    ('<img src="data:image/png;base64,AAA" alt="x">', ("a data: image source",)),
    ("<font>a</font><font>b</font>", ("<font> (2)",)),
    ("<table><tr><td>1</td></tr></table>", ()),  # the tbody it adds is no removal
    ('<a href="https://example.org/">x</a>', ()),
])
def test_the_sanitiser_says_what_it_removed(fragment, removed):
    assert clean(fragment).removed == removed


def test_a_markdown_text_the_sanitiser_empties_is_a_located_error():
    source = "---\nmarkup: markdown\n---\nT\n\n1. Pick one\n   *• <script>x</script>\n   • b\n"
    with pytest.raises(SourceError) as caught:
        lmsexport.read("quiz.txt", source)
    (error,) = caught.value.diagnostics
    assert (error.code, error.span.line, error.span.column) == ("E010", 7, 7)
    assert error.message == "question 1: the text '<script>x</script>' has nothing left to show once <script> is removed"


def test_a_json_text_the_sanitiser_empties_is_an_error():
    document = json.loads((GOLDEN / "readers" / "json" / "hostile-html.json").read_text(encoding="utf-8"))
    document["quiz"]["questions"][0]["choices"][1]["text"] = {"value": "<script>x</script>", "format": "html"}
    with pytest.raises(SourceError) as caught:
        lmsexport.read("q.json", json.dumps(document), log=lmsexport.Log())
    assert [(d.code, d.message) for d in caught.value.diagnostics] == [
        ("E010", "question 1 (q1): its choices[1].text has nothing left to show once <script> is removed")]


def test_a_gift_text_that_loses_markup_is_warned():
    log = lmsexport.Log()
    lmsexport.read("q.gift", "::T:: [html]Pick <b onclick='x()'>one</b> {=a ~b}\n", log=log)
    (warning,) = log.diagnostics
    assert (warning.code, warning.message) == ("W010", "question 1: removed the onclick attribute from a text")
