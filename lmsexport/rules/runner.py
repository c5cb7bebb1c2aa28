"""Lint: semantic checks on quizzes, as located diagnostics (docs/lint.md).

    diagnostics = check(quizzes, ignore=("L032",))

Works on the model only, never on source text, so it applies to whatever reader
built the quizzes. The rules live in `lmsexport/rules/`, one module per topic;
`RULES` lists them all in code order. A rule is switched off for one quiz by its
`lint_ignore` (`lint: -L012` in a text header) and for the whole run by `ignore`.
"""

from __future__ import annotations

from typing import Iterable, Iterator, Sequence

from ..diagnostics import Diagnostic, Severity, SourceSpan
from ..model import Quiz
from ..model.packed import held
from . import Finding, Rule, answers, forget, language, limits, placeholders, pools, repeats, structure

RULES: tuple[Rule, ...] = tuple(sorted(
    structure.RULES + placeholders.RULES + language.RULES + answers.RULES + repeats.RULES + limits.RULES
    + pools.RULES, key=lambda rule: rule.code))
BY_CODE: dict[str, Rule] = {rule.code: rule for rule in RULES}

UNKNOWN_RULE = "L000"
"""Not a rule: a quiz's `lint:` header names a code that no rule has."""


def unknown_codes(codes: Iterable[str]) -> list[str]:
    return [code for code in codes if code not in BY_CODE]


def _origin(quiz: Quiz, source: str | None) -> SourceSpan:
    """Where findings about the quiz as a whole point: the file it was read from, if given."""
    return quiz.where() if source is None else SourceSpan(source)


def _diagnostic(rule: Rule, finding: Finding, origin: SourceSpan) -> Diagnostic:
    question = finding.question
    span = finding.span or (question.source if question is not None and question.source is not None else origin)
    return Diagnostic(rule.code, finding.message, span, finding.hint, rule.severity)


def _unknown_ignores(quiz: Quiz, origin: SourceSpan) -> Iterator[Diagnostic]:
    for code in unknown_codes(quiz.lint_ignore):
        yield Diagnostic(
            UNKNOWN_RULE,
            f"lint: switches off {code}, but there is no such rule",
            origin,
            f"check the code against docs/lint.md (rules: {', '.join(BY_CODE)})",
            Severity.WARNING,
        )


SPLIT_FROM = 5_000
"""Questions from which `check(split=True)` runs L020 in a child: below, the fork and the
pages the child copies cost about what the overlap saves."""
_FORKED = frozenset({"L020"})
"""The rules a split check runs in the child: about half of lint's time (the language model),
and the model's memory stays out of the parent."""


def check(
    quizzes: Sequence[Quiz], *, ignore: Iterable[str] = (), sources: Sequence[str] | None = None,
    split: bool = False,
) -> list[Diagnostic]:
    """Every finding of every rule not switched off, in quiz order, then line, then code.

    `sources` names the file each quiz came from, for findings about a whole quiz
    and for quizzes whose questions carry no position (the JSON reader's); by
    default it is taken from the questions' positions, else the quiz id. With `split`,
    when a second core is free (`forked.available()`) and there are SPLIT_FROM questions
    or more, L020 runs in a forked child meanwhile: the same findings, in less time.
    Raises ValueError for an unknown code in `ignore`.
    """
    quizzes = [held(quiz) for quiz in quizzes]  # the rules go over the questions a dozen times
    ignore = set(ignore)
    if unknown_codes(ignore):
        raise ValueError(f"no lint rule {', '.join(sorted(unknown_codes(ignore)))} (see docs/lint.md)")
    origins = [_origin(quiz, sources[i] if sources else None) for i, quiz in enumerate(quizzes)]
    codes = {rule.code for rule in RULES} - ignore
    child = None
    if split and codes & _FORKED and sum(len(quiz.questions) for quiz in quizzes) >= SPLIT_FROM:
        from .. import forked

        if forked.available():
            child = forked.Forked.start(_found, quizzes, origins, codes & _FORKED, False)
            codes -= _FORKED
    try:
        found = _found(quizzes, origins, codes, True)
    except BaseException:
        if child is not None:
            child.cancel()  # not left running, or as a zombie, when a rule fails here
        raise
    if child is not None:
        found += child.result(otherwise=lambda: _found(quizzes, origins, _FORKED - ignore, False))
    # Findings with equal keys come from one rule, run in one process: the order is as without a child.
    found.sort(key=lambda item: (item[0], item[1].span.line, item[1].span.column, item[1].code))
    return [diagnostic for _, diagnostic in found]


def _found(quizzes: Sequence[Quiz], origins: list[SourceSpan], codes: set[str] | frozenset[str],
           unknown: bool) -> list[tuple[int, Diagnostic]]:
    """The findings of the rules `codes` (each where its quiz does not switch it off), with
    the index of their quiz; with `unknown`, the codes quizzes switch off that no rule has."""
    found: list[tuple[int, Diagnostic]] = []
    try:
        for index, quiz in enumerate(quizzes):  # quiz by quiz: the rules share its parts
            language.preload([quiz], set(BY_CODE) - codes)  # if L020 needs the model, it loads while the rules before run
            if unknown:
                found += ((index, d) for d in _unknown_ignores(quiz, origins[index]))
            for rule in RULES:
                if not rule.batch and rule.code in codes and rule.code not in quiz.lint_ignore:
                    found += ((index, _diagnostic(rule, f, origins[index])) for f in rule.function(quiz))
        forget()  # the last quiz's shared texts: the batch rules need none of them (100,000 questions: 100 MB)
        for rule in RULES:
            if rule.batch and rule.code in codes and not all(rule.code in quiz.lint_ignore for quiz in quizzes):
                found += (
                    (index, _diagnostic(rule, finding, origins[index]))
                    for index, finding in rule.function(quizzes)
                    if rule.code not in quizzes[index].lint_ignore
                )
    finally:
        forget()
    return found
