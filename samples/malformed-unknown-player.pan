; Fay plays a turn but is not in Players: the line cannot be read (R5), so the hand is not refereed.
[Event "Kitchen table"]
[Players "Ana Ben Cruz Dee"]

deal Dee 4h 5h 6h Qc Qc 2s 3s Kd Jd 7c
up 2h
Ana stay
Ben stay
Cruz stay
Dee stay
Ana draw 5c, meld [5c 5d 5s] {[%pays 1]}, discard Kh
Fay draw Jc, discard Jc
