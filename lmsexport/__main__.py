"""`python -m lmsexport` runs the command-line tool."""

from .cli import main

main(prog_name="lmsexport")
