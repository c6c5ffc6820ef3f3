"""How a game looks on screen: the :class:`Renderer` interface (one subclass per game,
e.g. ``cli.render_inland.InlandRenderer``) and the generic final table."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text

from core.table import PERSON, Seat
from core.view_model import placings


class Renderer:
    """How a rule set looks on screen.  Subclass per game; defaults are generic.

    The states are typed ``Any`` here: each game's renderer takes its own state class (a renderer is
    only ever given states of its game), which a narrower override may name."""

    ruleset = ""
    title = "game"

    def __init__(self, width: int | None = None, console: Console | None = None) -> None:
        self._width = width
        self.console = console

    @property
    def width(self) -> int:
        """The console's width now (a resized terminal redraws to fit), else the given width (100 if none)."""
        if self.console is not None:
            return self.console.width
        return self._width or 100

    def board(self, state: Any, players: Sequence[Seat], viewer: int | None) -> RenderableType:
        """The whole position, seen by ``viewer`` (a seat, or None for a spectator), at :attr:`width`."""
        return self.draw_board(state, players, viewer, self.width)

    def draw_board(self, state: Any, players: Sequence[Seat], viewer: int | None, width: int) -> RenderableType:
        """The whole position at ``width`` columns (a game's renderer draws its own)."""
        w = state.wealth()
        return Text("  ".join(f"{p.label}: wealth {w[i]}" for i, p in enumerate(players)))

    def screens(self, state: Any, players: Sequence[Seat], seat: int) -> list[RenderableType]:
        """What a terminal shows above the turn line and the choices, richest layout first (the
        play loop takes the first that fits, see :mod:`cli.screen`); the last one should be small:
        the mover's own side."""
        return [self.board(state, players, seat)]

    def game_line(self, state: Any) -> str:
        """The game's name as a game's first line gives it (a game adds its version and players)."""
        return self.title

    def seats_line(self, state: Any, players: Sequence[Seat], people: Sequence[int]) -> str:
        """Who sits where in a new game at this keyboard (``people``: the seats of the persons)."""
        return "People at this keyboard: " + ", ".join(players[s].name for s in people) + "."

    def watch_lines(self, state: Any, players: Sequence[Seat], seed: int) -> list[RenderableType]:
        """The lines before a watched game: the game, its agents and its seed."""
        who = " against ".join(p.label for p in players)
        return [Text(f"{self.game_line(state)}: {who}, seed {seed}", style="bold")]

    def seat_tag(self, players: Sequence[Seat], seat: int) -> str:
        """A player's short name in lines of moves (hint, why, history)."""
        return players[seat].name

    def who(self, players: Sequence[Seat], seat: int) -> str:
        """A player's name with its agent, as in 'why' ('ai:normal', 'P2 ai:normal')."""
        tag, label = self.seat_tag(players, seat), players[seat].label
        return label if tag == players[seat].name else f"{tag} {label}"

    def turn_line(self, state: Any, players: Sequence[Seat]) -> RenderableType:
        p = state.current_player()
        return Text(f"{players[p].label} to play")

    def event_lines(
        self, state: Any, players: Sequence[Seat], actor: int, action: Any, before: Any = None
    ) -> list[RenderableType]:
        """What the action just applied did (shown after every action); ``before`` is the position
        it was played from (the play loop's stack of positions), when the caller has it."""
        return [Text(f"{players[actor].label}: {action}")]

    def summary(self, steps: Sequence[tuple[Any, int, str]], players: Sequence[Seat]) -> list[RenderableType]:
        """The actions since a person last decided (the position before each, who played it, its text),
        one line per turn (a run of one player's actions): what the fitted screen shows when the
        event lines do not all stay in view above it."""
        out: list[RenderableType] = []
        for actor, run in turns(steps):
            out.append(Text(f"{players[actor].label}: " + "; ".join(text for _, text in run)))
        return out

    def group_of(self, action: Any) -> tuple[str, str]:
        """(what, how) of an action: the text before and after its first colon."""
        head, sep, tail = str(action).partition(":")
        return head.strip(), tail.strip() if sep else ""

    def group_in(self, state: Any, action: Any) -> tuple[str, str]:
        """:meth:`group_of` in ``state``, for a game whose grouping depends on the position."""
        return self.group_of(action)

    def describe_group(self, state: Any, head: str, actions: Sequence[Any]) -> str:
        """A short note after a first-step choice (cost, effect, number of ways)."""
        return f"{len(actions)} ways" if len(actions) > 1 else ""

    def brief_group(self, state: Any, head: str, actions: Sequence[Any]) -> tuple[str, str]:
        """A first-step choice's name and note in few words, for a screen short of lines (the full
        ones are :meth:`group_of`'s head or the action's text, and :meth:`describe_group`)."""
        return (head if len(actions) > 1 else str(actions[0])), self.describe_group(state, head, actions)

    def payment(self, state: Any, action: Any) -> tuple[str, dict[str, int]] | None:
        """What ``action`` pays, when it is a way to pay: what for (ways to pay for the same thing are
        compared) and how many of each good and of francs; None for any other action."""
        return None

    def listed(self, state: Any, actions: Sequence[Any]) -> list[Any]:
        """The actions the numbered choices list: all but the ways to pay that another way beats
        (:func:`unbeaten`); any legal action typed is still played."""
        return unbeaten(actions, [self.payment(state, a) for a in actions])

    def describe_choice(self, state: Any, action: Any) -> str:
        """A short note after a second-step choice (e.g. its outcome)."""
        return ""

    def reference(self, state: Any, name: str | None) -> RenderableType:
        """``rules [NAME]`` at the prompt: the reference of one item or all."""
        return Text("No rules reference for this game.")

    def names(self, state: Any) -> list[str]:
        """The names ``rules`` knows (the buildings), for Tab completion at the prompt."""
        return []

    def action_forms(self) -> RenderableType:
        """``help actions``: the action text forms of this game, with examples."""
        return Text("Type an action's text, e.g. as listed.")

    def final(self, state: Any, players: Sequence[Seat]) -> RenderableType:
        return final_table(state, [p.label for p in players], only_human(players))


