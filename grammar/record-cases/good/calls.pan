; Calls and counts on lines of their own (I1, I2), in any case and spacing
[Players "Ana Ben Cruz"]
Ana stay
Ben stay
Cruz stay
Ana  COUNT   Ben {before the first draw}
1. Ana draw 7c, meld [7c 7c 4d] ?? {[%pays 2]}, discard 5h
Ben Call Ana   #1 ; "that is no set"
Ana mend #1 [7ccc]   {[%pays 2]}
Cruz count Ben 10
Cruz count Ana 7 ; seven in her hand, three melded
