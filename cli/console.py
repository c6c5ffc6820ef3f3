"""Rich consoles for the CLI.

Rich already honours ``NO_COLOR`` and a terminal that is not a TTY (no colour,
no cursor movement, width 80 or ``$COLUMNS``); these helpers never force a
terminal, so piping ``lehavre`` into a file gives plain text.
"""

from __future__ import annotations

from rich.console import Console
from rich.theme import Theme

#: colours of the four goods and of the roles on the board (one place)
THEME = Theme(
    {
        "fish": "bold bright_blue",
        "grain": "bold yellow",
        "wood": "bold dark_orange3",
        "clay": "bold red",
        "francs": "bold green",
        "seat0": "bold cyan",
        "seat1": "bold magenta",
        "muted": "dim",
        "error": "bold red",
        "note": "italic",
        "choice": "bold",
    }
)


def make_console(*, stderr: bool = False) -> Console:
    """A console for normal output (or for errors on stderr)."""
    return Console(stderr=stderr, theme=THEME, highlight=False)


def error(message: str) -> None:
    """Print a one-line error to stderr, without markup interpretation."""
    make_console(stderr=True).print(f"Error: {message}", style="error", markup=False, soft_wrap=True)
