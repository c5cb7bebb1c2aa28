"""The option callbacks more than one command shares: they check a value against the registry
(or the lint rules) while click parses, so a wrong one is a usage error (exit status 2)."""

from __future__ import annotations

import click

from .. import formats as registry


def _format_names(ctx, param, values: tuple[str, ...]) -> list[str]:
    names = [name.strip() for value in values for name in value.split(",") if name.strip()]
    try:
        return registry.expand_formats(names)
    except registry.UnknownFormat as exc:
        raise click.BadParameter(f"{exc} (see lmsexport formats)") from None


def _source_format(ctx, param, value: str | None) -> str | None:
    if value is None:
        return None
    readable = registry.readable()
    if value not in readable:
        raise click.BadParameter(f"unknown input format {value!r}; choose from {', '.join(readable)} "
                                 "(see lmsexport formats)")
    return value


def _rule_codes(ctx, param, values: tuple[str, ...]) -> list[str]:
    if not values:
        return []  # without importing the rules: a build lints in a child process
    from ..rules.runner import BY_CODE, unknown_codes

    codes = [code.strip().upper() for value in values for code in value.split(",") if code.strip()]
    unknown = unknown_codes(codes)
    if unknown:
        raise click.BadParameter(
            f"no lint rule {', '.join(unknown)}; the rules are {', '.join(BY_CODE)} (see docs/lint.md)"
        )
    return codes
