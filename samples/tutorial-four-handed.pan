; Tuesday at Ana's: four play hoyle Pan, written down as it was played, from the deal to
; Ana going out. The worked hand of the tutorial (docs/tutorial.md).
[Event "Tuesday at Ana's"]
[Date "2026.12.01"]
[Rules "hoyle"]
[Stake "0.25"]
[Players "Ana Ben Cruz Dee"]
[Ledger "Ana +30, Ben -14, Cruz -6, Dee -10"]

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
