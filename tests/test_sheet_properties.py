"""Property tests of the sheet reader: whatever a CSV text or a file named .xlsx holds, reading
it gives a quiz or raises SourceError with located diagnostics, never any other exception."""

from __future__ import annotations

import csv
import io

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lmsexport import Log, Quiz, SourceError
from lmsexport.formats.sheet import reader as sheet

HEADER_WORDS = ["type", "question", "a", "b", "c", "d", "correct", "tolerance", "points", "tags", "title", "lang",
                "explanation", "feedback a", "feedback b", "correct feedback", "case", "lines", "# notes", "", "Answer"]
CELL_WORDS = ["", "a", "b", "a, c", "AB", "true", "FALSE", "3.14", "3,14", "1..5", "2 ± 0.1", "-1", "0", "1e309",
              "Paris | 50% Lyon", "150% x", "x -> y", "-> y", "x ->", "{=a ~b}", "{=a =50% b}", "{~a}", "{=}",
              "essay", "ordering", "matching", "fill_blanks", "description", "mc", "numeric", "true_false", "yes",
              "5%", "#", "# comment", '"', "é", "ا", "𝛑", "\n", "decimal", "comma", "markup", "markdown", "![i](x.png)"]
SETTING_WORDS = ["title", "lang", "points", "pass", "time", "decimal", "markup", "shuffle", "id", "tags", "x"]
PROPERTY = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _outcome(data: bytes | str, source: str = "bank.csv") -> None:
    try:
        quiz = sheet.read(data, source=source, log=Log())
    except SourceError as error:
        assert error.diagnostics and all(d.code and d.message and d.span.source == source for d in error.diagnostics)
        return
    assert isinstance(quiz, Quiz)


@PROPERTY
@given(st.text(st.characters(blacklist_categories=("Cs",)), max_size=400))
def test_any_text_reads_or_fails_with_source_errors(text):
    _outcome(text.encode("utf-8"))


@PROPERTY
@given(st.binary(max_size=400))
def test_any_bytes_read_or_fail_with_source_errors(data):
    _outcome(data)
    _outcome(data, "bank.xlsx")


def _grid(draw_rows) -> str:
    out = io.StringIO()
    csv.writer(out, delimiter=draw_rows[0]).writerows(draw_rows[1])
    return out.getvalue()


SHEETS = st.tuples(
    st.sampled_from([",", ";", "\t"]),
    st.tuples(
        st.lists(st.lists(st.sampled_from(SETTING_WORDS + CELL_WORDS), min_size=1, max_size=3), max_size=3),
        st.lists(st.sampled_from(HEADER_WORDS), min_size=1, max_size=9),
        st.lists(st.lists(st.sampled_from(CELL_WORDS), max_size=10), max_size=6),
    ).map(lambda parts: parts[0] + [parts[1] + ["question"] * ("question" not in parts[1])] + parts[2]),
)


@PROPERTY
@given(SHEETS)
def test_any_sheet_of_known_words_reads_or_fails_with_source_errors(parts):
    _outcome(_grid(parts).encode("utf-8"))


CELL_VALUES = st.one_of(st.sampled_from(CELL_WORDS + HEADER_WORDS), st.none(), st.booleans(),
                        st.integers(-10, 10**6), st.floats(allow_nan=True, allow_infinity=True),
                        st.dates(), st.text(max_size=8))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(HEADER_WORDS), min_size=1, max_size=8),
       st.lists(st.lists(CELL_VALUES, max_size=8), max_size=5))
def test_any_workbook_of_known_words_reads_or_fails_with_source_errors(header, rows):
    import openpyxl
    from openpyxl.utils.exceptions import IllegalCharacterError

    book = openpyxl.Workbook()
    try:
        for row in [header + ["question"], *rows]:
            book.active.append(row)
    except (IllegalCharacterError, ValueError):  # what openpyxl itself will not write
        return
    out = io.BytesIO()
    book.save(out)
    _outcome(out.getvalue(), "bank.xlsx")
