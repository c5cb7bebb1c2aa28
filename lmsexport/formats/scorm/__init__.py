"""SCORM 1.2 and SCORM 2004 4th edition packages with a self-contained quiz player.

https://adlnet.gov/projects/scorm/ (docs/formats/scorm.md). One writer, two flavours; the
player's data (`player`, `player_kinds`, `player_text`) and its templates (`templates/`)."""

from __future__ import annotations

from ...package import Flavour

NAME = "scorm"
DESCRIPTION = "SCORM package with a quiz player"
EXTENSIONS = ()
FLAVOURS = (
    Flavour("scorm12", "SCORM 1.2 package (.scorm12.zip) with a self-contained quiz player", "1.2"),
    Flavour("scorm2004", "SCORM 2004 4th edition package (.scorm2004.zip) with a self-contained quiz player", "2004"),
)


def sniff(data: bytes) -> float:
    """Never: SCORM packages are written, not read."""
    return 0.0
