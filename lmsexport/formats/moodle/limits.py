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
FILE_LIMIT = 10_000_000 // 4 * 3
"""Bytes of one image a Moodle XML file carries: 7,500,000. Its base64 (4 characters per 3 bytes)
is one `<file>` text node, and Moodle's importer parses with PHP's xml_parse(), whose libxml2
refuses a text node over `xml.TEXT_LIMIT` unless told XML_OPTION_PARSE_HUGE (PHP 8.4+), which
qformat_xml does not (php/doc-en#3899: that option "allows parsing documents larger than 10 MB").
The writer refuses a quiz with a larger image (E006); lint has nothing to say before a build."""

LIMITS = (
    Limit("question_title", NAME_LIMIT, f"Moodle cuts question names at {NAME_LIMIT}"),
    Limit("tag", TAG_LIMIT, f"Moodle cuts tags at {TAG_LIMIT}"),
)
