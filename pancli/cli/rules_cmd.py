"""``pan rules [PROFILE|FILE|RULE]``: every knob of a profile and its conditions table, or one
rule of the rulebook explained (:mod:`pancli.render.rules` writes them; docs/rules.md)."""

from __future__ import annotations

import os
import re
import sys
from typing import Any

import click

from pancli.app.lines import rule_named
from pancli.cli.common import json_option, load_profile
from pancli.render.rules import write_list, write_profile, write_rule
from pancli.render.text import stdout_is_terminal


def is_rule_like(text: str) -> bool:
    """Whether an argument is meant as a rule id (``P8``, ``c10``) rather than a profile.

    >>> is_rule_like("P8"), is_rule_like("c10"), is_rule_like("cardroom"), is_rule_like("house.toml")
    (True, True, False, False)
    """
    return re.fullmatch(r"[A-Za-z]\d{1,3}", text.strip()) is not None


def _complete_spec(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[Any]:
    from pancli.cli.completion import complete_rule_or_profile  # only when the shell asks

    return complete_rule_or_profile(ctx, param, incomplete)


@click.command("rules", epilog="Exit status: 0, or 2 for an unknown rule id or profile, or a bad house-rules file.")
@click.argument("profile_spec", required=False, metavar="[PROFILE|FILE|RULE]", shell_complete=_complete_spec)
@click.option("--rules", "rules_opt", metavar="NAME|FILE", help="The profile (the same as the PROFILE argument).")
@click.option("--diff", is_flag=True, help="Show only what differs from hoyle, with hoyle's value.")
@click.option("--list", "list_rules", is_flag=True, help="List every rule id with its family and title.")
@click.option("--toml", "as_toml", is_flag=True, help="Print the profile as a house-rules TOML file (it reads back).")
@json_option
def rules(
    profile_spec: str | None, rules_opt: str | None, diff: bool, list_rules: bool, as_toml: bool, as_json: bool
) -> None:
    """Show a rule profile (every knob and the conditions table), or explain one rule.

    PROFILE is 'hoyle' (the default), 'cardroom', or the path of a house-rules TOML
    file: knobs at the top level, a 'base' profile to start from, and the table as
    [conditions.C2] base/spades/extra/extra_spades. An unknown knob or a bad value is an
    error naming the key (exit status 2).

    RULE is a rule id of the rulebook (P8, c7, G4; any case): what the rule says, how the
    profile (--rules, default hoyle) sets each knob that governs it, the ruling it
    prescribes, where it comes from, and a line of a shipped sample that breaks it with
    what 'pan replay' says of it. An unknown id is an error (exit status 2) naming the
    closest ids. --list lists every rule id.

    \b
    Examples:
      pan rules
      pan rules cardroom --diff
      pan rules "$(pan samples --path oakland.toml)" --json
      pan rules cardroom --toml
      pan rules P8 --rules cardroom
      pan rules --list
    \b
    house.toml:
      base = "cardroom"
      out_bonus = 3
      [conditions.C2]
      spades = 5

    In a pipe the text is tab-separated: a header line then one line per knob (knob,
    value, hoyle's value with --diff, rule, meaning), a blank line, then the
    conditions table (id, base, spades, extra, extra_spades, description); for a RULE,
    'label<TAB>text' lines (rule, statement, knob, ruling, source, example, record,
    replay). --json prints the knobs as one object (with --diff: name, against, differs:
    knob -> value, hoyle); for a RULE: rule, family, title, statement, profile, knobs,
    ruling, source, example. --toml prints the profile as a house-rules file with every knob
    (yes/no knobs as "on"/"off", which a house-rules file also takes): 'pan rules X --toml >
    h.toml' then 'pan rules h.toml' shows the same knobs as 'pan rules X'.
    """
    if list_rules:
        write_list(as_json)
        return
    if profile_spec is not None and is_rule_like(profile_spec) and not os.path.exists(profile_spec):
        rule = rule_named(profile_spec)
        if isinstance(rule, tuple):  # no such rule: a usage error (exit 2) suggesting the closest ids
            near = ", ".join(rule)
            raise click.UsageError(f"no rule {profile_spec!r} in the rulebook" + (f"; closest: {near}" if near else ""))
        profile = load_profile(rules_opt or "hoyle")
        write_rule(rule, profile, as_json, stdout_is_terminal())
        return
    if profile_spec and rules_opt and profile_spec != rules_opt:
        raise click.UsageError("give the profile once: as PROFILE or as --rules")
    given = profile_spec if profile_spec is not None else rules_opt
    profile = load_profile("hoyle" if given is None else given)  # '' names nothing: an error
    if as_toml:
        if as_json or diff:
            raise click.UsageError("--toml prints the whole profile: give it without --json and --diff")
        from pancli.app.profiles import profile_toml  # start-up: pan rules does without it

        sys.stdout.write(profile_toml(profile))
        return

    write_profile(profile, diff, as_json, stdout_is_terminal())
