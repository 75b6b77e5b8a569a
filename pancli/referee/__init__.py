"""The Panguingue referee (docs/rules.md): :func:`referee_script` judges a
:class:`~pancli.model.actions.HandScript` and returns a
:class:`~pancli.model.results.HandResult`; :mod:`pancli.referee.simulate` writes
legal hands by self-play.
"""

from __future__ import annotations

from pancli.referee.table import Table, referee_script

__all__ = ["Table", "referee_script"]
