"""lmsexport: quiz sources to QTI 2.1, Moodle XML and SCORM packages, schema-validated."""

__version__ = "0.1.0"
