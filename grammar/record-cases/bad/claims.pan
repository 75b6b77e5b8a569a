; expect: R8 5:40, ok, R8 15:46
[Players "Ana Ben"]
Ana stay
Ben stay
Ana draw 2h, meld [2h 3h Jc], back #1 {[%pays 1]}, discard 2h

[Players "Ana Ben"]
Ana stay
Ben stay
Ana draw 7c, meld [7c 7c 7d] {[%pays 2]}, mend #1 [7c 7c 7c] {[%pays 2]}, discard 7d

[Players "Ana Ben"]
Ana stay
Ben stay
Ana draw 7c, mend #1 [7c 7c 7c] {[%pays 2]} {[%pays 2]}, discard 7d
