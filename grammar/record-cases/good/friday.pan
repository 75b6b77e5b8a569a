; A Friday game: four players, hoyle
[Date "2026.11.27"]
[Event "Friday game"]
[Rules "HOYLE"]
[Players "Ana  Ben Cruz Dee"]
[Ledger "Dee 0; Ben -4, Cruz -8 Ana 12"]
[Table "3"] ; passed through
deal Ana 5s 5s 5s 3h 4h Kd Kh Kc 2c 7d
deal Cruz 2h 2h 6c Jd Jd Qs 4s 4s 6h 7c
up 4c

Ana stay
Ben top          ;goes on top
Cruz stay
{ Dee thinks
  for a long time }
Dee stay
1. Ana draw 5h, meld [3-5h], meld [5sss] {[%pays 4]}, discard 7d !
2. Cruz DRAW Qd,discard Qd
3. Dee take Qd {is it live?}, meld [Qd Qd Qd] {[%pays 1]} , discard 2s ?!
[Event "Friday game"]
[Round "2"]
[Players "Ana Ben Cruz Dee"]
[Stake "0.25"]

{ second hand: everybody but Ana goes on top }
Ana stay
Ben top
Cruz top
Dee top
; the end
