"""pancli.render.svg: pictures of cards, melds, hands and table positions (well-formed SVG, readable
without colour, selectable text, everything from a record escaped)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from pancli.cards import ALL_CARDS, PAN_CARDS, Card, Rank, Suit
from pancli.notation.fast import fast_cards
from pancli.render import svg

NS = "{http://www.w3.org/2000/svg}"


def _parse(doc: str) -> ET.Element:
    return ET.fromstring(doc)


def _cards_in(root: ET.Element) -> list[str]:
    return [g.get("data-card", "") for g in root.iter(f"{NS}g") if g.get("class") == "card"]


def test_every_card_is_well_formed_with_its_name_as_text_and_title() -> None:
    for c in ALL_CARDS:
        root = _parse(svg.card(c).document(str(c)))
        texts = [t.text for t in root.iter(f"{NS}text")]
        rank = "10" if c.rank is Rank.TEN else c.rank.symbol
        assert texts == [rank, svg.SYMBOL[c.suit]], c
        titles = [t.text for t in root.iter(f"{NS}title")]
        assert str(c) in titles


def test_suits_differ_by_shape_not_only_by_colour() -> None:
    """Without colour a card still shows its suit: each suit has its own shape and symbol."""
    shapes = {s: svg.card(Card(Rank.FIVE, s)).body for s in Suit}
    uses = {s: body.split('href="#pan-pip-')[1].split('"')[0] for s, body in shapes.items()}
    assert len(set(uses.values())) == 4
    assert len(set(svg.SYMBOL.values())) == 4
    for s in Suit:  # every referenced shape is defined once
        assert svg.DEFS.count(f'id="pan-{s.value}"') == 1
        assert svg.DEFS.count(f'id="pan-pip-{s.value}" href="#pan-{s.value}"') == 1


def test_names_and_captions_from_a_record_are_escaped() -> None:
    five = Card(Rank.FIVE, Suit.SPADES)
    view = svg.TableView(
        (svg.SeatView('<script>alert("x")</script>', ((five,) * 3,), 7, to_play=True),), five, 3, 100, "a & b"
    )
    doc = svg.table(view).document("<title>")
    root = _parse(doc)  # well-formed: nothing unescaped
    assert "<script>" not in doc
    texts = "".join(t.text or "" for t in root.iter(f"{NS}text"))
    assert '<script>alert("x")</script>' in texts and "a & b" in texts


def test_a_meld_fans_its_cards_and_a_hand_marks_the_drawn_card() -> None:
    cards = fast_cards("5s 5s 5s 5s")
    root = _parse(svg.meld(cards, "#1 C2 4").document("meld"))
    assert _cards_in(root) == ["5s"] * 4
    d = svg.hand(fast_cards("Kd 3h 2c"), [fast_cards("As 2s 3s")], fast_cards("7d")[0])
    root = _parse(d.document("hand"))
    assert _cards_in(root) == ["As", "2s", "3s", "2c", "3h", "Kd", "7d"]  # melds, the hand sorted, the draw
    assert d.body.count('class="mark"') == 1


def test_a_record_position_draws_every_seat_the_stock_and_the_discard_top() -> None:
    from pancli.records import read_hands
    from pancli.referee.position import position_at

    with open("samples/friday-hoyle.pan", encoding="utf-8") as f:
        hand = list(read_hands(f, "samples/friday-hoyle.pan", None))[1]
    assert hand.script is not None
    pos = position_at(hand.script, 65, "Ana")
    root = _parse(svg.table(svg.position_view(pos, "line 65")).document("position"))
    texts = [t.text for t in root.iter(f"{NS}text")]
    for p in hand.script.players:
        assert any(t and t.endswith(p) for t in texts), p
    assert str(pos.stock) in texts and "on top" in texts
    shown = _cards_in(root)
    assert shown[0] == str(pos.discards[-1])
    assert sorted(shown).count("5c") == 3  # Ana's two 5c and the 5c she took, outlined


def test_a_card_stays_readable_small() -> None:
    """The corner index is at least 12 units high on a 40-unit card: 9 px when drawn 30 px wide."""
    import re

    sizes = {m[0]: int(m[1]) for m in re.findall(r"\.card \.(rank|pip)\{font-size:(\d+)px", svg.STYLE)}
    assert sizes.keys() == {"rank", "pip"}
    assert min(sizes.values()) * 30 / svg.CARD_W >= 9
    for c in PAN_CARDS:
        assert 'class="rank ' in svg.card(c).body


def test_pan_analyze_svg_draws_the_hand_and_its_best_arrangement(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from pancli.cli import cli

    out = tmp_path / "hand.svg"
    r = CliRunner().invoke(cli, ["analyze", "5ss 3-4h Kdh 2h +5s", "--melds", "[As 2s 3s]", "--svg", str(out)])
    assert r.exit_code == 0, r.output
    root = _parse(out.read_text(encoding="utf-8"))
    texts = [t.text or "" for t in root.iter(f"{NS}text")]
    assert "meld C2 4" in texts and "left in hand" in texts and "#1 on the table" in texts
    assert any(t.startswith("best arrangement: 6 cards down, 4 from each opponent") for t in texts)
    shown = _cards_in(root)
    assert shown[:8] == ["2h", "3h", "4h", "5s", "5s", "Kh", "Kd", "5s"]  # the hand sorted, then the draw
    assert sorted(shown).count("5s") == 6  # two held and the draw, then the meld of three


def test_pan_analyze_at_a_record_line_svg_draws_the_table(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from pancli.cli import cli

    out = tmp_path / "table.svg"
    r = CliRunner().invoke(cli, ["analyze", "samples/friday-hoyle.pan", "--at", "65", "--svg", str(out)])
    assert r.exit_code == 0, r.output
    root = _parse(out.read_text(encoding="utf-8"))
    texts = [t.text or "" for t in root.iter(f"{NS}text")]
    assert "\u25b6 Ana" in texts and "263" in texts
    r = CliRunner().invoke(cli, ["analyze", "-", "--svg", str(out)], input="5sss 3-4h Kdhc 2c 7d\n")
    assert r.exit_code == 2 and "--svg draws one hand" in r.output
    r = CliRunner().invoke(cli, ["analyze", "5sss 3-4h Kdhc 2c 7d", "--svg", str(tmp_path / "none" / "x.svg")])
    assert r.exit_code == 2 and "no such folder" in r.output
