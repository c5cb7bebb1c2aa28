"""Generate realistic quizzes for benchmarks: several scripts, 4 options, an explanation each.

    python benchmarks/generate.py OUT_DIR --quizzes 100 --questions 20 [--text2qti] [--lang vi]

Writes OUT_DIR/quiz-NNN.txt in the lmsexport text format and, with --text2qti, the
same questions in text2qti's format under OUT_DIR/text2qti/ (for side-by-side timing).
Output is deterministic: the same arguments give the same files.
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

# Short phrases per language, combined into prompts and options; each script is represented.
PHRASES = {
    "vi": ["song song dữ liệu", "bộ tối ưu hóa", "độ trễ giao tiếp", "tham số mô hình", "gradient được tích lũy"],
    "yo": ["àwọn pàràmítà", "ìpínlẹ̀ ìṣàpẹẹrẹ", "iṣẹ́ àkópọ̀", "ìrántí GPU", "ọ̀nà ìbánisọ̀rọ̀"],
    "id": ["paralelisme data", "status pengoptimal", "komunikasi tambahan", "parameter model", "lapisan jaringan"],
    "ar": ["توازي البيانات", "حالة المحسن", "ذاكرة المعالج", "معلمات النموذج", "تأخير الاتصال"],
    "zh": ["数据并行", "优化器状态", "通信延迟", "模型参数", "梯度累积"],
    "en": ["data parallelism", "optimizer state", "all-reduce", "model parameters", "gradient accumulation"],
}


def _sentence(rng: random.Random, lang: str, words: int) -> str:
    return " ".join(rng.choice(PHRASES[lang]) for _ in range(words))


def _questions(rng: random.Random, lang: str, count: int):
    for number in range(1, count + 1):
        prompt = f"{_sentence(rng, lang, 3)} ({number})?"
        options = [f"{_sentence(rng, lang, 2)} #{number}.{letter}" for letter in "abcd"]
        correct = rng.randrange(4)
        yield prompt, options, correct, _sentence(rng, lang, 4)


def lmsexport_text(title: str, lang: str, questions) -> str:
    lines = ["---", f"lang: {lang}", "---", title, "", "Generated for benchmarks.", ""]
    for number, (prompt, options, correct, explanation) in enumerate(questions, 1):
        lines.append(f"{number}. {prompt}")
        lines += [f"   {'*' if i == correct else ''}• {option}" for i, option in enumerate(options)]
        lines += [f"   > {explanation}", ""]
    return "\n".join(lines)


def text2qti_text(title: str, questions) -> str:
    lines = [f"Quiz title: {title}", "Quiz description: Generated for benchmarks.", ""]
    for number, (prompt, options, correct, explanation) in enumerate(questions, 1):
        lines += [f"{number}.  {prompt}", f"... {explanation}"]
        lines += [f"{'*' if i == correct else ''}{letter}) {option}" for i, (letter, option) in enumerate(zip("abcd", options))]
        lines.append("")
    return "\n".join(lines)


def generate(out: Path, quizzes: int, questions: int, text2qti: bool, lang: str | None = None) -> None:
    """Quizzes in each language in turn (the first one Arabic), or all in `lang`."""
    out.mkdir(parents=True, exist_ok=True)
    languages = [lang] if lang else sorted(PHRASES)
    for index in range(quizzes):
        rng = random.Random(index)
        lang = languages[index % len(languages)]
        items = list(_questions(rng, lang, questions))
        title = f"Benchmark quiz {index:03d} ({lang})"
        (out / f"quiz-{index:03d}.txt").write_text(lmsexport_text(title, lang, items), encoding="utf-8")
        if text2qti:
            (out / "text2qti").mkdir(exist_ok=True)
            (out / "text2qti" / f"quiz-{index:03d}.md").write_text(text2qti_text(title, items), encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--quizzes", type=int, default=1)
    parser.add_argument("--questions", type=int, default=20)
    parser.add_argument("--text2qti", action="store_true", help="also write text2qti sources")
    parser.add_argument("--lang", choices=sorted(PHRASES), help="write every quiz in this language")
    args = parser.parse_args()
    generate(args.out, args.quizzes, args.questions, args.text2qti, args.lang)


if __name__ == "__main__":
    main()