def choice_groups(r: Renderer, state: Any) -> tuple[list[tuple[str, list[Any]]], int]:
    """The numbered choices of the player to move: the legal actions ``r`` lists (not the ways to pay
    another way beats), grouped by what they do (each group's head and actions), and how many it
    leaves out."""
    legal = state.legal_actions()
    listed = r.listed(state, legal)
    groups: dict[str, list[Any]] = {}
    for a in listed:
        head, _ = r.group_in(state, a)
        groups.setdefault(head, []).append(a)
    return list(groups.items()), len(legal) - len(listed)


def group_entry(r: Renderer, state: Any, head: str, actions: Sequence[Any]) -> tuple[str, str]:
    """A numbered choice's name (the action's text when it is alone) and its note."""
    return (head if len(actions) > 1 else str(actions[0])), r.describe_group(state, head, actions)


def way_entry(r: Renderer, state: Any, action: Any) -> tuple[str, str]:
    """One way of a choice of several (the second step): how it differs (its text after the colon, or
    the whole text) and its note."""
    return r.group_of(action)[1] or str(action), r.describe_choice(state, action)


def pays_no_more(a: dict[str, int], b: dict[str, int]) -> bool:
    """``a`` pays no more of anything than ``b`` (a missing kind: none of it)."""
    return all(a.get(k, 0) <= b.get(k, 0) for k in a.keys() | b.keys())


def unbeaten(actions: Sequence[Any], payments: Sequence[tuple[str, dict[str, int]] | None]) -> list[Any]:
    """``actions`` without the ways to pay another way beats: one paying for the same thing no more
    of anything and less of something (``payments``: each action's, None for no payment)."""
    out = []
    for a, pay in zip(actions, payments, strict=True):
        if pay is not None and any(
            other is not None
            and other[0] == pay[0]
            and pays_no_more(other[1], pay[1])
            and not pays_no_more(pay[1], other[1])
            for other in payments
        ):
            continue
        out.append(a)
    return out


