"""What Canvas's importer takes from a `.canvas.zip`, question by question: a small model of it for tests.

It follows canvas-lms `gems/plugins/qti_exporter/lib/qti/` as docs/formats/canvas.md describes it:
the type from the `question_type` field (true/false kept only with answers True and False), the
points from `points_possible`, and the key the way each converter finds it: the label a `Set`
condition names (choice_interaction.rb), every label of a blank (fill_in_the_blank.rb
`process_canvas`) or the label an `Add` condition names (drop-downs, associate_interaction.rb),
the `or` of an exact answer and its `varlte` bound (numeric_interaction.rb). Not Canvas: a check
that what lmsexport writes is what those converters read.
"""

from __future__ import annotations

import io
import zipfile

from lxml import etree, html

Q = "{http://www.imsglobal.org/xsd/ims_qtiasiv1p2}"


def assessment(data: bytes):
    """The questestinterop of a package, found through its manifest."""
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        manifest = etree.fromstring(archive.read("imsmanifest.xml"))
        resource = next(r for r in manifest.iter("{*}resource") if r.get("type") == "imsqti_xmlv1p2")
        return etree.fromstring(archive.read(resource.find("{*}file").get("href")))


def groups(data: bytes) -> list[dict]:
    """The question groups, as assessment_test_converter.rb `process_section` makes them from a
    section with a selection: `pick_count` from `selection_number`, `question_points` from
    `points_per_item`, the title from the section's, and the items inside it."""
    found = []
    for section in assessment(data).iter(f"{Q}section"):
        number = section.findtext(f"{Q}selection_ordering/{Q}selection/{Q}selection_number")
        if number is None:
            continue
        points = section.findtext(f"{Q}selection_ordering/{Q}selection/{Q}selection_extension/{Q}points_per_item")
        found.append({"title": section.get("title"), "pick_count": int(number), "question_points": float(points),
                      "items": [item.get("ident") for item in section.iter(f"{Q}item")]})
    return found


def questions(data: bytes) -> list[dict]:
    return [question(item) for item in assessment(data).iter(f"{Q}item")]


def question(item) -> dict:
    fields = {f.findtext(f"{Q}fieldlabel"): f.findtext(f"{Q}fieldentry") for f in item.iter(f"{Q}qtimetadatafield")}
    kind = fields["question_type"]
    labels = {label.get("ident"): _text(label) for label in item.iter(f"{Q}response_label")}
    found = {"type": kind, "points": float(fields["points_possible"]), "title": item.get("title")}
    sets = [c for c in item.iter(f"{Q}respcondition") if _setvar(c, "Set")]
    adds = [c for c in item.iter(f"{Q}respcondition") if _setvar(c, "Add")]
    if kind in ("multiple_choice_question", "true_false_question", "multiple_answers_question"):
        found["key"] = sorted(labels[v.text] for c in sets for v in c.iter(f"{Q}varequal")
                              if v.getparent().tag != f"{Q}not")
        found["options"] = [_text(label) for label in item.iter(f"{Q}response_label")]
        if kind == "true_false_question" and sorted(found["options"]) != ["False", "True"]:
            found["type"] = "multiple_choice_question"
    elif kind == "short_answer_question":
        found["key"] = [v.text for c in sets for v in c.iter(f"{Q}varequal")]
    elif kind == "numerical_question":
        found["key"] = [_numeric(c) for c in sets]
    elif kind == "matching_question":
        found["key"] = {_text(lid.find(f"{Q}material")): labels[v.text]
                        for c in adds for v in c.iter(f"{Q}varequal")
                        for lid in item.iter(f"{Q}response_lid") if lid.get("ident") == v.get("respident")}
    elif kind == "fill_in_multiple_blanks_question":
        found["key"] = {lid.get("ident")[len("response_"):]: [_text(label) for label in lid.iter(f"{Q}response_label")]
                        for lid in item.iter(f"{Q}response_lid")}
    elif kind == "multiple_dropdowns_question":
        found["key"] = {v.get("respident")[len("response_"):]: labels[v.text] for c in adds for v in c.iter(f"{Q}varequal")}
    return found


def _setvar(condition, action: str) -> bool:
    return any(s.get("action") == action and float(s.text) > 0 for s in condition.iter(f"{Q}setvar"))


def _numeric(condition) -> tuple[float, float]:
    """(exact, margin) as numeric_interaction.rb reads an exact answer: the margin is varlte - exact."""
    exact = float(condition.find(f".//{Q}or/{Q}varequal").text)
    upper = condition.find(f".//{Q}or/{Q}and/{Q}varlte")
    return exact, 0.0 if upper is None else round(float(upper.text) - exact, 9)


def _text(node) -> str:
    """The text of a label or a material as Canvas shows it: HTML reduced to its words."""
    mattext = node if node.tag == f"{Q}mattext" else node.find(f".//{Q}mattext")
    if mattext is None:
        return ""
    value = mattext.text or ""
    if mattext.get("texttype") == "text/html":
        value = html.fragment_fromstring(value, create_parent="div").text_content()
    return " ".join(value.split())
