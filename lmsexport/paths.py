"""The one rule for paths inside a package: relative, `/`-separated, never leaving it.

Zip member names, a quiz's asset paths, Moodle `<file>` names and manifest hrefs all end up
as names inside a package that an LMS unpacks; a name that climbs out (`..`), starts at the
root (`/x`, `C:`) or uses a backslash (a folder separator on Windows: `..\\..\\evil.png`) could
be written outside the folder it is unpacked into, so every reader and `validate` ask here.
"""

from __future__ import annotations


def unsafe_path(name: str) -> str | None:
    """Why `name` would leave the package it is in, or None if it is a safe relative path."""
    if not name:
        return "it is empty"
    if "\\" in name:
        return "it holds a backslash, which Windows reads as a folder separator"
    if name.startswith("/") or (len(name) > 1 and name[1] == ":"):
        return "it is an absolute path"
    if any(part == ".." for part in name.split("/")):
        return "it climbs out of the package with '..'"
    if "\x00" in name:
        return "it holds a NUL character"
    return None
