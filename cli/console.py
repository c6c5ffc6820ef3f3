"""Rich consoles for the CLI, and the one :data:`THEME` that names every style of its own.

Rich already honours ``NO_COLOR`` and a terminal that is not a TTY (no colour,
no cursor movement, width 80 or ``$COLUMNS``); these helpers never force a
terminal, so piping ``lehavre`` into a file gives plain text.  Renderables use
the style names below (``muted``, ``error``, ``seat.1``, ``good.fish``, ...)
besides Rich's own attributes (``bold``, ``dim``); a console made here knows
them, and a console without the theme prints them unstyled.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass

from rich.console import Console, Group
from rich.text import Text
from rich.theme import Theme

#: every style name the CLI uses, in one place
THEME = Theme(
    {
        "muted": "dim",
        "error": "bold red",
        "warning": "bold yellow",
        "money": "bold green",
        "loan": "bold red",
        "interest": "bold red",
        "explain": "italic",
        # one colour per seat (up to 5 players)
        "seat.1": "bold cyan",
        "seat.2": "bold magenta",
        "seat.3": "bold green",
        "seat.4": "bold yellow",
        "seat.5": "bold bright_blue",
        # the Inland Port's goods, coloured as on the warehouse (blue, yellow, brown, red)
        "good.fish": "bold bright_blue",
        "good.grain": "bold yellow",
        "good.wood": "bold dark_orange3",
        "good.clay": "bold red",
    }
)

#: the style name of each seat, by seat index
SEAT_STYLES = ("seat.1", "seat.2", "seat.3", "seat.4", "seat.5")


def make_console(*, stderr: bool = False) -> Console:
    """A console for normal output (or for errors on stderr), with the CLI's theme."""
    return Console(stderr=stderr, highlight=False, theme=THEME)


def output_console() -> Console:
    """The console for tables: when output goes to a file or a pipe it is wide, so no name is ever cut."""
    out = make_console()
    if not out.is_terminal:
        out.width = max(out.width, 240)
    return out


def error(message: str) -> None:
    """Print an error to stderr, without markup interpretation: in a terminal wrapped at its width
    between words (never mid-word), into a file or a pipe on one line (whole, for grep and logs)."""
    console = make_console(stderr=True)
    console.print(f"Error: {message}", style="error", markup=False, soft_wrap=not console.is_terminal)


def fit_to_terminal(text: str, *, stderr: bool = True) -> str:
    """``text`` with each of its lines wrapped between words at the terminal's width (as :func:`error`
    does), for messages printed without Rich (click's usage errors); unchanged when not a terminal."""
    console = make_console(stderr=stderr)
    if not console.is_terminal:
        return text
    wrap = textwrap.TextWrapper(width=console.width, break_long_words=False, break_on_hyphens=False)
    return "\n".join(wrap.fill(line) if line.strip() else line for line in text.split("\n"))


@dataclass(frozen=True, slots=True)
class Copy:
    """A command or a path a person may copy (see :func:`told`)."""

    text: str


def told(*parts: str | Copy, style: str = "") -> Group:
    """Sentences, wrapped between words at the terminal's width, and each command or path a person may
    copy (:class:`Copy`) on a line of its own, indented and never broken: a line the program wraps
    would be copied in two pieces (a terminal narrower than it folds it, and copies it whole)."""
    out: list[Text] = []
    words = ""
    for part in parts:
        if isinstance(part, Copy):
            if words.strip():
                out.append(Text(words.strip(), style=style))
            words = ""
            out.append(Text(f"  {part.text}", no_wrap=True, overflow="ignore"))
        else:
            words += part
    if words.strip():
        out.append(Text(words.strip(), style=style))
    return Group(*out)
