"""Lint rules case by case (tests/fixtures/lint/rules.txt), the seeds' findings, and check().

A case's title starts with the rule it is about and says whether it `fires` or
stays `silent`; the test holds the expected output to that, so regenerating the
fixtures with --update-goldens cannot quietly lose a finding or add a false alarm.
A case's input is one quiz text (`case.txt`), a model JSON (`case.json`, when it
starts with `{`), or several files, each opened by a `%% name` line.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import casefile
import lmsexport
from lmsexport.model import quiz_from_data, quiz_to_data
from conftest import GOLDEN, ROOT
from lmsexport.rules.runner import RULES, check
from lmsexport.rules.report import to_text
from lmsexport.formats import reader

RULE_CASES = Path(__file__).parent / "fixtures" / "lint" / "rules.txt"
CASES = casefile.load(RULE_CASES)
TITLE = re.compile(r"(?P<code>L\d{3}) (?P<verdict>fires|silent)\b")
QUIZZES = sorted((ROOT / "quizzes").glob("*.txt"))


def _files(source: str) -> list[tuple[str, str]]:
    if not source.startswith("%% "):
        return [("case.json" if source.lstrip().startswith("{") else "case.txt", source)]
    chunks = re.split(r"^%% (.+)\n", source, flags=re.MULTILINE)[1:]
    return list(zip(chunks[::2], chunks[1::2]))


def _lint(source: str) -> str:
    files = _files(source)
    quizzes = [reader("json" if name.endswith(".json") else "text").read(text, source=name) for name, text in files]
    diagnostics = check(quizzes, sources=[name for name, _ in files])
    return to_text(diagnostics).rstrip("\n") or "(no findings)"


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_rule_case(case, request):
    actual = _lint(case.input)
    casefile.check(RULE_CASES, case, actual, request)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_case_keeps_its_verdict(case):
    match = TITLE.match(case.title)
    assert match, f"{RULE_CASES.name}:{case.line}: start the title with the code and fires/silent"
    found = f"[{match['code']}]" in _lint(case.input)
    assert found == (match["verdict"] == "fires"), f"{RULE_CASES.name}:{case.line}: {case.title}"


def test_every_rule_has_a_firing_and_a_silent_case():
    verdicts = {(m["code"], m["verdict"]) for m in map(TITLE.match, (c.title for c in CASES)) if m}
    missing = [f"{rule.code} {verdict}" for rule in RULES for verdict in ("fires", "silent")
               if (rule.code, verdict) not in verdicts]
    assert not missing, f"add cases to {RULE_CASES.name} for: {missing}"


def test_rules_are_well_formed():
    codes = [rule.code for rule in RULES]
    assert codes == sorted(codes) and len(set(codes)) == len(codes)
    assert all(re.fullmatch(r"L0\d\d", code) for code in codes)
    names = [rule.name for rule in RULES]
    assert len(set(names)) == len(names) and all(re.fullmatch(r"[a-z]+(-[a-z]+)*", name) for name in names)
    assert all(rule.summary.endswith(".") and "\n" not in rule.summary for rule in RULES)


def _seeds():
    return [lmsexport.read(path.relative_to(ROOT)) for path in QUIZZES]


def test_seed_findings_golden(goldens, monkeypatch):
    monkeypatch.chdir(ROOT)
    goldens.check(GOLDEN / "lint" / "quizzes.txt", to_text(check(_seeds())))


def test_seed_findings_are_the_known_problems(monkeypatch):
    """The issue's acceptance list, independent of how messages are worded."""
    monkeypatch.chdir(ROOT)
    found = {(d.code, d.span.source.rsplit("/", 1)[-1], d.span.line) for d in check(_seeds())}
    language = {f for f in found if f[0] == "L020"}
    assert language == {
        ("L020", "fsdp-yo.txt", 39), ("L020", "fsdp-yo.txt", 44),
        ("L020", "zero-id.txt", 39), ("L020", "zero-id.txt", 44),
        ("L020", "data-parallel-vi.txt", 48),  # option d, on its own line
    }
    assert ("L010", "fsdp-yo.txt", 25) in found  # option a of question 4
    assert {f[1] for f in found if f[0] == "L030"} == {"fsdp-yo.txt", "zero-id.txt", "data-parallel-vi.txt"}


