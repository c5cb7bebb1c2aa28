"""Typed answers and fill-in-the-blanks items of QTI 2.1, back into the model (QTI reader part).

Part of the QTI reader (readers/qti21.py, readers/qti21_items.py). Accepted strings come
from a `mapping` (its `caseSensitive`), or from the first-match `stringMatch` /
`patternMatch` rules writers/qti21_typed.py writes when an answer has a wildcard, or else
from the correct response. A gap is a textEntryInteraction or an inlineChoiceInteraction
inside the text; the text around them comes back as the question's segments.
"""

from __future__ import annotations

import copy
import re
import unicodedata

from .. import names
from ....ids import slug
from ....model import Answer, Choice, FillBlanks, Gap, Question, Text, is_identifier
from ....xml import NS, replace_with_text
from ....text import number
from .feedback import Feedback, picked, variable_of
from .responses import correct_values, declaration
from .text import NO_CORRECT_RESPONSE, NoKind, TextReader, Unreadable, read_number, unindent

_Q = f"{{{NS['qti']}}}"
_LANG = f"{{{NS['xml']}}}lang"
_TOKEN = "\ue000{}\ue001"
_TOKENS = re.compile("\ue000(\\d+)\ue001")
BLANK = "___"
"""How a gap shows in a fill-in question's prompt (model.FillBlanks)."""


def typed_answers(root, declared, full: float | None, feedback: Feedback) -> tuple[tuple[Answer, ...], bool]:
    """The accepted answers of a string response and whether case matters; credits in percent of
    `full` (None: of the best answer's value, as for a gap)."""
    response = declared.get("identifier")
    found = _mapped(declared) or _matched(root, response)
    if found is None:
        values = [node.text or "" for node in declared.iterfind(f"{_Q}correctResponse/{_Q}value")]
        if not values:
            raise Unreadable("the response declaration has no correctResponse", declared, NO_CORRECT_RESPONSE)
        found = ([(names.from_literal(values[0]), 1.0)], True)
    entries, case_sensitive = found
    best = max(value for _, value in entries) if full is None else full
    answers = [Answer(text=text, credit=credit(value, best)) for text, value in entries]
    shown = feedback.per_answer(lambda test: _answer_of(test, response, answers, case_sensitive))
    return tuple(Answer(text=a.text, credit=a.credit, feedback=shown.get(n)) for n, a in enumerate(answers)), \
        case_sensitive


def credit(value: float, full: float) -> float:
    """A credit in percent of `full` (which gives 100); with nothing to compare, full credit."""
    return 100.0 if full == 0 else round(value / full * 100, 5)


def score_set(branch) -> float | None:
    """The number a branch sets SCORE to (`baseValue`), or adds to GAPS for a gap (`sum(GAPS, baseValue)`)."""
    setters = [s for s in branch.iterfind(f"{_Q}setOutcomeValue") if s.get("identifier") in (names.SCORE, names.GAPS)]
    value = setters[0].find(f".//{_Q}baseValue") if setters else None
    return None if value is None else read_number(value.text, value, "the score set")


def _mapped(declared):
    mapping = declared.find(f"{_Q}mapping")
    if mapping is None:
        return None
    entries = list(mapping.iterfind(f"{_Q}mapEntry"))
    case_sensitive = all(entry.get("caseSensitive", "true") == "true" for entry in entries)
    keyless = next((entry for entry in entries if entry.get("mapKey") is None), None)
    if keyless is not None:
        raise Unreadable("a mapEntry without a mapKey", keyless,
                         "give each mapEntry the answer it scores as its mapKey")
    return [(names.from_literal(e.get("mapKey")), read_number(e.get("mappedValue"), e, "a mappedValue"))
            for e in entries], case_sensitive


def _matched(root, response: str):
    """Answers from a responseCondition whose branches test the response and set SCORE."""
    processing = root.find(f"{_Q}responseProcessing")
    for rule in [] if processing is None else processing.iterfind(f"{_Q}responseCondition"):
        entries, cases = [], set()
        for branch in rule:
            test = branch[0] if len(branch) and branch.tag != f"{_Q}responseElse" else None
            score = score_set(branch)
            if test is None or score is None or variable_of(test) != response:
                continue
            text, case_sensitive = _tested(test)
            if text is not None:
                entries.append((text, score))
                cases.add(case_sensitive)
        if entries:
            return entries, False not in cases and True in cases
    return None


