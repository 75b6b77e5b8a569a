"""``pan rules RULE`` and ``pan rules --list``: one rule of the rulebook explained.

What a rule says comes from the registry (:mod:`pancli.rulebook`); how a profile sets the
knobs that govern it from the profile; and the example that breaks it from a shipped sample
record, with the line ``pan replay`` writes of it: the samples refereed by the same code as
``pan replay`` (:func:`judged_example`) wrote :data:`EXAMPLES_FILE`, which a test keeps equal
to what they give now.
"""

from __future__ import annotations

import re
import sys
from typing import Any, Final

import click

from pancli.rulebook import RULEBOOK, Rule, RuleEntry, closest, entry, lookup
from pancli.rules import CARDROOM, HOYLE, Profile
from pancli.values import Value

EXTRA_SAMPLES: Final[dict[Rule, tuple[str, ...]]] = {
    Rule.C7: ("illegal-claim-wrong-pays",),
    Rule.C9: ("illegal-claim-wrong-ledger",),
    Rule.E1: ("malformed-record",),
    Rule.R5: ("malformed-unknown-player",),
    Rule.G1: ("pagruc-illegal",),
    Rule.G3: ("pagruc-illegal",),
    Rule.G4: ("pagruc-illegal",),
    Rule.G5: ("pagruc-illegal",),
}
"""Shipped samples that break a rule without being named ``illegal-RULE-*``."""

STRICT_ONLY: Final = frozenset({Rule.M1, Rule.M2, Rule.M3, Rule.M4, Rule.M5})
"""Rules ``pan replay`` reports only with ``--strict``: a foul meld is otherwise put right as
I2 prescribes and reported under I2 (its engine rule in the message)."""


def find_rule(text: str) -> Rule:
    """The rule ``text`` names; a usage error (exit 2) suggesting the closest ids otherwise."""
    rule = lookup(text)
    if rule is None:
        near = ", ".join(closest(text))
        raise click.UsageError(f"no rule {text!r} in the rulebook" + (f"; closest: {near}" if near else ""))
    return rule


class Example(Value):
    """A shipped record line that breaks a rule, and what ``pan replay`` says of it."""

    sample: str
    rules: str
    line: int
    text: str
    replay: str

    @property
    def strict(self) -> bool:
        """Shown by ``pan replay --strict`` (:data:`STRICT_ONLY`)."""
        return self.replay.split(" ", 2)[1] in STRICT_ONLY

    @property
    def command(self) -> str:
        """The commands that show it."""
        return f"pan samples {self.sample} | pan replay {'--strict ' if self.strict else ''}-"


EXAMPLES_FILE: Final = "rule_examples.tsv"
"""Beside this module: for each rule a shipped sample breaks, the sample and the line ``pan replay
-`` writes of it, as :func:`examples_table` finds them by refereeing the samples (a ``#`` line
says how to write it again; tests/test_cli_rules.py fails when it differs).

Kept for speed: ``pan rules P8`` need not import the reader and the referee to show one line
(306 -> 221 million instructions; ``import click``: 191)."""


def example(rule: Rule) -> Example | None:
    """The first place a shipped sample breaks ``rule`` (None when no sample does), as
    :func:`judged_example` finds it, read from :data:`EXAMPLES_FILE`."""
    from pathlib import Path

    table = Path(__file__).with_name(EXAMPLES_FILE).read_text(encoding="utf-8")
    for row in table.splitlines():
        cells = row.split("\t")
        if cells[0] == rule:
            return _example(cells[1], cells[2])
    return None


def judged_example(rule: Rule) -> Example | None:
    """The first place a shipped sample breaks ``rule`` (None when no sample does): the
    samples meant to break it (``illegal-RULE-*``, then :data:`EXTRA_SAMPLES`) refereed on the
    spot by the same code as ``pan replay``."""
    from pancli.records.shipped import sample_names, sample_path

    names = sample_names()
    own = [n for n in names if n.startswith(f"illegal-{rule}-")]
    for name in [*own, *(n for n in EXTRA_SAMPLES.get(rule, ()) if n in names)]:
        path = str(sample_path(name))
        for line in _replay_errors(path, strict=rule in STRICT_ONLY):
            where, _, rest = line.partition(": ")
            if rest.split(" ", 1)[0] == rule:
                return _example(name, "-" + where[len(path) :] + ": " + rest)
    return None


def examples_table() -> str:
    """The text of :data:`EXAMPLES_FILE`: ``rule<TAB>sample<TAB>replay line`` for each rule
    :func:`judged_example` finds an example of, in the rulebook's order."""
    rows = [
        "# Written by (in the repository): python -c 'from pancli.cli.rule_explain import examples_table as t;"
        f' print(t(), end="")\' > pancli/cli/{EXAMPLES_FILE}',
        "# rule, the shipped sample that breaks it, what 'pan samples SAMPLE | pan replay -' writes of it",
    ]
    for rule in Rule:
        ex = judged_example(rule)
        if ex is not None:
            rows.append(f"{rule}\t{ex.sample}\t{ex.replay}")
    return "\n".join(rows) + "\n"