def test_vietnamese_finding_names_the_english_option(monkeypatch):
    monkeypatch.chdir(ROOT)
    [finding] = [d for d in check(_seeds()) if d.code == "L020" and "vi" in d.span.source]
    assert finding.message.startswith("option d of question 8 is in English")


def test_quiz_header_switches_a_rule_off():
    text = "---\nlint: -L010\n---\nQuiz\n\n1. A _X_PROTECTED_1__?\n   *• x\n   • y\n"
    quiz = reader("text").read(text, source="q.txt")
    assert quiz.lint_ignore == ("L010",)
    assert check([quiz]) == []
    assert [d.code for d in check([reader("text").read(text.replace("lint: -L010\n", ""), source="q.txt")])] == ["L010"]


def test_run_ignore_switches_rules_off(monkeypatch):
    monkeypatch.chdir(ROOT)
    codes = {d.code for d in check(_seeds(), ignore=["L020", "L030"])}
    assert codes == {"L010", "L032"}


def test_unknown_run_ignore_is_refused():
    with pytest.raises(ValueError, match="L999"):
        check([], ignore=["L999"])


def test_batch_rule_respects_the_quiz_that_switched_it_off():
    base = "Quiz\n\n1. What does the optimizer keep between steps?\n   *• Its state\n   • Nothing\n"
    first = reader("text").read(base, source="a.txt")
    second = reader("text").read("---\nlint: -L040\n---\n" + base, source="b.txt")
    assert check([first, second]) == []
    assert [(d.code, d.span.source) for d in check([second, first])] == [("L040", "a.txt")]


def test_quiz_without_positions_points_at_its_source():
    quiz = lmsexport.read(ROOT / "quizzes" / "fsdp-yo.txt")
    unplaced = quiz_from_data(quiz_to_data(quiz))  # the model's JSON form keeps no positions
    assert {str(d.span) for d in check([unplaced], sources=["x.json"])} == {"x.json"}
    assert {str(d.span) for d in check([unplaced])} == {"fsdp-yo"}
    from_json = reader("json").read(lmsexport.write(quiz, "json").files["fsdp-yo.json"], source="x.json")
    assert {str(d.span) for d in check([from_json])} == {"x.json"}  # the JSON reader places questions in their file


ARABIC = (
    "---\nlang: ar\n---\nاختبار الذاكرة\n\n"
    "1. ما هي ذاكرة المعالج في هذا النظام؟\n   *• ذاكرة سريعة جدا #1.a\n   • ذاكرة بطيئة جدا مع GPU\n"
)
"""A quiz in a script that decides the language: its texts are Arabic, whatever `#1.a` or GPU they hold."""
PROBE = (
    "import sys, lmsexport; from lmsexport.rules.runner import check; "
    "found = check([lmsexport.read(path) for path in sys.argv[2:]], "
    "ignore=sys.argv[1].split(',') if sys.argv[1] else []); "
    "print(sorted({d.code for d in found}), 'lmsexport.rules.langmodel' in sys.modules, 'numpy' in sys.modules)"
)


def _lint_in_a_new_process(tmp_path, sources: list[str], ignore: str = "") -> tuple[str, bool, bool]:
    """(the codes found, whether the language model was loaded, whether numpy was imported)."""
    paths = []
    for number, source in enumerate(sources):
        path = tmp_path / f"quiz{number}.txt"
        path.write_text(source, encoding="utf-8")
        paths.append(str(path))
    env = {**os.environ, "LMSEXPORT_CACHE_DIR": str(tmp_path / "cache")}
    out = subprocess.run([sys.executable, "-c", PROBE, ignore, *paths], capture_output=True, text=True, env=env,
                         cwd=ROOT, check=True)
    codes, model, numpy = out.stdout.rsplit(" ", 2)
    return codes, model == "True", numpy.strip() == "True"


YORUBA = (ROOT / "quizzes" / "fsdp-yo.txt").read_text(encoding="utf-8")


