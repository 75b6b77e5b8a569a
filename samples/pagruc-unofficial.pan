; Two legal PAGRUC hands that do not make an official game (G8). Cruz deals the first
; hand (the dealer is listed last); Ana played first in it, so Ana must deal the second,
; but Ben does. And then Ana has dealt no hand while Ben and Cruz have dealt one each:
; every player deals the same number of times. `pan standings` gives the totals and says
; why there are no PAGRUC points, exit status 1.
[Game "pagruc"]
[Players "Ana Ben Cruz"]
[Ledger "Ana -23, Ben +42, Cruz -55"]

deal Ana 3d 7d Qs Kd Js 5d 8d
deal Ben 4h Qh 9s 3c Jd 9h 4c
deal Cruz As Th 6c 7c 2s 3h 4d
up 8h
Ana draw 2c, discard Kd
Ben draw 6d, discard Qh
Cruz draw Ah, discard Th
Ana draw Kh, discard Kh
Ben draw 9c, meld [9s 9h 9c], discard Jd
Cruz draw 7s, discard 4d
Ana take 4d, meld [3d 4d 5d], discard 2c
Ben take 2c, meld [2c 3c 4c], lay 6d on Ana#1, discard 4h

[Game "pagruc"]
[Players "Cruz Ana Ben"]
[Ledger "Cruz +20, Ana -7, Ben -59"]

deal Cruz Ks Td 5c 4c 2d 3d 2s
deal Ana 3c 7c 6c Qd Ad 9h Kc
deal Ben 7d Jh As 6d 8c 9s 7s
up 6h
Cruz draw 2c, meld [2d 2s 2c], discard Ks
Ana draw 8s, discard Ad
Ben draw 8h, discard As
Cruz draw 2h, lay 2h on Cruz#1, discard Td
Ana draw 5h, discard Qd
Ben draw Js, discard 6d
Cruz draw 4d, discard 5c
Ana take 5c, meld [5c 6c 7c], discard Kc
Ben draw 4h, discard 4h
Cruz take 4h, meld [4c 4d 4h], discard 3d
