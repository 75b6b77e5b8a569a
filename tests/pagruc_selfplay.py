"""PAGRUC records from self-play, and mutations of them, for tests that compare outputs.

:func:`selfplay_hand` plays one legal hand (draws, takes of one or several discards, new melds,
lay-offs on any meld, turn-overs of the pile, going out) with a seeded random policy and writes
it as ``.pan`` text, with ``[%pays N]`` and ``[Ledger]`` claims (some of them wrong);
:func:`mutated` changes one line or token of such a record so that it breaks a rule (or
becomes unreadable). The meld engine (:mod:`pancli.pagruc.melds`) decides what is a meld; the
referee is never asked.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

from pancli.cards import Card
from pancli.melds import MeldError
from pancli.pagruc.melds import PagrucMeld, card_points, judge, lay_off
from pancli.pagruc.pack import pack_for
from pancli.pagruc.rules import PagrucRules

NAMES = ("Ana", "Ben", "Cruz", "Dee", "Eve", "Fay", "Gus", "Hal", "Ida")


def _melds_in(hand: list[Card], pack_melds: object, rng: random.Random) -> list[PagrucMeld]:
    """Some melds the cards of ``hand`` can form (sets of one rank, runs of one suit)."""
    found: list[PagrucMeld] = []
    by_rank: dict[object, list[Card]] = {}
    for c in hand:
        by_rank.setdefault(c.rank, []).append(c)
    for group in by_rank.values():
        if len(group) >= 3:
            found.append(judge(group[: rng.randint(3, len(group))], pack_melds).meld)  # type: ignore[arg-type]
    for size in (5, 4, 3):
        for combo in combinations(sorted(set(hand), key=lambda c: c.index), size):
            v = judge(combo, pack_melds)  # type: ignore[arg-type]
            if v.meld is not None and len({c.rank for c in combo}) == size:
                found.append(v.meld)
    return [m for m in found if m is not None]


def selfplay_hand(players: tuple[str, ...], rng: random.Random, *, packs: int | None = None) -> str:
    """One PAGRUC hand played by a random policy, as the text of a record."""
    pack = pack_for(len(players), packs)
    cards = pack.full()
    rng.shuffle(cards)
    hands = {p: [cards.pop() for _ in range(7)] for p in players}
    pile = [cards.pop()]
    stock = cards
    table: list[tuple[str, int, PagrucMeld]] = []
    mine: dict[str, int] = dict.fromkeys(players, 0)
    laid: dict[str, int] = dict.fromkeys(players, 0)
    lines: list[str] = [f"deal {p} {' '.join(map(str, hands[p]))}" for p in players]
    lines.append(f"up {pile[0]}")
    winner = None
    for _ in range(rng.randint(20, 160)):
        for p in players:
            hand = hands[p]
            acts: list[str] = []
            if not stock:
                if len(pile) < 2:
                    break
                stock = pile[:-1]
                rng.shuffle(stock)  # the order the turned-over stock is drawn in is the record's
                pile = pile[-1:]
                lines.append("reshuffle")
            roll = rng.random()
            if mine[p] and len(pile) >= 2 and roll < 0.15:
                n = rng.randint(2, min(4, len(pile)))
                taken = pile[-n:]
                del pile[-n:]
                hand.extend(taken)
                acts.append(f"take {n}" if rng.random() < 0.5 else f"take {' '.join(map(str, taken[::-1]))}")
            elif pile and roll < 0.35:
                c = pile.pop()
                hand.append(c)
                acts.append(f"take {c}")
            else:
                c = stock.pop()
                hand.append(c)
                acts.append(f"draw {c}")
            for meld in _melds_in(hand, pack, rng):
                need = Counter(meld.cards)
                if len(hand) - len(meld.cards) < 1 or need - Counter(hand) or rng.random() < 0.2:
                    continue
                for c in meld.cards:
                    hand.remove(c)
                mine[p] += 1
                laid[p] += sum(card_points(c, meld.where) for c in meld.cards)
                table.append((p, mine[p], meld))
                claim = ""
                if rng.random() < 0.3:
                    claim = f" {{[%pays {meld.points + (rng.random() < 0.2)}]}}"
                acts.append(f"meld [{' '.join(map(str, meld.cards))}]{claim}")
            if mine[p]:
                for c in list(hand):
                    if len(hand) < 2 or rng.random() < 0.3:
                        continue
                    for i, (owner, number, meld) in enumerate(table):
                        try:
                            grown = lay_off(meld, (c,), pack)
                        except MeldError:
                            continue
                        table[i] = (owner, number, grown)
                        hand.remove(c)
                        laid[p] += card_points(c, grown.where)
                        acts.append(f"add {c} to #{number}" if owner == p else f"lay {c} on {owner}#{number}")
                        break
            c = hand.pop(rng.randrange(len(hand)))
            pile.append(c)
            acts.append(f"discard {c}")
            if not hand and rng.random() < 0.3:
                acts.append("out")
            lines.append(f"{p} {', '.join(acts)}")
            if not hand:
                winner = p
                break
        if winner is not None or (not stock and len(pile) < 2):
            break
    tags = ['[Game "pagruc"]', f'[Players "{" ".join(players)}"]']
    if packs is not None:
        tags.insert(1, f'[Packs "{packs}"]')
    if winner is not None and rng.random() < 0.6:
        scores = {p: laid[p] + sum(s.points for s in PagrucRules().in_hand(hands[p])) for p in players}
        ledger = ", ".join(f"{p} {scores[p] + (rng.random() < 0.1):+d}" for p in players)
        tags.append(f'[Ledger "{ledger}"]')
    return "\n".join([*tags, "", *lines]) + "\n"


def mutated(text: str, rng: random.Random) -> str:
    """``text`` with one change: a line dropped, doubled or moved, a card, a number or a name
    changed, a tag dropped or changed."""
    lines = text.splitlines()
    body = [i for i, line in enumerate(lines) if line and not line.startswith("[")]
    kind = rng.randrange(8)
    i = rng.choice(body)
    if kind == 0 and lines[i].startswith("deal") and rng.random() < 0.5:
        lines[i] = lines[i].rsplit(" ", 1)[0]  # a card short
    elif kind == 0:
        del lines[i]
    elif kind == 1:
        lines.insert(i, lines[i])
    elif kind == 2 and i + 1 < len(lines):
        lines[i], lines[i + 1] = lines[i + 1], lines[i]
    elif kind == 3:
        words = lines[i].split(" ")
        j = rng.randrange(len(words))
        ranks, suits = "A23456789TJQK", "shdc"
        if len(words[j].strip("[],")) == 2:
            w = words[j]
            core = w.strip("[],")
            new = rng.choice(ranks) + rng.choice(suits) if rng.random() < 0.7 else core[0] + rng.choice(suits)
            words[j] = w.replace(core, new)
        lines[i] = " ".join(words)
    elif kind == 4:
        lines[i] = lines[i].replace("#1", "#2").replace("take 2", "take 5").replace("#2", "#3")
    elif kind == 5:
        words = lines[i].split(" ")
        words[0] = rng.choice(NAMES[:4]) if words[0] not in ("deal", "up", "reshuffle") else words[0]
        if words[0] == "deal" and len(words) > 1:
            words[1] = rng.choice(NAMES[:4])
        lines[i] = " ".join(words)
    elif kind == 6:
        lines.insert(i, "reshuffle")
    else:
        tags = [k for k, line in enumerate(lines) if line.startswith("[")]
        k = rng.choice(tags)
        if lines[k].startswith("[Players"):
            names = lines[k][10:-2].split()
            names = names[:-1] if rng.random() < 0.5 else [*names, names[0]]
            lines[k] = f'[Players "{" ".join(names)}"]'
        elif lines[k].startswith("[Game"):
            lines.insert(k + 1, '[Packs "1"]')
        else:
            del lines[k]
    return "\n".join(lines) + "\n"


def corpus(seed: int, hands: int) -> list[str]:
    """Records of ``hands`` self-played hands each of 2 to 9 players (one pack or two), and one
    mutation of each: a list of record texts, one hand each."""
    rng = random.Random(seed)
    out: list[str] = []
    for _ in range(hands):
        n = rng.randint(2, 9)
        players = tuple(rng.sample(NAMES, n))
        packs = rng.choice([None, None, 1, 2]) if n <= 5 else rng.choice([None, 2])
        text = selfplay_hand(players, rng, packs=packs)
        out.append(text)
        out.append(mutated(text, rng))
    return out
