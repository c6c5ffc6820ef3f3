"""Watching agents: a whole game without input, every action printed (or one JSON object at the end)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from rich.console import Console

from cli.explain import agent_choose
from cli.renderer import Renderer
from cli.session import EXIT_INTERRUPTED, Player, _records
from core.protocol import GameState


def watch(
    state: GameState,
    players: Sequence[Player],
    renderer: Renderer,
    console: Console,
    *,
    seed: int,
    ruleset_name: str,
    as_json: bool = False,
    show_board: bool = False,
) -> dict[str, Any]:
    """Play a whole game between agents; print every action (or only JSON at the end).

    Returns the result: ruleset, seed, agents, wealth, breakdown, winners, actions.
    Nothing printed depends on time, so the output is the same on every run.
    """
    quiet = Console(quiet=True) if as_json else console
    while not state.is_terminal():
        seat = state.current_player()
        player = players[seat]
        if as_json:
            action = player.agent.choose(state.clone())  # type: ignore[union-attr]
        else:  # a spinner while an AI thinks, only on a terminal (the printed text is the same)
            action = agent_choose(player.agent, state, console, player.label)
        before = state.clone()
        state.apply_action(action)
        for line in renderer.event_lines(state, players, seat, action, before):
            quiet.print(line, soft_wrap=True)
    summary = _records().state_summary(state)
    result = {
        "ruleset": ruleset_name,
        "seed": seed,
        "agents": [p.spec or p.name for p in players],
        "wealth": summary["wealth"],
        "breakdown": summary["breakdown"],
        "winners": summary["winners"],
        "actions": summary["actions"],
    }
    if as_json:
        print(json.dumps(result), flush=True)
    else:
        if show_board:
            console.print(renderer.board(state, players, None))
        console.print(renderer.final(state, players))
    return result


def watch_or_exit(
    state: GameState,
    players: Sequence[Player],
    renderer: Renderer,
    console: Console,
    *,
    seed: int,
    ruleset_name: str,
    as_json: bool,
) -> None:
    """``watch``, turning Ctrl-C into a short message and exit code 130."""
    import typer

    from cli.console import make_console

    try:
        watch(state, players, renderer, console, seed=seed, ruleset_name=ruleset_name, as_json=as_json)
    except KeyboardInterrupt:
        make_console(stderr=True).print("\nInterrupted: the game is stopped.")
        raise typer.Exit(EXIT_INTERRUPTED) from None
