"""``pan analyze HAND``: best arrangement, what every draw would do, odds, stay-or-top advice.

The engine is :mod:`pancli.analyze`; this module reads the notation, validates, and prints
(plain tab-separated lines in a pipe, a rich rank x suit grid on a terminal, or JSON).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import click

from pancli.cards import PAN_RANKS, SUITS, Card, format_cards
from pancli.cli.common import (
    EXIT_ILLEGAL,
    EXIT_OK,
    json_option,
    load_profile,
    report,
    rules_option,
    stdin_is_piped,
    stdout_is_terminal,
)
from pancli.melds import Meld, judge

if TYPE_CHECKING:
    from pancli.analyze.advice import Advice
    from pancli.analyze.analysis import Analysis
    from pancli.analyze.arrange import Arrangement, Placed
    from pancli.analyze.odds import DrawRow

DEFAULT_PLAYERS = 6
"""Active players when ``--players`` is not given (the table of RULES.md section 8)."""


class InputProblem(Exception):
    """Bad input: where it is and the rule or notation code it breaks (exit 1)."""

    def __init__(self, where: str, col: int, rule: str, message: str) -> None:
        super().__init__(message)
        self.where, self.col, self.rule, self.message = where, col, rule, message


def _read_cards(text: str, where: str) -> tuple[tuple[Card, ...], ...]:
    """The bracketed groups of a hand literal, then its loose cards as one more group."""
    from pancli.notation import NotationError, parse_hand

    try:
        hand = parse_hand(text)
    except NotationError as exc:
        raise InputProblem(where, exc.col, exc.code, exc.message) from None
    groups = list(hand.groups)
    if hand.loose:
        groups.append(hand.loose)
    return tuple(groups)


def read_hand(text: str, draw: str | None) -> tuple[tuple[Card, ...], Card | None]:
    """The hand and the drawn card: a trailing ``+CARD`` or ``--draw CARD``."""
    from pancli.notation import NotationError, parse_card

    drawn_text = draw
    col = 1
    if "+" in text:
        if draw is not None:
            raise click.UsageError("give the drawn card once: a trailing +CARD or --draw CARD")
        cut = text.rindex("+")
        drawn_text, text, col = text[cut + 1 :], text[:cut], cut + 2
    cards = tuple(c for g in _read_cards(text, "<hand>") for c in g)
    drawn = None
    if drawn_text is not None:
        try:
            drawn = parse_card(drawn_text)
        except NotationError as exc:
            raise InputProblem(
                "<hand>" if draw is None else "<draw>", col + exc.col - 1, exc.code, exc.message
            ) from None
    return cards, drawn


def read_melds(texts: Sequence[str]) -> tuple[Meld, ...]:
    """The player's melds on the table: each ``--melds`` value is one meld, or ``[...]`` groups."""
    out: list[Meld] = []
    for i, text in enumerate(texts, 1):
        for group in _read_cards(text, f"<melds {i}>"):
            v = judge(group)
            if v.meld is None:
                raise InputProblem(f"<melds {i}>", 1, v.rule or "M1", f"{format_cards(group)}: {v.reason}")
            out.append(v.meld)
    return tuple(out)


# --------------------------------------------------------------------------- JSON


def _placed_json(p: Placed) -> dict[str, Any]:
    conds = [c.value for c in p.meld.conditions()]
    return {
        "meld": format_cards(p.meld.cards),
        "cards": format_cards(p.cards),
        "kind": p.meld.kind.value,
        "condition": conds[0] if conds else None,
        "conditions": conds,
        "value": p.value,
        "add_to": None if p.target is None else p.target + 1,
    }


def _arr_json(a: Arrangement | None, opponents: int) -> dict[str, Any] | None:
    if a is None:
        return None
    return {
        "melds": [_placed_json(p) for p in a.placed],
        "melded": a.melded,
        "value": a.value,
        "total": a.value * opponents,
        "dead": format_cards(a.dead),
    }


