"""A spreadsheet of questions, CSV or Excel (.xlsx), read into the model (docs/formats/sheet.md).

One row per question under a header row that names the columns (`columns.py`); settings rows
above it (`settings.py`); the type of each row from its `type` cell or its other cells
(`rows.py`); one builder per type (`kinds.py`). An `.xlsx` name or zip bytes make a workbook
(`workbook.py`); anything else is CSV text (`csvfile.py`), whatever its suffix. Every problem
of the sheet, each at its cell, comes in one SourceError.
"""

from __future__ import annotations

import warnings
from typing import Callable

from ...diagnostics import ConversionWarning, Diagnostic, Log, SourceError, SourceSpan
from ...ids import file_stem, slug
from ...model import ModelError, Question, Quiz, Settings, is_language_tag
from ...textinput import decode
from . import values
from .csvfile import read_csv
from .gaps import has_gaps
from .grid import Grid
from .kinds import build
from .rows import Header, RowReader, explicit_type, inferred_type, is_comment, read_header, split
from .settings import read_settings
from .texts import Texts, load_assets
from .workbook import OLD_OFFICE, read_workbook

READ_OPTIONS = ("log", "defaults", "assets")
"""`log` takes the warnings; `defaults` are settings from lmsexport.toml (a sheet's own settings
rows win); `assets` loads the images Markdown texts show, by their path relative to the sheet."""
_DOCS = "see docs/formats/sheet.md"


def read(data: str | bytes, *, source: str, log: Log | None = None, defaults: dict | None = None,
         assets: Callable[[str], bytes] | None = None) -> Quiz:
    """Read a sheet of questions; raises SourceError listing every problem, each at its cell."""
    caught = Log() if log is None else log
    quiz = _quiz(_grid(data, source, caught), defaults or {}, assets, caught)
    if log is None:
        for diagnostic in caught.diagnostics:
            warnings.warn(diagnostic.render(), ConversionWarning, stacklevel=2)
    return quiz


def _grid(data: str | bytes, source: str, log: Log) -> Grid:
    """A workbook if the file is named one or its bytes are one (a zip, an old Office file), else CSV."""
    workbook = source.lower().endswith(".xlsx")
    if isinstance(data, bytes) and (workbook or data.startswith((b"PK", OLD_OFFICE))):
        return read_workbook(data, source, log)
    if workbook:
        raise SourceError([Diagnostic("E971", "a workbook is read from its bytes, not from text", SourceSpan(source),
                                      "pass the file's bytes (open it in binary mode)")])
    try:
        return read_csv(decode(data, source), source)
    except SourceError as exc:
        if [d.code for d in exc.diagnostics] == ["E103"]:  # decode's hint is about text quizzes
            raise SourceError([Diagnostic("E989", "the file is empty", SourceSpan(source),
                                          "a sheet starts with a header row: type, question, a, b, correct; "
                                          + _DOCS)]) from None
        raise


def _quiz(grid: Grid, defaults: dict, assets: Callable[[str], bytes] | None, log: Log) -> Quiz:
    problems: list[Diagnostic] = []
    settings_rows, header_row, question_rows = split(grid)
    if header_row is None:
        raise SourceError([_no_header(grid)])
    header = read_header(grid, header_row, problems)
    header_broken = bool(problems)
    given = read_settings(grid, settings_rows, problems, defaults.get("lang"))
    if header_broken:
        raise SourceError(problems)  # every row is read through the header: have it fixed first
    config = {**defaults, **{name: value for name, (value, _, _) in given.items()}}
    texts = Texts(config.get("markup") == "markdown")
    description = None
    if "description" in given:
        value, row, column = given["description"]
        description = texts.text(value, row, column)
    questions = _questions(grid, header, question_rows, config, texts, problems, log)
    if not questions and not problems:
        problems.append(grid.error("E989", "no questions under the header row", header_row,
                                   header.columns["question"], f"write one question per row below the header; {_DOCS}"))
    loaded = load_assets(texts, assets, grid, problems)
    messages = _messages(config, grid.source, problems)
    if problems:
        raise SourceError(problems)
    stem = file_stem(grid.source)
    return Quiz(
        id=config.get("id") or slug(stem), title=config.get("title") or stem, lang=config.get("lang"),
        description=description, tags=config.get("tags", ()), lint_ignore=config.get("lint", ()),
        settings=Settings(shuffle=config.get("shuffle", False), pass_mark=config.get("pass"),
                          feedback=config.get("feedback", "immediate"), attempts=config.get("attempts"),
                          time_limit=config.get("time"), messages=messages),
        questions=tuple(questions), assets=loaded,
    )


