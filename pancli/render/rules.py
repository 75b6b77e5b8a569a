"""The exporters of ``pan rules``: a profile (every knob with the rule it governs, the conditions
table C1-C5) and one rule of the rulebook explained, as JSON, rich tables on a terminal, or
tab-separated lines in a pipe; ``pan rules --list``. No rich at import time."""

from __future__ import annotations

import sys
from typing import IO, TYPE_CHECKING, Any, Final

from pancli.render.text import error_entries, malformed_line, stdout_console
from pancli.rulebook import KNOBS, RULEBOOK, Rule, RuleEntry, entry
from pancli.rules import CARDROOM, HOYLE, Condition, Profile

if TYPE_CHECKING:
    from pancli.app.rule_examples import Example


KNOB_RULES: Final[dict[str, tuple[str, str]]] = {k.name: (k.cites, k.meaning) for k in KNOBS.values()}
"""Each knob (the rule registry's :data:`~pancli.rulebook.KNOBS`) with the rules it governs and what it means."""
_RATE_FIELDS: Final = ("base", "spades", "extra", "extra_spades")


def _shown(value: Any) -> str:
    """A knob's value as the tables and house-rules files write it (yes/no knobs ``on``/``off``)."""
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


def write_profile(profile: Profile, diff: bool, as_json: bool, terminal: bool) -> None:
    """``pan rules [PROFILE]``: the knobs (with ``diff``, those that differ from hoyle) and the
    conditions table, as JSON, a rich table when it fits the terminal, or tab-separated lines."""
    against = HOYLE if diff else None
    if as_json:
        # start-up: pan rules does without these
        from pancli.render.stream import write_json  # the encoder only for --json

        write_json(rules_json(profile, diff))
        return
    knobs, conds = knob_rows(profile, against), condition_rows(profile, against)
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
        from pancli.render.terminal import size, wrap  # start-up: only a terminal asks its width

        text = wrap(text, size().columns)
    sys.stdout.write(text)


def _table_fits(knobs: list[tuple[str, str, str, str, str]], diff: bool) -> bool:
    """Whether the knob table fits the terminal with no knob, value or word of a meaning cut."""
    from pancli.render.terminal import size  # start-up: pan rules does without it

    columns = (0, 1, 2, 3, 4) if diff else (0, 1, 3, 4)
    widest = [max(len(w) for row in knobs for w in (row[i].split() if i == 4 else [row[i]])) for i in columns]
    return sum(max(w, 4) for w in widest) + 3 * len(columns) + 1 <= size().columns


def _print_rich(
    profile: Profile, knobs: list[tuple[str, str, str, str, str]], conds: list[tuple[str, ...]], diff: bool
) -> None:
    from rich.table import Table  # start-up: pan rules does without it

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
    from pancli.app.rule_examples import examples  # start-up: pan rules does without it

    e = entry(rule)
    found = examples(rule)
    ex = found[0] if found else None
    return {
        "rule": str(rule),
        "family": str(e.family),
        "title": e.title,
        "statement": e.statement,
        "profile": profile.name,
        "knobs": knob_settings(e, profile),
        "ruling": e.ruling,
        "source": e.source,
        "example": None if ex is None else _example_fields(ex),
        "also": [_example_fields(a) for a in found[1:]],
    }