def to_json(a: Analysis, advice: Advice | None) -> dict[str, Any]:
    """The NOTATION.md fields (``best melded dead draws p_useful``) and the rest of the analysis."""
    opp = a.opponents
    draws = []
    for r in a.rows:
        draws.append(
            {
                "card": str(r.card),
                "live": r.live,
                "usable": r.usable,
                "melds": [format_cards(p.meld.cards) for p in r.melds],
                "down": r.down,
                "value": r.value,
                "total": r.value * opp,
                "out": r.out,
                "out_value": a.out_value(r),
                "drawn": r.card == a.drawn,
            }
        )
    d = a.distance
    out: dict[str, Any] = {
        "hand": format_cards(a.hand),
        "drawn": None if a.drawn is None else str(a.drawn),
        "melds_on_table": [format_cards(m.cards) for m in a.table],
        "rules": a.profile.name,
        "players": a.players,
        "opponents": opp,
        "best": [_placed_json(p) for p in a.best.placed],
        "melded": a.best.melded,
        "value": a.best.value,
        "ways": a.best.count,
        "dead": [str(c) for c in a.best.dead],
        "now": _arr_json(a.now, opp),
        "waits": _arr_json(a.waits, opp),
        "draws": draws,
        "unseen": a.unseen,
        "useful_live": a.useful_live,
        "p_useful": a.p_useful,
        "p_out_next": a.p_out_next,
        "distance": {
            "draws": d.draws,
            "plan": [
                {"hand": format_cards(h), "draw": format_cards(x), "add_to": None if t is None else t + 1}
                for h, x, t in d.plan
            ],
            "discards": format_cards(d.discards),
        },
        "out_within": [
            {"turns": k + 1, "p": p, "se": se, "exact": k == 0}
            for k, (p, se) in enumerate(zip(a.odds.p, a.odds.se, strict=True))
        ],
        "samples": a.odds.samples,
        "seed": a.odds.seed,
    }
    if advice is not None:
        out["advice"] = advice.to_json()
    return out


# --------------------------------------------------------------------------- text


def _placed_text(p: Placed) -> str:
    conds = "+".join(c.value for c in p.meld.conditions()) or "-"
    if p.target is None:
        return f"{format_cards(p.cards)} ({conds} {p.value})"
    return f"add {format_cards(p.cards)} to #{p.target + 1} -> {format_cards(p.meld.cards)} ({conds} +{p.value})"


def _arr_text(a: Arrangement) -> str:
    return " | ".join(_placed_text(p) for p in a.placed) or "nothing"


def summary_lines(a: Analysis) -> list[tuple[str, str]]:
    """The analysis as (label, text) lines: the plain format and the terminal summary."""
    opp = a.opponents
    b = a.best
    lines = [
        ("hand", format_cards(a.hand) + (f" +{a.drawn}" if a.drawn else "")),
        ("rules", f"{a.profile.name}, {a.players} active players ({opp} opponents)"),
    ]
    if a.table:
        lines.append(("melds", " | ".join(f"#{i} {format_cards(m.cards)}" for i, m in enumerate(a.table, 1))))
    lines += [
        ("best", _arr_text(b)),
        ("melded", f"{b.melded} cards, {b.value} from each opponent ({b.value * opp} in all), {b.count} way(s)"),
        ("dead", format_cards(b.dead) or "-"),
    ]
    if a.drawn is None:
        lines.append(("now", "nothing yet: hand cards go down only in a turn whose draw is used (P4)"))
    elif a.now is None:
        lines.append(("now", f"nothing: {a.drawn} cannot be used, so it is discarded (P2) and the hand waits (P4)"))
    else:
        lines.append(("now", f"{_arr_text(a.now)}; {a.now.melded} down, {a.now.value} from each opponent (P4)"))
    if a.waits is not None and a.waits.placed:
        lines.append(("waits", f"{_arr_text(a.waits)} (for a usable draw, P4)"))
    useful = [r for r in a.rows if r.usable]
    lines.append(
        (
            "useful",
            f"{len(useful)} of 40 cards: {' '.join(str(r.card) for r in useful) or '-'}; "
            f"p(next stock card useful) = {a.useful_live}/{a.unseen} = {a.p_useful:.3f}",
        )
    )
    outs = [r for r in a.rows if r.out]
    if outs:
        lines.append(("out", f"{' '.join(str(r.card) for r in outs)} put the player out; p = {a.p_out_next:.3f}"))
    d = a.distance
    if d.draws is None:
        lines.append(("distance", "no way out found with the live cards"))
    else:
        plan = "; ".join(
            f"{format_cards(h) or '-'} + draw {format_cards(x) or '-'}" + (f" to #{t + 1}" if t is not None else "")
            for h, x, t in d.plan
        )
        lines.append(
            (
                "distance",
                f"{d.draws} useful draw(s): {plan}" + (f"; discard {format_cards(d.discards)}" if d.discards else ""),
            )
        )
    o = a.odds
    within = " ".join(f"{k + 1}:{p:.3f}" for k, p in enumerate(o.p))
    se = max(o.se) if o.se else 0.0
    lines.append(
        (
            "out within",
            f"{within} (k=1 exact; later turns Monte Carlo, {o.samples} samples, seed {o.seed}, s.e. <= {se:.3f})",
        )
    )
    return lines


