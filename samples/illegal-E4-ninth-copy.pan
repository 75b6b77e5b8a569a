; The recorder wrote one 5s too many: eight packs hold eight of each card, and here the
; deal shows seven and two more are drawn (E4).
[Event "Friday game"]
[Rules "hoyle"]
[Players "Ana Ben Cruz Dee"]

deal Ana 5s 5s 5s 5s 3h 4h Kd Kh Kc 2c
deal Ben 5s 5s 2d 6c 4s Jh 3d Ac 6d 2s
deal Cruz 7c 7c 7c Ah 2h 6s Qs Qs 4d 5s
deal Dee 3s 3s Js Qh Kh 5d 5c 6c 2h Ad
up 6h
Ana stay
Ben stay
Cruz stay
Dee stay
1. Ana draw 5h, meld [3h 4h 5h], meld [5s 5s 5s 5s] {[%pays 6]}, discard 2c
2. Ben draw 5s, meld [5s 5s 5s] {[%pays 4]}, discard 2d
3. Cruz draw 7c, meld [7c 7c 7c 7c] {[%pays 3]}, discard 4d
4. Dee draw 5s, discard 5s ?? ; a ninth 5s
