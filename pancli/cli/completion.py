"""``pan completion bash|zsh|fish``: the shell completion script, and what completes what.

The script is click's, for the program ``pan`` and the variable ``_PAN_COMPLETE``: the shell
calls ``pan`` back at each TAB and gets the candidates. FILE arguments complete paths (the
shell lists them: :func:`pancli.cli.common.complete_paths`), ``--rules`` offers the built-in
profiles and the ``*.toml`` files (:func:`complete_rules`), ``pan samples`` the sample names
(:func:`complete_samples`), ``pan rules`` the profiles and the rule ids
(:func:`complete_rule_or_profile`), and choices such as ``--game`` offer their values. Nothing
here imports rich or pyparsing.
"""

from __future__ import annotations

import os
from typing import Any

import click
from click.shell_completion import CompletionItem, get_completion_class

from pancli.cli import cli

SHELLS = ("bash", "zsh", "fish")
COMPLETE_VAR = "_PAN_COMPLETE"


def complete_rules(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """``--rules``: hoyle and cardroom, and the house-rules files (``*.toml``, and folders to
    reach them) that start with what is typed."""
    from pancli.app.lines import (
        profile_names,  # start-up: only a TAB on --rules asks for the profiles, not pan completion
    )

    found = [CompletionItem(name, help="built-in profile") for name in profile_names() if name.startswith(incomplete)]
    folder, _, start = incomplete.rpartition("/")
    where = folder or "."
    try:
        names = sorted(os.listdir(where or "/"))
    except OSError:
        return found
    bash = os.environ.get(COMPLETE_VAR, "").startswith("bash")
    for name in names:
        if not name.startswith(start) or (name.startswith(".") and not start.startswith(".")):
            continue
        if not name.isprintable():  # a line end would end the item: the rest would be read as another
            continue
        path = f"{folder}/{name}" if folder or incomplete.startswith("/") else name
        if os.path.isdir(os.path.join(where or "/", name)):
            found.append(CompletionItem(_quoted(path + "/", bash), type="plain"))
        elif name.endswith(".toml"):
            found.append(CompletionItem(_quoted(path, bash), help="house rules"))
    return found


def _quoted(path: str, bash: bool) -> str:
    """``path`` as bash inserts it (quoted when it holds a space or a character the shell reads);
    zsh and fish quote what they insert themselves.

    >>> _quoted("my rules.toml", True), _quoted("ok.toml", True), _quoted("my rules.toml", False)
    ("'my rules.toml'", 'ok.toml', 'my rules.toml')
    """
    if not bash:
        return path
    import shlex  # start-up: pan completion does without it

    return shlex.quote(path)


def complete_samples(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """``pan samples NAME``: the shipped records and house-rules files that start with what is typed."""
    from pancli.app.samples import sample_choices  # start-up: pan completion does without it

    return [CompletionItem(n, help="sample") for n in sample_choices() if n.startswith(incomplete)]


def complete_rule_or_profile(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """``pan rules [PROFILE|FILE|RULE]``: the profiles and ``*.toml`` files as for ``--rules``,
    and, once a letter is typed, the rule ids that start with it (``p`` or ``P``: P1 ... P10)."""
    found = complete_rules(ctx, param, incomplete)
    if incomplete and "/" not in incomplete:
        from pancli.app.lines import rule_titles  # start-up: pan completion does without it

        typed = incomplete.upper()
        found += [CompletionItem(r, help=title) for r, title in rule_titles() if r.startswith(typed)]
    return found


def completion_script(shell: str, command: Any = None) -> str:
    """The completion script of ``shell`` for the ``pan`` command line."""
    cls = get_completion_class(shell)
    if cls is None:  # pragma: no cover - the choice below allows only click's shells
        raise click.UsageError(f"no completion for {shell}")
    return cls(cli if command is None else command, {}, "pan", COMPLETE_VAR).source()


@click.command(
    "completion",
    epilog="Exit status: 0, or 2 for a shell pan has no script for.",
)
@click.argument("shell", type=click.Choice(SHELLS))
def completion(shell: str) -> None:
    """Print the shell completion script of pan for SHELL (bash, zsh or fish).

    With it, TAB completes commands, options, file names, --rules profiles and house-rules
    files, and the choices of options such as --game.

    \b
    Examples:
      eval "$(pan completion bash)"          # in ~/.bashrc
      eval "$(pan completion zsh)"           # in ~/.zshrc
      mkdir -p ~/.config/fish/completions && pan completion fish > ~/.config/fish/completions/pan.fish
    """
    click.echo(completion_script(shell), nl=False)
