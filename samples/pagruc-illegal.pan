; Four PAGRUC hands, each stopped by a broken rule (rules G1-G9; `pan rules G3` explains one). `pan replay`
; reports the first violation of each hand with its rule id, line and column:
; hand 1, line 15: G3  Ben takes two discards with no meld of his own on the table
; hand 2, line 26: G4  Q-K-A is no run: aces are low only
; hand 3, line 36: G5  Ana lays off before she has a meld of her own
; hand 4, line 42: G1  a second king of spades, with one pack
[Game "pagruc"]
[Players "Ana Ben Cruz"]

deal Ana 3d 7d Qs Kd Js 5d 8d
deal Ben 4h Qh 9s 3c Jd 9h 4c
deal Cruz As Th 6c 7c 2s 3h 4d
up 8h
Ana draw 2c, discard Kd
Ben take 2, meld [Kd 8h Qh], discard 4h ; only the top card: Ben has no meld yet (G3)

[Game "pagruc"]
[Players "Ben Cruz Ana"]

deal Ben 3c Jd Ad 8d 4c 2s 4s
deal Cruz 4h Jc Kd Th Qd 2c 9c
deal Ana Ks Td 7s Qh Ah 3h 7d
up 9s
Ben draw Kc, discard Ad
Cruz draw 4d, discard Th
Ana draw Kh, meld [Qh Kh Ah], discard Ks ; the ace is low only (G4)

[Game "pagruc"]
[Players "Cruz Ana Ben"]

deal Cruz Ks Td 5c 4c 2d 3d 2s
deal Ana 3c 7c 6c Qd Ad 9h Kc
deal Ben 7d Jh As 6d 8c 9s 7s
up 6h
Cruz draw 2c, meld [2d 2s 2c], discard Ks
Ana draw 2h, lay 2h on Cruz#1, discard Ad ; Ana has no meld of her own (G5)

[Game "pagruc"]
[Players "Ana Ben Cruz"]

deal Ana 5h 6h 7h Ac Ad As Ks
deal Ben 2c 3c 4c 5c 6c 7c Ks ; one pack holds one Ks (G1)
deal Cruz 2d 3d 4d 9s 9h Qd Qc
up Kh
