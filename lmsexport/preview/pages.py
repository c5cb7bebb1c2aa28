"""The preview's HTML: one Jinja2 environment for the answer key and the server's pages.

Templates live in `templates/` (`*.html.jinja`, autoescaped; StrictUndefined, so a missing
value is an error, never an empty string), as the SCORM player's do (STYLE.md, convention 6).
Data for a page's script travels as JSON in `<script type="application/json">` (`tojson`),
never as JavaScript built from Python strings. The answer key's words come from
`lmsexport/interface`, as the player's do (key.py).
"""

from __future__ import annotations

import functools

from ..text import direction


@functools.cache
def environment():
    """The one Environment of the preview's templates."""
    from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape

    # select_autoescape() alone matches names ending in .html, not .html.jinja.
    env = Environment(
        loader=PackageLoader("lmsexport.preview"),
        autoescape=select_autoescape(("html", "html.jinja")),
        undefined=StrictUndefined,
        keep_trailing_newline=True,
    )
    env.policies["json.dumps_kwargs"] = {"sort_keys": True, "ensure_ascii": False}
    env.filters["say"] = say
    return env


def say(template: str, **values) -> str:
    """A catalog message with its `{name}` placeholders filled (a Jinja filter: `m.points_one|say(points=2)`)."""
    for name, value in values.items():
        template = template.replace(f"{{{name}}}", str(value))
    return template


def render(name: str, **context) -> str:
    return environment().get_template(name).render(**context)


HTML = "text/html; charset=utf-8"
PAGE_POLICY = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
               "frame-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
"""The preview's own pages: their scripts and styles from /static only, the player in a frame of this origin."""
KEY_POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src data: https:; base-uri 'none'; form-action 'none'"
"""The answer key: a self-contained page with its styles inline and no script at all."""


def diagnostic_view(diagnostic) -> dict:
    """A diagnostic as the pages show it: where, what, the source line with its marker, the hint."""
    lines = diagnostic.render().split("\n")[1:]
    return {
        "where": str(diagnostic.span),
        "line": diagnostic.span.line,
        "code": diagnostic.code,
        "severity": diagnostic.severity.value,
        "message": diagnostic.message,
        "excerpt": "\n".join(line[4:] for line in lines if line.startswith("    ")),
        "hint": diagnostic.hint,
    }


def index_page(shown: list, trouble: str | None) -> bytes:
    """The list of quizzes: title (in its language), source, state, links."""
    entries = [{"slug": item.slug, "source": item.source.as_posix(), "quiz": item.quiz, "errors": len(item.errors),
                "warnings": item.warnings, "dir": direction(item.quiz.lang) if item.quiz else "ltr"}
               for item in shown]
    return render("index.html.jinja", entries=entries, trouble=trouble).encode("utf-8")


def quiz_page(shown, format_name: str) -> bytes | None:
    """A quiz in one of its players (`format_name`, default the last: SCORM 2004) with its panels;
    its errors instead when it could not be read; the panels alone if no SCORM writer could write
    it (a bug, which they show). None for a format it has no player in."""
    players = list(shown.players)
    chosen = format_name or (players[-1] if players else "")
    if players and chosen not in shown.players:
        return None
    player = shown.players.get(chosen)
    setup = None if player is None else {
        "slug": shown.slug, "format": chosen, "version": player.version, "preload": player.preload,
        "launch": f"/quiz/{shown.slug}/{chosen}/{player.launch}",
    }
    return render(
        "quiz.html.jinja", shown=shown, players=players, chosen=chosen, setup=setup,
        errors=[diagnostic_view(d) for d in shown.errors],
        reading=[diagnostic_view(d) for d in shown.reading],
        lint=[diagnostic_view(d) for d in shown.lint],
        writers={name: [diagnostic_view(d) for d in found] for name, found in shown.writers.items()},
        failures=shown.failures,
    ).encode("utf-8")

