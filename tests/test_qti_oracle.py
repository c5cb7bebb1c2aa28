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
    '<responseProcessing><setOutcomeValue identifier="SCORE"><substring caseSensitive="true">'
    '<baseValue baseType="string">a</baseValue><baseValue baseType="string">a</baseValue></substring>'
    "</setOutcomeValue></responseProcessing>",
    '<responseProcessing><responseCondition><responseIf><patternMatch pattern="\\p{L}+">'
    '<variable identifier="RESPONSE"/></patternMatch></responseIf></responseCondition></responseProcessing>',
    '<responseProcessing><responseCondition><responseIf><equal toleranceMode="relative" tolerance="5">'
    '<baseValue baseType="float">1</baseValue><baseValue baseType="float">1</baseValue></equal></responseIf>'
    "</responseCondition></responseProcessing>",
    '<responseProcessing><exitResponse/></responseProcessing>',
    '<responseProcessing><setOutcomeValue identifier="SCORE"><variable identifier="SCORE" weightIdentifier="W"/>'
    "</setOutcomeValue></responseProcessing>",
])
def test_anything_beyond_the_subset_is_refused(processing):
    with pytest.raises(Unsupported):
        process_item(_item("single", "<correctResponse><value>A</value></correctResponse>", processing), "A")


def _typed_item(base_type: str, declaration: str, processing: str, outcomes: str = "") -> bytes:
    return f"""<assessmentItem {NS} identifier="i" title="t" adaptive="false" timeDependent="false">
  <responseDeclaration identifier="RESPONSE" cardinality="single" baseType="{base_type}">{declaration}
  </responseDeclaration>
  <outcomeDeclaration identifier="SCORE" cardinality="single" baseType="float"/>{outcomes}
  <itemBody><div><textEntryInteraction responseIdentifier="RESPONSE"/></div></itemBody>
  {processing}
</assessmentItem>""".encode()


STRINGS = _typed_item("string", """<mapping defaultValue="0" lowerBound="0">
    <mapEntry mapKey="Paris" mappedValue="2" caseSensitive="false"/><mapEntry mapKey="paris" mappedValue="1"
      caseSensitive="false"/><mapEntry mapKey="Lyon" mappedValue="-1" caseSensitive="true"/></mapping>""",
                      f'<responseProcessing template="{TEMPLATE}map_response"/>')


@pytest.mark.parametrize("response, score", [
    ("Paris", 2.0), ("PARIS", 2.0),   # caseSensitive="false"; the first entry that matches counts
    ("lyon", 0.0), ("Lyon", 0.0),     # case-sensitive entry; -1 is raised to the lower bound
    ("", 0.0), (None, 0.0),           # an empty string is NULL
])
def test_map_response_compares_strings_as_its_entries_say(response, score):
    assert process_item(STRINGS, response)["SCORE"] == score


def _rule(test: str) -> bytes:
    return _typed_item("string", "", f"""<responseProcessing><responseCondition><responseIf>{test}
      <setOutcomeValue identifier="SCORE"><baseValue baseType="float">1</baseValue></setOutcomeValue>
    </responseIf></responseCondition></responseProcessing>""")


@pytest.mark.parametrize("test, response, score", [
    ('<stringMatch caseSensitive="false"><variable identifier="RESPONSE"/><baseValue baseType="string">Ab</baseValue>'
     "</stringMatch>", "aB", 1.0),
    ('<stringMatch caseSensitive="true"><variable identifier="RESPONSE"/><baseValue baseType="string">Ab</baseValue>'
     "</stringMatch>", "aB", 0.0),
    ('<patternMatch pattern="[aA]ll.*"><variable identifier="RESPONSE"/></patternMatch>', "All-reduce", 1.0),
    ('<patternMatch pattern="[aA]ll"><variable identifier="RESPONSE"/></patternMatch>', "All-reduce", 0.0),  # whole
    ('<not><isNull><variable identifier="RESPONSE"/></isNull></not>', None, 0.0),
    ('<not><isNull><variable identifier="RESPONSE"/></isNull></not>', "x", 1.0),
    ('<patternMatch pattern=".*"><variable identifier="RESPONSE"/></patternMatch>', None, 0.0),  # NULL: not true
])
def test_string_tests_follow_qti(test, response, score):
    assert process_item(_rule(test), response)["SCORE"] == score


NUMBER = _typed_item("float", "", """<responseProcessing><responseCondition>
    <responseIf><equal toleranceMode="exact"><variable identifier="RESPONSE"/><baseValue baseType="float">3</baseValue>
      </equal><setOutcomeValue identifier="SCORE"><baseValue baseType="float">2</baseValue></setOutcomeValue>
    </responseIf>
    <responseElseIf><equal toleranceMode="absolute" tolerance="0.5 1"><variable identifier="RESPONSE"/>
      <baseValue baseType="float">3</baseValue></equal>
      <setOutcomeValue identifier="SCORE"><baseValue baseType="float">1</baseValue></setOutcomeValue></responseElseIf>
  </responseCondition></responseProcessing>""")


@pytest.mark.parametrize("response, score", [
    ("3", 2.0), ("3.0", 2.0), ("2.5", 1.0), ("4", 1.0),   # within [3 - 0.5, 3 + 1], ends included
    ("2.4", 0.0), ("4.01", 0.0), ("three", 0.0), (None, 0.0),   # not a number: no response
])
def test_equal_compares_exactly_or_within_an_absolute_tolerance(response, score):
    assert process_item(NUMBER, response)["SCORE"] == score


