"""Rich consoles for the CLI.

Rich already honours ``NO_COLOR`` and a terminal that is not a TTY (no colour,
no cursor movement, width 80 or ``$COLUMNS``); these helpers never force a
terminal, so piping ``lehavre`` into a file gives plain text.  Renderables use
plain Rich styles (no theme), so they print on any console.
"""

from __future__ import annotations

from rich.console import Console


def make_console(*, stderr: bool = False) -> Console:
    """A console for normal output (or for errors on stderr)."""
    return Console(stderr=stderr, highlight=False)


def error(message: str) -> None:
    """Print an error to stderr, without markup interpretation."""
    make_console(stderr=True).print(f"Error: {message}", style="bold red", markup=False, soft_wrap=True)
