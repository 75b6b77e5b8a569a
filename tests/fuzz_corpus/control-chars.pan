[Players "Ana Ben"]
[Event "[31mred"]
Ana stay {]0;title} ; ‮evil
Ben stay
