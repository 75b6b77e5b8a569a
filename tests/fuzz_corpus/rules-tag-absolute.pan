[Players "Ana Ben"]
[Rules "/etc/passwd"]
Ana stay
