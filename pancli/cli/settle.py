"""``pan settle FILE... | -``: settle a sitting: each player's totals over every hand, and who pays whom.

Every hand is refereed as ``pan replay`` referees it (one at a time, through the same
judge: constant memory) and added to a :class:`~pancli.model.settle.Sitting`; Panguingue
hands and PAGRUC hands are kept apart (PAGRUC scores are points, not payments: totals, no
transfers). A hand with a violation, a wrong claim or a notation error is *disputed*: it is
listed as it comes (its place, rule and message) and left out of the totals unless
``--include-disputed`` (then its ledger counts: the payments made before a violation).

Output: a rich table on a terminal; in a pipe tab-separated lines, the first field saying
what the line is (``remedied``, ``disputed``, ``player``, ``pays``, ``note``); ``--json`` one
object; ``--jsonl`` one object per remedied or disputed hand, per player, then per transfer. A
hand with an irregularity put right (I1, I2) is counted and listed with where, the rule and who
returned what to whom.

Exit status: 0 everything read is legal and every claim holds; 1 some hand disputed or with an
irregularity put right (as ``pan replay``); 2 usage error or a file that cannot be read.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import click

from pancli.app.replay import replay_files
from pancli.cli.common import (
    EXIT_ILLEGAL,
    EXIT_OK,
    check_readable,
    complete_paths,
    json_mode,
    json_option,
    jsonl_option,
    load_profile,
    open_text,
    record_files,
    rules_override_option,
    stake_options,
    stakes,
)
from pancli.render.settle import JsonlSettle, JsonSettle, RichSettle, SettleSink
from pancli.render.text import stdout_is_terminal

if TYPE_CHECKING:
    pass


@click.command("settle")
@click.argument("files", nargs=-1, metavar="FILE... | -", shell_complete=complete_paths)
@json_option
@jsonl_option(help="One JSON object per remedied or disputed hand, per player, per transfer.")
@stake_options()
@click.option(
    "--include-disputed", is_flag=True, help="Count disputed hands too (the payments made before a violation)."
)
@rules_override_option
@click.option("--plain", is_flag=True, help="Plain text even on a terminal.")
def settle(
    files: tuple[str, ...],
    as_json: bool,
    as_jsonl: bool,
    stake: str | None,
    default_stake: str | None,
    include_disputed: bool,
    rules: str | None,
    plain: bool,
) -> None:
    """Settle a sitting: each player's hands, units and money over all the hands, and who pays whom.

    Every hand is refereed as pan replay does; Panguingue and PAGRUC hands are kept apart
    (PAGRUC points get totals, no transfers). Players are matched by name across files. The
    payments that settle the sitting are the fewest the greedy method finds (the largest
    creditor paid by the largest debtor; at most one fewer than the players), in money when
    every counted hand has a Stake (or with --stake), else in units. --stake sets the
    stake of every hand; --default-stake only that of the hands that name none (listed at
    the end: 'default-stake' lines in a pipe). A hand with a violation, a wrong claim or a
    notation error is disputed: listed with its place and rule (its cause: an irregularity
    put right before the violation, against the same player) and left out of the totals
    (unless --include-disputed). An unfinished hand (the record stops before its end) is
    counted and listed ('unfinished'). A hand with an irregularity put right (I1, I2) is
    counted and listed ('remedied': where, the rule, who returned what to whom). Exit
    status 0, 1 when any hand is disputed or had an irregularity put right (as pan replay),
    2 for a usage error or a file that cannot be read.

    \b
    Examples:
      pan samples friday-hoyle | pan settle -
      pan settle --stake 0.10 $(pan samples --path)   # exits 1: the illegal samples are disputed
      pan settle --default-stake 0.25 "$(pan samples --path friday-hoyle)" "$(pan samples --path eight-handed-hoyle)"
      pan settle --json "$(pan samples --path cardroom-saturday)" "$(pan samples --path friday-hoyle)"
      pan simulate --players 5 --hands 100 --seed 3 | pan settle - | grep ^pays
    """
    json_mode(as_json, as_jsonl)
    money, default = stakes(stake, default_stake)
    names = record_files(files)
    for name in names:
        check_readable(name)
    profile = None if rules is None else load_profile(rules)
    kind: type[SettleSink]
    if as_jsonl:
        kind = JsonlSettle
    elif as_json:
        kind = JsonSettle
    elif not plain and stdout_is_terminal():
        kind = RichSettle
    else:
        kind = SettleSink
    sink = kind(money, include_disputed)
    sink.pan.default_stake = default
    replay_files(names, sink, open_record=open_text, strict=False, profile=profile)
    sys.stdout.flush()
    sys.exit(EXIT_ILLEGAL if sink.any_disputed or sink.any_remedied else EXIT_OK)
