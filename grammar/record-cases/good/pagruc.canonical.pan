[Game "pagruc"]
[Packs "1"]
[Players "Ana Ben Cruz"]

deal Ana Th Jh Qh 2c 3c 4c 9s
up 5d
Ana take 5d, meld [5d 5d 5d]
Ben draw 9h, discard 9h
Cruz take 2, meld [8h 9h Th] {a run}, lay 2c on Ana#1, discard Kc
Ana draw As, lay As on Cruz#1, discard 9s
