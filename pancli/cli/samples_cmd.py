"""``pan samples [NAME]``: the sample records shipped with pan, listed or printed."""

from __future__ import annotations

from typing import Any

import click

from pancli.app.samples import sample_names, sample_path
from pancli.cli.common import json_option
from pancli.render.samples import write_listing, write_sample


def _complete_samples(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[Any]:
    from pancli.cli.completion import complete_samples  # only when the shell asks

    return complete_samples(ctx, param, incomplete)


@click.command("samples", epilog="Exit status: 0, or 2 for an unknown sample name.")
@click.argument("name", required=False, shell_complete=_complete_samples)
@click.option("--path", "show_path", is_flag=True, help="Print where the record is instead of its text.")
@json_option
def samples(name: str | None, show_path: bool, as_json: bool) -> None:
    """List the sample records shipped with pan, or print one (to pipe into another command).

    Without NAME: one line per record, its name and what it shows (--json: a list of
    name, summary, path; --path: every record's file, one a line). With NAME: the
    record's text (--path: its file, for commands that read a file, such as 'pan
    analyze FILE --at LINE'). NAME may also be the shipped house-rules file oakland.toml
    (a record that names it in its Rules tag is read from its file, not from a pipe). The samples include legal
    hands under both profiles and a house-rules file, an illegal record for each family
    of violation (illegal-RULE-...), malformed records and PAGRUC games.

    \b
    Examples:
      pan samples
      pan samples friday-hoyle | pan replay -
      pan samples illegal-P8-forcing | pan replay --json -   # exits 1: the P8 violation
      pan analyze "$(pan samples --path friday-hoyle)" --at 27 --player Cruz
      pan replay --json $(pan samples --path)    # exits 1: the illegal-* samples break rules on purpose
      pan rules "$(pan samples --path oakland.toml)"
    """
    if name is None:
        write_listing(sample_names(), as_json, show_path)
        return
    try:
        path = sample_path(name)
    except KeyError:
        raise click.UsageError(f"no sample named {name!r} (pan samples lists them)") from None
    write_sample(path, as_json, show_path)
