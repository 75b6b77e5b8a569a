; A Friday game: four players, hoyle
[Event "Friday game"]
[Date "2026.11.27"]
[Rules "hoyle"]
[Players "Ana Ben Cruz Dee"]
[Ledger "Ana +12, Ben -4, Cruz -8, Dee 0"]
[Table "3"] ; passed through

deal Ana 5s 5s 5s 3h 4h Kd Kh Kc 2c 7d
deal Cruz 2h 2h 6c Jd Jd Qs 4s 4s 6h 7c
up 4c
Ana stay
Ben top ; goes on top
Cruz stay
{ Dee thinks
  for a long time }
Dee stay
1. Ana draw 5h, meld [3h 4h 5h], meld [5s 5s 5s] {[%pays 4]}, discard 7d !
2. Cruz draw Qd, discard Qd
3. Dee take Qd {is it live?}, meld [Qd Qd Qd] {[%pays 1]}, discard 2s ?!

[Event "Friday game"]
[Round "2"]
[Stake "0.25"]
[Players "Ana Ben Cruz Dee"]

{ second hand: everybody but Ana goes on top }
Ana stay
Ben top
Cruz top
Dee top
; the end
