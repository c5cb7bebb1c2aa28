"""Numbers as people write them in their language: the one reading of a written number.

Every reader that takes a number from what a person typed (a text quiz's `= 78,9`, a sheet's
cell) reads it here, through `read_number` or, for answers with a tolerance, a range or a unit,
`quantities.read_answer`; the SCORM player scores what a learner types with the same rules, from
the symbols `player_numbers` gives it. Nothing is guessed: a number that reads two ways is read
the way its language writes numbers, with a note saying so (the reader's warning).

The rules (docs/format.md, "Numbers"):

* a language's decimal sign and group sign come from CLDR, through Babel: `78,9` is 78.9 in
  Czech, Indonesian, Vietnamese or French, `1 000` (any space) is 1000 everywhere, `1,00,000` is
  100000 in Hindi, whose groups are of two digits after the first three;
* digits are any script's (Python's `str.isdecimal`: `٧٨٫٩` is 78.9 in Arabic, `७८.९` in Hindi),
  one script per number; digits other than 0-9 take the symbols of the language's native
  numbering system (CLDR `arab` for Arabic: `٫` and `٬`);
* a number the language's way cannot read may still read with a dot or a comma as the decimal
  sign (`78.9` in Czech, which groups with spaces): it is read so, with a note when the language
  uses that sign to group digits (`1,5` in English);
* a number that reads both ways (`1,000` in English: 1000, or 1 with a decimal comma) is read
  the language's way, with a note; a language's own decimal sign is never in doubt (`2,718` is
  2.718 in Czech, where a comma never groups digits).

https://cldr.unicode.org/translation/number-currency-formats/number-symbols,
https://unicode.org/reports/tr35/tr35-numbers.html#Number_Symbols
"""

from __future__ import annotations

import functools
import re
import unicodedata
from dataclasses import dataclass
from decimal import MAX_EMAX, MIN_EMIN, Decimal, localcontext

SPACES = " \u00a0\u202f\u2009"
"""The spaces that group digits (CLDR writes a no-break or narrow no-break space; people type any)."""
APOSTROPHES = "'\u2019"
"""The apostrophes that group digits (Swiss German `1'000`, which CLDR writes `’` in some versions)."""
MINUS = "-\u2212"
"""Hyphen-minus and the minus sign (which CLDR gives Swedish, Estonian, Persian...)."""
PERCENT = frozenset("%\u066a\uff05\ufe6a")
"""The percent signs: `%`, the Arabic one (CLDR's `percentSign` of the `arab` numbering system),
and the full-width and small forms."""
BIDI = re.compile("[\u200e\u200f\u061c\u202a-\u202e\u2066-\u2069]")
"""Directional marks CLDR puts around signs in right-to-left languages (`\u200e-`): not part of a number."""
_MARKS = "." + "," + "\u066b\u066c\u2e41\u060c" + APOSTROPHES
"""Every sign a number may hold between its digits but spaces: dot, comma, the Arabic decimal and
thousands separators, the reversed comma and the Arabic comma (CLDR groups with these), apostrophes."""
NUMBER = re.compile(
    rf"[+{re.escape(MINUS)}]?(?:\d|[{re.escape(_MARKS)}](?=\d))(?:\d|[{re.escape(_MARKS)}]|[{SPACES}](?=\d))*"
    rf"(?:[eE][+{re.escape(MINUS)}]?\d+)?"
)
"""What may be a number, before a language says how to read it: a sign, digits and the marks
between them (a space only before a digit), an exponent (`6,02e23`)."""


@dataclass(frozen=True, slots=True)
class Symbols:
    """The decimal and group signs of one numbering system of a language."""

    decimal: str
    group: str

    @property
    def groups(self) -> str:
        """Every character that groups digits: the group sign (any space for a space, any
        apostrophe for one), and spaces always (SI writes `1 000` in every language)."""
        group = self.group
        if group in SPACES:
            return SPACES
        return SPACES + (APOSTROPHES if group in APOSTROPHES else group)


