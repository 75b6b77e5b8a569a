; expect: R1 2:8, R1 7:10, R2 12:19, R2 15:1, R2 19:9, R2 23:8, R4 27:17, R4 31:20, R3 35:9, ok, R1 41:21, R2 44:15, R2 47:15, R2 50:16, R4 54:17, ok, R5 63:1, R4 66:24
[Event Friday]
[Players "Ana Ben"]

Ana stay

[Event "x\q"]
[Players "Ana Ben"]

Ana stay

[Players "Ana Ben Ana"]
Ana stay

[Event "x"]
Ana stay

[Players "Ana Ben"]
[Stake "a lot"]
Ana stay

[Players "Ana Ben"]
[Game "poker"]
Ana stay

[Players "Ana Ben"]
[Ledger "Ana +3 Eve -3"]
Ana stay

[Players "Ana Ben"]
[Ledger "Ana +3 Ben"]
Ana stay

[Players "Ana Ben"]
[Rules "no-such-file.toml"]
Ana stay

[Players "Ana Ben"]
Ana stay

[Players "Ana Ben"] [Event "two on a line"]
Ana stay

[Players "Ana Deal"]
Ana stay

[Players "Ana Bén!"]
Ana stay

[Players "José José"]
José stay

[Players "Ana Ben"]
[Ledger "Ana +3,, Ben; -3"]
Ana stay

[Players "José Ben"]
[Ledger "José +3; Ben -3"]
José stay

[Players "Ana Ben"]
[Ledger "Ana +3; Ben -3"]
ana stay

[Players "Ana Ben"]
[Ledger "Ana +3; Ben -3;"]
Ana stay
