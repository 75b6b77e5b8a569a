[Players "Ana Ben"]
[Rules "/dev/zero"]
Ana stay