def _tested(test) -> tuple[str | None, bool | None]:
    """The answer a stringMatch / patternMatch tests for, and whether case matters (None: no letters)."""
    if test.tag == f"{_Q}stringMatch":
        value = test.find(f"{_Q}baseValue")
        return names.from_literal(value.text or "") if value is not None else None, test.get("caseSensitive") == "true"
    if test.tag == f"{_Q}patternMatch":
        pattern = test.get("pattern", "")
        text = names.from_pattern(pattern)
        if text is None:
            raise Unreadable(f"the pattern {pattern!r} is not a wildcard answer lmsexport can read", test,
                             "test the answer with a stringMatch, or a pattern of the answer's text with .* "
                             "standing for any characters")
        insensitive = names.wildcard_pattern(text, False) == pattern
        letters = any(c.lower() != c.upper() for c in text)
        return text, (not insensitive if letters else None)
    return None, None


def _answer_of(test, response: str, answers: list[Answer], case_sensitive: bool) -> int | None:
    if variable_of(test) != response:
        return None
    text, _ = _tested(test)
    return next((n for n, answer in enumerate(answers) if answer.text == text), None)


def read_fill_blanks(root, interactions, common: dict, feedback: Feedback, reader: TextReader) -> Question:
    body = copy.deepcopy(root.find(f"{_Q}itemBody"))
    unindent(body)
    only = body[0] if len(body) == 1 and not (body.text or "").strip() else None
    container = only if only is not None and only.tag == f"{_Q}div" and set(only.attrib) <= {_LANG} else body
    gaps, cases = [], []
    for position, node in enumerate([n for n in container.iter() if n.tag in _GAP_TAGS]):
        gap, case_sensitive = _gap(root, node, feedback, reader)
        gaps.append(gap)
        cases.append(case_sensitive)
        replace_with_text(node, _TOKEN.format(position))
    text = _plain(container)
    if any(node.tag in _BLOCKS for node in container.iter()):
        text = text.strip("\n")  # the new lines the blocks ended with
    text = unicodedata.normalize("NFC", text)
    segments = _segments(text, gaps, body)
    typed = [case for case in cases if case is not None]
    return FillBlanks(**common, prompt=Text(_TOKENS.sub(BLANK, text), "plain", container.get(_LANG)),
                      segments=tuple(part for part in segments if part != ""),
                      case_sensitive=typed[0] if typed else False)


_GAP_TAGS = {f"{_Q}textEntryInteraction", f"{_Q}inlineChoiceInteraction"}
_BLOCKS = {f"{_Q}{tag}" for tag in "p div blockquote pre h1 h2 h3 h4 h5 h6 ul ol li dl dt dd table tr address".split()}


def _plain(node) -> str:
    """The words of a gap text: the model keeps the text around gaps plain (model.FillBlanks),
    so another tool's markup is dropped, a line break and the end of a block kept as a new line."""
    out = [node.text or ""]
    for child in node:
        if child.tag == f"{_Q}br":
            out.append("\n")
        elif isinstance(child.tag, str):
            out.append(_plain(child))
            if child.tag in _BLOCKS and not "".join(out).endswith("\n"):
                out.append("\n")
        out.append(child.tail or "")
    return "".join(out)


def _gap(root, node, feedback: Feedback, reader: TextReader) -> tuple[Gap, bool | None]:
    response = node.get("responseIdentifier", "")
    declared = declaration(root, response)
    gap_id = response.removeprefix(f"{names.RESPONSE}_")
    gap_id = gap_id if is_identifier(gap_id) else slug(gap_id, fallback="gap")
    if node.tag == f"{_Q}textEntryInteraction" and declared.get("baseType") in ("float", "integer"):
        return _number_gap(root, declared, gap_id, reader), None
    if node.tag == f"{_Q}textEntryInteraction" and declared.get("baseType") != "string":
        raise NoKind(f"the gap {response!r} takes a {declared.get('baseType')}: the model's gaps take text or "
                     "a choice", node, "a number to type is a numeric question of its own")
    if node.tag == f"{_Q}textEntryInteraction":
        answers, case_sensitive = typed_answers(root, declared, None, feedback)
        return Gap(id=gap_id, answers=answers), case_sensitive
    correct = set(correct_values(declared))
    shown = feedback.per_answer(lambda test: picked(test, response))
    choices = tuple(
        Choice(id=_choice_id(gap_id, choice.get("identifier", "")), text=reader.text(choice),
               correct=choice.get("identifier") in correct, feedback=shown.get(choice.get("identifier")))
        for choice in node.iterfind(f"{_Q}inlineChoice"))
    return Gap(id=gap_id, choices=choices), None


