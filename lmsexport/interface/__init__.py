"""The words of lmsexport's interfaces, in the quiz's language: the quiz player (the SCORM
packages' pages) and the printable answer key (`lmsexport key`, the preview).

`messages/<tag>.json` holds one language's words, named by its CLDR locale (`cs`, `pt`, `nb`):
every file has every key of `en.json` with the same `{placeholders}` (tests/test_interface.py
holds that). The answer key's own words are the `key_` ones (`key_title`); the player's pages
carry the others, and the key shares those it also shows (`question`, `true`, `points`), so a
word is translated once. A message that counts something (`COUNTED`) has one key per CLDR
plural category of its language, `points_one`, `points_few`, ... `points_other`, as Babel gives
them (https://cldr.unicode.org/index/cldr-spec/plural-rules). Forms are chosen here, never in
the player's JavaScript, so Czech says `1 bod`, `2 body`, `1,5 bodu`, `5 bodů` whatever the browser.

A quiz in a language without a file takes the words of its CLDR parent (`pt-BR` -> `pt`,
`nb` -> `no`), else English; `fallback()` says when that is another variety than the quiz's,
and `warn_fallback` tells it (W610, for the player and the key alike). A quiz's own
`messages:` file (`custom.py`) replaces any of them. Numbers are written as the quiz's language
writes them (`number_format`), from CLDR too.
"""

from __future__ import annotations

import functools
import json
import re
from decimal import Decimal
from importlib import resources

PLACEHOLDER = re.compile(r"\{(\w+)\}")
COUNTED = {"points": "points", "key_attempt_questions": "count", "key_pool_draws": "count"}
"""Messages with a form per plural category (`points_one` ... `points_other`) -> the placeholder
that holds the number the form is chosen by."""
ANSWER_KEY = "key_"
"""The keys of the answer key's own words; the player's pages leave them out."""
ENGLISH = "en"

CATEGORIES = ("zero", "one", "two", "few", "many", "other")
"""CLDR's plural categories, in its order."""

__all__ = ["ANSWER_KEY", "CATEGORIES", "COUNTED", "ENGLISH", "PLACEHOLDER", "Words", "catalog", "counted_key",
           "fallback", "languages", "number_format", "plural_categories", "player_keys", "warn_fallback"]


@functools.cache
def languages() -> tuple[str, ...]:
    """The languages the player speaks: the tags of `messages/*.json`."""
    folder = resources.files("lmsexport.interface") / "messages"
    return tuple(sorted(entry.name.removesuffix(".json") for entry in folder.iterdir() if entry.name.endswith(".json")))


@functools.cache
def catalog(tag: str) -> dict[str, str]:
    """The words of one language of the player, as its file has them."""
    path = resources.files("lmsexport.interface") / "messages" / f"{tag}.json"
    return json.loads(path.read_text(encoding="utf-8"))


def counted_key(key: str) -> str | None:
    """`points` for `points_few` (a form of a counted message), else None."""
    stem, _, category = key.rpartition("_")
    return stem if stem in COUNTED and category in CATEGORIES else None


def player_keys() -> tuple[str, ...]:
    """The keys of the words the player's pages show: all but the answer key's own."""
    return tuple(key for key in catalog(ENGLISH) if not key.startswith(ANSWER_KEY))


@functools.cache
def _locale(lang: str | None):
    """Babel's locale for a BCP 47 tag, trying shorter tags (`sr-Latn-XK`, `sr-Latn`, `sr`); None if
    CLDR knows none of them."""
    from babel import Locale, UnknownLocaleError

    subtags = (lang or "").split("-")
    for size in range(len(subtags), 0, -1):
        try:
            return Locale.parse("_".join(subtags[:size]))
        except (UnknownLocaleError, ValueError, TypeError):
            continue
    return None


def plural_categories(lang: str | None) -> tuple[str, ...]:
    """The CLDR plural categories of `lang`, in CLDR's order (`other` always, last)."""
    locale = _locale(lang) or _locale(ENGLISH)
    tags = locale.plural_form.tags | {"other"}
    return tuple(category for category in CATEGORIES if category in tags)


def _chain(lang: str) -> list[str]:
    """`lang` and its CLDR ancestors, most specific first: `pt-BR` -> `pt_BR`, `pt`; `nb` -> `nb`, `no`."""
    from babel.core import get_global

    locale = _locale(lang)
    if locale is None:
        return [lang.replace("-", "_")]
    parents = get_global("parent_exceptions")
    chain = [str(locale)]
    while chain[-1] != "root" and len(chain) < 8:
        current = chain[-1]
        chain.append(parents.get(current) or (current.rsplit("_", 1)[0] if "_" in current else "root"))
    # Last, the language alone: CLDR makes root the parent of `zh_Hant`, but a reader of
    # Traditional Chinese reads Simplified better than English (with a warning: fallback()).
    return [tag for tag in chain if tag != "root"] + [locale.language]


@functools.cache
def _catalog_language(lang: str | None) -> str:
    if not lang:
        return ENGLISH
    known = {tag.replace("-", "_").lower(): tag for tag in languages()}
    return next((known[tag.lower()] for tag in _chain(lang) if tag.lower() in known), ENGLISH)


