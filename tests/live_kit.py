"""A night at the table for the tests of ``pan live``: three hands of four players, as the
scorer enters them, with one refused line (and its correction) and one foul meld made good.

Hand 1 is the tutorial's (Ana goes out); hand 2 (Ana first, S3) has Cruz lay a foul meld and
discard; after Dee's turn Dee calls it and Cruz makes it good on the next line (I2); hand 3 (Cruz
first) is the tutorial's hand dealt to other seats.
"""

from __future__ import annotations

PLAYERS = "Ana Ben Cruz Dee"

HAND_1 = """\
deal Ana 5s 5s 3h 4h Kd Kh Kc Jc Qc 2d
deal Ben 7h 7h 2c 2c 4d 6s Qd Jh 3c Ac
deal Cruz 6d 6d 6d As 2s Qs Qs 4c 5d Kc
deal Dee 3s 3s Js Qh Kh 5c 5h 6c 2h Ad
up 6h
Ana stay
Ben stay
Cruz stay
Dee stay
1. Ana draw 5s, meld [5s 5s 5s], discard 2d
2. Ben draw 7h, meld [7h 7h 7h], discard Jh
3. Cruz draw 6d, meld [6d 6d 6d 6d], discard 4c
4. Dee draw Kc, discard Kc
5. Ana take Kc, meld [Jc Qc Kc], discard 3h
6. Ben draw 2c, meld [2c 2c 2c], discard 6s
7. Cruz draw Qs, meld [Qs Qs Qs], discard 5d
8. Dee draw 3s, meld [3s 3s 3s], discard Ad
9. Ana draw 5s, add 5s to #1, discard 4h
10. Ben draw 2c, meld [Ac 2c 3c], discard Qd
11. Cruz draw 3s, meld [As 2s 3s], discard Kc
12. Dee draw 5d, meld [5c 5h 5d], discard Js
13. Ana draw Kd, meld [Kd Kh Kc Kd], out
"""

REFUSED = "4. Dee draw Kc, discard 5c"
"""Entered instead of hand 1's fourth turn: Dee keeps the card he did not use (P2)."""

HAND_2 = """\
deal Ana 5s 5s 3h 4h Kd Kh Kc Jc Qc 2d
deal Ben 7s 2c Qd 6c 4s Jh 3d Ac 6d 2s
deal Cruz 7c 7c 7c Ah 2h 6s Qs Qs 4d Jd
deal Dee 3s 3s Js Qh Kh 5d 5c 6c 2h Ad
up 6h
Ana stay
Ben top ; nothing to build on
Cruz stay
Dee stay
1. Ana draw 5s, meld [5s 5s 5s], discard 2d
2. Cruz draw 7c, meld [7c 7c 7c 4d] ??, discard Jd
3. Dee draw Kc, discard Kc
Dee call Cruz #1 ; "four sevens and a four?"
Cruz mend #1 [7c 7c 7c 7c]
4. Ana draw 7c, discard 7c
Dee force Cruz
5. Cruz take 7c, add 7c to #1, discard 4d
6. Dee draw 5h, meld [5h 5d 5c], discard Ad
7. Ana draw 2h, meld [2h 3h 4h], discard Jc
8. Cruz draw Qs, meld [Qs Qs Qs], discard 6s
9. Dee draw 3s, meld [3s 3s 3s], discard 6c
10. Ana draw Ah, add Ah to #2, meld [Kd Kh Kc], discard Qc
11. Cruz draw 3h, meld [Ah 2h 3h], out
"""

_SEATS_3 = {"Ana": "Cruz", "Ben": "Dee", "Cruz": "Ana", "Dee": "Ben"}


def _reseat(text: str, seats: dict[str, str]) -> str:
    out = []
    for line in text.splitlines():
        out.append(" ".join(seats.get(w, w) for w in line.split(" ")))
    return "\n".join(out) + "\n"


HAND_3 = _reseat(HAND_1, _SEATS_3)
"""Hand 1 with Cruz in Ana's seat (first: he won hand 2), and so on round the table."""


def night_lines() -> list[str]:
    """The lines the scorer enters, in order: the refused line right before its correction."""
    h1 = HAND_1.splitlines()
    i = h1.index("4. Dee draw Kc, discard Kc")
    return [*h1[:i], REFUSED, *h1[i:], *HAND_2.splitlines(), *HAND_3.splitlines()]


def accepted_lines() -> list[str]:
    """The lines that are written (every line but the refused one)."""
    return [x for x in night_lines() if x != REFUSED]
