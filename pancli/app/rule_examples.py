"""The example of each rule that ``pan rules RULE`` shows: a line of a shipped sample record that
breaks it, with the line ``pan replay`` writes of it. The samples refereed by the same code as
``pan replay`` (:func:`pancli.render.rules.judged_example`) wrote :data:`EXAMPLES_FILE`, which a test keeps equal to
what they give now.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Final

from pancli.records.shipped import sample_path
from pancli.rulebook import Rule
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
    Rule.I1: ("irregular-I1-counted-in-play",),
    Rule.I2: ("irregular-I2-called-late",),
}
"""Shipped samples that break a rule without being named ``illegal-RULE-*``, looked at first: an
irregularity is shown where a count or a call finds it."""

STRICT_ONLY: Final = frozenset({Rule.M1, Rule.M2, Rule.M3, Rule.M4, Rule.M5})
"""Rules ``pan replay`` reports only with ``--strict``: a foul meld is otherwise put right as
I2 prescribes and reported under I2 (its engine rule in the message)."""


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
-`` writes of it, as :func:`pancli.render.rules.examples_table` finds them by refereeing the samples (a ``#`` line
says how to write it again; tests/test_cli_rules.py fails when it differs).

Kept for speed: ``pan rules P8`` need not import the reader and the referee to show one line
(benchmarks/README.md, "Figures behind the code")."""


def example(rule: Rule) -> Example | None:
    """The first place a shipped sample breaks ``rule`` (None when no sample does), as
    :func:`pancli.render.rules.judged_example` finds it, read from :data:`EXAMPLES_FILE`."""
    found = examples(rule)
    return found[0] if found else None


def examples(rule: Rule) -> list[Example]:
    """Every shipped sample's first place of breaking ``rule``, :func:`example` first (an
    irregularity found at a call or a count, then at the deal or the end of a turn), read
    from :data:`EXAMPLES_FILE`."""
    table = Path(__file__).with_name(EXAMPLES_FILE).read_text(encoding="utf-8")
    return [example_at(cells[1], cells[2]) for row in table.splitlines() if (cells := row.split("\t"))[0] == rule]


def example_at(sample: str, replay: str) -> Example:
    """The example of sample ``sample`` whose line ``pan replay -`` reports as ``replay``
    (``-:LINE:COL: RULE message``)."""
    number = int(replay.split(":", 2)[1])
    record = sample_path(sample).read_text(encoding="utf-8")
    text = record.splitlines()[number - 1]
    tag = re.search(r'^\[Rules "([^"]*)"\]', record, re.M)
    rules = "pagruc" if '[Game "pagruc"]' in record else tag.group(1) if tag else "hoyle"
    return Example(sample, rules, number, text.strip(), replay)
