"""`lmsexport formats`: the formats written and read, from the registry's declarations."""

from __future__ import annotations

import click

from .. import formats as registry


@click.command()
def formats() -> None:
    """List the output formats (for --format) and the source formats read."""
    click.echo("Output formats (--format):")
    for name, (_, flavour) in registry.flavours().items():
        click.echo(f"  {name:<10} {flavour.description}")
    click.echo(f"  {'all':<10} {', '.join(registry.everything())}")
    click.echo("Source formats (--from), by file suffix; where formats share a suffix, the content decides:")
    readers = [module for module in registry.declarations() if module.EXTENSIONS]
    width = max(len(" ".join(module.EXTENSIONS)) for module in readers)
    for module in readers:
        click.echo(f"  {module.NAME:<10} {' '.join(module.EXTENSIONS):<{width}} {module.DESCRIPTION}")
