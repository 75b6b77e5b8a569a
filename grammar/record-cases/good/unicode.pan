; Players in any script: names are read in Unicode NFC, so "José" (e + a combining accent) in
; a play line is the same player as "José" in Players. Ledger pairs separated by blanks, commas
; or semicolons; deal lines in every card-list form.
[Players "José Peña Nguyễn 李娜"]
[Ledger "Peña 0; 李娜 0, Nguyễn 0 José 0"]

deal José 5s,5s,5s 3-4h Kd, Kh,Kc 2c 7d
deal 李娜 2h2h6c Jd Jd Qs 4s4s 6h 7c
up 4c
José stay
Peña stay
Nguyễn stay
李娜 stay
