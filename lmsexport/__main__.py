"""`python -m lmsexport` runs the command-line tool."""

from .cli import run

run()
