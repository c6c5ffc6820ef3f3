"""The flow every game command shares, written once: watch agents, continue a saved game, or start
a new one at this keyboard, then play it.  A game command (``lehavre inland``, ``lehavre base``)
declares its options and a :class:`GameCommand`: how its options, seats and opening lines are made.
``lehavre host`` makes a game's options the same way (:meth:`GameCommand.options`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import typer
from rich.console import Console
from rich.text import Text

from cli import play as loop
from cli.console import error, make_console
from cli.prompt import Coach
from cli.renderer import Renderer
from core.agents import AgentSpecError, check_noise, make_agent, parse_agent_list
from core.protocol import GameError, GameSpec, GameState
from core.table import AGENT, Seat, seat_seed

#: a command's parameters, by their names in its signature (``players_n``, ``seed``, ``buildings``, ...)
Params = dict[str, Any]


def _no_coach(p: Params) -> Coach | None:
    return None


def _agent_error(message: str, p: Params) -> str:
    return message


@dataclass(frozen=True)
class GameCommand:
    """What one game command adds to the shared flow."""

    name: str
    spec: GameSpec
    renderer: Callable[..., Renderer]
    #: options that do not go together (see :func:`cli.options.refuse_conflicts`)
    conflicts: tuple[tuple[tuple[str, ...], tuple[str, ...], str], ...]
    #: the game's options from the parameters (a bad data file exits with code 2)
    options: Callable[[Params], Any]
    #: how many play
    players: Callable[[Params], int]
    #: the seats of a new game at this keyboard and the opening line: ``seats(p, seed, options)``
    seats: Callable[[Params, int, Any], tuple[list[loop.Player], str]]
    #: the agents of ``--watch`` (``agents(p, specs, seed)``) and the line before the game
    watchers: Callable[[Params, list[str], int], list[loop.Player]]
    watch_intro: Callable[[Console, Renderer, GameState, list[loop.Player], int, Params], None]
    #: a tutorial (may set the seed, opponent and seat in ``p``), else None
    coach: Callable[[Params], Coach | None] = _no_coach
    #: ``--agents``'s error message, completed for this game
    agent_error: Callable[[str, Params], str] = _agent_error
    #: the style of the line under the opening line
    hint_style: str = "muted"


def run(cmd: GameCommand, ctx: typer.Context, p: Params) -> None:
    """The game command's whole flow; exits with the play loop's code."""
    console = make_console()
    p["watch"] = p["watch"] or p["agents"] is not None
    p["opponent"] = loop.opponent_with_level(p["opponent"], p["level"], p["watch"])
    loop.check_mode(p["watch"], p["json_out"], p["resume"], p["load"], p["noise"])
    loop.refuse_conflicts(ctx, cmd.conflicts)
    renderer = cmd.renderer(console=console)
    if p["watch"]:
        watch(cmd, console, renderer, p)
        return
    coach = cmd.coach(p)
    if p["resume"] or p["load"] is not None:
        session = loop.resume_or_exit(p["load"], cmd.name, cmd.spec.title, renderer, console, p["no_save"])
        if session is None:
            return
    else:
        session = new_game(cmd, console, p)
    code = loop.play(session, renderer, console, allow_undo=not p["no_undo"], plain=p["plain"], coach=coach)
    if code:
        raise typer.Exit(code)


def watch(cmd: GameCommand, console: Console, renderer: Renderer, p: Params) -> None:
    """``--watch``: a whole game between the agents of ``--agents`` (or the default AI in every seat)."""
    n = cmd.players(p)
    text = p["agents"] if p["agents"] is not None else ",".join(["ai"] * n)
    try:
        specs = parse_agent_list(text, n, cmd.spec)
        check_noise(specs, p["noise"])  # an agent with its own noise and --noise: refused here
    except AgentSpecError as exc:
        raise typer.BadParameter(cmd.agent_error(str(exc), p), param_hint="'--agents'") from None
    options = cmd.options(p)
    seed = p["seed"] if p["seed"] is not None else loop.draw_seed()
    players = cmd.watchers(p, specs, seed)
    loop.players_or_exit(players, p["think_time"])
    # the watched game keeps its positions (what each action did is shown from the position before it)
    # and is saved like a game at the keyboard, so it can be replayed and reviewed (not with --no-save)
    try:
        table = loop.new_session(cmd.name, cmd.spec, options, seed, players, autosave=not p["no_save"])
    except GameError as exc:
        error(str(exc))
        raise typer.Exit(2) from None
    if not p["json_out"]:
        cmd.watch_intro(console, renderer, table.state, players, seed, p)
    loop.watch_or_exit(table, renderer, console, as_json=p["json_out"])


def new_game(cmd: GameCommand, console: Console, p: Params) -> loop.Table:
    """A new game at this keyboard, with its opening lines; exit 2 if it cannot be set up."""
    seed = p["seed"] if p["seed"] is not None else loop.draw_seed()
    options = cmd.options(p)
    players, intro = cmd.seats(p, seed, options)
    loop.players_or_exit(players, p["think_time"])
    try:
        session = loop.new_session(cmd.name, cmd.spec, options, seed, players, autosave=not p["no_save"])
    except GameError as exc:
        error(str(exc))
        raise typer.Exit(2) from None
    console.print(Text(intro, style="bold"))
    console.print(Text("Type a number or an action; 'help' for every command, 'quit' to stop.", style=cmd.hint_style))
    return session


def agent_players(p: Params, specs: list[str], seed: int, game: GameSpec) -> list[Seat]:
    """One seat per agent spec (``--watch``), seeded by the one derivation; ``--noise`` and
    ``--think-time`` go to each ai agent."""
    seats = []
    for s, spec in enumerate(specs):
        agent = make_agent(spec, seat_seed(seed, s), game, noise=p["noise"], think_time=p["think_time"])
        seats.append(Seat(agent.name, AGENT, agent.name, agent))
    return seats
