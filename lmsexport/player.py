"""The SCORM quiz player: one HTML page rendered from the model, plus static JS and CSS.

`templates/scorm/index.html.jinja` is the only rendered file. The quiz reaches the
page as JSON inside `<script type="application/json">` (Jinja's `tojson`, which
escapes `<`, `>`, `&` and `'`), so no JavaScript is ever built from Python strings
(STYLE.md, convention 6). Behaviour lives in `templates/scorm/static/*.js`, copied
byte for byte. Interface text comes from `templates/scorm/messages.json`, picked
for the quiz's language at build time, with English as the fallback.
"""

from __future__ import annotations

import functools
import json
from importlib import resources

from .model import MultipleChoice, Question, Quiz, Text

STATIC = ("lms.js", "player.css", "player.js", "sanitize.js")
"""Files every package carries, whatever the SCORM version."""
RUNTIMES = {"1.2": "scorm12.js", "2004": "scorm2004.js"}
"""SCORM version -> the adapter that maps the player's records onto that version's CMI."""
LAUNCH = "index.html"

RTL_LANGUAGES = frozenset({"ar", "ckb", "dv", "fa", "he", "ps", "sd", "ug", "ur", "yi"})
"""Primary language subtags written right to left (unless a script subtag says otherwise)."""
_RTL_SCRIPTS = frozenset({"arab", "hebr", "thaa", "syrc", "nkoo", "adlm", "rohg"})

DESCRIPTION_LIMIT = 250
"""SCORM 2004 `cmi.interactions.n.description`: a localized_string_type, SPM 250 characters (RTE 4.2.9)."""


def text_direction(lang: str | None) -> str:
    """`rtl` or `ltr` for a BCP 47 tag; a script subtag (`-Arab`, `-Latn`) wins over the language."""
    if not lang:
        return "ltr"
    subtags = lang.lower().split("-")
    for subtag in subtags[1:]:
        if len(subtag) == 4 and subtag.isalpha():
            return "rtl" if subtag in _RTL_SCRIPTS else "ltr"
    return "rtl" if subtags[0] in RTL_LANGUAGES else "ltr"


@functools.cache
def _catalog() -> dict[str, dict[str, str]]:
    path = resources.files("lmsexport") / "templates" / "scorm" / "messages.json"
    return json.loads(path.read_text(encoding="utf-8"))


def message_language(lang: str | None) -> str:
    """The catalog language that best fits `lang`: `pt-BR` -> `pt-br`, `pt`, else `en`."""
    catalog = _catalog()
    subtags = (lang or "").lower().split("-")
    for size in range(len(subtags), 0, -1):
        candidate = "-".join(subtags[:size])
        if candidate in catalog:
            return candidate
    return "en"


def messages(lang: str | None) -> dict[str, str]:
    """Interface text for `lang`, each missing message taken from English."""
    catalog = _catalog()
    return {**catalog["en"], **catalog[message_language(lang)]}


def _text(text: Text | None) -> dict | None:
    if text is None:
        return None
    data = {"value": text.value, "format": text.format}
    if text.lang:
        data["lang"] = text.lang
        data["dir"] = text_direction(text.lang)
    return data


_BLOCKS = frozenset({"address", "blockquote", "br", "dd", "div", "dl", "dt", "figcaption", "figure", "h1", "h2",
                     "h3", "h4", "h5", "h6", "hr", "li", "ol", "p", "pre", "table", "td", "th", "tr", "ul"})
"""Elements that separate words: their text is kept apart from the text around them."""
_NOT_TEXT = frozenset({"script", "style", "template", "noscript", "iframe", "object", "svg", "math"})
"""Elements whose content is never words a learner reads."""


