"""What a person sees before each decision, fitted to the terminal.

On a terminal the last screen before the prompt always holds, whatever the terminal's height:
the notes a loop keeps in view (a tutorial's note, the host's codes), what the other players did
since the person's last decision (the event lines, or one line per turn), the mover's own side
(at least a line or two: goods, francs, buildings), the turn line (whose turn, the round, the
actions left) and the numbered choices.  Choices that do not fit with their full notes are listed
with brief ones, and when even those do not fit they go in pages (``more`` shows the next): the
position is never pushed off the screen by its own choices.  Richer layouts (both players side by
side, the whole board) are used when the terminal has room for them; ``board`` and ``log`` show
the rest.  Text wraps at word boundaries.

The renderer offers the layouts (:meth:`cli.renderer.Renderer.screens`, richest first) and the
brief notes; :func:`arrange` picks what fits.  Without a terminal (a pipe, a file) or with
``--plain`` the play loop prints the plain transcript instead: the whole board before every decision.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text

#: how many of the latest event lines the fitted screen keeps in view when it has no summary of them
RECENT_EVENTS = 4
#: the fewest choices a page holds (when there are that many), however short the terminal
PAGE_LEAST = 3


def height_of(console: Console, renderable: RenderableType) -> int:
    """How many lines ``renderable`` takes on ``console`` at its width."""
    return len(console.render_lines(renderable, console.options, pad=False, new_lines=False))


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


def entry(n: int, name: str, note: str) -> Text:
    """One numbered choice: ' 3. name  note' (the note dim)."""
    t = Text()
    t.append(f"{n:>2}. ", style="bold")
    t.append(name, style="bold")
    if note:
        t.append(f"  {note}", style="dim")
    return t


@dataclass
class Menu:
    """Numbered choices in two wordings (``full`` notes, and ``brief`` ones for a screen short of
    lines) and the page shown when even the brief ones do not all fit (``start``: its first entry)."""

    full: list[Text]
    brief: list[Text]
    #: a line under the list, whatever its wording (the ways to pay left out)
    footer: Text | None = None
    start: int = 0
    #: the first entry after the page last shown (where ``more`` goes on)
    end: int = field(default=0, init=False)

    def __len__(self) -> int:
        return len(self.full)

    def wordings(self, width: int) -> list[RenderableType]:
        """The whole list, full notes first."""
        self.end = len(self.full)
        return [self.with_footer(numbered(self.full, width)), self.with_footer(numbered(self.brief, width))]

    def with_footer(self, listing: RenderableType) -> RenderableType:
        return Group(listing, self.footer) if self.footer is not None else listing

    def more(self) -> None:
        """Go on to the next page (after the last, the first again)."""
        self.start = self.end if self.end < len(self.brief) else 0

    def page(self, console: Console, lines: int) -> RenderableType:
        """The entries from ``start`` that fit in ``lines`` with the line saying how to see the others
        (at least :data:`PAGE_LEAST` of them)."""
        n = len(self.brief)
        start = self.start if self.start < n else 0
        shown: list[Text] = []
        below = 1 + (height_of(console, self.footer) if self.footer is not None else 0)
        for e in self.brief[start:]:
            if len(shown) >= PAGE_LEAST and height_of(console, numbered([*shown, e], console.width)) > lines - below:
                break
            shown.append(e)
        self.start, self.end = start, start + len(shown)
        nxt = f"{self.end + 1}-{n}" if self.end < n else f"1-{start}"
        more = Text(
            f"Choices {start + 1}-{self.end} of {n}; 'more' shows {nxt} (any number from 1 to {n} can be typed).",
            style="muted",
        )
        return Group(numbered(shown, console.width), more, *([self.footer] if self.footer is not None else []))


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


def recap(
    console: Console,
    events: Sequence[RenderableType],
    summary: Sequence[RenderableType],
    room: int,
    need: tuple[int, int],
) -> tuple[list[RenderableType], int]:
    """What to show between the events just printed and the screen, and how many lines above the
    screen to keep for it: every event line if they all fit in ``room`` above ``need[0]`` lines (a
    rich enough screen); else ``summary`` (one line per turn since the person's last decision) under
    a heading, cut to its last lines (at least one) if it does not fit above ``need[1]`` lines (the
    least screen); else the latest events that fit."""
    shown = height_of(console, Group(*events)) if events else 0
    if shown + need[0] <= room:
        return [], shown
    spare = room - need[1]
    if summary:
        lines = list(summary)
        head = Text("Since your last decision (every line above, and in 'log'):", style="muted")
        if height_of(console, Group(head, *lines)) > spare:
            tail = last_lines(console, lines, spare - 1) or lines[-1:]
            n = len(lines) - len(tail)
            more = f"{n} earlier turn{'s' if n != 1 else ''} above; 'log' shows them"
            head = Text(f"Since your last decision ({more}):", style="muted")
            lines = tail
        return [head, *lines], height_of(console, Group(head, *lines))
    recent = last_lines(console, events, min(max(spare, 0), 2 * RECENT_EVENTS))[-RECENT_EVENTS:]
    return [], height_of(console, Group(*recent)) if recent else 0


@dataclass(frozen=True)
class Screen:
    """A fitted screen: what to print again above it (``again``: the turns since the person's last
    decision, when the event lines above do not all stay in view) and the ``screen`` itself."""

    again: list[RenderableType]
    screen: RenderableType


def arrange(
    console: Console,
    room: int,
    *,
    events: Sequence[RenderableType],
    summary: Sequence[RenderableType],
    kept: Sequence[RenderableType],
    tops: Sequence[RenderableType],
    turn: RenderableType,
    menu: Menu,
) -> Screen:
    """The screen for ``room`` lines, printed after ``events``: ``kept`` (notes that stay in view),
    then the richest of ``tops`` (the renderer's layouts, richest first; the last, a line or two of
    the mover's side, is always shown) with the turn line and the choices, full notes before brief
    ones, pages when the brief ones do not all fit.  Above it, the events if they all stay in view
    with the second smallest layout and the full notes, else :func:`recap`'s summary."""
    kept_h = height_of(console, Group(*kept)) if kept else 0
    wordings = menu.wordings(console.width)
    least = kept_h + height_of(console, Group(tops[-1], turn)) + min(height_of(console, wordings[-1]), PAGE_LEAST + 1)
    rich = kept_h + height_of(console, Group(tops[-2 if len(tops) > 1 else -1], turn, wordings[0]))
    again, reserve = recap(console, events, summary, room, (rich, least))
    left = room - kept_h - reserve
    for m in wordings:
        for top in tops:
            candidate = Group(top, turn, m)
            if height_of(console, candidate) <= left:
                return Screen(again, Group(*kept, candidate))
    lines = left - height_of(console, Group(tops[-1], turn))
    return Screen(again, Group(*kept, tops[-1], turn, menu.page(console, lines)))
