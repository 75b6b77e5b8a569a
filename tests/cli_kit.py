"""Running ``pan`` in-process for tests: one helper, so every test checks the same way that a
command ended by an exit status (never by an uncaught exception)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from click.testing import CliRunner, Result

from pancli.cli import cli

ROOT = Path(__file__).resolve().parent.parent
"""The repository's folder."""
SAMPLES = ROOT / "samples"
"""The shipped sample records, with their expected sidecars in ``expected/``."""


def pan(*args: str, input: str | bytes | None = None, env: Mapping[str, str | None] | None = None) -> Result:
    """Run ``pan ARGS`` with ``input`` on standard input; the result (exit code, stdout, stderr).

    >>> pan("check", "5s 5s 5s").exit_code
    0
    """
    result = CliRunner().invoke(cli, list(args), input=input, env=env)
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result
