"""The response-processing oracle (tests/qti_oracle.py) against QTI 2.1's own definitions.

Each case is small and its expected outcome follows from the QTI 2.1 information model
(templates 5.2, expressions 5.3), so the oracle can be trusted to judge lmsexport's items.
"""

from __future__ import annotations

from collections import Counter

import pytest

from qti_oracle import Unsupported, displayed_feedback, process_item, process_test

NS = 'xmlns="http://www.imsglobal.org/xsd/imsqti_v2p1"'
TEMPLATE = "http://www.imsglobal.org/question/qti_v2p1/rptemplates/"


def _item(cardinality: str, declaration: str, processing: str, outcomes: str = "", feedback: str = "") -> bytes:
    return f"""<assessmentItem {NS} identifier="i" title="t" adaptive="false" timeDependent="false">
  <responseDeclaration identifier="RESPONSE" cardinality="{cardinality}" baseType="identifier">
    {declaration}</responseDeclaration>
  <outcomeDeclaration identifier="SCORE" cardinality="single" baseType="float"/>{outcomes}
  <itemBody><choiceInteraction responseIdentifier="RESPONSE" maxChoices="0">
    <simpleChoice identifier="A">a</simpleChoice><simpleChoice identifier="B">b</simpleChoice>
    <simpleChoice identifier="C">c</simpleChoice></choiceInteraction></itemBody>
  {processing}{feedback}
</assessmentItem>""".encode()


MATCH = _item("single", "<correctResponse><value>B</value></correctResponse>",
              f'<responseProcessing template="{TEMPLATE}match_correct"/>')
MAP = _item(
    "multiple",
    '<correctResponse><value>A</value><value>B</value></correctResponse>'
    '<mapping lowerBound="0" upperBound="2" defaultValue="-0.5"><mapEntry mapKey="A" mappedValue="1"/>'
    '<mapEntry mapKey="B" mappedValue="1.5"/></mapping>',
    f'<responseProcessing template="{TEMPLATE}map_response"/>',
)


@pytest.mark.parametrize("response, score", [("B", 1.0), ("A", 0.0), (None, 0.0)])
def test_match_correct_scores_one_for_the_correct_response_only(response, score):
    assert process_item(MATCH, response)["SCORE"] == score


@pytest.mark.parametrize("response, score", [
    (["A", "B"], 2.0),            # 1 + 1.5, clamped to the upper bound
    (["A"], 1.0),
    (["B", "C"], 1.0),            # C is unmapped: the default value, -0.5
    (["C"], 0.0),                 # -0.5, clamped to the lower bound
    (["A", "A"], 1.0),            # each distinct value counts once
    ([], 0.0),                    # an empty container is NULL: the template's isNull branch
])
def test_map_response_sums_distinct_mapped_values_within_the_bounds(response, score):
    assert process_item(MAP, response)["SCORE"] == score


FEEDBACK_RULES = """<responseProcessing>
    <responseCondition><responseIf>
      <member><baseValue baseType="identifier">C</baseValue><variable identifier="RESPONSE"/></member>
      <setOutcomeValue identifier="FEEDBACK"><multiple><variable identifier="FEEDBACK"/>
        <baseValue baseType="identifier">FB3</baseValue></multiple></setOutcomeValue>
    </responseIf></responseCondition>
    <setOutcomeValue identifier="FEEDBACK"><multiple><variable identifier="FEEDBACK"/>
      <baseValue baseType="identifier">general_fb</baseValue></multiple></setOutcomeValue>
  </responseProcessing>"""