def row_fields(a: Analysis, r: DrawRow) -> list[str]:
    """One draw-table row as text fields: card live usable down value total out melds."""
    melds = " | ".join(format_cards(p.meld.cards) for p in r.melds) or "-"
    out = f"out (C8 {a.out_value(r)})" if r.out else "-"
    return [
        str(r.card),
        str(r.live),
        "yes" if r.usable else "no",
        str(r.down),
        str(r.value),
        str(r.value * a.opponents),
        out,
        melds,
    ]


ROW_HEADER = ["card", "live", "usable", "down", "value", "total", "out", "melds"]


def print_plain(a: Analysis, advice: Advice | None) -> None:
    """The pipe format: ``label<TAB>text`` lines, then the draw table with a header line."""
    out = [f"{label}\t{text}\n" for label, text in summary_lines(a)]
    if advice is not None:
        out += [f"{label}\t{text}\n" for label, text in advice.lines()]
    out.append("\t".join(ROW_HEADER) + "\n")
    out += ["\t".join(row_fields(a, r)) + "\n" for r in a.rows if r.usable]
    sys.stdout.write("".join(out))


def _colour(a: Analysis, r: DrawRow) -> str:
    if r.out:
        return "bold white on green"
    if r.usable and r.value:
        return "black on yellow"
    if r.usable:
        return "black on cyan"
    return "dim"


def print_rich(a: Analysis, advice: Advice | None) -> None:
    """The terminal format: summary, then a rank x suit grid coloured by usefulness beside the list."""
    from rich.columns import Columns
    from rich.table import Table

    from pancli.cli.common import stdout_console

    console = stdout_console()
    head = Table(show_header=False, box=None, title=f"pan analyze ({a.profile.name})")
    head.add_column(style="bold")
    head.add_column()
    for label, text in summary_lines(a):
        head.add_row(label, text)
    if advice is not None:
        for label, text in advice.lines():
            head.add_row(label, text)
    console.print(head)
    grid = Table(title="draws (live copies)", show_lines=False)
    grid.add_column("")
    for s in SUITS:
        grid.add_column(s.letter, justify="center")
    for rank in PAN_RANKS:
        cells = []
        for s in SUITS:
            from pancli.cards import card

            r = a.row(card(rank, s))
            cells.append(f"[{_colour(a, r)}] {r.live} [/]")
        grid.add_row(rank.symbol, *cells)
    legend = "[bold white on green] out [/] [black on yellow] chips [/] [black on cyan] usable [/] [dim]no use[/]"
    grid.caption = legend
    table = Table(title="useful draws")
    for h in ROW_HEADER:
        table.add_column(h, justify="right" if h in ("live", "down", "value", "total") else "left")
    for r in a.rows:
        if r.usable:
            table.add_row(*row_fields(a, r), style=None)
    if not any(r.usable for r in a.rows):
        table.add_row("-", "", "", "", "", "", "", "no card is usable")
    console.print(Columns([grid, table]))


# --------------------------------------------------------------------------- command


@click.command(
    "analyze",
    epilog="Exit status: 0 analysed, 1 the hand is unreadable or impossible (P7, E4, a bad meld), 2 usage error.",
)
@click.argument("hand", nargs=-1, metavar="HAND")
@click.option("--draw", "draw", metavar="CARD", help="The card just drawn (or a trailing +CARD in HAND).")
@click.option("--melds", "melds", multiple=True, metavar="MELDS", help="The player's melds on the table ([..] groups).")
@click.option("--seen", "seen", multiple=True, metavar="CARDS", help="Every other card seen (melds, discards).")
@click.option("--players", "-n", type=click.IntRange(2, 15), default=DEFAULT_PLAYERS, show_default=True,
              help="Active players (2-15, S1): chips are per opponent x (N-1).")  # fmt: skip
