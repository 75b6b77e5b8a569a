; Three hands at a five-handed cardroom table: a hand won on the tops alone (T4), a void
; hand, and a hand where Dee borrows a king from her own set (M6).
[Event "Tuesday pan"]
[Site "Gardena"]
[Date "2026.12.08"]
[Round "1"]
[Rules "cardroom"]
[Stake "1"]
[Players "Ana Ben Cruz Dee Eli"]
[Ledger "Ana -1, Ben -1, Cruz +4, Dee -1, Eli -1"]

Ana top
Ben top
Cruz stay
Dee top
Eli top ; everybody else folds: Cruz takes the four tops and no card is played (T4)

[Event "Tuesday pan"]
[Round "2"]
[Rules "cardroom"]
[Stake "1"]
[Players "Cruz Dee Eli Ana Ben"]
[Ledger "Cruz 0, Dee 0, Eli 0, Ana 0, Ben 0"]

Cruz top
Dee top
Eli top
Ana top
Ben top { all five on top: the hand is void and every top goes back (T4) }

; No winner, so the deal passes one seat to the right.
[Event "Tuesday pan"]
[Round "3"]
[Rules "cardroom"]
[Stake "1"]
[Players "Dee Eli Ana Ben Cruz"]
[Ledger "Dee -19, Eli -1, Ana +40, Ben -1, Cruz -19"]

deal Dee Kd Kh Kc Ks Js 2h 4c 6d 3c 5d
deal Eli 7c Qd 2s 4h 6s Jc 3d 5h Ah Kc
deal Ana 3h 3h 3h 5s 5s 7d Jd Qd 2c 4d
deal Ben 6c Qh 2d 4s Ac Jh 7s 6h 3s Kh
deal Cruz Ac Ac 2c 2c 3c 7h 7h Qc Jh 6s
up 5c
Dee stay
Eli top
Ana stay
Ben top
Cruz stay
Dee take 5c, meld [3c 4c 5c], meld [Kd Kh Kc Ks], discard 2h ; nothing paid yet
Ana draw 3h, meld [3h 3h 3h 3h] ! {[%pays 3]}, discard 2c
Cruz draw Ac, meld [Ac Ac Ac] {[%pays 1]}, discard 6s
Dee draw Qs, borrow Ks from #2, meld [Js Qs Ks] !! {[%pays 2]}, discard 6d { the kings still make a set }
Ana draw 5s, meld [5s 5s 5s] ! {[%pays 4]}, discard 4d
Cruz draw 2c, meld [2c 2c 2c] {[%pays 1]}, discard Jh
Dee draw 5d, discard 5d
Ana draw Kd, meld [7d Jd Qd Kd] {[%pays 2]}, out !! ; bonus 2 + melds 3 + 4 + 2 from each, and the five tops
