"""``pan rules [PROFILE|FILE]``: every knob of a profile and its conditions table.

The knobs are those of the rule registry (:data:`pancli.rulebook.KNOBS`), each shown with the
rule it governs; the conditions table is C1-C5 (base, spades, extra, extra_spades), docs/rules.md.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any, Final

import click

from pancli.cli.common import json_option, load_profile, stdout_is_terminal
from pancli.rulebook import KNOBS
from pancli.rules import HOYLE, Condition, Profile


def is_rule_like(text: str) -> bool:
    """Whether an argument is meant as a rule id (``P8``, ``c10``) rather than a profile.

    >>> is_rule_like("P8"), is_rule_like("c10"), is_rule_like("cardroom"), is_rule_like("house.toml")
    (True, True, False, False)
    """
    return re.fullmatch(r"[A-Za-z]\d{1,3}", text.strip()) is not None


KNOB_RULES: Final[dict[str, tuple[str, str]]] = {k.name: (k.cites, k.meaning) for k in KNOBS.values()}
"""Each knob (the rule registry's :data:`~pancli.rulebook.KNOBS`) with the rules it governs and what it means."""
_RATE_FIELDS: Final = ("base", "spades", "extra", "extra_spades")


def _shown(value: Any) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


def knob_rows(profile: Profile, against: Profile | None = None) -> list[tuple[str, str, str, str, str]]:
    """(knob, value, hoyle value or '', rule, meaning) for every knob but the table;
    with ``against``, only the knobs whose value differs."""
    mine, theirs = profile.knobs(), (against or HOYLE).knobs()
    rows = []
    for key, value in mine.items():
        if key == "conditions" or (against is not None and (key == "name" or theirs[key] == value)):
            continue
        rule, meaning = KNOB_RULES.get(key, ("-", ""))
        other = _shown(theirs[key]) if against is not None else ""
        rows.append((key, _shown(value), other, rule, meaning))
    return rows


def condition_rows(profile: Profile, against: Profile | None = None) -> list[tuple[str, ...]]:
    """(id, base, spades, extra, extra_spades, description) per condition; with ``against``,
    only the rates that differ, each written ``new (was old)``."""
    rows = []
    for cond in Condition:
        rate, other = profile.rate(cond), (against or profile).rate(cond)
        if against is not None and rate == other:
            continue
        cells = []
        for f in _RATE_FIELDS:
            v, w = getattr(rate, f), getattr(other, f)
            cells.append(str(v) if v == w else f"{v} (was {w})")
        rows.append((cond.value, *cells, cond.description))
    return rows


def rules_json(profile: Profile, diff: bool) -> dict[str, Any]:
    """Every knob (:meth:`Profile.knobs`), or with ``diff`` the knobs that differ from hoyle."""
    knobs = profile.knobs()
    if not diff:
        return knobs
    base = HOYLE.knobs()
    out: dict[str, Any] = {}
    for key, value in knobs.items():
        if key == "name" or value == base[key]:
            continue
        if key == "conditions":
            value = {c: r for c, r in value.items() if r != base[key][c]}
            out[key] = {"value": value, "hoyle": {c: base[key][c] for c in value}}
        else:
            out[key] = {"value": value, "hoyle": base[key]}
    return {"name": profile.name, "against": HOYLE.name, "differs": out}


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
        from pancli.cli.rule_explain import print_list

        print_list(as_json)
        return
    if profile_spec is not None and is_rule_like(profile_spec) and not Path(profile_spec).exists():
        from pancli.cli.rule_explain import find_rule, print_rule

        rule = find_rule(profile_spec)
        profile = load_profile(rules_opt or "hoyle")
        print_rule(rule, profile, as_json, stdout_is_terminal())
        return
    if profile_spec and rules_opt and profile_spec != rules_opt:
        raise click.UsageError("give the profile once: as PROFILE or as --rules")
    given = profile_spec if profile_spec is not None else rules_opt
    profile = load_profile("hoyle" if given is None else given)  # '' names nothing: an error
    if as_toml:
        if as_json or diff:
            raise click.UsageError("--toml prints the whole profile: give it without --json and --diff")
        from pancli.notation.houserules import profile_to_toml

        sys.stdout.write(profile_to_toml(profile))
        return
    against = HOYLE if diff else None
    if as_json:
        from pancli.cli.common import emit_json

        emit_json(rules_json(profile, diff))
        return
    knobs, conds = knob_rows(profile, against), condition_rows(profile, against)
    terminal = stdout_is_terminal()
    if terminal and _table_fits(knobs, diff):
        _print_rich(profile, knobs, conds, diff)
        return
    head = ("knob", "value", "hoyle", "rule", "meaning") if diff else ("knob", "value", "rule", "meaning")
    lines = [f"# profile {profile.name}" + (" (differences from hoyle)" if diff else ""), "\t".join(head)]
    lines += ["\t".join(r if diff else (r[0], r[1], r[3], r[4])) for r in knobs]
    if conds or not diff:
        lines += ["", "\t".join(("condition", *_RATE_FIELDS, "description"))]
        lines += ["\t".join(r) for r in conds]
    else:
        lines += ["", "# conditions table as hoyle"]
    text = "\n".join(lines) + "\n"
    if terminal:  # too narrow for the table: the plain lines, wrapped at whole words
        from pancli.render.terminal import size, wrap

        text = wrap(text, size().columns)
    sys.stdout.write(text)


def _table_fits(knobs: list[tuple[str, str, str, str, str]], diff: bool) -> bool:
    """Whether the knob table fits the terminal with no knob, value or word of a meaning cut."""
    from pancli.render.terminal import size

    columns = (0, 1, 2, 3, 4) if diff else (0, 1, 3, 4)
    widest = [max(len(w) for row in knobs for w in (row[i].split() if i == 4 else [row[i]])) for i in columns]
    return sum(max(w, 4) for w in widest) + 3 * len(columns) + 1 <= size().columns


def _print_rich(
    profile: Profile, knobs: list[tuple[str, str, str, str, str]], conds: list[tuple[str, ...]], diff: bool
) -> None:
    from rich.table import Table

    from pancli.cli.common import stdout_console

    console = stdout_console()
    title = f"profile {profile.name}" + (" (differences from hoyle)" if diff else "")
    t = Table(title=title, title_justify="left")

    def whole(i: int) -> int:  # a knob, a value or a rule id is typed back: never cut (60 columns)
        return max((len(row[i]) for row in knobs), default=1)

    t.add_column("knob", style="bold", no_wrap=True, min_width=whole(0))
    t.add_column("value", no_wrap=True, min_width=whole(1))
    if diff:
        t.add_column("hoyle", style="dim", no_wrap=True, min_width=whole(2))
    t.add_column("rule", no_wrap=True)
    t.add_column("meaning", min_width=max((len(w) for row in knobs for w in row[-1].split()), default=1))
    for k, v, h, rule, meaning in knobs:
        t.add_row(k, v, *((h,) if diff else ()), rule, meaning)
    console.print(t)
    if diff and not conds:
        console.print("conditions table as hoyle")
        return
    c = Table(title="conditions (C1-C5)", title_justify="left")
    c.add_column("id", style="bold")
    for f in _RATE_FIELDS:
        c.add_column(f, justify="right")
    c.add_column("description")
    for row in conds:
        c.add_row(*row)
    console.print(c)
