; Two hands. The first cannot be read (an 8 is not in a Panguingue pack, E1): it is reported
; with its place and skipped, and the second hand is refereed as usual.
[Event "Kitchen table"]
[Players "Ana Ben Cruz Dee"]

deal Dee 4h 5h 6h Qc Qc 2s 3s Kd Jd 7c
up 2h
Ana stay
Ben stay
Cruz stay
Dee stay
Ana draw 8h, discard 8h
Ben draw Jc, discard Jc

[Event "Kitchen table"]
[Round "2"]
[Date "2026.12.06"]
[Players "Ana Ben Cruz Dee"]
[Ledger "Ana +24, Ben -4, Cruz -12, Dee -8"]

deal Dee 4h 5h 6h Qc Qc 2s 3s Kd Jd 7c
up 2h
Ana stay
Ben stay
Cruz stay
Dee stay
Ana draw 5c, meld [5c 5d 5s] {[%pays 1]}, discard Kh
Ben draw Jc, discard Jc
Cruz take Jc, meld [Jc Jc Jc] {[%pays 1]}, discard 4d
Dee draw 7h, meld [4h 5h 6h 7h], discard Jd
Ana draw 3c, discard 3c
Ben draw As, meld [As As As] {[%pays 2]}, discard 6d
Cruz draw 7d, discard 7d
Dee draw Qc, meld [Qc Qc Qc] {[%pays 1]}, discard Kd
Ana draw 4s, discard 4s
Ben draw Ks, meld [Js Qs Ks] {[%pays 2]}, discard 2d
Cruz draw Jc, add Jc to #1 {[%pays 1]}, discard 6s
Dee draw As, meld [As 2s 3s] ! {[%pays 2]}, discard 7c ; flat
Ana draw Kh, meld [Jh Qh Kh] {[%pays 1]}, meld [6d 6d 6d 6d] {[%pays 2]}, add 5h to #1 {[%pays 1]}, out !! { all seven hand cards at once }
