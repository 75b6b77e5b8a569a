[Event "An addition that breaks the meld's character (M5)"]
[Players "Ana Ben Cruz"]

Ana stay
Ben stay
Cruz stay
1. Ana draw 5h, meld [3h 4h 5h], add 5s to #1, discard 7d
