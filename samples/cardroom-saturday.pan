; Saturday afternoon at the card room: six seated, cardroom rules (a 310-card pack with
; one suit of spades removed, one top each, out bonus 2, automatic forcing, borrowing).
[Event "Saturday pan"]
[Site "Gardena"]
[Date "2026.11.28"]
[Rules "cardroom"]
[Stake "0.50"]
[Players "Gil Hal Ida Jo Kim Lou"]
[Ledger "Gil +49, Hal -17, Ida -12, Jo -1, Kim +3, Lou -22"]

deal Gil 7h 7c 7d 7s 7h 2h 3h Kc Qs Ac
deal Hal 3h 3c 4d 5d 6d Jh Qh 2c 4s As
deal Ida Ks Ks Ad 2s 4c Qd Qc 5h Jd 6c
deal Jo 2h 4h 6s 7d Jc Qd 5s 3s Kh Ah
deal Kim 5c 5c 5c 6s 6s Jd Jd 4h 2d Kd
deal Lou Qh Qh Jc Kc Ac 4d 3s 2s 7c 5s
up 4c
Gil stay
Hal stay
Ida stay
Jo top ; a hand of strangers: Jo loses his top
Kim stay
Lou stay
1. Gil draw 4h, meld [2h 3h 4h], meld [7h 7c 7d 7s] {[%pays 2]}, discard Qs
2. Hal draw 3d, meld [3d 4d 5d 6d], discard Jh { he ropes the 3d now and borrows it back later }
3. Ida draw Ks, meld [Ks Ks Ks] ! {[%pays 2]}, discard 6c
4. Kim draw 5c, meld [5c 5c 5c 5c] !! {[%pays 3]}, discard Kd
5. Lou draw Qh, meld [Qh Qh Qh] {[%pays 1]}, discard 7c
6. Gil draw 7h, split #2 [7h 7h 7h] [7c 7d 7s] ! {[%pays 1]}, discard Kc ; four suits cannot grow: split it
7. Hal draw 3s, borrow 3d from #1, meld [3d 3h 3c 3s] ! {[%pays 2]}, discard Qh
8. Ida draw 5c, discard 5c
9. Kim take 5c, add 5c to #1 {[%pays 1]}, discard 4h ; automatic forcing (P8): the 5c fits his fives
10. Lou draw 4s, meld [2s 3s 4s 5s], discard 4d
11. Gil draw Ah, add Ah to #1 {[%pays 2]}, discard Ac ; Gil is flat: ten melded, no hand
12. Hal draw 7d, add 7d to #1, discard 4s
13. Ida draw Kd, meld [Jd Qd Kd] {[%pays 1]}, discard 2s
14. Kim draw 6s, meld [6s 6s 6s] {[%pays 2]}, discard 2d
15. Lou draw 5h, discard Jc ; P9: 5h fits flat Gil's hearts, so Lou must keep it
16. Gil draw 7h, add 7h to #2 {[%pays 1]}, out !! { bonus 2 + melds 2 + 3 + 1 from each, and all six tops }