POINT, COMMA = Symbols(".", ","), Symbols(",", ".")
"""The two ways numbers are written the world over, tried when a language's own way cannot read a number."""


@dataclass(frozen=True, slots=True)
class Convention:
    """How one language writes numbers (CLDR, through Babel)."""

    lang: str | None
    name: str
    """How messages name the language: `Czech (cs)`."""
    latin: Symbols
    """The signs with the digits 0-9 (CLDR's `latn` numbering system)."""
    native: Symbols
    """The signs with the language's own digits (its `native` numbering system, else `latin`)."""
    sizes: tuple[int, int]
    """Digits in the last group and in the groups before it: (3, 3), or (3, 2) for Hindi."""


@functools.lru_cache(maxsize=None)
def convention(lang: str | None, decimal: str | None = None) -> Convention:
    """The convention of a BCP 47 tag (`cs`, `pt-BR`, `ar`); CLDR's root (`1,234.5`) for no tag or
    a language CLDR does not know. `decimal` (`.` or `,`) overrides the language's decimal sign,
    the other of the two then grouping digits (a sheet's `decimal | comma` setting)."""
    if decimal is not None:
        word = "comma" if decimal == "," else "dot"
        symbols = COMMA if decimal == "," else POINT
        base = convention(lang)
        return Convention(lang, f"numbers with a decimal {word} (decimal: {word})", symbols, symbols, base.sizes)
    from babel import Locale
    from babel.numbers import UnsupportedNumberingSystemError, get_decimal_symbol, get_group_symbol

    locale = _locale(lang)
    if locale is None:
        name = f"a language CLDR does not know ({lang})" if lang else "a quiz without a language (lang:)"
        return Convention(lang, name, POINT, POINT, (3, 3))

    def symbols(system: str) -> Symbols:
        try:
            return Symbols(*(BIDI.sub("", get(locale, numbering_system=system))
                             for get in (get_decimal_symbol, get_group_symbol)))
        except UnsupportedNumberingSystemError:
            return symbols("latn")

    native = dict(locale.other_numbering_systems).get("native", locale.default_numbering_system)
    pattern = locale.decimal_formats.get(None)
    sizes = pattern.grouping if pattern is not None else (3, 3)
    name = f"{Locale.parse(locale.language).get_display_name('en')} ({lang})"
    return Convention(lang, name, symbols("latn"), symbols(native), (sizes[0], sizes[1]))


def _locale(lang: str | None):
    """Babel's locale for a tag, trying shorter tags (`sr-Latn-RS`, `sr-Latn`, `sr`); None if unknown."""
    from babel import Locale, UnknownLocaleError

    subtags = (lang or "").replace("_", "-").split("-")
    for size in range(len(subtags), 0, -1):
        try:
            return Locale.parse("-".join(subtags[:size]), sep="-")
        except (UnknownLocaleError, ValueError, TypeError):
            continue
    return None


@dataclass(frozen=True, slots=True)
class Note:
    """Why a number was read the way it was, for a reader's warning."""

    code: str
    message: str
    hint: str


@dataclass(frozen=True, slots=True)
class Number:
    """A number read from text: its exact value, and a note when its reading was in doubt."""

    value: Decimal
    note: Note | None = None


def read_number(text: str, lang: str | None, *, decimal: str | None = None) -> Number | None:
    """The number `text` holds, all of it, as `lang` writes numbers (with `decimal` as its decimal
    sign, if given: see convention()); None if it holds none."""
    text = BIDI.sub("", text).strip()
    if not NUMBER.fullmatch(text):
        return None
    sign, body, power = _parts(text)
    zeros = {ord(c) - unicodedata.decimal(c) for c in body if c.isdecimal()}
    if len(zeros) != 1:
        return None  # digits of two scripts
    digits = "".join(str(unicodedata.decimal(c)) if c.isdecimal() else c for c in body)
    conv = convention(lang, decimal)
    number = _decide(text, digits, conv.latin if zeros == {ord("0")} else conv.native, conv)
    if number is None:
        return None
    with localcontext() as context:
        context.prec, context.Emax, context.Emin = 60, MAX_EMAX, MIN_EMIN
        return Number(number.value.scaleb(power) * sign, number.note)