def plain(text: Text) -> str:
    """The words of a text without markup, whitespace collapsed (for descriptions and metadata)."""
    value = text.value
    if text.format == "html":
        from lxml import html

        root = html.fragment_fromstring(value, create_parent="div")
        for node in list(root.iter()):
            if node.tag in _NOT_TEXT:
                node.drop_tree()
            elif node.tag in _BLOCKS:
                node.text = " " + (node.text or "")
                node.tail = " " + (node.tail or "")
        value = root.text_content()
    return " ".join(value.split())


def interaction_id(quiz: Quiz, question: Question, version: str) -> str:
    """SCORM 1.2: the question id (a CMIIdentifier); 2004: a URN, as the RTE advises for long_identifier_type."""
    return question.id if version == "1.2" else f"urn:lmsexport:{quiz.id}:{question.id}"


def _description(question: Question) -> str:
    """2004 interaction description: the prompt as plain text, cut to the SCORM limit."""
    words = plain(question.prompt)
    if len(words) > DESCRIPTION_LIMIT:
        words = words[: DESCRIPTION_LIMIT - 1].rstrip() + "…"
    return words


def _compact(data: dict) -> dict:
    """The data without its empty (None) entries: the player treats missing and null alike."""
    return {key: value for key, value in data.items() if value is not None}


def _multiple_choice(quiz: Quiz, question: MultipleChoice, version: str) -> dict:
    lang = question.lang if question.lang and question.lang != quiz.lang else None
    return _compact({
        "id": question.id,
        "interaction": interaction_id(quiz, question, version),
        "description": _description(question) if version == "2004" else None,
        "multiple": question.multiple_response,
        "points": question.points,
        "lang": lang,
        "dir": text_direction(lang) if lang else None,
        "prompt": _text(question.prompt),
        "explanation": _text(question.explanation),
        "choices": [
            _compact({"id": c.id, "text": _text(c.text), "correct": c.correct, "feedback": _text(c.feedback)})
            for c in question.choices
        ],
    })


def supports(question: Question) -> bool:
    """Whether the player can show and score this kind of question."""
    return isinstance(question, MultipleChoice)


def player_data(quiz: Quiz, version: str) -> dict:
    """Everything the page's script needs, as JSON-ready data (questions it cannot play left out)."""
    return _compact({
        "lang": quiz.lang or "en",
        "description": _text(quiz.description),
        "shuffle": quiz.settings.shuffle,
        "passMark": quiz.settings.pass_mark,
        "feedback": quiz.settings.feedback,
        "messages": messages(quiz.lang),
        "questions": [_multiple_choice(quiz, q, version) for q in quiz.questions if supports(q)],
    })


@functools.cache
def _environment():
    from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape

    # select_autoescape() alone matches names ending in .html, not .html.jinja:
    # the extension is listed so that the shell is escaped, not silently raw.
    environment = Environment(
        loader=PackageLoader("lmsexport"),
        autoescape=select_autoescape(("html", "htm", "xml", "html.jinja")),
        undefined=StrictUndefined,
        keep_trailing_newline=True,
    )
    # Sorted keys and one key per line keep the page deterministic and its diffs readable;
    # non-ASCII stays as it is (tojson still escapes < > & ' for the script element).
    environment.policies["json.dumps_kwargs"] = {"sort_keys": True, "ensure_ascii": False, "indent": 1}
    return environment


@functools.cache
def static_file(name: str) -> bytes:
    """A static player file, exactly as shipped in `templates/scorm/static/`."""
    return (resources.files("lmsexport") / "templates" / "scorm" / "static" / name).read_bytes()


def render(quiz: Quiz, version: str) -> dict[str, bytes]:
    """The player's files for one quiz: the launch page and the static files it loads."""
    data = player_data(quiz, version)
    runtime = RUNTIMES[version]
    page = _environment().get_template("scorm/index.html.jinja").render(
        data=data,
        title=quiz.title,
        lang=data["lang"],
        dir=text_direction(data["lang"]),
        messages=data["messages"],
        runtime=runtime,
    )
    files = {LAUNCH: page.encode("utf-8")}
    for name in (*STATIC, runtime):
        files[name] = static_file(name)
    return files
