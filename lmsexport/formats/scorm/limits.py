"""What SCORM 1.2 and SCORM 2004 4th edition keep at most, from their schemas and data models.

https://adlnet.gov/projects/scorm/: the 1.2 content package schema (imscp_rootv1p1p2.xsd), the
1.2 RTE's CMI data types (section 3.4.2.7), and the 2004 CAM and RTE, whose "smallest permitted
maximum" (SPM) is the most an LMS must keep. The writer and the player's data use these numbers;
`LIMITS` declares those lint checks before a build (docs/lint.md, L051).
"""

from __future__ import annotations

from ...package import Limit

TITLE_LIMIT = 200
"""SCORM 1.2's imscp_rootv1p1p2.xsd: titleType has maxLength 200; SCORM 2004: a title's SPM."""
OPTIONS_LIMIT = 36
"""SCORM 1.2 records a choice as one of the 36 characters 0-9 a-z (CMIFeedback); SCORM 2004
guarantees 36 identifiers in a choice response (RTE 4.2.9.1, SPM)."""
GAP_LIMIT = 10
"""SCORM 2004: a fill-in learner_response is a bag of at most 10 strings (RTE 4.2.9.2, SPM)."""
DESCRIPTION_LIMIT = 250
"""SCORM 2004 `cmi.interactions.n.description`: a localized_string_type, SPM 250 characters (RTE 4.2.9)."""
TIME_LIMIT_12 = 9999 * 3600 + 59 * 60 + 59
"""SCORM 1.2's longest time limit, 9999:59:59: adlcp:maxtimeallowed is a CMITimespan, HHHH:MM:SS
(adlcp_rootv1p2.xsd: maxLength 13; RTE 3.4.2.4). The writer refuses a longer one (E007)."""

LIMITS = (
    Limit("quiz_title", TITLE_LIMIT, f"a SCORM LMS need keep only {TITLE_LIMIT}"),
    Limit("options", OPTIONS_LIMIT, f"SCORM 1.2 can record only {OPTIONS_LIMIT} (one character each, 0-9 and a-z)"),
)
