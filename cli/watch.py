"""Watching agents: a whole game without input, every action printed (or one JSON object at the end).
In a terminal the board follows every action, at a pace a person can follow (:data:`PACE`); into a
pipe or a file the game is printed at once, the same on every run.

The game is played through its :class:`~core.table.Table`, the one loop every game plays through."""

from __future__ import annotations

import json
import time
from typing import Any

import typer
from rich.console import Console
from rich.text import Text

from cli.console import Copy, make_console, told
from cli.explain import agent_choose
from cli.renderer import Renderer
from cli.session import EXIT_INTERRUPTED, typed_name
from core import records
from core.protocol import GameState
from core.table import Table, agents_decide

#: seconds between two actions when a game is watched in a terminal (Ctrl-C stops it; it is saved)
PACE = 0.5


def watch(
    table: Table,
    renderer: Renderer,
    console: Console,
    *,
    as_json: bool = False,
    show_board: bool = False,
    pace: float | None = None,
) -> dict[str, Any]:
    """Play a whole game between agents at ``table``; print every action (or only JSON at the end).
    In a terminal (not with ``as_json``) the board follows every action and the game goes at ``pace``
    seconds an action (:data:`PACE` unless given; 0: the action lines alone, as fast as they come).

    Returns the result: ruleset, seed, agents, wealth, breakdown, winners, actions.
    Nothing printed depends on time, so the output is the same on every run.
    """
    quiet = Console(quiet=True) if as_json else console
    delay = PACE if pace is None else pace
    paced = not as_json and console.is_terminal and delay > 0  # pace 0: the action lines alone, at once
    if paced:
        console.print(renderer.board(table.state, table.seats, None))

    def decide(t: Table, seat: int) -> Any:
        if as_json:
            return agents_decide(t, seat)
        # a spinner while an AI thinks, only on a terminal (the printed text is the same)
        return agent_choose(t.agent_for(seat), t.state, console, t.seats[seat].label)

    def after(t: Table, before: GameState | None, actor: int, action: Any) -> None:
        for line in renderer.event_lines(t.state, t.seats, actor, action, before):
            quiet.print(line, soft_wrap=not quiet.is_terminal)  # whole words in a terminal
        if paced and not t.state.is_terminal():  # (the final board comes with the final table)
            console.print(renderer.board(t.state, t.seats, None))
            console.print(renderer.turn_line(t.state, t.seats))
            time.sleep(delay)

    state = table.play(decide, after)  # saved after every action, as at every table: a crash keeps the game
    summary = records.state_summary(state)
    result = {
        "ruleset": table.game.name,
        "seed": table.seed,
        "agents": [p.spec or p.name for p in table.seats],
        "wealth": summary["wealth"],
        "breakdown": summary["breakdown"],
        "winners": summary["winners"],
        "actions": summary["actions"],
    }
    if as_json:
        print(json.dumps(result), flush=True)
    else:
        if show_board or paced:
            console.print(renderer.board(state, table.seats, None))
        console.print(renderer.final(state, table.seats))
    say_saved(table, as_json)
    return result


def say_saved(table: Table, as_json: bool) -> None:
    """Where the watched game is saved, on stderr (the printed game stays the same on every run);
    with ``--json`` only a failed save is said."""
    if table.save_path is None or table.record is None:
        return
    err = make_console(stderr=True)
    if table.save_error:
        err.print(Text(f"{table.save_error} (the game was not saved)", style="error"))
    elif not as_json:
        name = typed_name(table.save_path)
        err.print(
            told(
                "Game record:",
                Copy(str(table.save_path)),
                "Replay it with",
                Copy(f"lehavre replay {name}"),
                "review it with",
                Copy(f"lehavre review {name}"),
                style="dim",
            ),
            crop=False,
        )


def watch_or_exit(
    table: Table, renderer: Renderer, console: Console, *, as_json: bool, pace: float | None = None
) -> None:
    """``watch``, turning Ctrl-C into a short message and exit code 130."""
    try:
        watch(table, renderer, console, as_json=as_json, pace=pace)
    except KeyboardInterrupt:
        make_console(stderr=True).print("\nInterrupted: the game is stopped.")
        raise typer.Exit(EXIT_INTERRUPTED) from None
