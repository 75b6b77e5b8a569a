[Players "Ana Ben"]
[Ledger "Ana +1234567890 Ben -1234567890"]
Ana stay
