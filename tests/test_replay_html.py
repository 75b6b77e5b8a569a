"""``pan replay FILE --html OUT.html``: a self-contained page (no script, nothing fetched),
every hand's timeline with card pictures, payments linked to their rules, the violation and
its ruling, wrong claims, ledgers, the sitting's totals; everything from the record escaped."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

from click.testing import CliRunner

from pancli.cli import cli


class _Page(HTMLParser):
    """The tags, ids, links and text of a page."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data: str) -> None:
        self.text.append(data)

    def ids(self) -> set[str]:
        return {a["id"] or "" for _, a in self.tags if "id" in a}

    def links(self) -> list[str]:
        return [a["href"] or "" for t, a in self.tags if t == "a" and "href" in a]


def _cards(html: str) -> list[str]:
    """The text of each card drawn in ``html`` (``5 \u2660``), in order."""
    return re.findall(r'<i(?: class="[a-z ]+")?>([^<]+)</i>', html)


def _report(tmp_path: Path, *files: str, args: tuple[str, ...] = ()) -> tuple[int, str, str, _Page]:
    out = tmp_path / "r.html"
    r = CliRunner().invoke(cli, ["replay", *files, "--html", str(out), *args])
    text = out.read_text(encoding="utf-8")
    page = _Page()
    page.feed(text)
    return r.exit_code, r.stdout, text, page


def test_the_page_is_self_contained_with_no_script_and_nothing_fetched(tmp_path: Path) -> None:
    code, _, text, page = _report(tmp_path, "samples/friday-hoyle.pan")
    assert code == 0
    tags = {t for t, _ in page.tags}
    assert "script" not in tags and "link" not in tags and "img" not in tags and "iframe" not in tags
    assert not re.search(r"(src|href)=\"(https?:)?//", text)
    assert not re.search(r"url\((?!#)", text)  # CSS refers only to the page's own patterns
    for link in page.links():  # every link is to a place in the page, and the place exists
        assert link.startswith("#") and link[1:] in page.ids(), link
    assert '<meta name="viewport"' in text and "@media print" in text


def test_every_play_line_has_its_cards_drawn_and_every_payment_its_rule(tmp_path: Path) -> None:
    _, _, text, _ = _report(tmp_path, "samples/friday-hoyle.pan")
    assert _cards(text).count("5 \u2660") >= 5  # dealt 5s 5s, drawn, melded three
    replay = json.loads(CliRunner().invoke(cli, ["replay", "--json", "samples/friday-hoyle.pan"]).stdout)
    rules = {p["rule"] for h in replay for p in h["payments"]}
    for rule in rules:
        assert f'href="#rule-{rule}"' in text and f'id="rule-{rule}"' in text
    assert text.count('class="hand"') == 2 and text.count("ledger-table") == 2
    assert "Eli pays Ana <strong>7.00</strong>" in text  # the settling payments, as pan settle finds them


def test_the_violation_is_highlighted_with_its_ruling_and_later_lines_dimmed(tmp_path: Path) -> None:
    code, out, text, _ = _report(tmp_path, "samples/illegal-P3-dead-discard.pan")
    assert code == 1 and "VIOLATION" in out  # the usual output still goes to standard output
    assert text.count('<tr class="violation">') == 1 and '<tr class="after">' in text
    assert 'class="violation-box"' in text and "ruling:" in text and 'href="#rule-P3"' in text
    assert "disputed hands" in text


def test_wrong_claims_and_malformed_hands_are_shown(tmp_path: Path) -> None:
    _, _, text, _ = _report(
        tmp_path, "samples/illegal-claim-wrong-pays.pan", "samples/malformed-record.pan", "samples/pagruc-illegal.pan"
    )
    assert 'class="claim-box"' in text and "wrong claim" in text
    assert "<mark>" in text and 'class="badge bad">malformed' in text
    assert "hand scores (G7)" in text


def test_record_text_is_escaped_a_script_in_a_comment_stays_text(tmp_path: Path) -> None:
    record = Path("samples/friday-hoyle.pan").read_text(encoding="utf-8")
    hostile = "<script>alert('pwned')</script>"
    record = record.replace('[Event "Friday game"]', f'[Event "</title>{hostile}"]', 1)
    record = record.replace("3. Dee draw Kc, discard Kc", f"3. Dee draw Kc, discard Kc {{ {hostile} }}", 1)
    record = record.replace("; Friday game at the club", f"; {hostile} <img src=x onerror=alert(1)>", 1)
    src = tmp_path / "hostile.pan"
    src.write_text(record, encoding="utf-8")
    code, _, text, page = _report(tmp_path, str(src))
    assert code == 0
    assert "<script" not in text.lower() and "<img" not in text.lower()
    assert sum(hostile in t for t in page.text) >= 3  # shown as text where it was written


def test_an_unwritable_page_is_a_clear_error_and_no_file(tmp_path: Path) -> None:
    out = tmp_path / "no-such-folder" / "r.html"
    r = CliRunner().invoke(cli, ["replay", "samples/friday-hoyle.pan", "--html", str(out)])
    assert r.exit_code == 2 and "Traceback" not in r.output
    assert not out.parent.exists()


def test_the_page_is_replaced_atomically_and_only_when_complete(tmp_path: Path) -> None:
    out = tmp_path / "r.html"
    out.write_text("old page", encoding="utf-8")
    r = CliRunner().invoke(cli, ["replay", "samples/friday-hoyle.pan", "--html", str(out)])
    assert r.exit_code == 0
    assert out.read_text(encoding="utf-8").rstrip().endswith("</html>")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.html"]


