; I2 made good and taken back: a [%pays N] after a mend is the claim of the meld made good
[Players "Ana Ben"]
Ana stay
Ben stay
1. Ana draw 7c, meld [7c 7c 7d] ?? {[%pays 2]},mend #1 [7ccc]{[%pays 2]} {she had the third 7c}, discard 7d
2. Ben draw 5h, meld [5h 5h 5h], add 4d to #1 {[%pays 1]}, back #1 {called by Ana}, discard 4d
3. Ana take 4d, add 4d to #1 ?? {[%pays 1]} , mend #1 [7c 7c 7c 7c] { the 4d back } {[%pays 1]}, discard 4d