PAIRS = f"""<assessmentItem {NS} identifier="i" title="t" adaptive="false" timeDependent="false">
  <responseDeclaration identifier="RESPONSE" cardinality="multiple" baseType="directedPair">
    <correctResponse><value>a X</value><value>b Y</value></correctResponse>
    <mapping defaultValue="0" upperBound="2"><mapEntry mapKey="a X" mappedValue="1.5"/>
      <mapEntry mapKey="b Y" mappedValue="1.5"/></mapping></responseDeclaration>
  <outcomeDeclaration identifier="SCORE" cardinality="single" baseType="float"/>
  <itemBody><div/></itemBody>
  <responseProcessing template="{TEMPLATE}map_response"/>
</assessmentItem>""".encode()


@pytest.mark.parametrize("response, score", [
    (["a X", "b Y"], 2.0), (["b Y", "a X"], 2.0), (["a Y", "b Y"], 1.5), (["a Y"], 0.0), ([], 0.0),
])
def test_pairs_are_mapped_as_directed_pairs(response, score):
    assert process_item(PAIRS, response)["SCORE"] == score


ORDER = f"""<assessmentItem {NS} identifier="i" title="t" adaptive="false" timeDependent="false">
  <responseDeclaration identifier="RESPONSE" cardinality="ordered" baseType="identifier">
    <correctResponse><value>b</value><value>a</value><value>c</value></correctResponse></responseDeclaration>
  <outcomeDeclaration identifier="SCORE" cardinality="single" baseType="float"/>
  <itemBody><div/></itemBody>
  <responseProcessing template="{TEMPLATE}match_correct"/>
</assessmentItem>""".encode()


@pytest.mark.parametrize("response, score", [(["b", "a", "c"], 1.0), (["a", "b", "c"], 0.0), (None, 0.0)])
def test_ordered_responses_match_in_order_only(response, score):
    assert process_item(ORDER, response)["SCORE"] == score


INDEXED = f"""<assessmentItem {NS} identifier="i" title="t" adaptive="false" timeDependent="false">
  <responseDeclaration identifier="RESPONSE" cardinality="ordered" baseType="identifier"/>
  <outcomeDeclaration identifier="SCORE" cardinality="single" baseType="float"/>
  <itemBody><div/></itemBody>
  <responseProcessing><responseCondition><responseIf>
    <match><index n="2"><variable identifier="RESPONSE"/></index><baseValue baseType="identifier">a</baseValue></match>
    <setOutcomeValue identifier="SCORE"><baseValue baseType="float">1</baseValue></setOutcomeValue>
  </responseIf></responseCondition></responseProcessing>
</assessmentItem>""".encode()


@pytest.mark.parametrize("response, score", [
    (["b", "a", "c"], 1.0),       # the second value is a
    (["a", "b", "c"], 0.0),
    (["b"], 0.0),                 # shorter than 2: index is NULL, so match is NULL, not true
    (None, 0.0),
])
def test_index_takes_the_nth_value_of_an_ordered_response(response, score):
    assert process_item(INDEXED, response)["SCORE"] == score


GAPS = f"""<assessmentItem {NS} identifier="i" title="t" adaptive="false" timeDependent="false">
  <responseDeclaration identifier="R1" cardinality="single" baseType="string">
    <mapping defaultValue="0"><mapEntry mapKey="x" mappedValue="1" caseSensitive="true"/></mapping>
  </responseDeclaration>
  <responseDeclaration identifier="R2" cardinality="single" baseType="identifier">
    <mapping defaultValue="0"><mapEntry mapKey="c" mappedValue="1"/></mapping></responseDeclaration>
  <outcomeDeclaration identifier="SCORE" cardinality="single" baseType="float"/>
  <outcomeDeclaration identifier="MAXSCORE" cardinality="single" baseType="float">
    <defaultValue><value>3</value></defaultValue></outcomeDeclaration>
  <outcomeDeclaration identifier="N" cardinality="single" baseType="float"/>
  <itemBody><div/></itemBody>
  <responseProcessing>
    <responseCondition><responseIf><not><isNull><variable identifier="R1"/></isNull></not>
      <setOutcomeValue identifier="N"><sum><variable identifier="N"/><mapResponse identifier="R1"/></sum>
      </setOutcomeValue></responseIf></responseCondition>
    <responseCondition><responseIf><not><isNull><variable identifier="R2"/></isNull></not>
      <setOutcomeValue identifier="N"><sum><variable identifier="N"/><mapResponse identifier="R2"/></sum>
      </setOutcomeValue></responseIf></responseCondition>
    <setOutcomeValue identifier="SCORE"><product><variable identifier="MAXSCORE"/><divide><variable identifier="N"/>
      <baseValue baseType="float">2</baseValue></divide></product></setOutcomeValue>
    <responseCondition><responseIf><gt><variable identifier="SCORE"/><baseValue baseType="float">2</baseValue></gt>
      <setOutcomeValue identifier="N"><baseValue baseType="float">-1</baseValue></setOutcomeValue>
    </responseIf></responseCondition>
  </responseProcessing>
</assessmentItem>""".encode()


@pytest.mark.parametrize("response, score, n", [
    ({"R1": "x", "R2": "c"}, 3.0, -1.0), ({"R1": "x"}, 1.5, 1.0), ({"R2": "d"}, 0.0, 0.0), ({}, 0.0, 0.0),
])
def test_an_item_with_several_responses_takes_each_by_its_identifier(response, score, n):
    outcomes = process_item(GAPS, response)
    assert (outcomes["SCORE"], outcomes["N"]) == (score, n)


def test_a_response_to_an_undeclared_variable_is_refused():
    with pytest.raises(Unsupported):
        process_item(GAPS, {"R3": "x"})
