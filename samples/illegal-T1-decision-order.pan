; Seating rules: Dee decides before Cruz, out of the order of play (T1).
[Event "Friday game"]
[Rules "hoyle"]
[Players "Ana Ben Cruz Dee Eli"]

deal Ana 5s 5s 3h 4h Kd Kh Kc Jc Qc 2d
deal Ben 7s 2c Qd 6c 4s Jh 3d Ac 6d 2s
deal Cruz 7c 7c 7c Ah 2h 6s Qs Qs 4d Jd
deal Dee 3s 3s Js Qh Kh 5d 5c 6c 2h Ad
deal Eli Kd Kd 4c 5c 6d 7d Jd Qd 3c Ac
up 6h
Ana stay
Ben top
Dee stay ; before Cruz
Cruz stay
Eli stay
