"""The exporters: one refereed hand (an :class:`~pancli.app.report.HandReport`) written in each
output form, one module a form: :mod:`~pancli.render.plain` (pipes), :mod:`~pancli.render.terminal`
(rich), :mod:`~pancli.render.json` (``--json`` and ``--jsonl``), :mod:`~pancli.render.html` (the
page of ``--html``) and :mod:`~pancli.render.svg` (pictures of hands and positions); the sinks
that stream them (:mod:`~pancli.render.replay`, :mod:`~pancli.render.settle`,
:mod:`~pancli.render.stream`) and the words they share (:mod:`~pancli.render.words`); the plain
text of the meld commands (:mod:`~pancli.render.check`, :mod:`~pancli.render.score`,
:mod:`~pancli.render.pay`: rows and error lines, written from the application's values).
Between the application layer, which decides, and the commands, which choose among them.
"""