@pytest.mark.parametrize("sources, ignore", [
    ([YORUBA], "L020"),  # the rule is off for the run
    (["---\nlint: -L020\n" + YORUBA.removeprefix("---\n")], ""),  # or for the quiz
    ([ARABIC], ""),
    ([YORUBA.replace("lang: yo", "lang: en")], ""),  # English: nothing to compare with
    ([YORUBA.replace("lang: yo\n", "")], ""),  # no language
    ([YORUBA.replace("lang: yo", "lang: chr")], ""),  # Cherokee: a language the model does not know
], ids=["ignored", "switched-off", "arabic", "english", "no-lang", "unknown-lang"])
def test_language_model_is_not_loaded_when_no_text_needs_it(tmp_path, sources, ignore):
    codes, model, numpy = _lint_in_a_new_process(tmp_path, sources, ignore)
    assert (model, numpy) == (False, False) and "L020" not in codes
    assert not (tmp_path / "cache").exists()


def test_language_model_is_loaded_and_cached_when_a_text_needs_it(tmp_path):
    """An Arabic quiz with an English title: the model is loaded and its copy cached; later runs
    map the copy and score the few texts without numpy."""
    english_title = ARABIC.replace("اختبار الذاكرة", "A quiz about memory")
    assert _lint_in_a_new_process(tmp_path, [english_title]) == ("['L020']", True, True)  # numpy unpacks it
    (cached,) = (tmp_path / "cache").iterdir()
    assert cached.name.startswith("py3langid-") and cached.stat().st_size > 10_000_000
    assert _lint_in_a_new_process(tmp_path, [english_title]) == ("['L020']", True, False)
    assert _lint_in_a_new_process(tmp_path, [YORUBA])[1:] == (True, False)


@pytest.mark.parametrize("command", [["lint"], ["build", "-f", "json", "-o", "{out}"]], ids=["lint", "build"])
def test_any_run_that_loads_the_model_caches_it(tmp_path, command):
    """`build` lints a single source in a forked child process: the child writes the cache too."""
    env = {**os.environ, "LMSEXPORT_CACHE_DIR": str(tmp_path / "cache")}
    args = [arg.format(out=tmp_path / "out") for arg in command]
    out = subprocess.run([sys.executable, "-m", "lmsexport", *args, str(ROOT / "quizzes" / "fsdp-yo.txt")],
                         capture_output=True, text=True, env=env, cwd=ROOT)
    assert "[L020]" in out.stdout + out.stderr, out.stderr
    assert [path.name.startswith("py3langid-") for path in (tmp_path / "cache").iterdir()] == [True]


DOCS = ROOT / "docs" / "lint.md"
EXAMPLE = re.compile(r"<!-- example (?P<code>L\d{3}) -->\n```(?P<kind>text|json)\n(?P<source>.*?)```", re.DOTALL)


def test_docs_have_an_example_for_every_rule():
    examples = [m["code"] for m in EXAMPLE.finditer(DOCS.read_text(encoding="utf-8"))]
    assert examples == [rule.code for rule in RULES], "docs/lint.md: one <!-- example Lnnn --> per rule, in order"


@pytest.mark.parametrize("example", list(EXAMPLE.finditer(DOCS.read_text(encoding="utf-8"))), ids=lambda m: m["code"])
def test_docs_example_triggers_its_rule(example):
    name = "example.json" if example["kind"] == "json" else "example.txt"
    if example["kind"] == "json":
        quiz = reader("json").read(example["source"], source=name)
    else:  # images in examples are stand-ins: any bytes do
        quiz = reader("text").read(example["source"], source=name, assets=lambda path: b"\x89PNG")
    assert {d.code for d in check([quiz])} == {example["code"]}, f"docs/lint.md: the {example['code']} example"


def test_docs_table_lists_every_rule():
    text = DOCS.read_text(encoding="utf-8")
    for rule in RULES:
        assert f"| {rule.code} | {rule.name} | {rule.severity.value} |" in text
        assert f"#### {rule.code} {rule.name} ({rule.severity.value})" in text
