"""The lines of a text2qti file, cut into its elements (text2qti 0.8, `text2qti/quiz.py`).

An element starts at column 1 with its marker and the whitespace after it (`1.  `, `*a) `,
`...  `, `Points: `); its text continues on the following lines indented like its first
line's text (titles and `key:` elements: by two spaces or a tab), across blank lines except
for titles. Markers that take no text stand alone on their line (`____`, `^^^^`, `GROUP`).
`%` lines and `COMMENT` ... `END_COMMENT` blocks are comments. Tabs count as 4 columns,
as in text2qti. Any other line is an error, as in text2qti, and so is an executable code
block: lmsexport never runs code from a quiz file.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable

START_PATTERNS = {
    "question": r"\d+\.",
    "mctf_correct_choice": r"\*[a-zA-Z]\)",
    "mctf_incorrect_choice": r"[a-zA-Z]\)",
    "multans_correct_choice": r"\[\*\]",
    "multans_incorrect_choice": r"\[ ?\]",
    "shortans_correct_choice": r"\*",
    "feedback": r"\.\.\.",
    "correct_feedback": r"\+",
    "incorrect_feedback": r"\-",
    "solution": r"!",
    "essay": r"___+",
    "upload": r"\^\^\^+",
    "numerical": r"=",
    "question_title": r"[Tt]itle:",
    "question_points": r"[Pp]oints:",
    "text_title": r"[Tt]ext [Tt]itle:",
    "text": r"[Tt]ext:",
    "quiz_title": r"[Qq]uiz [Tt]itle:",
    "quiz_description": r"[Qq]uiz description:",
    "start_group": r"GROUP",
    "end_group": r"END_GROUP",
    "group_pick": r"[Pp]ick:",
    "group_solutions_pick": r"[Ss]olutions pick:",
    "group_points_per_question": r"[Pp]oints per question:",
    "start_code": r"```+\s*\S.*",
    "end_code": r"```+",
    "quiz_shuffle_answers": r"[Ss]huffle answers:",
    "quiz_show_correct_answers": r"[Ss]how correct answers:",
    "quiz_one_question_at_a_time": r"[Oo]ne question at a time:",
    "quiz_cant_go_back": r"[Cc]an't go back:",
    "quiz_feedback_is_solution": r"[Ff]eedback is solution:",
    "quiz_solutions_sample_groups": r"[Ss]olutions sample groups:",
    "quiz_solutions_randomize_groups": r"[Ss]olutions randomize groups:",
}
"""Marker of each element, in the order text2qti tries them (the first that matches wins)."""

NO_CONTENT = frozenset({"essay", "upload", "start_group", "end_group", "start_code", "end_code"})
SINGLE_LINE = frozenset({
    "question_points", "group_pick", "group_solutions_pick", "group_points_per_question", "numerical",
    "shortans_correct_choice", "quiz_shuffle_answers", "quiz_show_correct_answers", "quiz_one_question_at_a_time",
    "quiz_cant_go_back", "quiz_feedback_is_solution", "quiz_solutions_sample_groups",
    "quiz_solutions_randomize_groups",
})
MULTI_LINE = frozenset(START_PATTERNS) - NO_CONTENT - SINGLE_LINE
MULTI_PARAGRAPH = frozenset(kind for kind in MULTI_LINE if "title" not in kind)

_START = re.compile("|".join(
    rf"(?P<{name}>{pattern}\s*)$" if name in NO_CONTENT else rf"(?P<{name}>{pattern}[ \t]+(?=\S))"
    for name, pattern in START_PATTERNS.items()))
_MISSING_CONTENT = re.compile("|".join(
    rf"(?P<{name}>{pattern}[ \t]*$)" for name, pattern in START_PATTERNS.items() if name not in NO_CONTENT))
_MISSING_SPACE = re.compile("|".join(
    rf"(?P<{name}>{pattern}(?=\S))" for name, pattern in START_PATTERNS.items() if name not in NO_CONTENT))
_CODE_INFO = re.compile(r"\{\s*\.[A-Za-z][\w.-]*\s+\.run\b")


@dataclass(frozen=True, slots=True)
class Element:
    """One element of the file: its kind (a START_PATTERNS name), its text, where it is."""

    kind: str
    text: str
    line: int
    column: int
    """Where its text starts on its first line (1-based), for messages."""
    end: int
    """Its last line."""


Report = Callable[[str, str, int, int, str], None]
"""`report(code, message, line, column, hint)`: a located problem."""


def elements(lines: list[str], report: Report) -> list[Element]:
    """Every element of the file, in order; every other non-blank line is reported."""
    found: list[Element] = []
    index = 0
    while index < len(lines):
        line = lines[index]
        match = _START.match(line)
        if match and match.lastgroup == "start_code":
            index = _code_block(lines, index, report)
        elif match:
            element, index = _element(lines, index, match, report)
            found.append(element)
        elif line.startswith("%"):
            index += 1
        elif line.startswith("COMMENT"):
            index = _comment(lines, index, report)
        else:
            found += _unknown(line, index + 1, report)
            index += 1
    return found


def _element(lines: list[str], index: int, match: re.Match, report: Report) -> tuple[Element, int]:
    """The element starting at `lines[index]`, and the index of the line after it."""
    kind, line = match.lastgroup, lines[index]
    text = line[match.end():].strip()
    start, column = index + 1, len(line) - len(line[match.end():].lstrip()) + 1
    index += 1
    if kind in MULTI_LINE:
        indent = None if START_PATTERNS[kind].endswith(":") else " " * len(line[:match.end()].expandtabs(4))
        parts = [text]
        while index < len(lines):
            expanded = lines[index].expandtabs(4)
            if not expanded.strip():
                if kind not in MULTI_PARAGRAPH:
                    break
                parts.append("")
            else:
                if indent is None:
                    if not expanded.startswith(" "):
                        break
                    indent = " " * (len(expanded) - len(expanded.lstrip(" ")))
                    if len(indent) < 2:
                        report("E951", "a continued title or setting is indented by at least 2 spaces or 1 tab",
                               index + 1, 1, "indent the line that continues it by two spaces or more")
                elif not expanded.startswith(indent):
                    break
                parts.append(expanded[len(indent):].rstrip())
            index += 1
        while parts and not parts[-1]:
            parts.pop()
            index -= 1
        text = "\n".join(parts)
    return Element(kind, text, start, column, max(start, index)), index


def _code_block(lines: list[str], index: int, report: Report) -> int:
    """Report an unindented code block (text2qti runs ```{.lang .run} blocks); skip to its end."""
    fence = lines[index][: len(lines[index]) - len(lines[index].lstrip("`"))]
    runnable = _CODE_INFO.match(lines[index].lstrip("`").strip())
    report("E952", "an executable code block: lmsexport never runs code from a quiz file" if runnable else
           "a code block at the top level of the quiz", index + 1, 1,
           "run text2qti --run-code-blocks and paste what the code prints into the quiz instead" if runnable else
           "indent a code block under the question, choice or feedback it belongs to")
    for end in range(index + 1, len(lines)):
        if lines[end].startswith(fence) and not lines[end].lstrip("`").strip():
            return end + 1
    report("E952", "the code block has no closing fence", index + 1, 1, f"close it with a line of {fence}")
    return len(lines)


def _comment(lines: list[str], index: int, report: Report) -> int:
    """Skip a `COMMENT` ... `END_COMMENT` block; the index of the line after it."""
    if lines[index].strip() != "COMMENT":
        report("E953", "COMMENT stands alone on its line", index + 1, 8, "put the comment on the lines after it")
    for end in range(index + 1, len(lines)):
        if lines[end].startswith("END_COMMENT"):
            if lines[end].strip() != "END_COMMENT":
                report("E953", "END_COMMENT stands alone on its line", end + 1, 12, "put nothing after it")
            return end + 1
    report("E953", "COMMENT without END_COMMENT after it", index + 1, 1, "end the comment with a line END_COMMENT")
    return len(lines)


def _unknown(line: str, number: int, report: Report) -> list[Element]:
    """Report a line that is no element; a marker missing only its space still makes one."""
    if not line.strip():
        return []
    column = len(line) - len(line.lstrip()) + 1
    if line.startswith("END_COMMENT"):
        report("E953", "END_COMMENT without COMMENT before it", number, 1, "start the comment with a line COMMENT")
    elif line.startswith("```"):
        report("E952", "a code block fence with no code block to close", number, 1,
               "indent a code block under the question, choice or feedback it belongs to")
    elif match := _MISSING_SPACE.match(line):
        marker = match.group().strip()
        report("E954", f"missing whitespace after {marker!r}", number, len(marker) + 1, f"write {marker} text")
        return [Element(match.lastgroup, line[match.end():].strip(), number, len(marker) + 1, number)]
    elif match := _MISSING_CONTENT.match(line):
        marker = match.group().strip()
        report("E954", f"nothing after {marker!r}", number, 1, f"write its text after it: {marker} text")
    else:
        report("E955", "unexpected text, or a continued line indented differently from the line it continues",
               number, column, "start a line with what it is (1. question, a) choice, ... feedback) at the "
               "left margin, and indent the lines that continue it like its text")
    return []
