"""What Moodle keeps at most: the lengths of the columns and cleaning functions its importer uses.

moodle/moodle `question/format.php` (`qformat_default::clean_question_name()`),
`lib/moodlelib.php` (`clean_param(PARAM_TAG)`, TAG_MAX_LENGTH in `tag/lib.php`) and the
question bank's tables (`lib/db/install.xml`). The writer and the import rules (`rules.py`) use
these numbers; `LIMITS` declares those lint checks before a build (docs/lint.md, L050).
"""

from __future__ import annotations

from ...package import Limit

NAME_LIMIT = 255
"""question.name and question_categories.name are varchar(255) (clean_question_name shortens)."""
IDNUMBER_LIMIT = 100
"""question_bank_entries.idnumber and question_categories.idnumber are varchar(100)."""
TAG_LIMIT = 50
"""TAG_MAX_LENGTH in tag/lib.php: clean_param(PARAM_TAG) cuts longer tags."""

LIMITS = (
    Limit("question_title", NAME_LIMIT, f"Moodle cuts question names at {NAME_LIMIT}"),
    Limit("tag", TAG_LIMIT, f"Moodle cuts tags at {TAG_LIMIT}"),
)
