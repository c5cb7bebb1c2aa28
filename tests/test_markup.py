"""`markup: markdown`: Markdown to safe HTML, math kept as TeX, images loaded as assets."""

from __future__ import annotations

import os

import pytest
from click.testing import CliRunner

import lmsexport
from conftest import ROOT
from lmsexport.cli import main
from lmsexport.markup import render

PNG = (ROOT / "examples" / "all-kinds" / "img" / "throughput.png").read_bytes()


@pytest.mark.parametrize(
    "source, html",
    [
        ("plain words", "plain words"),
        ("*emphasis*, **strong**, `code` and ~~gone~~", "<em>emphasis</em>, <strong>strong</strong>, <code>code</code> and <s>gone</s>"),
        ("- one\n- two", "<ul>\n<li>one</li>\n<li>two</li>\n</ul>"),
        ("```python\nx = 1\n```", '<pre><code class="language-python">x = 1\n</code></pre>'),
        ("[docs](https://example.org)", '<a href="https://example.org" rel="noopener noreferrer">docs</a>'),
        ("| a | b |\n|---|---|\n| 1 | 2 |", "<table>"),
        ("$x_1 * y_2$ and $$\\frac{a_1}{b}$$", "\\(x_1 * y_2\\) and \\[\\frac{a_1}{b}\\]"),
        ("\\(\\alpha < \\beta\\)", "\\(\\alpha &lt; \\beta\\)"),
        ("costs $5 and $10", "costs $5 and $10"),
    ],
)
def test_markdown_renders_to_html_with_math_untouched(source, html):
    assert html in render(source)[0]


@pytest.mark.parametrize(
    "source, gone",
    [
        ("<script>alert(1)</script>text", "alert"),
        ('<img src="a.png" onerror="alert(1)" alt="x">', "onerror"),
        ("[x](javascript:alert(1))", "href"),
        ('<a href="javascript:alert(1)">x</a>', "javascript"),
        ("<iframe src=x></iframe><style>p{}</style>", "iframe"),
    ],
)
def test_raw_html_is_sanitised(source, gone):
    assert gone not in render(source)[0]


def _quiz(tmp_path, body: str, name: str = "quiz.txt"):
    path = tmp_path / name
    path.write_text("---\nmarkup: markdown\n---\nQuiz\n\n" + body, encoding="utf-8")
    return path


def test_plain_text_stays_plain_in_markdown_mode(tmp_path):
    quiz = lmsexport.read(_quiz(tmp_path, "1. Is 1 < 2?\n   *• yes\n   • no\n"))
    assert quiz.questions[0].prompt.format == "plain" and quiz.questions[0].prompt.value == "Is 1 < 2?"


def test_plain_mode_keeps_markdown_characters_as_written(tmp_path):
    path = tmp_path / "plain.txt"
    path.write_text("Quiz\n\n1. Map _AIU_PROTECTED_11__ *here*?\n   *• a\n   • b\n", encoding="utf-8")
    assert lmsexport.read(path).questions[0].prompt.value == "Map _AIU_PROTECTED_11__ *here*?"


def test_images_become_assets_in_first_use_order(tmp_path):
    (tmp_path / "img").mkdir()
    (tmp_path / "img" / "b.png").write_bytes(PNG)
    (tmp_path / "a.svg").write_text("<svg xmlns='http://www.w3.org/2000/svg'/>", encoding="utf-8")
    quiz = lmsexport.read(_quiz(tmp_path, "1. ![B](img/b.png)\n   *• ![A](./a.svg)\n   • ![B again](img/b.png)\n"))
    assert [(a.path, a.media_type) for a in quiz.assets] == [("img/b.png", "image/png"), ("a.svg", "image/svg+xml")]
    assert quiz.assets[0].data == PNG
    assert '<img src="img/b.png" alt="B">' in quiz.questions[0].prompt.value