def _example(sample: str, replay: str) -> Example:
    """The example of sample ``sample`` whose line ``pan replay -`` reports as ``replay``
    (``-:LINE:COL: RULE message``)."""
    from pancli.records.shipped import sample_path

    number = int(replay.split(":", 2)[1])
    record = sample_path(sample).read_text(encoding="utf-8")
    text = record.splitlines()[number - 1]
    tag = re.search(r'^\[Rules "([^"]*)"\]', record, re.M)
    rules = "pagruc" if '[Game "pagruc"]' in record else tag.group(1) if tag else "hoyle"
    return Example(sample, rules, number, text.strip(), replay)


def _replay_errors(path: str, *, strict: bool = False) -> list[str]:
    """The standard-error lines ``pan replay PATH`` writes (violations, irregularities put right,
    wrong claims, malformed hands); ``strict``: ``pan replay --strict PATH``."""
    from pancli.app.replay import Tally, replay_files
    from pancli.cli.common import open_text
    from pancli.render.replay import Sink

    class Collect(Sink):
        def _tick(self) -> None:
            pass

        def close(self, tally: Tally, stopped: bool) -> None:
            pass

    sink = Collect()
    replay_files([path], sink, open_record=open_text, strict=strict, profile=None)
    return [e.rstrip("\n") for e in "".join(sink.err).splitlines() if not e.startswith("pan replay: ")]


def _shown(value: Any) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


def knob_settings(e: RuleEntry, profile: Profile) -> list[dict[str, str]]:
    """For each knob that governs the rule: its value under ``profile``, hoyle and cardroom."""
    out = []
    for knob in e.knobs:
        if knob == "conditions":
            values = [_condition_text(p, e.rule) for p in (profile, HOYLE, CARDROOM)]
        else:
            values = [_shown(p.knobs()[knob]) for p in (profile, HOYLE, CARDROOM)]
        out.append({"knob": knob, "value": values[0], "hoyle": values[1], "cardroom": values[2]})
    return out


def _condition_text(profile: Profile, rule: Rule) -> str:
    r = profile.knobs()["conditions"][str(rule)]
    return f"base {r['base']}, spades {r['spades']}, extra {r['extra']}, extra_spades {r['extra_spades']}"


def rule_json(rule: Rule, profile: Profile) -> dict[str, Any]:
    """``pan rules RULE --json``."""
    e = entry(rule)
    ex = example(rule)
    return {
        "rule": str(rule),
        "family": str(e.family),
        "title": e.title,
        "statement": e.statement,
        "profile": profile.name,
        "knobs": knob_settings(e, profile),
        "ruling": e.ruling,
        "source": e.source,
        "example": None
        if ex is None
        else {
            "sample": ex.sample,
            "rules": ex.rules,
            "command": ex.command,
            "line": ex.line,
            "text": ex.text,
            "replay": ex.replay,
        },
    }


def rule_lines(rule: Rule, profile: Profile) -> list[str]:
    """``pan rules RULE`` in a pipe: ``label<TAB>text`` lines."""
    data = rule_json(rule, profile)
    lines = [f"rule\t{rule} {data['title']} ({data['family']})", f"statement\t{data['statement']}"]
    for k in data["knobs"]:
        same = k["hoyle"] == k["cardroom"]
        builtin = f"hoyle and cardroom {k['hoyle']}" if same else f"hoyle {k['hoyle']}, cardroom {k['cardroom']}"
        lines.append(f"knob\t{k['knob']} = {k['value']} under {profile.name}; built in: {builtin}")
    lines += [f"ruling\t{data['ruling']}", f"source\t{data['source']}"]
    ex = data["example"]
    if ex is None:
        lines.append("example\tno shipped sample breaks it")
    else:
        lines += [
            f"example\t{ex['command']}   (a {ex['rules']} record)",
            f"record\tline {ex['line']}: {ex['text']}",
            f"replay\t{ex['replay']}",
        ]
    return lines


def print_rule(rule: Rule, profile: Profile, as_json: bool, terminal: bool) -> None:
    """Show one rule: JSON, a panel on a terminal, or label lines in a pipe."""
    if as_json:
        from pancli.cli.common import emit_json

        emit_json(rule_json(rule, profile))
        return
    lines = rule_lines(rule, profile)
    if not terminal:
        sys.stdout.write("\n".join(lines) + "\n")
        return
    from rich.table import Table
    from rich.text import Text

    from pancli.cli.common import stdout_console

    console = stdout_console()
    head, *rest = lines
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="cyan", no_wrap=True)
    grid.add_column(overflow="fold")
    for line in rest:
        label, text = line.split("\t", 1)
        grid.add_row(label, Text(text, style="red" if label in ("ruling", "replay") else ""))
    console.print(Text(head.split("\t", 1)[1], style="bold"))
    console.print(grid)


def print_list(as_json: bool) -> None:
    """``pan rules --list``: every rule id, its family and title."""
    rows = [(str(r), str(e.family), e.title) for r, e in RULEBOOK.items()]
    if as_json:
        from pancli.cli.common import emit_json

        emit_json([{"rule": r, "family": f, "title": t} for r, f, t in rows])
        return
    sys.stdout.write("".join(f"{r}\t{f}\t{t}\n" for r, f, t in rows))
