"""How a game looks on screen: the :class:`Renderer` interface (one subclass per game,
e.g. ``cli.render_inland.InlandRenderer``) and the generic final table."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from core.protocol import GameState
from core.table import Seat


class Renderer:
    """How a rule set looks on screen.  Subclass per game; defaults are generic."""

    ruleset = ""
    title = "game"

    def board(self, state: GameState, players: Sequence[Seat], viewer: int | None) -> RenderableType:
        """The whole position, seen by ``viewer`` (a seat, or None for a spectator)."""
        w = state.wealth()
        return Text("  ".join(f"{p.label}: wealth {w[i]}" for i, p in enumerate(players)))

    def screens(self, state: GameState, players: Sequence[Seat], seat: int) -> list[RenderableType]:
        """What a terminal shows above the turn line and the choices, richest layout first (the
        play loop takes the first that fits, see :mod:`cli.screen`); the last one should be small:
        the mover's own side."""
        return [self.board(state, players, seat)]

    def seat_tag(self, players: Sequence[Seat], seat: int) -> str:
        """A player's short name in lines of moves (hint, why, history)."""
        return players[seat].name

    def who(self, players: Sequence[Seat], seat: int) -> str:
        """A player's name with its agent, as in 'why' ('ai:normal', 'P2 ai:normal')."""
        tag, label = self.seat_tag(players, seat), players[seat].label
        return label if tag == players[seat].name else f"{tag} {label}"

    def turn_line(self, state: GameState, players: Sequence[Seat]) -> RenderableType:
        p = state.current_player()
        return Text(f"{players[p].label} to play")

    def event_lines(
        self, state: GameState, players: Sequence[Seat], actor: int, action: Any, before: GameState | None = None
    ) -> list[RenderableType]:
        """What the action just applied did (shown after every action); ``before`` is the position
        it was played from (the play loop's stack of positions), when the caller has it."""
        return [Text(f"{players[actor].label}: {action}")]

    def group_of(self, action: Any) -> tuple[str, str]:
        """(what, how) of an action: the text before and after its first colon."""
        head, sep, tail = str(action).partition(":")
        return head.strip(), tail.strip() if sep else ""

    def group_in(self, state: GameState, action: Any) -> tuple[str, str]:
        """:meth:`group_of` in ``state``, for a game whose grouping depends on the position."""
        return self.group_of(action)

    def describe_group(self, state: GameState, head: str, actions: Sequence[Any]) -> str:
        """A short note after a first-step choice (cost, effect, number of ways)."""
        return f"{len(actions)} ways" if len(actions) > 1 else ""

    def describe_choice(self, state: GameState, action: Any) -> str:
        """A short note after a second-step choice (e.g. its outcome)."""
        return ""

    def reference(self, state: GameState, name: str | None) -> RenderableType:
        """``rules [NAME]`` at the prompt: the reference of one item or all."""
        return Text("No rules reference for this game.")

    def action_forms(self) -> str:
        """Help text: the action text forms of this game, with examples."""
        return "Type an action's text, e.g. as listed."

    def final(self, state: GameState, players: Sequence[Seat]) -> RenderableType:
        return final_table(state, [p.label for p in players])


def final_table(state: GameState, labels: Sequence[str]) -> RenderableType:
    """Every player's wealth breakdown and the winners (generic)."""
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
    lines: list[RenderableType] = [table]
    if state.is_terminal():
        win = state.winners()
        if len(win) == n and n > 1:
            lines.append(Text(f"A tie at {wealth[0]}.", style="bold"))
        else:
            names = " and ".join(labels[p] for p in win)
            lines.append(
                Text(
                    f"Winner: {names} with {wealth[win[0]]}."
                    if len(win) == 1
                    else f"Tie: {names} with {wealth[win[0]]}.",
                    style="bold",
                )
            )
    return Group(*lines)