def language_name(tag: str | None) -> str:
    """How messages name a language: `Portuguese (Portugal) (pt-PT)`, in English (CLDR)."""
    locale = _locale(tag)
    name = locale.get_display_name(ENGLISH) if locale is not None else None
    return f"{name} ({tag})" if name else f"'{tag}'"


def _likely(tag: str) -> tuple[str | None, str | None]:
    """The script and region of a tag, those it lacks from CLDR's likely subtags (`pt` -> Latn, BR)."""
    from babel.core import get_global

    locale = _locale(tag)
    if locale is None:
        return None, None
    likely = get_global("likely_subtags")
    script, region = locale.script, locale.territory
    guess = likely.get(f"{locale.language}_{script}" if script else locale.language, "").split("_")
    script = script or next((part for part in guess[1:] if len(part) == 4), None)
    region = region or next((part for part in guess[1:] if len(part) == 2 or part.isdigit()), None)
    return script, region


@functools.cache
def fallback(lang: str | None) -> str | None:
    """The language whose words a quiz in `lang` gets when they are another variety than its own
    (`pt-PT` -> `pt`, Brazilian; `zh-Hant` -> `en`), else None. A CLDR ancestor with the same
    likely script and region is the quiz's own variety (`pt-BR` -> `pt`, `en-US` -> `en`)."""
    found = _catalog_language(lang)
    if not lang or found.lower() == lang.lower():
        return None
    ancestors = [tag.lower() for tag in _chain(lang)]
    if found.replace("-", "_").lower() in ancestors and _likely(found) == _likely(lang):
        return None
    return found


class Words:
    """The interface text of one quiz on one page: its language's words, with the quiz's own over
    them. `shown` are the keys of the words the page shows (default: the player's)."""

    def __init__(self, lang: str | None, custom: dict[str, str] | None = None, shown: tuple[str, ...] | None = None):
        self.lang = lang
        self.language = _catalog_language(lang)
        """The catalog language the words come from."""
        custom = custom or {}
        self.messages = {**catalog(ENGLISH), **catalog(self.language), **custom}
        # Forms written for the quiz (its messages file) follow its language's rules; the
        # catalog's forms follow the rules of the language they are written in.
        self.rules = lang if any(counted_key(key) for key in custom) else self.language
        shown = player_keys() if shown is None else shown
        self.complete = all(key in custom for key in shown if not counted_key(key)) and self.rules == lang
        """Whether the quiz's own words leave none of the catalog's to show on the page."""
        self._counted: dict[tuple, str] = {}

    def count(self, stem: str, value: float, **values) -> str:
        """A counted message for `value`, in the form CLDR's plural rules pick (`2 body`), the
        number written as the quiz's language writes it; `values` fill its other placeholders.
        Each is made once per quiz: Babel's plural rule and number format cost a SCORM
        package of 2,000 one-point questions 0.14 s when made for every question."""
        key = (stem, value, *sorted(values.items()))
        if key not in self._counted:
            self._counted[key] = self._count(stem, value, values)
        return self._counted[key]

    def _count(self, stem: str, value: float, values: dict) -> str:
        number = int(value) if float(value).is_integer() else Decimal(str(round(value, 2))).normalize()
        from babel.numbers import format_decimal

        category = (_locale(self.rules) or _locale(ENGLISH)).plural_form(number)
        text = self.messages.get(f"{stem}_{category}", self.messages[f"{stem}_other"])
        filled = {**{name: str(given) for name, given in values.items()},
                  COUNTED[stem]: format_decimal(number, locale=_locale(self.lang) or _locale(ENGLISH))}
        return PLACEHOLDER.sub(lambda match: filled.get(match[1], match[0]), text)


def warn_fallback(log, words: Words, where, page: str, parts: str) -> None:
    """W610 when `page` (`the player`, `the answer key`) shows the words of another language, or of
    another variety of it, than the quiz's (`fallback()`), and the quiz's own words do not replace
    them all: the one warning, whichever page it is."""
    other = fallback(words.lang)
    if other is not None and not words.complete:
        log.warn("W610", f"{page} has no interface text in {language_name(words.lang)}, so it shows its {parts} in "
                 f"{language_name(other)}", where,
                 f"give the quiz a messages: file with {page}'s words in its language (docs/formats/scorm.md lists "
                 f"the keys), or set lang: to a language {page} speaks")


@functools.cache
def number_format(lang: str | None) -> dict:
    """How `lang` writes numbers, for the player's `formatNumber` (CLDR through Babel, digits 0-9):
    decimal and group signs, the sizes of digit groups (Hindi: 3, then 2), the minus sign, and
    what stands before and after a percentage (`75,5 %` in Czech, `%75,5` in Turkish)."""
    from babel.numbers import get_decimal_symbol, get_group_symbol, get_minus_sign_symbol

    locale = _locale(lang) or _locale(ENGLISH)
    pattern = locale.percent_formats[None]
    sign = locale.number_symbols["latn"].get("percentSign", "%")
    primary, secondary = locale.decimal_formats[None].grouping
    return {
        "decimal": get_decimal_symbol(locale),
        "group": get_group_symbol(locale),
        "minus": get_minus_sign_symbol(locale),
        "grouping": [primary, secondary],
        "percent": [part.replace("%", sign) for part in (pattern.prefix[0], pattern.suffix[0])],
    }
