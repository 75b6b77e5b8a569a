; expect: R7 5:1, R7 10:1, R7 16:1, ok, R8 24:13, R8 28:26, ok, R8 36:13, R2 39:1, R5 43:6, ok, R8 51:43
[Players "Ana Ben"]

Ana stay
deal Ana 5s 5s 5s

[Players "Ana Ben"]
deal Ana 5s 5s 5s
deal Ben 5s 5s 5s
deal Ana 5s 5s 5s

[Players "Ana Ben"]
up 5s
Ana stay
Ben stay
up 5s

[Players "Ana Ben"]
Ana stay {fine}
Ben stay

[Players "Ana Ben"]
Ana stay
Ana draw 5h {never closed
Ben stay
[Players "Ana Ben"]
Ana stay
Ana draw 5h, discard 5h {[%pays 2]}

[Players "Ana Ben"]
Ana stay
Ana draw 5h, meld [5h 5h 5h] {[%pays two]}

[Players "Ana Ben"]
Ana stay
Ana draw 5h }

[Players "Ana Ben"]
[Players "Ana Ben"]
Ana stay

[Players "Ana Ben"]
deal Eve 5s

[Players "Ana Ben"]
Ana stay
Ana draw 5h { no [%pays] claim here }, meld [5h 5h 5h] {[%pays 4] [%pays]}

[Players "Ana Ben"]
Ana stay
Ana draw 5h, meld [5h 5h 5h] {[%pays 4]} {[%pays	2 ]}
