; A table of sixteen: Panguingue seats 2 to 15 players (S1).
[Event "Charity night"]
[Players "Ana Ben Cruz Dee Eli Fay Gil Hal Ida Jo Kim Lou Max Ned Oti Pat"]

Ana stay
Ben stay
Cruz stay
Dee stay
Eli stay
Fay stay
Gil stay
Hal stay
Ida stay
Jo stay
Kim stay
Lou stay
Max stay
Ned stay
Oti stay
Pat stay
