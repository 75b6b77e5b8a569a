"""``pan replay FILE --html OUT.html``: one self-contained page for a sitting's records.

The page holds everything it needs: inline CSS, cards drawn by the style sheet (:func:`card`),
SVG bar charts, and no script at all; it works offline, prints well (a print style sheet) and
reflows on a phone. For each hand: its header (tags, profile, seats, stake), a timeline of every play line with
the cards drawn as pictures, what each line paid and why (the rule id links to the rule's
text at the end of the page), the violation highlighted with its ruling, wrong claims, the
ledger as a table and a small bar chart. At the end: the sitting's totals and the payments
that settle it (as ``pan settle`` finds them) and the text of every rule cited.

The page is kept light, to open at once: one element a card, no empty cells at the end of a
timeline row, and hands off the screen not laid out until scrolled to (``content-visibility:
auto``): an SVG picture per card made the page several times larger and slower to open
(benchmarks/bench_html.py; the figures in benchmarks/README.md).

It is written as the hands are refereed, one at a time (constant memory), to the stream it
is given (``pan replay`` gives it a file written atomically). Everything taken from the
record (names, tags, comments, the text of a malformed hand) is escaped: a ``<script>`` in a
comment is shown as text.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable, Mapping, Sequence
from decimal import Decimal
from typing import TYPE_CHECKING, Any, Final, TextIO

from pancli.app.replay import Tally
from pancli.app.report import HandReport, malformed_dispute
from pancli.cards import ALL_CARDS, Card, Game, Suit
from pancli.escapes import escape_text
from pancli.model.actions import Turn
from pancli.model.results import ClaimKind, exact_product
from pancli.model.settle import SettledHand, Sitting, StakeFrom
from pancli.notation.cells import cell_width
from pancli.notation.record_common import PlayItem, UpLine
from pancli.notation.record_writer import Spelling, action_text, head_text, line_text
from pancli.render import svg
from pancli.render.replay import tally_text
from pancli.render.settle import amount_text
from pancli.render.settle import summary as sitting_summary
from pancli.render.text import claim_text, dispute_text, money_text, signed
from pancli.render.words import MALFORMED_RULING, collections, notes_text, outcome, parts
from pancli.rulebook import RULEBOOK, lookup
from pancli.rules import Ending

if TYPE_CHECKING:
    from pancli.app.replay import HandSink
    from pancli.model.actions import Action, HandScript
    from pancli.model.results import ClaimCheck, HandResult, Remedy, Violation
    from pancli.model.settle import Sitting
    from pancli.notation.layout import Notes, RecordHand
    from pancli.pagruc.referee import PagrucHandResult

CSS: Final = """
:root{--ink:#1b1b1b;--muted:#5f6368;--line:#dadce0;--bad:#b00020;--badbg:#fde7ea;--warn:#7a4f00;
--warnbg:#fff3cd;--good:#146c2e;--paper:#fff;--bg:#f6f6f1}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--ink);font:15px/1.45 "DejaVu Sans",system-ui,sans-serif}
main{max-width:75rem;margin:0 auto;padding:1rem}
h1{font-size:1.5rem;margin:.5rem 0}h2{font-size:1.2rem;margin:0 0 .5rem}h3{font-size:1rem;margin:1rem 0 .4rem}
a{color:#1a56b8}
.summary{color:var(--muted)}
section.hand,section.totals,section.rules{background:var(--paper);border:1px solid var(--line);border-radius:8px;
padding:1rem;margin:1.25rem 0}
section.hand{content-visibility:auto;contain-intrinsic-size:auto 1600px}
dl.tags{display:grid;grid-template-columns:max-content 1fr;gap:.1rem 1rem;margin:.25rem 0 .75rem}
dl.tags dt{color:var(--muted)}dl.tags dd{margin:0}
.badge{display:inline-block;padding:0 .5rem;border-radius:1rem;font-size:.85rem;font-weight:bold;border:1px solid}
.badge.clean{color:var(--good)}.badge.bad{color:var(--bad);background:var(--badbg)}
.badge.warn{color:var(--warn);background:var(--warnbg)}
.wrap{overflow-x:auto}
table{border-collapse:collapse;margin:.25rem 0}
th,td{padding:.3rem .5rem;border-bottom:1px solid var(--line);vertical-align:top;text-align:left}
th{font-size:.85rem;color:var(--muted)}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
.timeline tr{border-bottom:1px solid var(--line)}.timeline td{border:0}
.timeline td:first-child{color:var(--muted);text-align:right;font-variant-numeric:tabular-nums}
.timeline td:nth-child(2){min-width:14rem}.timeline td:nth-child(2)>b{margin-right:.4rem}
.act{display:inline-block;margin:.1rem .6rem .1rem 0;white-space:nowrap;color:var(--muted)}
.glyph{font-weight:bold;color:#6a1b9a;margin-left:.25rem}
.glyph.review{color:#fff;background:#00695c;border-radius:.2rem;padding:0 .2rem}.note .review{color:#00695c}
.act i{display:inline-block;width:2.1em;height:2.9em;padding:.15em .2em;border:1px solid #555;border-radius:.3em;
background:#fff;color:#111;font:bold .85rem/1.1 "DejaVu Sans",system-ui,sans-serif;white-space:normal;text-align:left;
vertical-align:middle;
box-shadow:-1px 0 2px rgba(0,0,0,.25)}
.act i+i{margin-left:-.85em}
.act i.r{color:#c0142c}.act i.t{letter-spacing:-.1em}
.paid div{margin:.1rem 0}
.rule{font-weight:bold}
.note{color:var(--muted);font-style:italic;white-space:pre-wrap;overflow-wrap:anywhere}
tr.violation{background:var(--badbg);outline:2px solid var(--bad)}
tr.wrong{background:var(--warnbg)}
tr.after{opacity:.5}
.violation-box{border-left:5px solid var(--bad);background:var(--badbg);padding:.5rem .75rem;margin:.75rem 0}
.claim-box{border-left:5px solid var(--warn);background:var(--warnbg);padding:.5rem .75rem;margin:.75rem 0}
.outcome{font-weight:bold;margin:.75rem 0 .25rem}
.pos{color:var(--good)}.neg{color:var(--bad)}
.ledger{display:flex;flex-wrap:wrap;gap:1rem 2rem;align-items:flex-start}
pre.record{background:#f1f3f4;padding:.5rem;overflow-x:auto;white-space:pre}
pre.record mark{background:var(--badbg);outline:1px solid var(--bad)}
ol.transfers{font-size:1.05rem}
dl.rulebook dt{font-weight:bold;margin-top:.5rem}dl.rulebook dd{margin:0 0 0 1rem}
dl.rulebook dt:target{background:var(--warnbg)}
@media (max-width:40rem){
 main{padding:.5rem}section.hand{padding:.6rem}
 .timeline thead{display:none}
 .timeline tr{display:block;border-bottom:1px solid var(--line);padding:.3rem 0}
 .timeline td{display:block;border:0;padding:.1rem .25rem}
 .timeline td:first-child{text-align:left}.timeline td:first-child::before{content:"line "}
}
@media print{
 body{background:#fff;font-size:10pt}main{max-width:none;padding:0}
 section.hand,section.totals,section.rules{border:0;border-top:2px solid #000;border-radius:0;padding:.5rem 0}
 section.hand{break-before:page;content-visibility:visible}
 tr{break-inside:avoid}
 a{color:inherit;text-decoration:none}
 nav{display:none}
 tr.after{opacity:1;color:#777}
 tr.violation{outline:2px solid #000}
 .act i{border-color:#000}.act i.r{color:#a00}
}
"""


def escape(text: str) -> str:
    """User text (a tag value, a comment, a file name) in the page: its control characters shown
    as every format shows them (:func:`escape_text`: ``cat report.html`` changes no terminal
    title, no bidirectional override reorders a line), then HTML's escapes."""
    return html.escape(escape_text(text))


def _rule_ids(rule: str) -> list[str]:
    """The rule ids of a payment or violation rule (``C4+C5`` is two)."""
    return [r for r in rule.split("+") if r]


class HtmlReport:
    """The page, written hand by hand to ``out``; :meth:`close` writes the totals and the rules."""

    def __init__(
        self,
        out: TextIO,
        title: str,
        stake: Decimal | None = None,
        *,
        default_stake: Decimal | None = None,
        named_by_hand: bool = False,
    ) -> None:
        """``stake`` prices every hand, ``default_stake`` the hands that name no Stake (``pan settle``'s
        ``--stake`` and ``--default-stake``). ``named_by_hand``: the title is ``title`` and the first
        hand's :attr:`RecordHand.source` (standard input: its Event tag), the head written when that
        hand comes."""
        self.out = out
        self.title = title
        self.named_by_hand = named_by_hand
        self.cited: set[str] = set()
        self.links: dict[str, str] = {}
        """The links of each rule (or rules, ``C4+C5``) cited so far."""
        self.count = 0
        self.pan: Sitting = Sitting(stake, default_stake=default_stake)
        self.pagruc_sitting: Sitting = Sitting(None, zero_sum=False)
        self.disputes: list[tuple[int, str]] = []
        """(section number, what) of each disputed hand, for the totals' list (one short line each)."""
        if not named_by_hand:
            self._head(title)

    def _head(self, title: str) -> None:
        self.named_by_hand = False
        self.out.write(
            '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{escape(title)}</title><style>{CSS}</style></head><body>"
            f"<main><header><h1>{escape(title)}</h1>"
            '<nav><a href="#totals">the sitting\'s totals and settling payments</a> · '
            '<a href="#rules">the rules cited</a></nav></header>\n'
        )

    # ------------------------------------------------------------------ links and pictures

    def rule(self, rule: str) -> str:
        """``rule`` as links to its text at the end of the page (``C4+C5``: two links)."""
        link = self.links.get(rule)
        if link is None:
            link = self.links[rule] = self._link(rule)
        return link

    def _link(self, rule: str) -> str:
        parts = []
        for r in _rule_ids(rule):
            if lookup(r) is not None:
                self.cited.add(r)
                parts.append(f'<a class="rule" href="#rule-{r}">{r}</a>')
            else:
                parts.append(f'<span class="rule">{escape(r)}</span>')
        return "+".join(parts)

    @staticmethod
    def cards(cards: tuple[Card, ...] | list[Card]) -> str:
        """Cards drawn fanned, each a small card-shaped box with its rank and suit symbol
        as text (see :func:`card`)."""
        return "".join(map(_CARD_HTML.__getitem__, cards))

    # ------------------------------------------------------------------ hands

    def hand(self, report: HandReport) -> None:
        """One refereed hand, of either game."""
        result = report.result
        if result.game is Game.PAGRUC:
            self._pagruc(report, result)
        else:
            self._pan(report, result)

    def _pan(self, report: HandReport, result: HandResult) -> None:
        """One refereed Panguingue hand."""
        hand, script = report.hand, report.script
        n = self._next(hand)
        dispute = report.dispute
        self.pan.add(SettledHand(result.players, result.totals, result.stake, dispute))
        header = self._header(n, hand, script, result.violations, result.claims, script.profile.name, result.remedies)
        parts = [header]
        parts.append(self._timeline(report))
        parts.append(self._problems(report))
        parts.append(f'<p class="outcome">{escape(outcome(result))}</p>')
        parts.append(self._ledger(result, script))
        self._end_section(n, parts, dispute)

    def _pagruc(self, report: HandReport, result: PagrucHandResult) -> None:
        """One refereed PAGRUC hand: its timeline and hand scores (G7)."""
        hand, script = report.hand, report.script
        n = self._next(hand)
        dispute = report.dispute
        self.pagruc_sitting.add(SettledHand(result.players, result.totals, result.stake, dispute))
        parts = [self._header(n, hand, script, result.violations, result.claims, "PAGRUC")]
        parts.append(self._timeline(report))
        parts.append(self._problems(report))
        if result.ending is Ending.OUT and result.winner is not None:
            parts.append(f'<p class="outcome">{escape(result.winner)} went out (G6)</p>')
        elif result.ending is Ending.STOPPED:
            parts.append(f'<p class="outcome">stopped by a violation ({result.ending_rule}): nobody went out</p>')
        else:
            parts.append('<p class="outcome">unfinished: nobody went out</p>')
        scores: Mapping[str, int | None] = result.scores
        parts.append(self._scores("hand scores (G7)", "points", scores))
        self._end_section(n, parts, dispute)

    def malformed(self, hand: RecordHand) -> None:
        """A hand that cannot be read: its error and its text, the bad line marked."""
        e = hand.error
        assert e is not None
        n = self._next(hand)
        self.pan.add(SettledHand(hand.players, {}, None, malformed_dispute(hand)))
        lines = []
        for i, text in enumerate(hand.text.rstrip("\n").split("\n"), hand.first_line):
            row = f"{i:>5}  {escape(text)}"
            lines.append(f"<mark>{row}</mark>" if i == e.line else row)
        body = "\n".join(lines)
        self.out.write(
            f'<section class="hand" id="hand-{n}"><h2>{escape(hand.source)}, hand {hand.index} '
            f"(lines {hand.first_line}-{hand.last_line}) "
            '<span class="badge bad">malformed</span></h2>'
            f'<div class="violation-box"><span class="rule">{self.rule(e.code)}</span> '
            f"{escape(hand.file)}:{e.line}:{e.col}: {escape(e.message)}<br>{escape(MALFORMED_RULING)}</div>"
            f'<pre class="record">{body}</pre></section>\n'
        )
        self.disputes.append((n, f"{hand.file}:{e.line}:{e.col} {e.code} {e.message}"))

    def _next(self, hand: RecordHand | None = None) -> int:
        if self.named_by_hand:
            self._head(f"{self.title} {hand.source}" if hand is not None else f"{self.title} standard input")
        self.count += 1
        return self.count

    def _end_section(self, n: int, parts: list[str], dispute: Any) -> None:
        parts.append("</section>\n")
        self.out.write("".join(parts))
        if dispute is not None:
            d = dispute
            self.disputes.append((n, f"{d.file}:{d.line}:{d.col} {d.rule} {dispute_text(d)}"))

    def _header(
        self,
        n: int,
        hand: RecordHand,
        script: HandScript,
        violations: Sequence[Violation],
        claims: Sequence[ClaimCheck],
        rules: str,
        remedies: Sequence[Remedy] = (),
    ) -> str:
        wrong = any(not c.ok for c in claims)
        badge = (
            '<span class="badge bad">violation</span>'
            if violations
            else '<span class="badge warn">wrong claim</span>'
            if wrong
            else '<span class="badge warn">irregularity put right</span>'
            if remedies
            else '<span class="badge clean">clean</span>'
        )
        tags = [(k, v) for k, v in script.tags if k not in ("Players", "Ledger", "Rules", "Stake", "Game")]
        rows = "".join(f"<dt>{escape(k)}</dt><dd>{escape(v)}</dd>" for k, v in tags)
        rows += f"<dt>rules</dt><dd>{escape(rules)}</dd>"
        rows += (
            f"<dt>players</dt><dd>{escape(' '.join(script.players))} "
            f"(in order of play; dealer {escape(script.players[-1])})</dd>"
        )
        if script.stake is not None:
            rows += f"<dt>stake</dt><dd>{escape(format(script.stake, 'f'))} a unit</dd>"
        lead = ""
        layout = hand.layout
        if layout is not None and layout.leading:
            lead = "".join(f'<p class="note">{escape(text)}</p>' for text in paragraphs(layout.leading))
        return (
            f'<section class="hand" id="hand-{n}"><h2>{escape(hand.source)}, hand {hand.index} '
            f"(lines {hand.first_line}-{hand.last_line}) {badge}</h2>{lead}"
            f'<dl class="tags">{rows}</dl>'
        )

    # ------------------------------------------------------------------ the timeline

    def _timeline(self, report: HandReport) -> str:
        hand, script, result = report.hand, report.script, report.result
        by_line: dict[int, list[str]] = {}
        if result.game is Game.PANGUINGUE:
            for c in collections(result.payments):
                why = c.what(result.going_out)
                by_line.setdefault(c.line, []).append(
                    f"<div><b>{escape(c.payee)}</b> {c.verb} {self.rule(c.rule)} "
                    f"{escape(why)}: {escape(c.amounts())}</div>"
                )
            for r in getattr(result, "remedies", ()):  # irregularities put right (I1, I2)
                by_line.setdefault(r.violation.line, []).append(
                    f"<div><strong>! {self.rule(str(r.rule))}</strong> {escape(r.violation.message)}: "
                    f"{escape(r.remedy)}</div>"
                )
        bad: dict[int, Violation] = {}
        for v in result.violations:
            bad.setdefault(v.line, v)
        stop = min(bad) if bad else None
        wrong: dict[int, list[ClaimCheck]] = {}
        for cl in result.claims:
            if not cl.ok:
                wrong.setdefault(cl.line, []).append(cl)
        rows: list[str] = []
        for line, item, notes in _play_items(hand, script):
            paid = by_line.pop(line, [])
            cls = ""
            if line in bad:
                v = bad[line]
                cls = "violation"
                paid.append(f"<div><strong>✗ {self.rule(str(v.rule))}</strong> {escape(v.message)}</div>")
            elif stop is not None and line > stop:
                cls = "after"
            for cl in wrong.get(line, ()):
                cls = cls or "wrong"
                said = escape(claim_text(cl, report.pagruc))
                paid.append(f"<div><strong>wrong claim {self.rule(cl.rule)}</strong> {said}</div>")
            rows.append(_row(cls, line, self._play(item, notes), "".join(paid), _note_text(notes)))
        for line, rest in sorted(by_line.items()):  # hand-level payments (T4, P10 refunds)
            rows.append(_row("", line, "", "".join(rest), ""))
        return (
            '<h3>play</h3><div class="wrap"><table class="timeline"><thead><tr><th class="num">line</th>'
            "<th>play</th><th>paid and why</th><th>comments</th></tr></thead><tbody>"
            + "".join(rows)
            + "</tbody></table></div>"
        )

    def _play(self, item: PlayItem, notes: Notes | None) -> str:
        """One play line in the record's words (:func:`~pancli.notation.record_writer.head_text`, then
        :func:`~pancli.notation.record_writer.line_text` or each action's text), cards as pictures."""
        head = head_text(item, _MARKUP)
        if not isinstance(item, Turn):
            return f'{head}<span class="act">{line_text(item, _MARKUP)}</span>'
        glyphs = notes.actions if notes is not None and notes.actions else ()
        acts = []
        for i, a in enumerate(item.actions):
            glyph, comments = glyphs[i] if i < len(glyphs) else ("", ())
            acts.append(self._action(a, glyph, any(_reviewers(c, glyph) for c in comments)))
        return head + "".join(acts)

    def _action(self, a: Action, glyph: str, reviewer: bool = False) -> str:
        """One action in the record's words (:func:`~pancli.notation.record_writer.action_text`),
        its cards drawn, then its glyph."""
        kind = "glyph review" if reviewer else "glyph"
        g = f'<span class="{kind}">{escape(glyph)}</span>' if glyph else ""
        return f'<span class="act">{action_text(a, _MARKUP)}{g}</span>'

    # ------------------------------------------------------------------ violations, claims, ledger

    def _problems(self, report: HandReport) -> str:
        file, result = report.hand.file, report.result
        parts = []
        for r in getattr(result, "remedies", ()):
            v = r.violation
            who = f" ({escape(v.player)})" if v.player else ""
            parts.append(
                f'<div class="claim-box"><strong>irregularity put right {self.rule(str(v.rule))}</strong> '
                f"{escape(file)}:{v.line}:{v.col}{who}: {escape(v.message)}<br><em>remedy:</em> "
                f"{escape(r.remedy)}</div>"
            )
        for v in result.violations:
            who = f" ({escape(v.player)}, turn {v.turn})" if v.player else ""
            ruling = f"<br><em>ruling:</em> {escape(v.ruling)}" if v.ruling else ""
            parts.append(
                f'<div class="violation-box"><strong>violation {self.rule(str(v.rule))}</strong> '
                f"{escape(file)}:{v.line}:{v.col}{who}: {escape(v.message)}{ruling}</div>"
            )
        for c in result.claims:
            if not c.ok:
                parts.append(
                    f'<div class="claim-box"><strong>wrong claim {self.rule(c.rule)}</strong> '
                    f"{escape(file)}:{c.line}:{c.col}: {escape(claim_text(c, report.pagruc))}</div>"
                )
        parts.extend(f'<p class="note">note: {escape(n)}</p>' for n in notes_text(result))
        return "".join(parts)

    def _ledger(self, result: HandResult, script: HandScript) -> str:
        stake, given = self._stake(result)
        money = None if stake is None else {p: exact_product(stake, u) for p, u in result.ledger.items()}
        claimed = {c.player: c for c in result.claims if c.kind is ClaimKind.LEDGER}
        head = '<tr><th>player</th><th>part</th><th class="num">units</th>'
        roles = parts(result)
        if stake is not None:
            head += f'<th class="num">money (stake {escape(format(stake, "f"))}{given})</th>'
        if claimed:
            head += '<th class="num">claimed</th>'
        rows = []
        for p, units in result.ledger.items():
            row = f"<td>{escape(p)}</td><td>{escape(roles.get(p, ''))}</td>{_units_cell(units)}"
            if money is not None:
                row += f'<td class="num">{escape(money_text(money[p]))}</td>'
            if claimed:
                c = claimed.get(p)
                text = "" if c is None else signed(c.claimed) + ("" if c.ok else " ✗")
                row += f'<td class="num{"" if c is None or c.ok else " neg"}">{text}</td>'
            rows.append(f"<tr>{row}</tr>")
        total = sum(result.ledger.values())
        foot = f'<tr><th>total</th><td></td><td class="num">{signed(total)}</td></tr>'
        table = f'<table class="ledger-table"><thead>{head}</tr></thead><tbody>{"".join(rows)}</tbody>{foot}</table>'
        return f'<h3>ledger</h3><div class="ledger"><div class="wrap">{table}</div>{bars(result.ledger)}</div>'

    def _stake(self, result: HandResult) -> tuple[Decimal | None, str]:
        """The stake the page prices ``result`` at, as the sitting prices it, and the option that
        set it (``""``: the record's Stake)."""
        stake, source = self.pan.stake_of(result.stake)
        return stake, _GIVEN[source]

    def _scores(self, title: str, unit: str, scores: Mapping[str, int | None]) -> str:
        rows = "".join(
            f"<tr><td>{escape(p)}</td>"
            + (_units_cell(s) if s is not None else '<td class="num">unknown</td>')
            + "</tr>"
            for p, s in scores.items()
        )
        known = {p: s for p, s in scores.items() if s is not None}
        return (
            f'<h3>{escape(title)}</h3><div class="ledger"><div class="wrap"><table><thead><tr><th>player</th>'
            f'<th class="num">{escape(unit)}</th></tr></thead><tbody>{rows}</tbody></table></div>{bars(known)}</div>'
        )

    # ------------------------------------------------------------------ the end of the page

    def close(self, summary: str) -> None:
        """The sitting's totals, the settling payments, the disputed hands and the rules cited."""
        if self.named_by_hand:  # no hand at all
            self._head(f"{self.title} standard input")
        out = self.out
        parts = [f'<section class="totals" id="totals"><h2>the sitting</h2><p class="summary">{escape(summary)}</p>']
        for name, sitting in (("Panguingue", self.pan), ("PAGRUC", self.pagruc_sitting)):
            if not sitting.counted and not sitting.disputed:
                continue
            parts.append(f"<h3>{name}: {escape(sitting_summary(sitting))}</h3>")
            if sitting.defaulted:
                n = sitting.defaulted
                parts.append(
                    f"<p>--default-stake {escape(format(sitting.default_stake or 0, 'f'))} a unit for the {n} counted"
                    f" hand{'s that name' if n != 1 else ' that names'} no Stake</p>"
                )
            parts.append(_totals_table(sitting))
            if sitting.zero_sum:
                moves = sitting.transfers()
                if moves:
                    items = "".join(
                        f"<li>{escape(t.payer)} pays {escape(t.payee)} <strong>{escape(amount_text(t.amount))}</strong>"
                        f"{'' if sitting.has_money else ' units'}</li>"
                        for t in moves
                    )
                    parts.append(f'<h3>to settle</h3><ol class="transfers">{items}</ol>')
                else:
                    parts.append("<p>nothing to settle</p>")
        if self.disputes:
            items = "".join(f'<li><a href="#hand-{n}">{escape(what)}</a></li>' for n, what in self.disputes)
            parts.append(f"<h3>disputed hands (left out of the totals)</h3><ul>{items}</ul>")
        parts.append("</section>\n")
        out.write("".join(parts))
        out.write(self._rulebook())
        out.write("</main></body></html>\n")

    def _rulebook(self) -> str:
        items = []
        for rule in RULEBOOK:
            if str(rule) not in self.cited:
                continue
            e = RULEBOOK[rule]
            found = lookup(str(rule))
            assert found is not None
            items.append(
                f'<dt id="rule-{rule}">{rule} {escape(e.title)}</dt><dd>{escape(e.statement)}'
                + (f"<br><em>ruling:</em> {escape(e.ruling)}" if e.ruling else "")
                + "</dd>"
            )
        return (
            '<section class="rules" id="rules"><h2>the rules cited</h2>'
            f'<dl class="rulebook">{"".join(items)}</dl></section>\n'
        )


def card(c: Card) -> str:
    """One card as HTML: a card-shaped box (drawn by the page's style sheet) holding its rank
    and suit symbol as text, one above the other: selectable, readable at any size, the suits
    told apart by their symbols without colour (red ink for hearts and diamonds). One element
    a card: a 100-hand page holds some 20,000 cards (see the module's note on its weight).

    >>> from pancli.cards import Rank
    >>> card(Card(Rank.FIVE, Suit.SPADES)), card(Card(Rank.TEN, Suit.HEARTS))
    ('<i>5 \u2660</i>', '<i class="r t">10 \u2665</i>')
    """
    rank = svg.rank_text(c.rank)
    cls = " ".join(k for k, on in (("r", c.suit in (Suit.HEARTS, Suit.DIAMONDS)), ("t", len(rank) > 1)) if on)
    attr = f' class="{cls}"' if cls else ""
    return f"<i{attr}>{rank} {svg.SYMBOL[c.suit]}</i>"


_GIVEN: Final = {StakeFrom.RECORD: "", StakeFrom.OPTION: ", --stake", StakeFrom.DEFAULT: ", --default-stake"}
"""How a hand's ledger heading names what set its stake."""

_CARD_HTML: Final = {c: card(c) for c in ALL_CARDS}
"""Each card's HTML (:func:`card`), made once at import (52 short strings)."""


class _Markup(Spelling):
    """An action's cards drawn (:func:`card`), a meld's as one group, names escaped."""

    __slots__ = ()

    def card(self, c: Card) -> str:
        return _CARD_HTML[c]

    def cards(self, cards: tuple[Card, ...] | list[Card]) -> str:
        return "".join(map(_CARD_HTML.__getitem__, cards))

    def meld(self, cards: tuple[Card, ...] | list[Card]) -> str:
        return f'<span class="meld">{self.cards(cards)}</span>'

    def name(self, name: str) -> str:
        return escape(name)

    def player(self, name: str) -> str:
        return f"<b>{escape(name)}</b>"


_MARKUP: Final = _Markup()


def _row(cls: str, line: int, play: str, paid: str, note: str) -> str:
    """One row of the timeline: line number, play, payments (and rulings), comments. Empty
    cells at the end of a row are left out (most rows have neither payment nor comment)."""
    tr = f'<tr class="{cls}">' if cls else "<tr>"
    if note:
        return f'{tr}<td>{line}</td><td>{play}</td><td class="paid">{paid}</td><td class="note">{note}</td></tr>'
    if paid:
        return f'{tr}<td>{line}</td><td>{play}</td><td class="paid">{paid}</td></tr>'
    return f"{tr}<td>{line}</td><td>{play}</td></tr>"


def _units_cell(units: int) -> str:
    cls = "pos" if units > 0 else "neg" if units < 0 else ""
    return f'<td class="num {cls}">{signed(units)}</td>'


def _note_text(notes: Notes | None) -> str:
    if notes is None:
        return ""
    texts: list[str] = [*notes.before, *notes.after]
    for _, comments in notes.actions:
        texts.extend(comments)
    if notes.eol:
        texts.append(notes.eol)
    return "<br>".join(
        f'<span class="review">{escape(shown)}</span>' if _reviewers(t) else escape(shown)
        for t in texts
        if (shown := comment_text(t))
    )


def _reviewers(comment: str, glyph: str | None = None) -> bool:
    """Whether ``comment`` is ``pan review``'s own (``{review ...}``), and with ``glyph``, whether the
    glyph before it is the reviewer's (``{review ?: ...}``, not ``{review (?): ...}``)."""
    if not comment.startswith("{review"):
        return False
    return glyph is None or (bool(glyph) and comment.startswith(f"{{review {glyph}:"))


_PAYS_CLAIM: Final = re.compile(r"\[%pays\s+([0-9]+)\]")


def comment_text(comment: str) -> str:
    """A record's comment as a reader of the page wants it: without its ``;`` or ``{ }`` marks,
    and a ``[%pays N]`` claim in words.

    >>> comment_text("; goes on top"), comment_text("{[%pays 4]}"), comment_text("{ kings mix suits }")
    ('goes on top', 'claimed: 4 from each opponent', 'kings mix suits')
    """
    text = comment.strip()
    if text[:1] == ";":
        text = text[1:]
    elif text[:1] == "{" and text[-1:] == "}":
        text = text[1:-1]
    return _PAYS_CLAIM.sub(lambda m: f"claimed: {m.group(1)} from each opponent", text).strip()


def paragraphs(comments: Sequence[str]) -> list[str]:
    """Comment lines as the page's paragraphs: a run of ``;`` lines is one comment written over
    several lines (one paragraph); a ``{ }`` comment is a paragraph of its own.

    >>> paragraphs(["; The hand as the table scored it:", "; the referee disagrees.", "{ a note }"])
    ['The hand as the table scored it: the referee disagrees.', 'a note']
    """
    out: list[str] = []
    joined = False
    for comment in comments:
        text = comment_text(comment)
        if not text:
            continue
        line = comment.strip()[:1] == ";"
        if line and joined:
            out[-1] += " " + text
        else:
            out.append(text)
        joined = line
    return out


def _play_items(hand: RecordHand, script: HandScript) -> Iterable[tuple[int, PlayItem, Notes | None]]:
    """(line, item, notes) of each play line of the hand, in record order."""
    layout = hand.layout
    if layout is not None:
        for i, item in enumerate(layout.lines):
            yield item.line, item, layout.notes.get(i)
        return
    for d in script.deals:
        yield d.line, d, None
    if script.upcard is not None:
        yield script.upcard_line, UpLine(script.upcard, script.upcard_line, 1), None
    for ev in script.events:
        yield ev.line, ev, None


def bars(values: Mapping[str, int]) -> str:
    """A small horizontal bar chart of signed values (an SVG): bars right of the axis for
    winners, left for losers, each labelled with its name and value (no colour needed).

    >>> chart = bars({"Ana": 8, "<b>": -4})
    >>> chart.count("<rect"), "&lt;b&gt;" in chart, ">+8<" in chart
    (2, True, True)
    """
    if not values:
        return ""
    # the labels in a monospace font, a cell 7.5 px wide (monospace glyphs are 0.6 em: 7.2 px at
    # 12 px), so the widest name fits its room: a proportional "M" or "W" overran it, cut at x=0
    label_w = max(cell_width(p) for p in values) * 7.5 + 10
    half = 110.0
    top = max((abs(v) for v in values.values()), default=0) or 1
    row_h = 20
    parts = []
    axis = label_w + half
    for i, (p, v) in enumerate(values.items()):
        y = i * row_h + 4
        w = abs(v) / top * (half - 30)
        x = axis if v >= 0 else axis - w
        fill = "#2e7d32" if v > 0 else "#c62828"
        parts.append(
            f'<text x="{label_w - 6:.0f}" y="{y + 12}" text-anchor="end" font-size="12" font-family="monospace">'
            f"{escape(p)}</text>"
        )
        if v:
            parts.append(f'<rect x="{x:.1f}" y="{y}" width="{max(w, 1):.1f}" height="14" fill="{fill}"/>')
        tx = axis + w + 4 if v >= 0 else axis - w - 4
        anchor = "start" if v >= 0 else "end"
        parts.append(f'<text x="{tx:.1f}" y="{y + 12}" text-anchor="{anchor}" font-size="11">{signed(v)}</text>')
    height = len(values) * row_h + 8
    width = label_w + 2 * half
    parts.append(f'<line x1="{axis:.1f}" y1="0" x2="{axis:.1f}" y2="{height}" stroke="#555"/>')
    return (
        f'<svg class="bars" width="{width:.0f}" height="{height}" viewBox="0 0 {width:.0f} {height}" role="img" '
        f'aria-label="bar chart of the values">{"".join(parts)}</svg>'
    )


def _totals_table(sitting: Sitting) -> str:
    money = sitting.has_money
    unit = "units" if sitting.zero_sum else "points"
    head = f'<tr><th>player</th><th class="num">hands</th><th class="num">{unit}</th>'
    if money:
        head += '<th class="num">money</th>'
    head += '<th class="num">disputed</th></tr>'
    rows = []
    totals = sitting.totals()
    for t in totals:
        row = f"<td>{escape(t.player)}</td><td class='num'>{t.hands}</td>{_units_cell(t.units)}"
        if money:
            row += f'<td class="num">{escape(money_text(t.money or Decimal(0)))}</td>'
        row += f'<td class="num">{t.disputed}</td>'
        rows.append(f"<tr>{row}</tr>")
    # a sitting with nothing counted (every hand disputed) has no totals to draw: all would be 0
    chart = bars({t.player: t.units for t in totals}) if sitting.counted else ""
    return (
        f'<div class="ledger"><div class="wrap"><table><thead>{head}</thead><tbody>{"".join(rows)}</tbody></table>'
        f"</div>{chart}</div>"
    )


class HtmlTee:
    """``pan replay --html``: every hand goes to the usual sink and to the page."""

    def __init__(self, inner: HandSink, report: HtmlReport) -> None:
        self.inner = inner
        self.report = report
        self.wants_steps = inner.wants_steps

    def hand(self, report: HandReport) -> None:
        self.inner.hand(report)
        self.report.hand(report)

    def malformed(self, hand: RecordHand) -> None:
        self.inner.malformed(hand)
        self.report.malformed(hand)

    def close(self, tally: Tally, stopped: bool) -> None:
        self.report.close(tally_text(tally) + ("; stopped at the first violation (--strict)" if stopped else ""))
        self.inner.close(tally, stopped)
