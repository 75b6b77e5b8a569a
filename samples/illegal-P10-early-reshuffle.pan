; A reshuffle is called while the stock still holds cards (P10: only an empty stock is rebuilt).
[Event "Kitchen table"]
[Players "Ana Ben Cruz Dee"]

deal Dee 4h 5h 6h Qc Qc 2s 3s Kd Jd 7c
up 2h
Ana stay
Ben stay
Cruz stay
Dee stay
Ana draw 5c, meld [5c 5d 5s] {[%pays 1]}, discard Kh
Ben draw Jc, discard Jc
reshuffle ; nobody counted the stock
Cruz take Jc, meld [Jc Jc Jc], discard 4d