def forms_table(title: str, rows: Sequence[tuple[str, str]], footer: str) -> RenderableType:
    """The action text forms as two columns (a form, what it does), the second wrapping in its column."""
    grid = Table.grid(padding=(0, 2))
    grid.add_column(no_wrap=True, style="bold")
    grid.add_column()
    for form, meaning in rows:
        grid.add_row(form, meaning)
    return Group(Text(title), grid, Text(footer))


def turns(steps: Sequence[tuple[Any, int, str]]) -> list[tuple[int, list[tuple[Any, str]]]]:
    """``steps`` (position before, actor, action text) cut into runs of one actor's actions."""
    out: list[tuple[int, list[tuple[Any, str]]]] = []
    for before, actor, text in steps:
        if not out or out[-1][0] != actor:
            out.append((actor, []))
        out[-1][1].append((before, text))
    return out


def place_text(place: int) -> str:
    """1 -> '1st', 2 -> '2nd', 3 -> '3rd', 4 -> '4th', ..."""
    suffix = "th" if 10 <= place % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
    return f"{place}{suffix}"


def only_human(players: Sequence[Seat]) -> int | None:
    """The seat of the one person at this keyboard, when exactly one seat is a person (the final
    table then speaks to them: 'You won by 12')."""
    seats = [i for i, p in enumerate(players) if p.kind == PERSON]
    return seats[0] if len(seats) == 1 and len(players) > 1 else None


def final_table(state: Any, labels: Sequence[str], you: int | None = None) -> RenderableType:
    """Every player's wealth breakdown, their placings and who won by how much; ``you``: the
    seat of the one person at this keyboard, if any ('You won by 12', 'You came 3rd')."""
    n = state.num_players
    table = Table(title="Final wealth" if state.is_terminal() else "Wealth now", title_justify="left")
    table.add_column("")
    for p in range(n):
        table.add_column(labels[p], justify="right")
    parts: list[str] = []
    breakdowns = [state.wealth_breakdown(p) for p in range(n)]
    for b in breakdowns:
        for k in b:
            if k not in parts:
                parts.append(k)
    for k in parts:
        table.add_row(k, *[str(b[k]) if k in b else "" for b in breakdowns])
    table.add_section()
    wealth = state.wealth()
    table.add_row(Text("total", style="bold"), *[Text(str(x), style="bold") for x in wealth])
    if state.is_terminal() and n > 1:
        table.add_row(Text("place", style="bold"), *[Text(place_text(x), style="bold") for x in placings(wealth)])
    lines: list[RenderableType] = [table]
    if state.is_terminal():
        lines.append(Text(result_text(wealth, labels, you), style="bold"))
    return Group(*lines)


def result_text(wealth: Sequence[int], labels: Sequence[str], you: int | None = None) -> str:
    """Who won, with what and by how much: 'Winner: You with 40. You won by 12.'"""
    n = len(wealth)
    best = max(wealth)
    win = [p for p in range(n) if wealth[p] == best]
    if n == 1:
        return f"Final wealth: {labels[0]} with {best}."
    if len(win) == n:
        return f"A tie at {best}."
    names = " and ".join(labels[p] for p in win)
    runner_up = max(x for x in wealth if x < best)
    if len(win) > 1:
        text = f"Tie: {names} with {best}: a tie for 1st, {best - runner_up} ahead of the rest."
    else:
        winner = "You" if you == win[0] else labels[win[0]]
        text = f"Winner: {labels[win[0]]} with {best}. {winner} won by {best - runner_up}."
    if you is not None and you not in win and n > 2:
        text += f" You came {place_text(placings(wealth)[you])}, {best - wealth[you]} behind."
    return text
