"""The quiz model: the one contract between readers and writers.

Readers build these frozen objects, writers consume them; neither knows the other.
Objects check their own invariants on construction, so a writer can rely on every
question having an answer key and every identifier being usable in XML. The JSON
form (`quiz_to_data` / `quiz_from_data`, wrapped by the json format's writer and
reader) carries `MODEL_VERSION` so the contract is versioned, as
pandoc-types does. `base` holds the common parts, `kinds` the question kinds, `quiz` the
quiz and its pools.
"""

from .base import (
    DEFAULT_SCORING, FEEDBACK_MODES, MEDIA_TYPES, MODEL_VERSION, READ_MODEL_VERSIONS, SCORING_POLICIES, TEXT_FORMATS,
    TIME_LIMIT_MAX, XML_ILLEGAL, Asset, Choice, ModelError, MultipleChoice, Question, Settings, Text, is_identifier,
    is_language_tag,
)
from .kinds import (
    QUESTION_KINDS, Answer, Description, Essay, FillBlanks, Gap, Matching, MatchPair, Numeric, NumericAnswer, OrderItem, Ordering,
    ShortAnswer, TrueFalse,
)
from .quiz import Numbering, Pool, Quiz
from .data import question_from_data, quiz_from_data, quiz_to_data
from .pickling import register

register(Text, Asset, Choice, Settings, Answer, NumericAnswer, MatchPair, OrderItem, Gap, Pool, Quiz,
         *QUESTION_KINDS.values())

__all__ = [
    "DEFAULT_SCORING", "FEEDBACK_MODES", "MEDIA_TYPES", "MODEL_VERSION", "QUESTION_KINDS", "SCORING_POLICIES",
    "TEXT_FORMATS", "TIME_LIMIT_MAX", "XML_ILLEGAL",
    "Answer", "Asset", "Choice", "Description", "Essay", "FillBlanks", "Gap", "MatchPair", "Matching", "ModelError",
    "MultipleChoice", "Numbering", "Numeric", "NumericAnswer", "OrderItem", "Ordering", "Pool", "Question", "Quiz",
    "READ_MODEL_VERSIONS", "Settings",
    "ShortAnswer", "Text", "TrueFalse", "is_identifier", "is_language_tag", "question_from_data", "quiz_from_data",
    "quiz_to_data",
]
