"""Rich content in QTI 2.1 packages: TeX as MathML 2, images as files of the package,
and the choices the writer makes so that what a learner sees does not give the answer away.

The MathML is checked against the QTI 2.1 schema (which imports MathML 2) for the TeX a
course designer writes: fractions, roots, scripts, Greek, sums with limits, matrices.
"""

from __future__ import annotations

import pytest
from lxml import etree

import lmsexport
from conftest import ROOT
from lmsexport.formats.qti21 import names as names
from lmsexport.diagnostics import SourceSpan
from lmsexport.math import MATHML, MathError, annotation_tex, split_math, tex_to_mathml
from lmsexport.model import Asset, Choice, MultipleChoice, OrderItem, Ordering, Quiz, Settings, Text, TrueFalse
from lmsexport.package import MANIFEST
from lmsexport.schemas import load_schema
from lmsexport.validation import validate_files
from lmsexport.formats.qti21.writer.kinds import display_order

QTI = "{http://www.imsglobal.org/xsd/imsqti_v2p1}"
M = f"{{{MATHML}}}"
PNG = (ROOT / "examples" / "all-kinds" / "img" / "throughput.png").read_bytes()
TEX = [
    r"\frac{a}{b}", r"\sqrt{2} + \sqrt[3]{x^2}", r"x_i^2 + y_{i,j}", r"\alpha + \beta = \Gamma",
    r"\sum_{i=1}^{n} i = \frac{n(n+1)}{2}", r"\int_0^1 f(x)\,dx", r"\begin{pmatrix}1 & 2\\3 & 4\end{pmatrix}",
    r"\begin{cases} 1 & x > 0 \\ 0 & \text{else} \end{cases}", r"\lim_{x \to 0} \frac{\sin x}{x}",
    r"\hat{x}\ \vec{v}\ \overline{ab}", r"\binom{n}{k}", r"\xrightarrow{f}", r"a \le b \neq c", r"\mathbb{R}^n",
]


def _question(prompt: Text, **fields) -> MultipleChoice:
    choices = (Choice(id="a", text=Text("yes"), correct=True), Choice(id="b", text=Text("no")))
    return MultipleChoice(id="q1", prompt=prompt, choices=choices, source=SourceSpan("quiz.txt", 3), **fields)


def _quiz(*questions, assets=(), **fields) -> Quiz:
    return Quiz(id="rich", title="Rich", lang="en", questions=questions, assets=assets, **fields)


def _item(package, name: str = "items/q1.xml"):
    return etree.fromstring(package.files[name])


@pytest.mark.parametrize("tex", TEX)
@pytest.mark.parametrize("display", [False, True])
def test_tex_becomes_mathml_the_qti_schema_accepts_with_its_tex_kept(tex, display):
    item = etree.fromstring(f'<assessmentItem xmlns="{QTI[1:-1]}" identifier="i" title="t" adaptive="false" '
                            'timeDependent="false"><itemBody><p>x</p></itemBody></assessmentItem>')
    math = tex_to_mathml(tex, display)
    item[0][0].append(math)
    schema = load_schema("qti21")
    assert schema.validate(item), schema.error_log
    assert math.get("display") == ("block" if display else "inline") and annotation_tex(math) == tex
    assert [child.tag for child in math] == [f"{M}semantics"]


@pytest.mark.parametrize("tex, problem", [
    (r"\frac{a}", "<mfrac> needs 2 parts, the TeX gives it 1"), ("x^", "MissingSuperScriptOrSubscriptError"),
    (r"\foo{x}", r"unknown command \foo"),
])
def test_tex_that_cannot_be_drawn_is_refused(tex, problem):
    with pytest.raises(MathError) as caught:
        tex_to_mathml(tex, False)
    assert str(caught.value) == problem and caught.value.tex == tex


def test_math_spans_are_found_in_text():
    parts = split_math(r"a \(x^2\) b \[\frac{1}{2}\]")
    assert [getattr(p, "tex", p) for p in parts] == ["a ", "x^2", " b ", r"\frac{1}{2}"]
    assert [getattr(p, "display", None) for p in parts] == [None, False, None, True]


def test_math_in_html_is_mathml_in_the_item_and_tex_again_when_read_back():
    prompt = Text(r"<p>Is \(x^2 \ge 0\) <code>\(not math\)</code>?</p>\[\sum_k k\]", "html")
    package = lmsexport.write(_quiz(_question(prompt, explanation=Text(r"Since \(x \cdot x = x^2\).", "html"))), 'qti')
    assert validate_files(package.files, source="p.zip") == [] and package.warnings == []
    stem = _item(package).find(f"{QTI}itemBody/{QTI}div")
    formulas = list(stem.iter(f"{M}math"))
    assert [(m.get("display"), annotation_tex(m)) for m in formulas] == [
        ("inline", r"x^2 \ge 0"), ("block", r"\sum_k k")]
    assert stem.find(f"{QTI}p/{QTI}code").text == r"\(not math\)"  # code is code
    assert len(list(_item(package).find(f"{QTI}modalFeedback").iter(f"{M}math"))) == 1
    read = lmsexport.read("p.zip", package.to_bytes(), format='qti21').questions[0]
    assert (read.prompt, read.explanation.value) == (prompt, r"Since \(x \cdot x = x^2\).")