def _number_gap(root, declared, gap_id: str, reader: TextReader) -> Gap:
    """A gap that takes a number, as a typed gap whose answer is the number as written and in its
    shortest form (the model's gaps compare text), warned (W883)."""
    values = correct_values(declared)
    if not values:
        raise Unreadable("the response declaration has no correctResponse", declared, NO_CORRECT_RESPONSE)
    shortest = number(read_number(values[0], declared, "the correct response"))
    texts = list(dict.fromkeys([shortest, values[0]]))
    reader.log.warn("W883", f"{reader.subject}: its gap {declared.get('identifier')!r} takes a number, read as the "
                    f"typed answer {' or '.join(map(repr, texts))}: an answer written otherwise (another number of "
                    "decimals, a tolerance) is not accepted", reader.span,
                    "make it a numeric question of its own if learners may write the number in other ways")
    return Gap(id=gap_id, answers=tuple(Answer(text=text) for text in texts))


def read_gap_match(root, interactions, common: dict, feedback: Feedback, reader: TextReader) -> Question:
    """A gapMatchInteraction whose gaps each take one right word, as drop-down gaps offering every
    gapText (W883): the model's gaps are typed or picked from a list, not dragged into."""
    interaction = copy.deepcopy(interactions[0])
    unindent(interaction)
    words = {n.get("identifier"): n for n in interaction.iterfind(f"{_Q}gapText")}
    if interaction.find(f"{_Q}gapImg") is not None:
        raise NoKind("its words to drag are images, which the model's gaps cannot offer", interactions[0],
                     "offer words in its gapTexts, or make it a question of another kind")
    right: dict[str, list[str]] = {}
    for value in correct_values(declaration(root, interaction.get("responseIdentifier", ""))):
        word, _, gap = value.partition(" ")
        right.setdefault(gap, []).append(word)
    gaps = [node for node in interaction.iter(f"{_Q}gap")]
    if any(len(right.get(g.get("identifier"), [])) != 1 or right[g.get("identifier")][0] not in words for g in gaps):
        raise NoKind("a gap of its gapMatchInteraction takes no word, or several, which a drop-down gap cannot "
                     "hold", interactions[0],
                     "give each gap one right word in the correctResponse, or make the gaps typed ones")
    prompt = interaction.find(f"{_Q}prompt")
    lead = _plain(prompt).strip() + "\n\n" if prompt is not None and _plain(prompt).strip() else ""
    for node in [prompt, *words.values()]:
        if node is not None:
            replace_with_text(node, "")
    built = []
    for position, node in enumerate(gaps):
        gap_id = _identifier(node.get("identifier", ""), f"g{position + 1}")
        choices = tuple(Choice(id=_identifier(w, f"w{n}"), text=reader.text(words[w]),
                               correct=w == right[node.get("identifier")][0]) for n, w in enumerate(words))
        built.append(Gap(id=gap_id, choices=choices))
        replace_with_text(node, _TOKEN.format(position))
    text = unicodedata.normalize("NFC", lead + _plain(interaction).strip("\n"))
    segments = _segments(text, built, interactions[0])
    reader.log.warn("W883", f"{reader.subject}: its words to drag into the gaps are read as a drop-down list in "
                    "each gap, offering every word", reader.span, "nothing to do; every format shows drop-down gaps")
    return FillBlanks(**common, prompt=Text(_TOKENS.sub(BLANK, text)), segments=tuple(p for p in segments if p != ""))


def _segments(text: str, gaps: list[Gap], node) -> list:
    """`text` cut at the gap tokens put in it, each token replaced by its gap. A text of another
    tool may hold the private-use characters the tokens are made of: then they do not add up."""
    pieces = _TOKENS.split(text)
    if sorted(int(piece) for piece in pieces[1::2]) != list(range(len(gaps))):
        raise Unreadable("the text holds U+E000 or U+E001, private-use characters lmsexport marks gaps with", node,
                         "remove those characters from the item's text")
    return [piece if n % 2 == 0 else gaps[int(piece)] for n, piece in enumerate(pieces)]


def _identifier(value: str | None, fallback: str) -> str:
    """A model id from a QTI identifier, which another tool's item may lack (a `gapText` without one)."""
    value = value or ""
    return value if is_identifier(value) else slug(value, fallback=fallback)


def _choice_id(gap_id: str, identifier: str) -> str:
    """The option id lmsexport prefixed with the gap's (`g2_a` -> `a`)."""
    short = identifier.removeprefix(f"{gap_id}_")
    return short if is_identifier(short) else identifier


