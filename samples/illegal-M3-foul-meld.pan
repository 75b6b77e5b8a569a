; Cruz lays three sevens of two suits: a set is all one suit or all different suits (M3).
; Nobody calls it before his discard: it is found then and he retires (I2); `pan replay --strict` stops at it (M3).
[Event "Friday game"]
[Rules "hoyle"]
[Players "Ana Ben Cruz Dee Eli"]

deal Ana 5s 5s 3h 4h Kd Kh Kc Jc Qc 2d
deal Ben 7s 2c Qd 6c 4s Jh 3d Ac 6d 2s
deal Cruz 7c 7c 7d Ah 2h 6s Qs Qs 4d Jd
deal Dee 3s 3s Js Qh Kh 5d 5c 6c 2h Ad
deal Eli Kd Kd 4c 5c 6d 7d Jd Qd 3c Ac
up 6h
Ana stay
Ben top
Cruz stay
Dee stay
Eli stay
1. Ana draw 5s, meld [5s 5s 5s] {[%pays 4]}, discard 2d
2. Cruz draw 7c, meld [7c 7c 7d] ?? {[%pays 2]}, discard Jd
3. Dee draw Kc, discard Kc