def _parts(text: str) -> tuple[int, str, int]:
    """A number's sign (1 or -1), its digits and marks, and its power of ten (`e23`: 23)."""
    sign = -1 if text[0] in MINUS else 1
    body = text[1:] if text[0] in MINUS + "+" else text
    found = re.search(rf"[eE]([+{re.escape(MINUS)}]?)(\d+)\Z", body)
    if not found:
        return sign, body, 0
    power = min(int("".join(str(unicodedata.decimal(c)) for c in found[2])), 10**5)  # past 1e308 all is infinite
    return sign, body[: found.start()], -power if found[1] and found[1] in MINUS else power


def _decide(text: str, body: str, own: Symbols, conv: Convention) -> Number | None:
    """`body` read with the language's signs, else with a dot or a comma as the decimal sign."""
    mine = _value(body, own, conv.sizes)
    readings = {s: _value(body, s, conv.sizes) for s in (POINT, COMMA) if s != own}
    others = {symbols: value for symbols, value in readings.items() if value is not None}
    if mine is not None:
        doubt = [value for value in others.values() if value != mine]
        grouped = own.group in ".," and own.group in body
        return Number(mine, _two_ways(text, mine, doubt[0], own, conv) if doubt and grouped else None)
    if not others:
        return None
    if len(set(others.values())) > 1:  # `1.000` where the language writes neither sign: a decimal mark
        chosen = next(symbols for symbols in others if symbols.decimal in body)
        other = next(value for symbols, value in others.items() if symbols != chosen)
        return Number(others[chosen], _foreign(text, others[chosen], other, chosen, conv))
    chosen, value = next(iter(others.items()))
    crossed = chosen.decimal in body and chosen.decimal == own.group
    return Number(value, _crossed(text, value, chosen, conv) if crossed else None)


def _value(body: str, symbols: Symbols, sizes: tuple[int, int]) -> Decimal | None:
    """`body` (digits 0-9 and marks) read with `symbols`: at most one decimal sign, after every
    group sign; one kind of group sign, in groups of the language's sizes. None if it cannot be."""
    runs, marks = re.split(r"\D", body), re.findall(r"\D", body)
    if any(mark != symbols.decimal and mark not in symbols.groups for mark in marks):
        return None
    decimals = [i for i, mark in enumerate(marks) if mark == symbols.decimal]
    if len(decimals) > 1 or (decimals and decimals[0] != len(marks) - 1):
        return None
    whole, fraction = (runs[:-1], runs[-1]) if decimals else (runs, "")
    if len(whole) > 1 and not _grouped(whole, marks[: len(whole) - 1], sizes):
        return None
    if not "".join(whole) + fraction:
        return None
    return Decimal(f"{''.join(whole) or '0'}.{fraction or '0'}")


def _grouped(runs: list[str], marks: list[str], sizes: tuple[int, int]) -> bool:
    """Whether digit runs are a grouped whole number: one kind of group sign, the last group of
    `sizes[0]` digits, those before it of `sizes[1]`, the first of 1 to `sizes[1]`, not led by 0;
    groups of three are taken in every language (`100,000` in Hindi, which writes `1,00,000`)."""
    first, *middle, last = runs
    if len({"space" if mark in SPACES else mark for mark in marks}) != 1 or first.startswith("0"):
        return False
    return any(len(last) == primary and all(len(run) == secondary for run in middle) and 1 <= len(first) <= secondary
               for primary, secondary in {sizes, (3, 3)})


