; Eight at the table (hoyle): half of them go on top, and their forfeits ride on the hand.
[Event "Club night, table 2"]
[Date "2026.12.04"]
[Rules "hoyle"]
[Players "Ana Ben Cruz Dee Eli Fay Gil Hal"]
[Ledger "Ana +16, Ben -2, Cruz -2, Dee +8, Eli -2, Fay -12, Gil -2, Hal -4"]

deal Ana Jh Qh Kh 2c 2c 4s 6d 7s 5d Ac
deal Ben 3c 6h Jd 2h 4d Qs 7c Ks 5c 6s
deal Cruz Kd 2s 4h 6c Js Qd 3h 5h 7h Ac
deal Dee 5s 5s 6s 7s 3d 3d Qc Kc Ad 2d
deal Eli 4c 6h 7d Jc 2h Qs Kh 3s 5d Ah
deal Fay Ac Ac Ac 3c 4c Jh Jh 6d 7c Qd
deal Gil 2d 4d 6s Jc Kc Qh 3s 5c 7d Ad
deal Hal 7d 7d Jd Qs Ks Kd 2s 3s 4h 6c
up 4d
Ana stay
Ben top
Cruz top
Dee stay
Eli top
Fay stay
Gil top ; four forfeits of 2 wait for the winner (T2)
Hal stay
Ana draw 2c, meld [2c 2c 2c] {[%pays 1]}, meld [Jh Qh Kh] {[%pays 1]}, discard 4s
Dee draw 5s, meld [5s 5s 5s] !! {[%pays 4]}, discard Qc
Fay draw Ac, meld [Ac Ac Ac Ac] {[%pays 2]}, discard Qd
Hal draw 7d, meld [7d 7d 7d] {[%pays 2]}, discard 4h
Ana draw 7d, meld [5d 6d 7d], discard 7s
Dee draw 3d, meld [3d 3d 3d] {[%pays 2]}, discard Kc
Fay draw 5c, meld [3c 4c 5c], discard 6d
Hal draw As, meld [As 2s 3s] ! {[%pays 2]}, discard 6c
Ana draw 4d, add 4d to #3, discard Ac ; flat: ten cards melded, none in hand
Dee draw 3d, meld [Ad 2d 3d] {[%pays 1]}, discard 7s
Fay draw 6c, add 6c 7c to #2, discard Jh
Hal draw Jd, discard Kd ? { P9: Ana is flat and the Jd fits her diamonds, so Hal keeps it }
Ana draw 2c, add 2c to #1 {[%pays 1]}, out ! ; bonus 1 + melds 2 + 1 + 0, and the four forfeits
