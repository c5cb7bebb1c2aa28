"""Read the lmsexport model's JSON form back (see writers/json.py).

Refuses other major versions of the model instead of guessing, and turns any
shape error into a located SourceError.
"""

from __future__ import annotations

import json

from ...diagnostics import Diagnostic, SourceError, SourceSpan
from ...model import MODEL_VERSION, ModelError, Quiz, quiz_from_data
from ...textinput import decode



def _fail(source: str, message: str, hint: str = "", line: int = 0, column: int = 0):
    return SourceError([Diagnostic("E501", message, SourceSpan(source, line, column), hint)])


def read(data: str | bytes, *, source: str) -> Quiz:
    text = decode(data, source)
    try:
        document = json.loads(text)
    except json.JSONDecodeError as exc:
        raise _fail(source, f"not valid JSON: {exc.msg}", line=exc.lineno, column=exc.colno) from None
    except RecursionError:
        raise _fail(source, "the JSON is nested too deeply to be a quiz model") from None
    except ValueError as exc:  # an integer of more digits than Python converts (sys.get_int_max_str_digits)
        raise _fail(source, "a number in it has too many digits to be read") from None
    version = document.get("lmsexport-model") if isinstance(document, dict) else None
    if version != MODEL_VERSION:
        raise _fail(
            source,
            f"not an lmsexport model version {MODEL_VERSION} (found lmsexport-model: {version!r})",
            "write it with this version of lmsexport (lmsexport build --format json)",
        )
    try:
        return quiz_from_data(document["quiz"])
    except (ModelError, KeyError, TypeError, ValueError, AttributeError) as exc:
        what = f"missing field {exc}" if isinstance(exc, KeyError) else str(exc)
        raise _fail(source, f"the model is not valid: {what}") from None
