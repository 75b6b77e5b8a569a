"""Test sessions for every Python the package claims (pyproject.toml's classifiers): ``nox`` runs
the test suite under each interpreter it finds, ``nox -s tests-3.12`` under one.

Each session installs the package as the README says (editable, with the test extras) into its
own virtual environment under ``.nox/`` and runs the README's test command's pytest. ``.ci/run``
runs the sessions whose interpreter is on the machine and says which it skipped.
"""

from __future__ import annotations

import nox

PYTHONS = ["3.11", "3.12", "3.13"]
"""The Pythons tested: the classifiers list these (tests/test_newcomer.py keeps them the same)."""

nox.options.sessions = ["tests"]
nox.options.error_on_missing_interpreters = False  # a missing interpreter is skipped, and said


@nox.session(python=PYTHONS)
def tests(session: nox.Session) -> None:
    """The whole test suite (arguments after ``--`` go to pytest)."""
    session.install("-e", ".[test]")
    session.run("python", "-m", "pytest", *session.posargs)
