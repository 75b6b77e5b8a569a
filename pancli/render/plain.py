"""The plain-text exporter (pipes, and the hands after the first few on a terminal): a
refereed hand of either game as lines, a malformed hand, and the standard-error lines
(``file:line:col: RULE message``) of violations, irregularities put right and wrong claims."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from pancli.cards import Game
from pancli.escapes import escape_text
from pancli.notation.cells import cell_width, ljust_cells
from pancli.render.text import claim_text, error_line, malformed_line, money_text, violation_line
from pancli.rules import Ending

if TYPE_CHECKING:
    from pancli.app.report import HandReport
    from pancli.model.actions import HandScript
    from pancli.model.results import HandResult, Remedy
    from pancli.notation.layout import RecordHand
    from pancli.pagruc.referee import PagrucHandResult
    from pancli.pagruc.scoring import CardScore


def hand_text(report: HandReport) -> str:
    """The hand as plain text, ending with a newline."""
    hand, result = report.hand, report.result
    if result.game is Game.PAGRUC:
        return "\n".join(plain_lines(result, hand.index, hand.source)) + "\n"
    return plain_text(result, hand, report.script)


def remedy_lines(file: str, r: Remedy) -> list[str]:
    """An irregularity put right (I1, I2), in plain text: where and what, the remedy applied,
    what the rulebook prescribes."""
    v = r.violation
    who = f" ({v.player})" if v.player else ""
    out = [f"  IRREGULARITY {violation_line(file, v)}{who}", f"    remedy: {r.remedy}"]
    if v.ruling:
        out.append(f"    ruling: {v.ruling}")
    return out


def hand_title(hand: RecordHand, script: HandScript) -> str:
    return (
        f"{hand.source}, hand {hand.index} (lines {hand.first_line}-{hand.last_line}): {script.profile.name}; "
        f"{' '.join(script.players)} (dealer {script.players[-1]})"
    )


def plain_text(result: HandResult, hand: RecordHand, script: HandScript) -> str:
    """A refereed hand as plain text: title, one line per collection (line, payee, rule,
    meld, reason, per opponent and total), violations with their ruling, wrong claims,
    the outcome and the ledger (and money with a ``Stake``)."""
    # start-up: Panguingue's words, which a PAGRUC replay without notes does without
    from pancli.render.words import collection_lines, ledger_text, money_map, outcome, pan_remark

    out = [hand_title(hand, script)]
    add = out.append
    out += collection_lines(result.payments, result.going_out)
    file = hand.file
    for r in result.remedies:
        out += remedy_lines(file, r)
    for v in result.violations:
        who = f" ({v.player})" if v.player else ""
        add(f"  VIOLATION {violation_line(file, v)}{who}")
        if v.ruling:
            add(f"    ruling: {v.ruling}")
    for cl in result.claims:
        if not cl.ok:
            add(f"  WRONG CLAIM {error_line(file, cl.line, cl.col, cl.rule, claim_text(cl, pagruc=False))}")
    out.extend(f"  note: {pan_remark(n)}" for n in result.notes)
    add(f"  {outcome(result)}")
    add(f"  ledger: {ledger_text(result.ledger)}")
    money = money_map(result)
    if money is not None:
        add(f"  money (stake {result.stake:f}): {', '.join(f'{p} {money_text(m)}' for p, m in money.items())}")
    return "\n".join(out) + "\n"


def plain_malformed(hand: RecordHand) -> str:
    """A malformed hand in plain text."""
    e = hand.error
    assert e is not None
    return (
        f"{hand.source}, hand {hand.index} (lines {hand.first_line}-{hand.last_line}): malformed, not refereed\n"
        f"  MALFORMED {malformed_line(hand.file, e)}\n"
    )


NONE_MARK = "-"


def score_text(score: int | None) -> str:
    return "?" if score is None else f"{score:+d}"


def player_cards(cards: Iterable[CardScore]) -> str:
    return " ".join(f"{c.card}{c.points:+d}" for c in cards)


def plain_lines(result: PagrucHandResult, hand: int | None = None, file: str | None = None) -> list[str]:
    """A refereed hand as plain text lines (pipes): who went out, each player's score with
    his cards, the melds on the table, then violations, wrong claims and notes."""
    where = f"{escape_text(file)}: " if file else ""
    title = f"{where}hand {hand}" if hand is not None else f"{where}hand"
    out = [f"{title} (PAGRUC, {' '.join(result.players)}; dealer {result.dealer}; {result.packs} pack(s))"]
    if result.ending is Ending.OUT:
        out.append(f"  {result.winner} went out (G6)")
    elif result.ending is Ending.STOPPED:
        out.append(f"  stopped by a violation ({result.ending_rule}): nobody went out")
    else:
        out.append("  not finished: nobody discarded a last card (G6)")
    width = max(cell_width(p) for p in result.players) if result.players else 0
    for p in result.players:
        score = score_text(result.scores.get(p))
        hidden = result.hidden.get(p, 0)
        extra = f" and {hidden} unknown" if hidden else ""
        out.append(f"  {ljust_cells(p, width)} {score:>5}  {player_cards(result.cards.get(p, ()))}{extra}")
    for m in result.table:
        out.append(f"  {m.label}: [{m.meld}] {m.meld.kind.value}")
    for v in result.violations:
        who = f" {v.player}" if v.player else ""
        out.append(f"  line {v.line}:{v.col}: {v.rule}{who}: {v.message}")
    for c in result.claims:
        if not c.ok:
            out.append(f"  line {c.line}: claim wrong ({c.kind.value}, {c.player}): {c.claimed}, referee {c.actual}")
    if result.notes:
        from pancli.render.words import pagruc_remark  # start-up: most PAGRUC hands have no note

        out.extend(f"  note: {pagruc_remark(n)}" for n in result.notes)
    return out
