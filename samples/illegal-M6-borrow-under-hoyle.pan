; Dee borrows a king from her set, which only cardroom rules allow (M6: borrowing is off in hoyle).
[Event "Tuesday pan"]
[Rules "hoyle"]
[Players "Dee Eli Ana Ben Cruz"]

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
Dee take 5c, meld [3c 4c 5c], meld [Kd Kh Kc Ks], discard 2h
Ana draw 3h, meld [3h 3h 3h 3h] {[%pays 3]}, discard 2c
Cruz draw Ac, meld [Ac Ac Ac] {[%pays 1]}, discard 6s
Dee draw Qs, borrow Ks from #2, meld [Js Qs Ks] ?? {[%pays 2]}, discard 6d