def _messages(config: dict, source: str, problems: list[Diagnostic]) -> tuple[tuple[str, str], ...]:
    """The player's words lmsexport.toml's `[defaults]` give (a sheet has no row for them);
    what is wrong with them goes to `problems`."""
    from ...interface.custom import quiz_messages

    try:
        return quiz_messages(config.get("messages"), config.get("lang"), None, SourceSpan(source))
    except SourceError as exc:
        problems += exc.diagnostics
        return ()


def _no_header(grid: Grid) -> Diagnostic:
    rows = [row for row in grid.rows if not is_comment(row)]
    if not rows:
        return Diagnostic("E989", "the sheet is empty" + (" but for comments" if grid.rows else ""),
                          SourceSpan(grid.source, sheet=grid.sheet),
                          f"write a header row, then one question per row; {_DOCS}")
    row = rows[0]
    return grid.error("E974", "no header row: no row names a question column", row, row.first()[0],
                      f"start the sheet with a row naming its columns, such as type, question, a, b, c, correct; {_DOCS}")


def _questions(grid: Grid, header: Header, rows, config: dict, texts: Texts,
               problems: list[Diagnostic], log: Log) -> list[Question]:
    questions: list[Question] = []
    counts = {"question": 0, "text block": 0}
    numbers = values.Numbers(config.get("lang"), config.get("decimal"))
    for row in rows:
        reader = RowReader(grid, header, row, problems, numbers, texts, log)
        if not reader.usable():
            continue
        kind = explicit_type(reader)
        if kind == "":
            continue
        counted = "text block" if kind == "description" else "question"
        counts[counted] += 1
        reader.name = f"{counted} {counts[counted]}"
        question_id = f"{'t' if kind == 'description' else 'q'}{counts[counted]}"
        question = _question(reader, kind, question_id, config)
        if question is not None:
            questions.append(question)
    return questions


def _question(reader: RowReader, kind: str | None, question_id: str, config: dict) -> Question | None:
    cell = reader.get("question")
    if cell is None:
        reader.error("E978", f"{reader.name} has no question text", "question",
                     "write the question in the question column (or clear the row)")
        return None
    kind = kind or inferred_type(reader)
    if kind is None or not reader.check_uses(kind):
        return None
    if kind != "fill_blanks" and has_gaps(cell.text):
        reader.error("E984", f"{reader.name} has {{=...}} gaps, which only a fill_blanks question has", "question",
                     "clear correct and the options to make it a fill-in-the-blanks question, "
                     "or write the braces some other way")
        return None
    common = _common(reader, question_id, config)
    if common is None:
        return None
    try:
        return build(reader, kind, common)
    except ModelError as exc:  # a rule of the model no check above caught: still the teacher's cell, not a crash
        reader.error("E991", f"{reader.name} cannot be made a question: {exc}", "question", _DOCS)
        return None


def _common(reader: RowReader, question_id: str, config: dict) -> dict | None:
    """The fields every question has, from the row's cells; None after reporting a bad one."""
    points = config.get("points", 1.0)
    cell = reader.get("points")
    if cell is not None:
        try:
            points = values.number(cell, reader.numbers)
        except ValueError as exc:
            reader.error("E982", f"points of {reader.name} holds {cell.text!r}", "points", str(exc))
            return None
        if points < 0:
            reader.error("E982", f"points of {reader.name} is negative", "points", "write 0 or more")
            return None
    lang = reader.get("lang")
    if lang is not None and not is_language_tag(lang.text):
        reader.error("E982", f"lang of {reader.name} holds {lang.text!r}", "lang",
                     "use a BCP 47 language tag such as en, yo, id, vi, ar or pt-BR")
        return None
    tags = reader.get("tags")
    title = reader.get("title")
    return dict(
        id=question_id, points=points, lang=lang.text if lang else None,
        title=" ".join(title.text.split()) if title else None,
        tags=tuple(tag.strip() for tag in tags.text.split(",") if tag.strip()) if tags else (),
        explanation=reader.text("explanation"), correct_feedback=reader.text("correct feedback"),
        incorrect_feedback=reader.text("incorrect feedback"),
        source=reader.grid.span(reader.row, reader.header.columns["question"]),
    )
