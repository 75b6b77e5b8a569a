; Cardroom forcing is automatic: the live 5c fits Kim's fives, so he must take it and add
; it; drawing from the stock instead is a violation (P8).
[Event "Saturday pan"]
[Rules "cardroom"]
[Players "Gil Hal Ida Jo Kim Lou"]

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
Jo top
Kim stay
Lou stay
1. Gil draw 4h, meld [2h 3h 4h], meld [7h 7c 7d 7s] {[%pays 2]}, discard Qs
2. Hal draw 3d, meld [3d 4d 5d 6d], discard Jh
3. Ida draw Ks, meld [Ks Ks Ks] {[%pays 2]}, discard 6c
4. Kim draw 5c, meld [5c 5c 5c 5c] {[%pays 3]}, discard Kd
5. Lou draw 5c, discard 5c
6. Gil draw 6s, discard 6s
7. Hal draw Jd, discard Jd
8. Ida draw 5c, discard 5c
9. Kim draw 6s, meld [6s 6s 6s], discard 2d ?? ; the live 5c fits his #1
