"""The application layer: what a command does, between reading its options and rendering.

- :mod:`pancli.app.replay`: many records replayed in order (S3 between the hands of a record,
  chunks judged by worker processes for ``--jobs``, every hand counted).
- :mod:`pancli.app.analyze`: hand literals (``+CARD``), the analyzer's options, positions in a
  record, the analysis and its advice.
- :mod:`pancli.app.pay`: one player's melds taken together (E4 across them, C8).
- :mod:`pancli.app.standings`: the PAGRUC hands of a game's records, refereed in order.

It uses the judges (referee, PAGRUC, analyzer) and the text layer (notation, records); it
never imports click or rich, and writes nothing: the CLI renders what it returns.
"""
