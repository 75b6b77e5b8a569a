; Cruz lays 7c 7c 7c 4d, no set (M3), the table pays him 3 each on his word, and he discards.
; After Dee's turn Dee calls it (I2); on the next line Cruz makes it good with the fourth 7c from
; his hand, taking the 4d back: no penalty. The 3 each go back and the meld is paid as laid, 3 each
; again; the hand goes on as if the meld had been laid right.
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
Cruz stay
Dee stay
Eli stay
1. Ana draw 5s, meld [5s 5s 5s] {[%pays 4]}, discard 2d
2. Cruz draw 7c, meld [7c 7c 7c 4d] ?? {[%pays 3]}, discard Jd
3. Dee draw Kc, discard Kc
Dee call Cruz #1 ; "four sevens and a four?"
Cruz mend #1 [7c 7c 7c 7c] {[%pays 3]}
4. Eli take Kc, meld [Kd Kd Kc] ?!, discard 3c { kings mix suits (M4) but pay nothing }
5. Ana draw 7c, discard 7c
Dee force Cruz ; the 7c fits Cruz's sevens: Dee makes him take it and break his hand
6. Cruz take 7c, add 7c to #1 {[%pays 1]}, discard 4d
7. Dee draw 5h, meld [5h 5d 5c] {[%pays 1]}, discard Ad
8. Eli draw 3s, discard 3s
9. Ana draw 2h, meld [2h 3h 4h], discard Jc
10. Cruz draw Qs, meld [Qs Qs Qs] {[%pays 2]}, discard 6s
11. Dee draw 3s, meld [3s 3s 3s] ! {[%pays 4]}, discard 6c
12. Eli draw 6c, meld [4c 5c 6c], discard Ac
13. Ana draw Ah, add Ah to #2 {[%pays 2]}, meld [Kd Kh Kc], discard Qc ; flat: ten melded
14. Cruz draw 3h, meld [Ah 2h 3h] {[%pays 1]}, out !
