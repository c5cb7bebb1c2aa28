"""Sources that are not UTF-8: one E101 per file, at the first byte that is not, naming the
encoding the file most likely is (charset-normalizer) and how to re-save it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import lmsexport
from lmsexport import SourceError

ROOT = Path(__file__).resolve().parent.parent

FRENCH = """---
lang: fr
---
Quiz de géographie : les capitales

Répondez à chaque question ; la réponse s'affiche après chaque question.

1. Quelle est la capitale de la Belgique ?
   *- Bruxelles
   - Anvers
   - Liège
   > Bruxelles est la capitale depuis l'indépendance, en 1830.

2. Quel fleuve traverse Lyon ?
   - la Seine
   *- le Rhône
   - la Garonne
   > Le Rhône et la Saône s'y rejoignent.
"""

CZECH = """---
lang: cs
---
Kvíz: zeměpis Česka

Odpovězte na každou otázku; správná odpověď se ukáže hned.

1. Jaké je hlavní město České republiky?
   *- Praha
   - Brno
   - Ostrava
   > Praha je hlavním městem od roku 1993.

2. Která řeka protéká Prahou?
   - Labe
   *- Vltava
   - Morava
   > Vltava se vlévá do Labe u Mělníka.
"""

RUSSIAN = """---
lang: ru
---
Викторина по географии

1. Какая река самая длинная в Европе?
   *- Волга
   - Дунай
   - Днепр
   > Волга течёт от Валдайской возвышенности до Каспийского моря.

2. Столица Украины?
   *- Киев
   - Харьков
"""

ARABIC = """---
lang: ar
---
اختبار في الجغرافيا

أجب عن كل سؤال؛ تظهر الإجابة الصحيحة بعد كل إجابة.

1. ما هي عاصمة مصر؟
   *- القاهرة
   - الإسكندرية
   - أسوان
   > القاهرة هي العاصمة منذ قرون.

2. ما هو أطول نهر في أفريقيا؟
   *- النيل
   - الكونغو
"""


def _problems(data: bytes, name: str = "quiz.txt"):
    with pytest.raises(SourceError) as caught:
        lmsexport.read(name, data)
    return caught.value.diagnostics


@pytest.mark.parametrize("text, codec, name", [
    (FRENCH, "cp1252", "Windows-1252"),
    (CZECH, "cp1250", "Windows-1250"),
    (RUSSIAN, "cp1251", "Windows-1251"),
    (ARABIC, "cp1256", "Windows-1256"),
])
def test_a_file_in_another_encoding_is_one_error_naming_it(text, codec, name):
    (problem,) = _problems(text.encode(codec), "week 1.txt")
    assert problem.code == "E101"
    assert f"most likely {name}" in problem.message
    assert f"iconv -f {name} -t UTF-8 'week 1.txt' > 'week 1.utf8.txt'" in problem.hint
    title = text.split("---\n")[2].split("\n")[0]
    # The line is shown as the file's author sees it: read in the encoding found.
    first = next(n for n, line in enumerate(text.split("\n"), 1) if not line.isascii())
    assert (problem.span.line, problem.source_line) == (first, text.split("\n")[first - 1])
    assert first == 4 and problem.source_line == title
    column = next(i for i, char in enumerate(title, 1) if not char.isascii())
    assert problem.span.column == column


def test_the_error_counts_the_bytes_and_names_their_lines():
    (problem,) = _problems(FRENCH.encode("cp1252"))
    assert "10 bytes on lines 4, 6, 11, 12, 16 and 18 are not UTF-8 (the first, 0xE9, is here)" in problem.message
    longer = FRENCH + "".join(f"\n{n}. Où est Genève ?\n   *- en Suisse\n   - en France\n" for n in range(3, 6))
    (problem,) = _problems(longer.encode("cp1252"))
    assert "16 bytes on lines 4, 6, 11, 12, 16 and 4 more are not UTF-8" in problem.message


def test_a_single_byte_is_named_alone():
    (problem,) = _problems("Quiz\n\n1. Café?\n   *- a\n   - b\n".encode("cp1252"))
    assert "1 byte on line 3 is not UTF-8" in problem.message
    assert (problem.span.line, problem.span.column) == (3, 7)


def test_a_utf8_file_with_bytes_of_another_encoding_is_mixed():
    data = "Quiz café\n\n1. Où?\n   *• ici\n   • là\n".encode() + "   - déjà\n".encode("cp1252")
    (problem,) = _problems(data)
    assert "the file is UTF-8, but 2 bytes on line 6 are not UTF-8" in problem.message
    assert "most likely" not in problem.message
    assert (problem.span.line, problem.span.column, problem.source_line) == (6, 7, "   - d\ufffdj\ufffd")


def test_every_text_reader_reports_it_once():
    gift = ("::q1:: Jaké je hlavní město České republiky?{=Praha ~Brno ~Ostrava}\n\n"
            "::q2:: Která řeka protéká Prahou?{~Labe =Vltava ~Morava #Vltava se vlévá do Labe u Mělníka.}\n")
    aiken = ("Jaké je hlavní město České republiky?\nA. Praha\nB. Brno\nC. Ostrava\nANSWER: A\n\n"
             "Která řeka protéká Prahou?\nA. Labe\nB. Vltava\nC. Morava\nANSWER: B\n")
    for name, text in (("quiz.gift", gift), ("quiz.aiken", aiken), ("quiz.txt", CZECH)):
        (problem,) = _problems(text.encode("cp1250"), name)
        assert problem.code == "E101" and "most likely Windows-1250" in problem.message, name


def test_binary_files_are_still_refused_as_binary():
    (problem,) = _problems(b"PK\x03\x04" + bytes(range(256)) * 4, "quiz.txt")
    assert problem.code == "E102"


def test_charset_normalizer_loads_only_for_a_file_that_is_not_utf8():
    script = ("import sys, lmsexport\n"
              "lmsexport.read('q.txt', 'Quiz café\\n\\n1. A?\\n   *- x\\n   - y\\n'.encode())\n"
              "print('charset_normalizer' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT,
                         env={"PYTHONPATH": str(ROOT), "PATH": ""})
    assert out.stdout.strip() == "False", out.stderr
