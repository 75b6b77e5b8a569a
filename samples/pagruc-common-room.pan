; A complete, official game of PAGRUC (rules G1-G9) for four players: Ana, Ben,
; Cruz and Dee, one 52-card pack (G1). Each player deals once (G8), so the game is four hands.
; In every hand the players are listed in order of play with the dealer last; after each hand
; the player who played first deals the next one, so each hand lists the last one's players
; turned by one. The Ledger tag of each hand claims the hand scores (G7), which the referee
; checks; `pan standings` adds them up and gives the PAGRUC points (G9):
; Ben 188 (4 points), Ana 140 (3), Dee 58 (2), Cruz 28 (1).
[Event "Sixth Form common room"]
[Date "2000.03.14"]
[Game "pagruc"]
[Players "Ana Ben Cruz Dee"]
[Ledger "Ana +26, Ben +29, Cruz +30, Dee +60"]

deal Ana 2s 4h 3h 5c Qs 4c 8c
deal Ben Ah Ad 2d 6s 9s 6h Ac
deal Cruz 9h 8d 6c As 3s 9d Qh
deal Dee 9c 7s 7d Jd 8s Kh 7c
up 4d
Ana take 4d, meld [4h 4c 4d], discard Qs ; the up card makes a set at once
Ben draw Jc, meld [Ah Ad Ac], discard Jc
Cruz draw 3d, discard Qh
Dee draw Td, meld [7s 7d 7c], discard Kh
Ana draw Qc, discard Qc
Ben draw 5s, discard 9s
Cruz take 9s, meld [9h 9d 9s], lay As on Ben#1, discard 8d ; the ace scores 15 for Cruz, not Ben (G5)
Dee draw Jh, lay 9c on Cruz#1, discard 8s
{ with a meld down, Ana may take several discards (G3): three, to reach the two eights }
Ana take 8s 8d Qc, meld [8c 8d 8s], discard Qc
Ben draw 2h, discard 5s
Cruz draw Ts, discard Ts
Dee draw Js, meld [Jd Jh Js], discard Td ; his last card: the hand is over (G6)

[Event "Sixth Form common room"]
[Date "2000.03.14"]
[Game "pagruc"]
[Players "Ben Cruz Dee Ana"]
[Ledger "Ben +56, Cruz +42, Dee +84, Ana +31"]

deal Ben Kh Ad Th 5d 4d Ks 6h
deal Cruz 2h 4c Jd 7h Qd 7c 2s
deal Dee 8d As 3c 8s 3d Qs Ac
deal Ana Td Qh 3s Ah 5h 3h Kc
up 4s
Ben draw Tc, discard Ad
Cruz draw 2d, meld [2h 2s 2d], discard 4c
Dee draw Js, discard Qs
Ana draw 6d, discard Td
Ben take Td, meld [Th Tc Td], discard 6h
Cruz draw Jc, discard Qd
Dee draw Ts, discard Js
Ana draw 5s, discard Qh
Ben draw 9h, discard 9h
Cruz draw 9s, discard 9s
Dee take 9s, meld [8s 9s Ts], discard 8d
Ana draw 2c, discard Kc
Ben take Kc, meld [Kh Ks Kc], discard 5d
Cruz draw 4h, discard 4h
Dee draw 8c, discard 8c
Ana draw Jh, discard Jh
Ben draw Qc, discard Qc
Cruz draw 9d, discard 9d
Dee draw 9c, discard 9c
Ana draw 5c, meld [5h 5s 5c], lay 2c on Cruz#1, discard 6d
Ben draw 6c, discard 6c
Cruz draw 6s, discard 6s
Dee take 6s 6c 6d, meld [6d 6c 6s], discard As
Ana draw Kd, lay Kd on Ben#2, discard Ah
Ben draw 7d, discard 7d
Cruz take 7d, meld [7h 7c 7d], discard Jd
Dee take 3, meld [Ac As Ah], discard Jd ; Jd, Ah and As off the top: three aces, 45
Ana draw 7s, lay 7s on Cruz#2, discard 3s
Ben draw 8h, discard 8h ; the stock is empty
reshuffle ; the discards under the 8h become the new stock (G6)
Cruz draw Qh, discard Jc
Dee draw 4s, discard 4s
Ana draw 9d, discard 9d
Ben draw Jd, discard Jd
Cruz draw Ad, lay Ad on Dee#3, discard Qh

[Event "Sixth Form common room"]
[Date "2000.03.14"]
[Game "pagruc"]
[Players "Cruz Dee Ana Ben"]
[Ledger "Cruz -40, Dee -50, Ana +27, Ben +48"]

deal Cruz 5c 2h Qh 9s 4h 3s Qs
deal Dee Th 5s 8d 6c 7s Kd Ad
deal Ana 3c As Ac 4s 9h 6s Js
deal Ben 2c 9c 9d 3d 2d Ks 2s
up Jd
Cruz draw Kc, discard Kc
Dee draw 4d, discard Ad
Ana take Ad, meld [As Ac Ad], discard Js
Ben draw Ah, meld [2c 2d 2s], lay Ah on Ana#1, discard Ks ; a fourth ace on Ana's set
Cruz draw 6h, discard 9s
Dee draw Ts, discard Kd
Ana draw 5d, discard 9h
Ben take 9h, meld [9c 9d 9h], discard 3d

[Event "Sixth Form common room"]
[Date "2000.03.14"]
[Game "pagruc"]
[Players "Dee Ana Ben Cruz"]
[Ledger "Dee -36, Ana +56, Ben +55, Cruz -4"]

deal Dee 9s 2s 2d 3c Ah Qc 4c
deal Ana 6s 6c Jh Kc 6d Ks As
deal Ben Jc Td Qd Jd 9c Tc Kh
deal Cruz Ad 6h Th Qs 2c 4s 5d
up Qh
Dee draw 9h, discard Ah
Ana draw 7c, meld [6s 6c 6d], discard As
Ben draw 8h, meld [9c Tc Jc], meld [Td Jd Qd], discard Kh
Cruz draw 5s, discard Ad
Dee draw Kd, discard Qc
Ana take Qc, lay Qc on Ben#1, lay Kc on Ben#1, discard Jh ; 9c Tc Jc grows to the king
Ben draw 4d, discard 8h
Cruz draw 3s, meld [3s 4s 5s], lay 6h on Ana#1, discard Th
Dee draw 8c, discard Kd
Ana take Kd, lay Kd on Ben#2, discard Ks
Ben draw 4h, discard 4d
Cruz draw Ac, discard Qs
Dee draw 7s, discard 8c
Ana take 8c, lay 8c on Ben#1, discard 7c