def test_a_card_is_one_element_with_its_rank_and_suit_as_text() -> None:
    """Light pages: each card is one element holding its rank and suit symbol (no picture of
    ten elements per card), red ink only for hearts and diamonds."""
    from pancli.cards import ALL_CARDS, Suit
    from pancli.render import svg
    from pancli.render.html import card

    for c in ALL_CARDS:
        html = card(c)
        assert _cards(html) == [f"{svg.rank_text(c.rank)} {svg.SYMBOL[c.suit]}"], html
        assert html.count("<") == 2
        assert ('class="r' in html) == (c.suit in (Suit.HEARTS, Suit.DIAMONDS))


def test_a_dealt_line_shows_every_card_dealt_in_order(tmp_path: Path) -> None:
    from pancli.notation.fast import fast_cards
    from pancli.render import svg

    _, _, text, _ = _report(tmp_path, "samples/friday-hoyle.pan")
    deal = next(
        line for line in Path("samples/friday-hoyle.pan").read_text().splitlines() if line.startswith("deal Ana")
    )
    dealt = fast_cards(deal.removeprefix("deal Ana "))
    assert dealt is not None
    expected = [f"{svg.rank_text(c.rank)} {svg.SYMBOL[c.suit]}" for c in dealt]
    row = next(r for r in text.split("<tr") if "deal <b>Ana</b>" in r)
    assert _cards(row) == expected and len(expected) == 10


def test_a_play_line_is_in_the_records_words(tmp_path: Path) -> None:
    # the page writes each line as the record writer does (a count, a call, a force, a decision,
    # a reshuffle), its cards drawn: "Dee count Eli 10", never words of its own ("counts Eli: 10 in hand")
    from pancli.notation.record_writer import item_text
    from pancli.records import read_hands

    names = ("samples/irregular-I1-counted-in-play.pan", "samples/illegal-P10-early-reshuffle.pan",
             "samples/friday-hoyle.pan", "samples/illegal-I2-foul-meld-found.pan")  # fmt: skip
    for name in names:
        _, _, text, _ = _report(tmp_path, name)
        cells = dict(re.findall(r"<tr[^>]*><td>(\d+)</td><td>(.*?)</td>", text))
        seen = 0
        with open(name, encoding="utf-8") as f:
            for hand in read_hands(f, name, None):
                assert hand.layout is not None
                for item in hand.layout.lines:
                    if getattr(item, "cards", None) or getattr(item, "card", None) or type(item).__name__ == "Turn":
                        continue  # cards are pictures on the page
                    shown = re.sub(r"<[^>]+>", " ", cells[str(item.line)]).split()
                    assert shown == item_text(item).split(), (name, item.line)
                    seen += 1
        assert seen, name


def test_the_page_stays_light_to_open_at_once(tmp_path: Path) -> None:
    """The browser's time to open a page grows with its markup (benchmarks/bench_html.py: a
    100-hand page of SVG cards, ~1,000 bytes a play line, took 5 s; of one-element cards 0.8 s).
    The samples' pages keep to a budget per timeline row, style sheet apart: now about 330 bytes
    and 25 tags (the 100-hand page 180 and 18); the 100-hand page of SVG cards had 1,000 and 52."""
    _, _, text, _ = _report(tmp_path, "samples/friday-hoyle.pan", "samples/cardroom-saturday.pan")
    body = text[text.index("</style>") :]
    rows = body.count("<tr")
    assert rows > 100
    assert len(body.encode()) / rows < 500, len(body.encode()) / rows
    assert body.count("<") / rows < 35, body.count("<") / rows
    assert "content-visibility:auto" in text  # hands off the screen are not laid out until seen


_SUIT = {"\u2660": "s", "\u2665": "h", "\u2666": "d", "\u2663": "c"}


def _acts(html: str) -> list[str]:
    """Each action's words on the page, its cards written as the record writes them."""
    html = re.sub(r'<i(?: class="[a-z ]+")?>(\w+) (.)</i>', lambda m: f" {m[1]}{_SUIT[m[2]]} ", html)
    html = re.sub(r'<span class="meld">([^<]*)</span>', r"[\1]", html)
    html = re.sub(r'<span class="glyph[^"]*">[^<]*</span>', "", html)
    acts = re.findall(r'<span class="act">([^<]*)</span>', html)
    return [" ".join(a.split()).replace("[ ", "[").replace(" ]", "]") for a in acts]


def test_the_page_writes_each_action_in_the_record_writers_words(tmp_path: Path) -> None:
    """One writer puts an action in words (``back #2``, not a page's own ``take back #2``)."""
    from pancli.model.actions import Turn
    from pancli.notation.record_writer import action_text
    from pancli.records import read_hands

    files = ["samples/irregular-I2-taken-back.pan", "samples/irregular-I2-mended-on-call.pan",
             "samples/cardroom-saturday.pan", "samples/friday-hoyle.pan"]  # fmt: skip
    _, _, html, _ = _report(tmp_path, *files)
    expected = []
    for name in files:
        with open(name, encoding="utf-8") as f:
            for hand in read_hands(f, name, None):
                assert hand.script is not None
                expected += [action_text(a) for e in hand.script.events if isinstance(e, Turn) for a in e.actions]
    acts = _acts(html)
    assert [a for a in acts if a in expected] == expected  # every action, in order, word for word
    assert any(a.startswith("back #") for a in expected) and "take back" not in html
    assert any(a.startswith(("split #", "mend #")) for a in expected)
