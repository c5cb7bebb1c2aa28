"""The SCORM quiz player: one HTML page rendered from the model, plus static JS and CSS.

`templates/index.html.jinja` is the only rendered file. The quiz reaches the
page as JSON inside `<script type="application/json">`, written as Jinja's `tojson`
writes it (which escapes `<`, `>`, `&` and `'`) but a question at a time, so no
JavaScript is ever built from Python strings (STYLE.md, convention 6). Behaviour
lives in `templates/static/*.js`, copied byte for byte: `ui.js` (shared helpers),
`kinds-*.js` (each kind of question), `player.js` (the flow), `lms.js` and a runtime
adapter per SCORM version. Interface
text comes from `lmsexport/interface` in the quiz's language (W610 when it has none
and the player speaks another), with what the quiz's `messages:` file says over it;
counted words are written here by CLDR's plural rules (`2 body`), and the page gets
the language's number signs to write scores with. The data of each kind is built in
`player_kinds.py`, and rich text (math, images) in `player_text.py`.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterable, Iterator
from importlib import resources

from ...diagnostics import Log
from ...interface import Words, counted_key, number_format, player_keys, warn_fallback
from ...model import Quiz
from .limits import DESCRIPTION_LIMIT
from .player_kinds import compact, interaction_id, question_data
from ...text import direction
from .player_text import TextConverter, media_path

STATIC = ("kinds-choice.js", "kinds-order.js", "kinds-text.js", "lms.js", "player.css", "player.js", "sanitize.js",
          "ui.js")
"""Files every package carries, whatever the SCORM version."""
RUNTIMES = {"1.2": "scorm12.js", "2004": "scorm2004.js"}
"""SCORM version -> the adapter that maps the player's records onto that version's CMI."""
LAUNCH = "index.html"

__all__ = ["DESCRIPTION_LIMIT", "LAUNCH", "RUNTIMES", "STATIC", "interaction_id", "media_path", "pending_grading",
           "player_data", "render", "static_file"]


def pending_grading(quiz: Quiz) -> bool:
    """Whether a person must mark part of an attempt (an essay) before it can pass or fail."""
    return any(not question.scored and question.kind != "description" for question in quiz.questions)


def player_data(quiz: Quiz, version: str, log: Log | None = None) -> dict:
    """Everything the page's script needs, as JSON-ready data; what it cannot carry goes to `log`.

    Every question is in `questions`, pooled or not; `pools` says which of them each attempt
    draws from (the player draws, and keeps the draw's seed in suspend_data).
    With an essay in the quiz the pass mark is left out: the player cannot mark the
    essay, so it never decides pass or fail (the writer warns, W603)."""
    quiz_data, questions = _data(quiz, version, log)
    return {**quiz_data, "questions": list(questions)}


def _data(quiz: Quiz, version: str, log: Log | None) -> tuple[dict, Iterator[dict]]:
    """`player_data` but its questions, and its questions one at a time (made as they are asked for)."""
    log = Log() if log is None else log
    texts = TextConverter(quiz, log)
    pending = pending_grading(quiz)
    words = _words(quiz, log)
    quiz_data = compact({
        "lang": quiz.lang or "en",
        "description": texts(quiz.description),
        "shuffle": quiz.settings.shuffle,
        "passMark": None if pending else quiz.settings.pass_mark,
        "pending": pending or None,
        "feedback": quiz.settings.feedback,
        "timeLimit": quiz.settings.time_limit,
        "messages": {key: words.messages[key] for key in player_keys() if not counted_key(key)},
        "numberFormat": number_format(quiz.lang),
        "pools": [{"draw": pool.draw, "shuffle": pool.shuffle, "questions": list(pool.questions)}
                  for pool in quiz.pools] or None,
    })
    questions = (_with_points(question_data(quiz, question, version, texts), question, words)
                 for question in quiz.questions)
    return quiz_data, questions


def _words(quiz: Quiz, log: Log) -> Words:
    """The interface text of the quiz's page; W610 when the player has none in its language."""
    words = Words(quiz.lang, dict(quiz.settings.messages))
    warn_fallback(log, words, quiz.where(), "the player", "buttons and messages")
    return words


def _with_points(data: dict, question, words: Words) -> dict:
    """A question's data with its points as the page shows them (`(2 body)`), plural by CLDR."""
    if question.kind == "description":
        return data
    return {**data, "pointsText": words.count("points", question.points)}


@functools.cache
def _environment():
    from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape

    # select_autoescape() alone matches names ending in .html, not .html.jinja:
    # the extension is listed so that the shell is escaped, not silently raw.
    environment = Environment(
        loader=PackageLoader("lmsexport.formats.scorm"),
        autoescape=select_autoescape(("html", "htm", "xml", "html.jinja")),
        undefined=StrictUndefined,
        keep_trailing_newline=True,
    )
    # Sorted keys keep the page deterministic; no indentation, so the json module's C encoder
    # writes it (indented, a 2,000-question quiz took 0.3 s a package); non-ASCII stays as it
    # is (tojson still escapes < > & ' for the script element).
    environment.policies["json.dumps_kwargs"] = {"sort_keys": True, "ensure_ascii": False}
    return environment


@functools.cache
def static_file(name: str) -> bytes:
    """A static player file, exactly as shipped in `templates/static/`."""
    return (resources.files("lmsexport.formats.scorm") / "templates" / "static" / name).read_bytes()


_DATA = "<lmsexport-quiz-data/>"
"""Where the page's data goes in the rendered template: no autoescaped text can hold it (its `<`
is written `&lt;`)."""


def render(quiz: Quiz, version: str, log: Log | None = None) -> dict[str, Iterable[bytes]]:
    """The player's files for one quiz: the launch page, the static files it loads, the quiz's
    media; each as its bytes in pieces, to be joined in that order. The page's come a question
    at a time, as they are made (100,000 questions' page is 90-100 MB, which its pieces and
    the joined bytes held twice over)."""
    from markupsafe import Markup

    quiz_data, questions = _data(quiz, version, log)
    runtime = RUNTIMES[version]
    page = _environment().get_template("index.html.jinja").render(
        data=Markup(_DATA),
        title=quiz.title,
        lang=quiz_data["lang"],
        dir=direction(quiz_data["lang"]),
        messages=quiz_data["messages"],
        runtime=runtime,
    )
    before, after = page.split(_DATA)
    files = {LAUNCH: itertools.chain([before.encode("utf-8")], _json(quiz_data, questions), [after.encode("utf-8")])}
    for name in (*STATIC, runtime):
        files[name] = (static_file(name),)
    for asset in quiz.assets:
        files[media_path(asset)] = (asset.data,)
    return files


def _json(quiz_data: dict, questions: Iterator[dict]) -> Iterator[bytes]:
    """`player_data` as Jinja's `tojson` writes it (keys sorted, `<>&'` escaped for the script
    element), one question at a time: the data of 100,000 questions took 200 MB whole, and its
    JSON, as one text, 160 MB more for each copy that the escaping and the page made of it."""
    from jinja2.utils import htmlsafe_json_dumps

    options = _environment().policies["json.dumps_kwargs"]

    def dumps(data) -> str:  # a str, not the Markup, which would escape what is added to it
        return str(htmlsafe_json_dumps(data, **options))

    # Keys sort around "questions" as sort_keys puts them; "lang" and "shuffle" are always there.
    first = dumps({key: value for key, value in quiz_data.items() if key < "questions"})
    rest = dumps({key: value for key, value in quiz_data.items() if key > "questions"})
    yield f'{first[:-1]}, "questions": ['.encode("utf-8")
    for n, question in enumerate(questions):
        yield ((", " if n else "") + dumps(question)).encode("utf-8")
    yield f"], {rest[1:]}".encode("utf-8")
