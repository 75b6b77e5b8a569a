"""The shared model: the vocabulary every reader, writer and judge speaks, and nothing else.

- :mod:`pancli.model.actions`: what happens at the table (actions, play lines, the
  :class:`~pancli.model.actions.HandScript` of a hand), with its place in the record.
- :mod:`pancli.model.results`: what a judge reports (payments, violations, claims, steps,
  the :class:`~pancli.model.results.HandResult`).
- :mod:`pancli.model.results`: the :class:`~pancli.model.results.Ruling` a failed check raises.
- :mod:`pancli.model.results`: the running ledger of payments.
- :mod:`pancli.model.settle`: a sitting's totals and who pays whom.

It imports only the core (cards, melds, rules): no judge, no text, no I/O.
"""
