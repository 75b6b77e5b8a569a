"""The application layer: what a command does, between reading its options and rendering.

- :mod:`pancli.app.replay`: many records replayed in order (S3 between the hands of a record,
  chunks judged by worker processes for ``--jobs``, every hand counted).
- :mod:`pancli.app.check`: melds of text judged, one (:class:`~pancli.app.check.MeldCheck`, what
  :func:`pancli.check_meld` returns too) or a batch (``BatchJudge``: each line's meld and ``LineRuling``,
  which :mod:`pancli.render.check` writes as ``pan check``'s rows in a pipe).
- :mod:`pancli.app.simulate`: self-play records (seats, the ``Rules`` tag, the hands' text).
- :mod:`pancli.app.lines`: lines of batch input and the one error line, ``file:line:col: RULE message``.
- :mod:`pancli.app.analyze`: hand literals (``+CARD``), the analyzer's options, positions in a
  record, the analysis and its advice.
- :mod:`pancli.app.pay`: one player's melds taken together (E4 across them, C8).
- :mod:`pancli.app.standings`: the PAGRUC hands of a game's records, refereed in order.

It uses the judges (referee, PAGRUC, analyzer) and the text layer (notation, records); it
never imports click or rich, and writes nothing: the CLI writes what it returns.
"""
