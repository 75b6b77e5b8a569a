; Friday game at the club: five at the table, hoyle rules, a quarter a unit.
; Play goes to the right; Players lists the order of play, dealer last.
[Event "Friday game"]
[Site "Elks Lodge, back room"]
[Date "2026.11.27"]
[Round "1"]
[Rules "hoyle"]
[Stake "0.25"]
[Players "Ana Ben Cruz Dee Eli"]
[Ledger "Ana -2, Ben -2, Cruz +36, Dee -6, Eli -26"]

deal Ana 5s 5s 3h 4h Kd Kh Kc Jc Qc 2d
deal Ben 7s 2c Qd 6c 4s Jh 3d Ac 6d 2s
deal Cruz 7c 7c 7c Ah 2h 6s Qs Qs 4d Jd
deal Dee 3s 3s Js Qh Kh 5d 5c 6c 2h Ad
deal Eli Kd Kd 4c 5c 6d 7d Jd Qd 3c Ac
up 6h
Ana stay
Ben top ; nothing to build on: forfeits 2 to whoever goes out (T2)
Cruz stay
Dee stay
Eli stay
1. Ana draw 5s, meld [5s 5s 5s] ! {[%pays 4]}, discard 2d ; spade valles, 4 from each
2. Cruz draw 7c, meld [7c 7c 7c 7c] !! {[%pays 3]}, discard Jd
3. Dee draw Kc, discard Kc
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
14. Cruz draw 3h, meld [Ah 2h 3h] {[%pays 1]}, out ! { out with 11 melded: 1 + 4 + 2 + 1 from each }

; Cruz won, so he is first hand now and Ben, on his left, deals (S3).
[Event "Friday game"]
[Date "2026.11.27"]
[Round "2"]
[Rules "hoyle"]
[Stake "0.25"]
[Players "Cruz Dee Eli Ana Ben"]
[Ledger "Cruz -15, Dee -11, Eli -2, Ana +39, Ben -11"]

deal Cruz 2s 2s 4h 5h Qc Qd Jc 3d 7s Kc
deal Dee 6d 6d 6d Ac 2c 4s Jh Jh Qh 7h
deal Eli 3c 7d Kd 2h Jd 4c 6s Qs 5d As
deal Ana As 2s 5c 5c Jd Qd Kd 6h 7d 3h
deal Ben 7h 7h Kh Kh 5s Js 3c 4c Ah 6c
up 3s
Cruz stay
Dee stay
Eli top
Ana stay
Ben stay
1. Cruz draw 3h, meld [3h 4h 5h], discard 7s ; a rope, but no ace or king: pays nothing
2. Dee draw 6d, meld [6d 6d 6d 6d] {[%pays 2]}, discard 4s
3. Ana draw 3s, meld [As 2s 3s] ! {[%pays 2]}, meld [Jd Qd Kd] {[%pays 1]}, discard 6h
4. Ben draw 7h, meld [7h 7h 7h] {[%pays 2]}, discard 3c
5. Cruz draw 2s, meld [2s 2s 2s] {[%pays 2]}, discard Jc
6. Dee draw 5c, discard 5c ? { live for Ana, who holds two 5c }
7. Ana take 5c, meld [5c 5c 5c] {[%pays 2]}, discard 3h
8. Ben draw Kh, meld [Kh Kh Kh] {[%pays 1]}, discard 5s
9. Cruz draw 6d, discard 6d
10. Dee take 6d, add 6d to #1 {[%pays 1]}, discard 7h
11. Ana draw 6d, add 6d 7d to #2 {[%pays 2]}, out !! ; 6d 7d Jd Qd Kd: 7 and J are adjacent (E2)