@pytest.mark.parametrize("show_hide, picked, shown", [
    ("show", ["C"], {"FB3", "general_fb"}),
    ("show", ["A"], {"general_fb"}),
    ("hide", ["C"], {"general_fb"}),   # hide: shown unless its identifier is in the outcome
    ("hide", ["A"], {"FB3", "general_fb"}),
])
def test_multiple_member_and_showhide_decide_the_feedback_shown(show_hide, picked, shown):
    outcome = '<outcomeDeclaration identifier="FEEDBACK" cardinality="multiple" baseType="identifier"/>'
    feedback = (f'<modalFeedback outcomeIdentifier="FEEDBACK" identifier="FB3" showHide="{show_hide}">x</modalFeedback>'
                '<modalFeedback outcomeIdentifier="FEEDBACK" identifier="general_fb" showHide="show">y</modalFeedback>')
    item = _item("multiple", "<correctResponse><value>A</value></correctResponse>", FEEDBACK_RULES, outcome, feedback)
    outcomes = process_item(item, picked)
    assert outcomes["SCORE"] == 0.0  # a numeric outcome without a default starts at 0
    assert outcomes["FEEDBACK"] == Counter(["FB3", "general_fb"] if "C" in picked else ["general_fb"])
    assert displayed_feedback(item, outcomes) == shown


def test_match_compares_multiple_responses_as_bags():
    item = _item("multiple", "<correctResponse><value>A</value><value>B</value></correctResponse>",
                 f'<responseProcessing template="{TEMPLATE}match_correct"/>')
    assert process_item(item, ["B", "A"])["SCORE"] == 1.0
    assert process_item(item, ["A", "B", "C"])["SCORE"] == 0.0


TEST = f"""<assessmentTest {NS} identifier="t" title="t">
  <outcomeDeclaration identifier="SCORE" cardinality="single" baseType="float"/>
  <outcomeDeclaration identifier="MAXSCORE" cardinality="single" baseType="float">
    <defaultValue><value>MAX</value></defaultValue></outcomeDeclaration>
  <outcomeDeclaration identifier="PASS" cardinality="single" baseType="boolean"/>
  <testPart identifier="p" navigationMode="linear" submissionMode="individual">
    <assessmentSection identifier="s" title="s" visible="false"/></testPart>
  <outcomeProcessing>
    <setOutcomeValue identifier="SCORE"><sum><testVariables variableIdentifier="SCORE"/></sum></setOutcomeValue>
    <setOutcomeValue identifier="PASS"><gte><product><divide><variable identifier="SCORE"/>
      <variable identifier="MAXSCORE"/></divide><baseValue baseType="float">100</baseValue></product>
      <baseValue baseType="float">60</baseValue></gte></setOutcomeValue>
  </outcomeProcessing>
</assessmentTest>"""


@pytest.mark.parametrize("maximum, scores, total, passed", [
    ("4", [2.0, 1.0, None], 3.0, True),   # NULL item scores are ignored
    ("4", [2.0, 0.0], 2.0, False),
    ("0", [0.0], 0.0, None),              # divide by zero is NULL, and so is the comparison
])
def test_outcome_processing_sums_item_scores_and_compares_the_percentage(maximum, scores, total, passed):
    outcomes = process_test(TEST.replace("MAX", maximum).encode(), [{"SCORE": s} for s in scores])
    assert outcomes["SCORE"] == total and outcomes["PASS"] is passed


@pytest.mark.parametrize("processing", [
    f'<responseProcessing template="{TEMPLATE}map_response_point"/>',
    '<responseProcessing><setOutcomeValue identifier="SCORE"><stringMatch caseSensitive="true">'
    '<baseValue baseType="string">a</baseValue><baseValue baseType="string">a</baseValue></stringMatch>'
    "</setOutcomeValue></responseProcessing>",
    '<responseProcessing><exitResponse/></responseProcessing>',
    '<responseProcessing><setOutcomeValue identifier="SCORE"><variable identifier="SCORE" weightIdentifier="W"/>'
    "</setOutcomeValue></responseProcessing>",
])
def test_anything_beyond_the_subset_is_refused(processing):
    with pytest.raises(Unsupported):
        process_item(_item("single", "<correctResponse><value>A</value></correctResponse>", processing), "A")
