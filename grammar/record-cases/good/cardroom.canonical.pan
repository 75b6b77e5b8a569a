[Event "a \"quoted\" name \\ with a backslash"]
[Rules "cardroom"]
[Players "Ana Ben"]

Ana stay
Ben stay
Ana {before} draw 5s {after draw}, borrow 5s from #1 {why?}, meld [5s 5s 5s] {[%pays 4]} {and more}, discard 2c ; eol
Ben force Ana
reshuffle
