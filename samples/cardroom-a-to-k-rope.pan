; C6: a rope from A to K counts both the C4 and the C5 base plus one for every card beyond
; three (9; 18 in spades), so completing Ana's A..Q of hearts (worth 7) with the K pays 2 more.
; The live Kh fits her rope, so cardroom forcing makes her take it (P8).
[Event "A to K"]
[Rules "cardroom"]
[Players "Ana Ben Cruz"]
[Ledger "Ana -3, Ben +33, Cruz -30"]

deal Ana Ah 2h 3h 4h 5h 6h 7h Jh Kc 4d
deal Ben 5s 5s 5s 7c 7h 7d Jc Qc 2d 6c
up 3c
Ana stay
Ben stay
Cruz stay
1. Ana draw Qh, meld [Ah 2h 3h 4h 5h 6h 7h Jh Qh] {[%pays 7]}, discard 4d ; C4: 1 + 6 beyond three
2. Ben draw Kc, meld [Jc Qc Kc] {[%pays 1]}, discard 2d
3. Cruz draw Kh, discard Kh ; Cruz's hand is not recorded
4. Ana take Kh, add Kh to #1 ! {[%pays 2]}, discard Kc ; A..K: 1 + 1 + 7 = 9, and Ana is flat
5. Ben draw 5s, meld [5s 5s 5s 5s] {[%pays 6]}, discard 6c
6. Cruz draw 4c, discard 4c
7. Ana draw 3d, discard 3d
8. Ben draw 7s, meld [7c 7h 7d 7s] {[%pays 2]}, out { bonus 2 + melds 1 + 6 + 2 from each, and the three tops }
