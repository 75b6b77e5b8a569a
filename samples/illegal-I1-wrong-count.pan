; Ben was dealt eleven cards. Found at the deal, the extra card goes to the dead cards (I1).
[Event "Friday game"]
[Rules "hoyle"]
[Players "Ana Ben Cruz Dee"]

deal Ana 5s 5s 3h 4h Kd Kh Kc Jc Qc 2d
deal Ben 7s 2c Qd 6c 4s Jh 3d Ac 6d 2s 5h
deal Cruz 7c 7c 7c Ah 2h 6s Qs Qs 4d Jd
deal Dee 3s 3s Js Qh Kh 5d 5c 6c 2h Ad
up 6h
Ana stay
Ben stay
Cruz stay
Dee stay
1. Ana draw 5s, meld [5s 5s 5s] {[%pays 4]}, discard 2d
