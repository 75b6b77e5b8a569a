; expect: R1 2:8, R1 7:10, R2 12:19, R2 15:1, R2 19:9, R2 23:8, R4 27:17, R4 31:20, R3 35:9, ok, R1 41:21
[Event Friday]
[Players "Ana Ben"]

Ana stay

[Event "x\n"]
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
