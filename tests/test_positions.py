"""Options, answers, pairs, items, gaps and images keep where they are written, and messages use it.

Each reader that knows lines gives an option its own span; lint findings about an option and
writer warnings about an answer then point at that line, not at the question's. Spans are
not part of a quiz's meaning: two quizzes that differ only in them are equal, and the JSON
form carries none.
"""

from __future__ import annotations

import json

import pytest

import lmsexport
from lmsexport.diagnostics import Log, SourceSpan
from lmsexport.formats import reader
from lmsexport.rules.runner import check

TOKEN = "_AIU_PROTECTED_11__"
"""A machine-translation placeholder (lint L010), put in option b of every source below."""

SOURCES = {
    "text": ("quiz.txt", f"Quiz\n\n1. Which?\n   *• right\n   • {TOKEN}\n", 5),
    "gift": ("quiz.gift", f"::q1:: Which? {{\n=right\n~{TOKEN}\n}}\n", 3),
    "aiken": ("quiz.txt", f"Which?\nA) right\nB) {TOKEN}\nANSWER: A\n", 3),
    "text2qti": ("quiz.txt", f"Quiz title: Quiz\n\n1.  Which?\n*a) right\nb)  {TOKEN}\n", 5),
    "moodle": ("quiz.xml", (
        '<?xml version="1.0" encoding="UTF-8"?>\n<quiz>\n<question type="multichoice">\n'
        "<name><text>Which</text></name>\n<questiontext><text>Which?</text></questiontext>\n"
        "<single>true</single>\n"
        '<answer fraction="100"><text>right</text></answer>\n'
        f'<answer fraction="0"><text>{TOKEN}</text></answer>\n'
        "</question>\n</quiz>\n"), 8),
    "sheet": ("quiz.csv", f"question,a,b,correct\nWhich?,right,{TOKEN},a\n", 2),
}
"""Format -> (file name, source, line of option b)."""


@pytest.mark.parametrize("name", SOURCES)
def test_a_finding_about_an_option_points_at_its_line(name):
    source, text, line = SOURCES[name]
    data = text.encode() if name == "sheet" else text
    options = {"log": Log()} if "log" in getattr(reader(name), "READ_OPTIONS", ()) else {}
    quiz = reader(name).read(data, source=source, **options)
    findings = [d for d in check([quiz]) if d.code == "L010"]  # text2qti's Markdown: the token, and its italics
    assert findings and all(finding.message.startswith("option b of question 1") for finding in findings)
    assert {(finding.span.source, finding.span.line) for finding in findings} == {(source, line)}
    assert findings[0].span != quiz.questions[0].source  # a sheet's option is in its question's row, another cell


def test_a_finding_about_a_typed_answer_points_at_its_line():
    quiz = reader("text").read(f"Quiz\n\n1. Name it\n   = Paris\n   = {TOKEN}\n", source="q.txt")
    [finding] = check([quiz])
    assert (finding.code, str(finding.span)) == ("L010", "q.txt:5:6")


def test_a_finding_about_a_gap_points_at_the_gap():
    quiz = reader("text").read(f"Quiz\n\n1. The capital\n   of France is {{=Paris ~{TOKEN}}}.\n", source="q.txt")
    [finding] = [d for d in check([quiz]) if d.code == "L010"]
    assert str(finding.span) == "q.txt:4:17"


def test_matching_pairs_and_ordering_items_keep_their_lines():
    quiz = reader("text").read(
        "Quiz\n\n1. Match\n   • a -> 1\n   • b -> 2\n\n2. Order\n   • [2] later\n   • [1] first\n", source="q.txt")
    matching, ordering = quiz.questions
    assert [pair.source.line for pair in matching.pairs] == [4, 5]
    assert [(item.text.value, item.source.line) for item in ordering.items] == [("first", 9), ("later", 8)]


def test_an_image_keeps_where_it_is_first_mentioned():
    png = b"\x89PNG\r\n\x1a\n" + b"\0\0\0\rIHDR" + b"\0\0\0\1\0\0\0\1\x08\x06\0\0\0\x1f\x15\xc4\x89"
    text = "---\nmarkup: markdown\n---\nQuiz\n\n1. Which?\n   *• ![dot](dot.png)\n   • no\n"
    quiz = reader("text").read(text, source="q.txt", assets=lambda path: png)
    [asset] = quiz.assets
    assert str(asset.source) == "q.txt:7:14"


def test_a_writer_warning_about_an_answer_points_at_its_line():
    """Moodle's grade list has no 33 %: the warning is about the answer on line 5."""
    quiz = reader("text").read("Quiz\n\n1. Name it\n   = Paris\n   =33% Lyon\n", source="q.txt")
    [warning] = [w for w in lmsexport.write(quiz, "moodle").warnings if w.code == "W655"]
    assert "'Lyon'" in warning.message
    assert (warning.span.line, warning.span.column) == (5, 9)


def test_a_canvas_warning_about_an_answer_points_at_its_line():
    quiz = reader("text").read("Quiz\n\n1. Name it\n   = Paris\n   =50% Lyon\n", source="q.txt")
    [warning] = [w for w in lmsexport.write(quiz, "canvas").warnings if w.code == "W853"]
    assert warning.span.line == 5


def test_spans_are_not_part_of_the_meaning():
    text = "Quiz\n\n1. Which?\n   *• right\n   • wrong\n"
    moved = reader("text").read("\n\n" + text.replace("\n   •", "\n\n   •"), source="q.txt")
    quiz = reader("text").read(text, source="q.txt")
    assert quiz == moved
    assert quiz.questions[0].choices[1].source != moved.questions[0].choices[1].source
    assert "source" not in json.dumps(lmsexport.model.quiz_to_data(quiz))


def test_a_log_makes_an_entry_once_and_shares_the_texts_of_entries_at_other_places():
    log, direction = Log(), "rtl"
    for line in (3, 3, 9):  # each text made anew, as a writer makes it for each element
        log.warn("W801", f"HTML <div> dir='{direction}' left out", SourceSpan("bank.xml", line),
                 " ".join(["write the", direction, "direction on the block"]))
    first, second = log.diagnostics
    assert (first.span.line, second.span.line) == (3, 9)
    assert first.message is second.message and first.hint is second.hint  # a bank's 270,000 warnings