_PLAIN = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?\Z")


def read_plain(text: str) -> Decimal | None:
    """A number in the one form files meant for machines take (GIFT as Moodle reads it, PHP's
    `is_numeric`): digits 0-9, a dot, an exponent; no grouping, no comma, no unit. None otherwise."""
    return Decimal(text) if _PLAIN.match(text) else None


def written(value: float | Decimal, lang: str | None) -> str:
    """A number as `lang` writes it, so that it reads back exactly and without doubt: every digit
    (`0.00001`, not `1e-05`), no needless `.0`, the language's decimal sign, no grouping."""
    text = format(value.normalize() if isinstance(value, Decimal) else Decimal(repr(float(value))), "f")
    text = text.removesuffix(".0") if text.endswith(".0") else text
    return text.replace(".", convention(lang).latin.decimal)


def _show(value: Decimal, conv: Convention) -> str:
    return written(value, conv.lang)


def _two_ways(text: str, mine: Decimal, other: Decimal, own: Symbols, conv: Convention) -> Note:
    return Note("W131", f"{text} reads two ways, {_show(mine, conv)} or {_show(other, conv)}: it is read as "
                f"{_show(mine, conv)}, since in {conv.name} {own.group!r} groups digits",
                f"to say {_show(mine, conv)} without doubt, write it without grouping: {_show(mine, conv)}; "
                f"for {_show(other, conv)}, write {_show(other, conv)}")


def _foreign(text: str, chosen: Decimal, other: Decimal, symbols: Symbols, conv: Convention) -> Note:
    return Note("W131", f"{text} reads two ways, {_show(chosen, conv)} (with a decimal {symbols.decimal!r}) or "
                f"{_show(other, conv)} (with {symbols.decimal!r} grouping digits), and {conv.name} writes neither: "
                f"it is read as {_show(chosen, conv)}",
                f"write {_show(chosen, conv)} or {_show(other, conv)}, as {conv.name} writes numbers")


def _crossed(text: str, value: Decimal, symbols: Symbols, conv: Convention) -> Note:
    return Note("W132", f"{text} is read as {_show(value, conv)}, with {symbols.decimal!r} as its decimal sign, "
                f"though in {conv.name} {symbols.decimal!r} groups digits",
                f"write {_show(value, conv)}, as {conv.name} writes numbers; if the quiz's numbers are "
                "another language's, give the quiz (or the question) that language")


def player_numbers(lang: str | None) -> dict:
    """What the SCORM player needs to read a number as `lang` writes it (ui.js `readNumber`), with
    the rules above: the signs for the digits 0-9 and for the language's own digits, the groups'
    sizes, the two fallbacks, and the first digit (0) of each other script the player accepts."""
    conv = convention(lang)

    def signs(symbols: Symbols) -> dict:
        return {"decimal": symbols.decimal, "groups": symbols.groups}

    return {"latin": signs(conv.latin), "native": signs(conv.native), "sizes": list(conv.sizes),
            "fallbacks": [signs(POINT), signs(COMMA)], "zeros": _zeros(lang), "minus": MINUS}


@functools.lru_cache(maxsize=None)
def _zeros(lang: str | None) -> str:
    """The digit zero of each set of digits in the script of `lang` (Arabic: `٠` and `۰`;
    Devanagari `०`); empty for scripts that write 0-9 (Latin, Cyrillic, Han)."""
    from .text import script

    name = script(lang)
    if name is None:
        return ""
    import regex

    try:
        digit = regex.compile(rf"[\p{{Script={name}}}&&\p{{Nd}}]", regex.V1)
    except regex.error:
        return ""
    blocks = ("".join(map(chr, range(start, start + 0x1000))) for start in range(0, 0x20000, 0x1000))
    found = (c for block in blocks for c in digit.findall(block))
    return "".join(c for c in found if unicodedata.decimal(c, None) == 0)