def test_tex_that_cannot_be_converted_stays_tex_with_a_warning():
    package = lmsexport.write(_quiz(_question(Text(r"<p>Broken: \(\frac{a}\)</p>", "html"))), 'qti')
    assert validate_files(package.files, source="p.zip") == []
    assert _item(package).find(f"{QTI}itemBody/{QTI}div/{QTI}p").text == r"Broken: \(\frac{a}\)"
    (warning,) = package.warnings
    assert (warning.code, str(warning.span)) == ("W804", "quiz.txt:3")
    assert warning.message == (r"the formula \(\frac{a}\) cannot be written as MathML (<mfrac> needs 2 parts, the TeX "
                               "gives it 1); it is shown as TeX")


def test_images_are_files_beside_the_items_that_the_items_depend_on():
    asset = Asset(path="img/graph.png", media_type="image/png", data=PNG)
    prompt = Text('<p>See <img src="img/graph.png" alt="A graph of y = x"></p>', "html")
    quiz = _quiz(_question(prompt), assets=(asset,), description=Text('<img src="img/graph.png" alt="">', "html"))
    package = lmsexport.write(quiz, 'qti')
    assert validate_files(package.files, source="p.zip") == [] and package.warnings == []
    assert package.files["items/img/graph.png"] == PNG
    img = _item(package).find(f".//{QTI}img")
    assert img.attrib == {"src": "img/graph.png", "alt": "A graph of y = x"}  # relative to items/q1.xml
    assert etree.fromstring(package.files["test.xml"]).find(f".//{QTI}img").get("src") == "items/img/graph.png"
    manifest = etree.fromstring(package.files[MANIFEST])
    resources = {r.get("identifier"): r for r in manifest.iter("{*}resource")}
    media = resources["RES-rich-media1"]
    assert media.get("type") == "webcontent" and media.get("href") is None  # Canvas skips a resource's href file
    assert [f.get("href") for f in media.iter("{*}file")] == ["items/img/graph.png"]
    depends = {key: [d.get("identifierref") for d in r.iter("{*}dependency")] for key, r in resources.items()}
    assert depends["RES-rich-q1"] == ["RES-rich-media1"] and depends["RES-rich"][-1] == "RES-rich-media1"
    assert lmsexport.read("p.zip", package.to_bytes(), format='qti21') == quiz


def test_an_image_the_quiz_does_not_carry_is_a_warning():
    package = lmsexport.write(_quiz(_question(Text('<img src="img/missing.png" alt="x"><img src="https://x.org/a.png">',
                                                "html"))), 'qti')
    assert [(w.code, w.message) for w in package.warnings] == [
        ("W805", "the image 'img/missing.png' is not one of the quiz's files, so the package cannot carry it")]


def test_text_holders_are_written_as_built():
    html = "<p><b>a</b><i>b</i></p>\n<ul>\n<li>c</li>\n</ul>"
    package = lmsexport.write(_quiz(_question(Text(html, "html"))), 'qti')
    assert b"<div><p><b>a</b><i>b</i></p>\n<ul>\n<li>c</li>\n</ul></div>" in package.files["items/q1.xml"]


@pytest.mark.parametrize("lang, labels", [("en", ["True", "False"]), ("fr-CA", ["Vrai", "Faux"]),
                                          ("yo", ["Òótọ́", "Irọ́"]), ("xx", ["True", "False"])])
def test_true_false_choices_are_in_the_question_language(lang, labels):
    question = TrueFalse(id="q1", prompt=Text("p"), answer=False)
    item = _item(lmsexport.write(Quiz(id="tf", title="t", lang=lang, questions=(question,)), 'qti'))
    assert [(c.get("identifier"), c.text) for c in item.iter(f"{QTI}simpleChoice")] == list(
        zip([names.TRUE, names.FALSE], labels, strict=True))
    assert item.find(f"{QTI}responseDeclaration/{QTI}correctResponse/{QTI}value").text == names.FALSE


@pytest.mark.parametrize("texts, fixed, order", [
    (["b", "a", "c"], None, [1, 0, 2]),       # sorted by their words
    (["a", "b", "c"], None, [2, 1, 0]),       # sorted is the key: reversed
    (["x", "y", "z", "q", "a"], 3, [2, 1, 0, 3, 4]),  # matching: the pairs' order is the key; extras keep theirs
])
def test_items_are_shown_in_an_order_that_does_not_give_the_key_away(texts, fixed, order):
    assert display_order([Text(t) for t in texts], fixed) == order


def test_an_ordering_question_in_alphabetical_order_is_shown_reversed():
    items = tuple(OrderItem(id=f"i{n}", text=Text(t)) for n, t in enumerate(["alpha", "beta", "gamma"]))
    question = Ordering(id="q1", prompt=Text("Order."), items=items)
    item = _item(lmsexport.write(Quiz(id="o", title="t", questions=(question,), settings=Settings(shuffle=False)), 'qti'))
    assert [c.get("identifier") for c in item.iter(f"{QTI}simpleChoice")] == ["i2", "i1", "i0"]
    assert [v.text for v in item.iter(f"{QTI}value")][:3] == ["i0", "i1", "i2"]


def test_the_feature_example_keeps_its_images_and_math():
    quiz = lmsexport.read(ROOT / "examples" / "all-kinds" / "quiz.txt")
    package = lmsexport.write(quiz, 'qti')
    assert {name for name in package.files if not name.endswith(".xml")} == {
        f"items/{asset.path}" for asset in quiz.assets}
    assert any(etree.fromstring(c).iter(f"{M}math") for n, c in package.files.items() if n.endswith(".xml"))