@click.option("--advice", is_flag=True, help="Simulate the hand: expected units of staying vs going on top.")
@click.option("--samples", type=click.IntRange(1, 1_000_000), default=2000, show_default=True,
              help="Monte Carlo samples (going-out odds and --advice).")  # fmt: skip
@click.option("--seed", type=int, default=1, show_default=True, help="Random seed of the simulations.")
@click.option("--at", "at_line", type=click.IntRange(1), metavar="LINE", help="Record position: analyse at this line.")
@click.option("--player", "player", metavar="NAME", help="Record position: whose hand.")
@json_option
@rules_option
@click.pass_context
def analyze(
    ctx: click.Context,
    hand: tuple[str, ...],
    draw: str | None,
    melds: tuple[str, ...],
    seen: tuple[str, ...],
    players: int,
    advice: bool,
    samples: int,
    seed: int,
    at_line: int | None,
    player: str | None,
    as_json: bool,
    rules: str,
) -> None:
    """Analyse one Panguingue hand: the best arrangement, what every draw would do, the odds.

    HAND is ten cards in the usual notation (cards may be separate arguments), or
    eleven with the drawn card marked by a trailing +CARD (or --draw CARD). With
    --melds the player's melds already on the table count (hand + melds = 10, P7);
    --seen names every other card seen, for the live copies of each card.

    \b
    Examples:
      pan analyze 5s 5s 5s 3h 4h Kd Kh Kc 2c 7d
      pan analyze "5sss 3h 4h Kd Kh Kc 2c 7d +5h" --players 4
      pan analyze "3h 4h Kd Kh Kc 2c 7d" --melds "[5sss]" --seen "5s 5h 5h"
      pan analyze --json 5sss 3-5h Kd Kh 7c 2c | jq .p_useful
      pan analyze "5sss 3-5h Kd Kh 7c 2c" --advice --samples 500

    The best arrangement gets the most cards down, then the most chips (C6 values of
    new melds, C7 change of grown melds), then the fewest melds; it is exact. Hand
    cards go down only in a turn whose draw is used (P4): 'now' is what goes down
    this turn, 'waits' what needs a usable draw. The draw table gives, for each card,
    its live copies (pack - seen - own), whether it is usable, what it gets down, the
    chips it collects at once (per opponent and in all) and whether it puts the
    player out (with the C8 payment). Odds assume the next stock card is any unseen
    card alike. In a pipe the output is 'label<TAB>text' lines, then a tab-separated
    table of the usable draws; --json prints one object (best, melded, dead, draws,
    p_useful, ...).
    """
    profile = load_profile(rules)
    if at_line is not None or player is not None:
        raise click.UsageError("--at/--player (a record position) is not available yet: give the hand instead")
    text = " ".join(hand)
    if not text.strip() and stdin_is_piped():
        text = " ".join(ln.split("#", 1)[0] for ln in sys.stdin.read().splitlines()).strip()
    if not text.strip():
        raise click.UsageError("give a hand: ten cards, or eleven with the drawn card marked +CARD")
    from pancli.analyze.analysis import PositionError
    from pancli.analyze.analysis import analyze as run

    try:
        cards, drawn = read_hand(text, draw)
        table = read_melds(melds)
        seen_cards = tuple(c for i, t in enumerate(seen, 1) for g in _read_cards(t, f"<seen {i}>") for c in g)
        result = run(cards, profile, drawn, table, seen_cards, players, samples=samples, seed=seed)
    except InputProblem as exc:
        report(exc.where, 1, exc.col, exc.rule, exc.message)
        ctx.exit(EXIT_ILLEGAL)
        return
    except PositionError as exc:
        report("<hand>", 1, 1, exc.rule, exc.message)
        ctx.exit(EXIT_ILLEGAL)
        return
    adv = None
    if advice:
        from pancli.analyze.advice import advise

        adv = advise(result, samples=samples, seed=seed)
    if as_json:
        from pancli.cli.common import emit_json

        emit_json(to_json(result, adv))
    elif stdout_is_terminal():
        print_rich(result, adv)
    else:
        print_plain(result, adv)
    sys.stdout.flush()
    ctx.exit(EXIT_OK)
