; A six-handed game under the Oakland house rules (oakland.toml, next to this record).
[Event "Oakland game"]
[Date "2026.12.10"]
[Rules "oakland.toml"]
[Stake "0.10"]
[Players "Ana Ben Cruz Dee Eli Fay"]
[Ledger "Ana +27, Ben -15, Cruz -3, Dee -7, Eli -1, Fay -1"]

deal Ana 5h 5c 5d 5h 2s 3s Jc Qc 6d 7d
deal Ben Kh Kh 2h 3h 4h 6c 6c Js Qd 7s
deal Cruz 3d 3d 3d 4s 4s Ah 2d Jh 6h Kc
deal Dee Qs Qs Qh Jd 7c 7c 4c 2c Ad 6s
deal Eli Ac 3c 5s 7h Jd Kd Qc 2h 4d 6s
deal Fay As 2c 4h 6d Js Kc 3h 5c 7s Qd
up 2h
Ana stay
Ben stay
Cruz stay
Dee stay
Eli top ; a forfeit of 1 in this house
Fay top
Ana draw 5s, meld [5h 5c 5d 5s] {[%pays 2]}, discard Jc
Ben draw Kh, meld [Kh Kh Kh] {[%pays 1]}, meld [2h 3h 4h], discard Qd
Cruz draw 3d, meld [3d 3d 3d 3d] ! {[%pays 3]}, discard Kc
Dee draw Qs, meld [Qs Qs Qs] {[%pays 2]}, discard Jd
Ana draw As, meld [As 2s 3s] {[%pays 2]}, add 5h to #1 {[%pays 1]} { house rule: a different-suits set takes any suit }, discard Qc
Ben draw 6c, meld [6c 6c 6c] {[%pays 1]}, discard Js
Cruz draw 4s, meld [4s 4s 4s] {[%pays 2]}, discard Jh
Dee draw 7c, meld [7c 7c 7c] {[%pays 2]}, discard 6s
Ana draw Jd, meld [6d 7d Jd], out ! ; bonus 2 + melds 3 + 2 + 0 from each, and two forfeits of 1
