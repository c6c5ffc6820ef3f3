"""What a person sees before each decision, fitted to the terminal.

On a terminal the last screen before the prompt always holds the turn line
(whose turn, the round and the actions left), the mover's own side (the
Inland Port's warehouse grid, the base game's goods) and the numbered choices
with their full names and costs.  Richer layouts (both players side by side,
the whole board) are used when the terminal has room for them; ``board`` and
``log`` show the rest.  Text wraps at word boundaries and nothing is cut.

The renderer offers the layouts (:meth:`cli.renderer.Renderer.screens`,
richest first); :func:`fit` picks the first that fits the terminal's height.
Without a terminal (a pipe, a file) or with ``--plain`` the play loop prints
the plain transcript instead: the whole board before every decision.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text

#: how many of the latest event lines the fitted screen keeps in view when it has no summary of them
RECENT_EVENTS = 4


def height_of(console: Console, renderable: RenderableType) -> int:
    """How many lines ``renderable`` takes on ``console`` at its width."""
    return len(console.render_lines(renderable, console.options, pad=False, new_lines=False))


def fit(console: Console, candidates: Sequence[RenderableType], lines: int) -> RenderableType:
    """The first candidate that takes at most ``lines`` lines; the last one if none does."""
    for c in candidates[:-1]:
        if height_of(console, c) <= lines:
            return c
    return candidates[-1]


def numbered(entries: Sequence[Text], width: int) -> RenderableType:
    """Numbered entries ('NN. name  note'): two columns when every entry fits in half the
    width without wrapping, else one column whose text wraps at word boundaries under itself
    (the number stays in its own column, so a wrapped line is indented)."""
    if not entries:
        return Text("")
    longest = max(e.cell_len for e in entries)
    if len(entries) > 6 and longest * 2 + 4 <= width:
        grid = Table.grid(padding=(0, 3))
        for _ in range(2):
            grid.add_column(no_wrap=True)
        rows = (len(entries) + 1) // 2
        for r in range(rows):  # column-major: 1..rows in the first column
            grid.add_row(*[entries[c * rows + r] if c * rows + r < len(entries) else Text("") for c in range(2)])
        return grid
    grid = Table.grid(padding=(0, 0))
    grid.add_column(no_wrap=True)
    grid.add_column(ratio=1, overflow="fold")
    for e in entries:
        split = e.plain.find(". ") + 2 if ". " in e.plain[:6] else 0
        grid.add_row(e[:split], e[split:])
    return grid


def last_lines(console: Console, lines: Sequence[RenderableType], room: int) -> list[RenderableType]:
    """The last of ``lines`` that fit in ``room`` lines together."""
    out: list[RenderableType] = []
    used = 0
    for line in reversed(lines):
        h = height_of(console, line)
        if used + h > room:
            break
        out.insert(0, line)
        used += h
    return out


def screen(
    console: Console,
    tops: Sequence[RenderableType],
    turn: RenderableType,
    menu: RenderableType,
    *,
    room: int,
) -> RenderableType:
    """The richest of ``tops`` (the renderer's layouts, richest first) that fits above the turn
    line and the choices in ``room`` lines; the turn line and the choices alone if none does."""
    candidates = [Group(top, turn, menu) for top in tops] + [Group(turn, menu)]
    return fit(console, candidates, room)


def recap(
    console: Console,
    events: Sequence[RenderableType],
    summary: Sequence[RenderableType],
    smallest: Sequence[RenderableType],
    room: int,
) -> tuple[list[RenderableType], int]:
    """What to show between the events just printed and the screen, and how many lines above the
    screen to keep for it: every event line if they all fit in ``room`` above the mover's own side
    (``smallest``: the two smallest screens, the mover's side first); else ``summary`` (one line per
    turn since the person's last decision) under a heading, its last lines and how many are left out
    if even that does not fit above the smallest screen; else the latest events that fit."""
    need = [height_of(console, s) for s in smallest]
    shown = height_of(console, Group(*events)) if events else 0
    if shown + need[0] <= room:
        return [], shown
    spare = room - need[-1]
    if summary and spare >= 2:
        lines = list(summary)
        head = Text("Since your last decision (every line above, and in 'log'):", style="muted")
        if height_of(console, Group(head, *lines)) > spare:
            tail = last_lines(console, lines, spare - 1)
            n = len(lines) - len(tail)
            more = f"{n} earlier turn{'s' if n != 1 else ''} above; 'log' shows them"
            head = Text(f"Since your last decision ({more}):", style="muted")
            lines = tail
        return [head, *lines], height_of(console, Group(head, *lines))
    recent = last_lines(console, events, min(max(spare, 0), 2 * RECENT_EVENTS))[-RECENT_EVENTS:]
    return [], height_of(console, Group(*recent)) if recent else 0