def _example_fields(ex: Example) -> dict[str, Any]:
    return {
        "sample": ex.sample,
        "rules": ex.rules,
        "command": ex.command,
        "line": ex.line,
        "text": ex.text,
        "replay": ex.replay,
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
    for a in data["also"]:
        lines += [
            f"also\t{a['command']}   (a {a['rules']} record)",
            f"record\tline {a['line']}: {a['text']}",
            f"replay\t{a['replay']}",
        ]
    return lines


def write_rule(rule: Rule, profile: Profile, as_json: bool, terminal: bool) -> None:
    """Show one rule: JSON, a panel on a terminal, or label lines in a pipe."""
    if as_json:
        # start-up: pan rules does without these
        from pancli.render.stream import write_json  # the encoder only for --json

        write_json(rule_json(rule, profile))
        return
    lines = rule_lines(rule, profile)
    if not terminal:
        sys.stdout.write("\n".join(lines) + "\n")
        return
    # start-up: rich only for a terminal
    from rich.table import Table
    from rich.text import Text

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


def write_list(as_json: bool) -> None:
    """``pan rules --list``: every rule id, its family and title."""
    rows = [(str(r), str(e.family), e.title) for r, e in RULEBOOK.items()]
    if as_json:
        from pancli.render.stream import write_json  # the encoder only for --json

        write_json([{"rule": r, "family": f, "title": t} for r, f, t in rows])
        return
    sys.stdout.write("".join(f"{r}\t{f}\t{t}\n" for r, f, t in rows))


def judged_example(rule: Rule) -> Example | None:
    """The first place a shipped sample breaks ``rule`` (None when no sample does): the
    samples meant to break it (:data:`~pancli.app.rule_examples.EXTRA_SAMPLES`, then ``illegal-RULE-*``) refereed on the
    spot by the same code as ``pan replay``."""
    found = judged_examples(rule, first=True)
    return found[0] if found else None


def judged_examples(rule: Rule, *, first: bool = False) -> list[Example]:
    """Each sample meant to break ``rule`` at its first place of breaking it, in the order of
    :func:`judged_example` (``first``: only the first found)."""
    # start-up: pan rules does without these
    from pancli.app.rule_examples import EXTRA_SAMPLES, STRICT_ONLY, example_at
    from pancli.records.shipped import sample_names, sample_path

    names = sample_names()
    own = [n for n in names if n.startswith(f"illegal-{rule}-")]
    found: list[Example] = []
    for name in [*(n for n in EXTRA_SAMPLES.get(rule, ()) if n in names), *own]:
        for cited, line, rules, text in _replay_findings(str(sample_path(name)), strict=rule in STRICT_ONLY):
            if cited == rule:
                found.append(example_at(rule, name, rules, line, text))
                if first:
                    return found
                break
    return found


def examples_table() -> str:
    """The text of :data:`~pancli.app.rule_examples.EXAMPLES_FILE`, ``rule<TAB>sample<TAB>line<TAB>rules<TAB>replay``
    for each example :func:`judged_examples` finds, in the rulebook's order."""
    from pancli.app.rule_examples import EXAMPLES_FILE  # start-up: pan rules does without it

    rows = [
        "# Written by (in the repository): python -c 'from pancli.render.rules import examples_table as t;"
        f' print(t(), end="")\' > pancli/app/{EXAMPLES_FILE}',
        "# rule, the shipped sample that breaks it, its line, the rules of its hand,"
        " what 'pan samples SAMPLE | pan replay -' writes of it",
    ]
    for rule in Rule:
        rows += [f"{rule}\t{ex.sample}\t{ex.line}\t{ex.rules}\t{ex.replay}" for ex in judged_examples(rule)]
    return "\n".join(rows) + "\n"


def _open_sample(name: str) -> IO[str]:
    return open(name, encoding="utf-8")


def _replay_findings(path: str, *, strict: bool = False) -> list[tuple[str, int, str, str]]:
    """What ``pan replay PATH`` finds, in the order it reports it (irregularities put right,
    violations, wrong claims, malformed hands): the rule each cites, its line, the rules of its
    hand, and its standard-error line as ``pan replay -`` writes it; ``strict``: ``--strict``.
    Taken from the values the referee and the reader decided, never read back out of the text."""
    # start-up: pan rules does without these
    from pancli.app.replay import Tally, replay_files
    from pancli.app.report import HandReport
    from pancli.app.rule_examples import rules_named
    from pancli.notation.layout import RecordHand
    from pancli.render.replay import Sink

    found: list[tuple[str, int, str, str]] = []

    class Findings(Sink):
        def hand(self, report: HandReport) -> None:
            rules = rules_named(report.script.tags)
            found.extend((rule, line, rules, text) for rule, line, text in error_entries(report, "-"))

        def malformed(self, hand: RecordHand) -> None:
            assert hand.error is not None
            e = hand.error
            found.append((e.code, e.line, rules_named(hand.tags_read), malformed_line("-", e)))

        def close(self, tally: Tally, stopped: bool) -> None:
            pass

    replay_files([path], Findings(), open_record=_open_sample, strict=strict, profile=None)
    return found
