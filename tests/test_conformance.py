"""The command-line contract (docs/commands.md, docs/notation.md), checked where a review found
it easy to drift: every error written as JSON names its place and rule with the same six fields
(``file line col rule player message``) as the ``FILE:LINE:COL: RULE message`` line on standard
error, whatever the command; every payment of ``replay --json`` cites rules of the rulebook.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from cli_kit import SAMPLES, pan

from pancli.rulebook import Rule

ERROR_FIELDS = ["file", "line", "col", "rule", "player", "message"]
"""The fields of an error in JSON, in this order (as ``pan analyze --json`` writes them)."""


def _first(*path: str | int) -> Callable[[Any], Any]:
    def pick(doc: Any) -> Any:
        for key in path:
            doc = doc[key]
        return doc

    return pick


ERRORS: dict[str, tuple[tuple[str, ...], Callable[[Any], Any]]] = {
    "check": (("check", "--json", "7c 7s 7s"), _first(0)),
    "analyze": (("analyze", "--json", "5s 5s 5s"), _first("error")),
    "score": (("score", "--json", "[Ah 2h] | Kd"), _first("error")),
    "replay": (("replay", "--json", str(SAMPLES / "illegal-P8-forcing.pan")), _first(0, "violations", 0)),
    "fmt": (("fmt", "--json", str(SAMPLES / "malformed-record.pan")), _first(0, "errors", 0)),
    "standings": (("standings", "--json", str(SAMPLES / "pagruc-illegal.pan")), _first("problems", 0)),
    "settle": (("settle", "--json", str(SAMPLES / "illegal-P8-forcing.pan")), _first("disputed", 0)),
}


@pytest.mark.parametrize("command", sorted(ERRORS))
def test_every_error_in_json_names_file_line_col_rule_player_message(command: str) -> None:
    args, pick = ERRORS[command]
    result = pan(*args)
    assert result.exit_code == 1, result.output
    error = pick(json.loads(result.stdout))
    assert set(ERROR_FIELDS) <= error.keys(), f"{command}: {sorted(error)}"
    assert Rule(error["rule"]) and isinstance(error["line"], int) and isinstance(error["col"], int)
    where = f"{error['file']}:{error['line']}:{error['col']}: {error['rule']} "
    assert where in result.stderr, "the same place and rule as the error line on standard error"


def test_score_errors_write_the_six_fields_in_order() -> None:
    error = json.loads(pan("score", "--json", "[Ah 2h] | Kd").stdout)["error"]
    assert list(error) == ERROR_FIELDS


def test_C4_C5_a_rope_from_A_to_K_is_paid_under_both_conditions_joined() -> None:
    """A payment's ``rule`` in JSON is its rules joined by ``+``, each a rule of the rulebook: a
    rope from A to K laid at once pays both bases and every card beyond three (C6: 9)."""
    record = (
        '[Players "Ana Ben"]\n\ndeal Ana A-Qh 2c\nup 4c\nAna stay\nBen stay\nAna draw Kh, meld [A-Kh], discard 2c\n'
    )
    hand = json.loads(pan("replay", "--json", "-", input=record).stdout)[0]
    assert [(p["rule"], p["units"]) for p in hand["payments"]] == [("C4+C5", 9)]
    samples = [json.loads(pan("replay", "--json", str(f)).stdout) for f in sorted(SAMPLES.glob("*.pan"))[:6]]
    rules = {p["rule"] for hands in samples for h in hands for p in h.get("payments", ())}
    assert len(rules) > 3 and all(Rule(part) for rule in rules for part in rule.split("+"))
