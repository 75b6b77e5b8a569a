"""Every example in ``pan --help`` and each command's help works for someone who installed the
wheel and has no copy of the repository: the wheel is built, installed into a fresh virtual
environment in a temporary folder, and every example is run there by bash, from that folder.

The fresh environment gets the wheel with pip (``--no-deps --no-index``: no network) and finds
click, rich and pyparsing where the test's own environment has them (a ``.pth`` line), so the
test takes seconds, not a download.
"""

from __future__ import annotations

import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import click
import pyparsing
import pytest
import rich
from cli_kit import ROOT

SHELL_START = ("pan ", "printf ", "cat ", "echo ")


@pytest.fixture(scope="module")
def wheel_env(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bin folder of a fresh virtual environment with the built wheel installed."""
    base = tmp_path_factory.mktemp("wheel")
    dist = base / "dist"
    build = [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(dist), str(ROOT)]
    # without build isolation when the environment can build wheels (the test extras bring
    # 'wheel'): seconds instead of fetching setuptools into a throw-away environment
    fast = subprocess.run([*build, "--no-build-isolation"], capture_output=True, cwd=base, timeout=300)
    if fast.returncode != 0:
        subprocess.run(build, check=True, capture_output=True, cwd=base, timeout=600)
    (wheel,) = dist.glob("pancli-*.whl")
    venv = base / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    py = venv / "bin" / "python"
    pip = [sys.executable, "-m", "pip", "--python", str(py), "install", "-q", "--no-deps", "--no-index"]
    subprocess.run([*pip, str(wheel)], check=True, capture_output=True, timeout=300)
    site = subprocess.run(
        [str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    deps = {str(Path(m.__file__ or "").resolve().parent.parent) for m in (click, rich, pyparsing)}
    (Path(site) / "pan_test_deps.pth").write_text("\n".join(sorted(deps)) + "\n", encoding="utf-8")
    return venv / "bin"


def _run(bin_dir: Path, cwd: Path, command: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH", "PAN_FORCE_TERMINAL")}
    env["PATH"] = f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"
    return subprocess.run(
        ["bash", "-o", "pipefail", "-c", command], capture_output=True, text=True, cwd=cwd, env=env, timeout=300
    )


def help_examples() -> list[str]:
    """The example command lines of ``pan --help`` and of every command's help (the help text is
    the same in and out of the wheel; reading it in this process saves a dozen process starts)."""
    from click.testing import CliRunner

    from pancli.cli import cli

    texts = [CliRunner().invoke(cli, ["--help"]).stdout]
    texts += [CliRunner().invoke(cli, [name, "--help"]).stdout for name in cli.list_commands(click.Context(cli))]
    found: list[str] = []
    for text in texts:
        block = text.split("Examples:", 1)[1] if "Examples:" in text else ""
        for line in block.splitlines()[1:]:
            if not line.strip():
                break
            if line.strip().startswith(SHELL_START) and line.strip() not in found:
                found.append(line.strip())
    return found


@pytest.mark.slow
def test_every_help_example_runs_from_an_installed_wheel(wheel_env: Path, tmp_path: Path) -> None:
    where = _run(wheel_env, tmp_path, 'python -c "import pancli; print(pancli.__file__)"').stdout
    assert where.startswith(str(wheel_env.parent)), where  # the wheel's pancli, not the repository's
    examples = help_examples()
    assert len(examples) >= 30 and any(e.startswith("pan samples") for e in examples)
    with ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(lambda e: (e, _run(wheel_env, tmp_path, e)), examples))
    for example, p in results:
        # an example that ends in exit 1 says so in the help (some samples are illegal on purpose)
        assert p.returncode == (1 if "exits 1" in example else 0), (example, p.stderr)
        assert "Traceback" not in p.stderr, (example, p.stderr)
        writes_a_file = " -o " in example or " > " in example or "--check" in example
        assert p.stdout or p.stderr or writes_a_file, example
