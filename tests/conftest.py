"""What every test shares: Hypothesis settings profiles, and fixtures for the repository's
folders and for running ``pan`` in-process (module-level code takes the same from
``cli_kit``: ``ROOT``, ``SAMPLES``, ``pan``).

Hypothesis profiles (choose one with ``HYPOTHESIS_PROFILE=NAME``; ``default`` otherwise):

- ``default``: no per-example deadline (the machine is shared and timings vary) and no
  ``too_slow`` health check (strategies that build whole hands are slow by nature). Each
  property keeps its own ``max_examples``, sized so that the suite stays within its budget.
- ``ci``: the same, derandomized: every run tries the same examples.
- ``thorough``: ten times the examples of every property (its own ``max_examples``, or 100), for
  a long run by hand: ``HYPOTHESIS_PROFILE=thorough python -m pytest``.

A property that meets an input it cannot judge rejects it (``assume``) rather than return: a
returned example would count as a pass. A test that cannot run here is skipped, with the
reason.

A test that takes seconds is marked ``@pytest.mark.slow``: it runs first (pytest-xdist hands
out tests in order, so a long test scheduled last would keep one worker busy while the others
stand idle).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest
from cli_kit import ROOT, SAMPLES
from cli_kit import pan as run_pan
from click.testing import Result
from hypothesis import HealthCheck, settings

settings.register_profile("default", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("ci", settings.get_profile("default"), derandomize=True)
settings.register_profile("thorough", settings.get_profile("default"))  # see pytest_collection_modifyitems
PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "default")
settings.load_profile(PROFILE)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The tests marked ``slow`` first, each group in its usual order (the sort is stable); under
    the ``thorough`` profile, ten times the examples of every property."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)
    if PROFILE == "thorough":  # a property's own @settings wins over the profile's max_examples
        for item in items:
            test = getattr(item, "obj", None)
            own = getattr(test, "_hypothesis_internal_use_settings", None)
            if own is not None:
                test._hypothesis_internal_use_settings = settings(own, max_examples=own.max_examples * 10)  # type: ignore[union-attr]


@pytest.fixture(scope="session")
def rules_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder for house-rules files (``profiles_kit.rules_name``); session-scoped, so that a
    hypothesis test may take it."""
    return tmp_path_factory.mktemp("rules")


@pytest.fixture
def root() -> Path:
    """The repository's folder."""
    return ROOT


@pytest.fixture
def samples() -> Path:
    """The shipped sample records (``samples/``), with their expected sidecars in ``expected/``."""
    return SAMPLES


@pytest.fixture
def pan() -> Callable[..., Result]:
    """``pan(*args, input=None, env=None)``: run a ``pan`` command in-process (never a crash)."""
    return run_pan
