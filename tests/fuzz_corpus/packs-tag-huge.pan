[Players "Ana Ben Cy"]
[Game "pagruc"]
[Packs "99999999999999999999"]
Ana stay