@pytest.mark.parametrize(
    "reference, code, message",
    [
        ("img/missing.png", "E161", "image 'img/missing.png' cannot be read"),
        ("../outside.png", "E162", "is not a file in the quiz's folder"),
        ("https://example.org/a.png", "E162", "is not a file in the quiz's folder"),
        ("picture.bmp", "E163", "is not a PNG, JPEG, GIF, SVG or WebP file"),
    ],
)
def test_bad_image_references_are_located_errors(tmp_path, reference, code, message):
    (tmp_path / "picture.bmp").write_bytes(b"BM")
    (tmp_path.parent / "outside.png").write_bytes(PNG)
    path = _quiz(tmp_path, f"1. Which?\n\n   ![a chart]({reference})\n   *• x\n   • y\n")
    with pytest.raises(lmsexport.SourceError) as caught:
        lmsexport.read(path)
    (diagnostic,) = caught.value.diagnostics
    assert (diagnostic.code, diagnostic.span.line, diagnostic.span.column) == (code, 8, 15)
    assert message in diagnostic.message


def test_a_link_out_of_the_folder_is_refused(tmp_path):
    (tmp_path.parent / "secret.png").write_bytes(PNG)
    os.symlink(tmp_path.parent / "secret.png", tmp_path / "link.png")
    with pytest.raises(lmsexport.SourceError, match="leads out of the quiz's folder"):
        lmsexport.read(_quiz(tmp_path, "1. ![x](link.png)\n   *• x\n   • y\n"))


def test_images_need_a_folder(tmp_path):
    with pytest.raises(lmsexport.SourceError, match="the quiz was not read from a folder"):
        lmsexport.read("q.txt", data="---\nmarkup: markdown\n---\nQ\n\n1. ![x](a.png)\n   *• x\n   • y\n")


def test_a_changed_image_rebuilds_the_quiz(tmp_path):
    (tmp_path / "a.png").write_bytes(PNG)
    source = _quiz(tmp_path, "1. ![chart](a.png)\n   *• x\n   • y\n")
    out = tmp_path / "out"
    first = CliRunner().invoke(main, ["build", str(source), "-f", "json", "-o", str(out)])
    assert first.exit_code == 0, first.stderr
    assert "0 built, 1 up to date" in CliRunner().invoke(main, ["build", str(source), "-f", "json", "-o", str(out)]).stderr
    (tmp_path / "a.png").write_bytes(PNG + b"\x00")
    assert "1 built" in CliRunner().invoke(main, ["build", str(source), "-f", "json", "-o", str(out)]).stderr


def test_the_all_kinds_example_carries_its_images_and_math():
    quiz = lmsexport.read(ROOT / "examples" / "all-kinds" / "quiz.txt")
    assert [a.path for a in quiz.assets] == ["img/throughput.png", "img/ring.svg"]
    assert {q.kind for q in quiz.questions} == {
        "description", "multiple_choice", "true_false", "short_answer", "numeric", "essay", "matching",
        "ordering", "fill_blanks",
    }
    assert "\\frac{T_1}{T_N}" in quiz.questions[11].prompt.value


@pytest.mark.parametrize("text, warning", [
    ("$\\href{http://e.com}{x}$", "\\href links are not possible inside math"),
    ("$\\text{<b>x</b>}$", "the TeX holds markup"),
    ("[x](java%0ascript:x)", None),
])
def test_hostile_markdown_builds_valid_packages_in_every_format(tmp_path, text, warning):
    """Math latex2mathml would write as invalid MathML stays TeX with a warning; a link that is no
    URI reference loses its address (these ended in exit 3: our own output failing its schema)."""
    source = tmp_path / "q.txt"
    source.write_text(f"---\nmarkup: markdown\n---\nT\n\n1. Q {text}?\n   *• a\n   • b\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["build", str(source), "-f", "all", "-o", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    assert (warning is None) == ("warning: the formula" not in result.stderr)
    if warning:
        assert warning in result.stderr
