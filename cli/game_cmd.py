"""The flow every game command shares, written once: watch agents, continue a saved game, or start
a new one at this keyboard, then play it.  A game command (``lehavre inland``, ``lehavre base``)
reads its options into one :class:`PlayOptions` and gives the flow a :class:`GameCommand`: its game,
its game options (made already), its conflicts and how its seats and opening lines are made."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import typer
from rich.console import Console
from rich.text import Text

from cli import play as loop
from cli.console import error, make_console
from cli.options import Conflict, Level
from cli.prompt import Coach
from cli.renderer import Renderer
from cli.session import agent_seats
from core.agents import AgentSpecError, check_noise, parse_agent_list
from core.protocol import GameError, GameSpec, GameState
from core.search import Noise, ThinkTime


@dataclass(frozen=True)
class PlayOptions:
    """The options both game commands take, read once from the command line (each checked where it is
    declared, in :mod:`cli.options` or the game's command)."""

    seed: int | None
    noise: Noise | None
    think_time: ThinkTime | None
    watch: bool
    agents: str | None
    json_out: bool
    resume: bool
    load: str | None
    no_undo: bool
    no_save: bool
    plain: bool
    level: Level | None
    opponent: str
    seat: str
    #: seconds between two actions of a game watched in a terminal (None: the default pace)
    pace: float | None = None

    @property
    def watching(self) -> bool:
        """Agents play every seat (``--watch``, or ``--agents`` alone)."""
        return self.watch or self.agents is not None


#: the seats of a new game at this keyboard and its opening line, for a seed, the game's options and
#: the ``--opponent`` (its level applied)
Seats = Callable[[int, Any, str], tuple[list[loop.Player], str]]
#: the line before a watched game: console, renderer, first position, seats, seed
WatchIntro = Callable[[Console, Renderer, GameState, list[loop.Player], int], None]


@dataclass(frozen=True)
class GameCommand:
    """What one game command gives the shared flow, made from its options."""

    name: str
    spec: GameSpec
    renderer: Callable[..., Renderer]
    #: options that do not go together (see :func:`cli.options.refuse_conflicts`)
    conflicts: Sequence[Conflict]
    #: the game's options (a bad data file has exited with code 2 already)
    options: Any
    #: how many play
    players: int
    seats: Seats
    watch_intro: WatchIntro
    #: a tutorial's coach, else None
    coach: Coach | None = None
    #: what ``--agents``'s count error adds for this game
    agents_hint: str = ""
    #: two agents of the same kind in a watched game are told apart by their seat ('random #2')
    number_alike: bool = False
    #: the style of the line under the opening line
    hint_style: str = "muted"


def run(cmd: GameCommand, ctx: typer.Context, p: PlayOptions) -> None:
    """The game command's whole flow; exits with the play loop's code."""
    console = make_console()
    opponent = loop.opponent_with_level(p.opponent, p.level, p.watching)
    loop.check_mode(p.watching, p.json_out, p.resume, p.load, p.noise)
    loop.refuse_conflicts(ctx, cmd.conflicts)
    renderer = cmd.renderer(console=console)
    if p.watching:
        watch(cmd, console, renderer, p)
        return
    if p.resume or p.load is not None:
        session = loop.resume_or_exit(p.load, cmd.name, cmd.spec.title, renderer, console, p.no_save)
        if session is None:
            return
    else:
        session = new_game(cmd, console, p, opponent)
    code = loop.play(session, renderer, console, allow_undo=not p.no_undo, plain=p.plain, coach=cmd.coach)
    if code:
        raise typer.Exit(code)


def watch(cmd: GameCommand, console: Console, renderer: Renderer, p: PlayOptions) -> None:
    """``--watch``: a whole game between the agents of ``--agents`` (or the default AI in every seat)."""
    text = p.agents if p.agents is not None else ",".join(["ai"] * cmd.players)
    try:
        specs = parse_agent_list(text, cmd.players, cmd.spec)
        check_noise(specs, p.noise)
    except AgentSpecError as exc:
        hint = cmd.agents_hint if str(exc).startswith("expected") else ""
        raise typer.BadParameter(f"{exc}{hint}", param_hint="'--agents'") from None
    seed = p.seed if p.seed is not None else loop.draw_seed()
    players = agent_seats(specs, seed, cmd.spec, noise=p.noise, think_time=p.think_time)
    if cmd.number_alike:
        number_alike(players, specs)
    loop.players_or_exit(players, p.think_time)
    # the watched game keeps its positions (what each action did is shown from the position before it)
    # and is saved like a game at the keyboard, so it can be replayed and reviewed (not with --no-save)
    table = table_or_exit(cmd, seed, players, p)
    if not p.json_out:
        cmd.watch_intro(console, renderer, table.state, players, seed)
    loop.watch_or_exit(table, renderer, console, as_json=p.json_out, pace=p.pace)


def number_alike(players: list[loop.Player], specs: list[str]) -> None:
    """Agents of the same kind told apart by their seat: 'random #1', 'random #2' (two seats)."""
    for s, player in enumerate(players):
        if specs.count(specs[s]) > 1 or player.name == specs[1 - s]:
            player.name = f"{player.name} #{s + 1}"


def table_or_exit(cmd: GameCommand, seed: int, players: list[loop.Player], p: PlayOptions) -> loop.Table:
    """The table of a new game; exit 2 with the reason if it cannot be set up."""
    try:
        return loop.new_session(cmd.name, cmd.spec, cmd.options, seed, players, autosave=not p.no_save)
    except GameError as exc:
        error(str(exc))
        raise typer.Exit(2) from None


def new_game(cmd: GameCommand, console: Console, p: PlayOptions, opponent: str) -> loop.Table:
    """A new game at this keyboard, with its opening lines; exit 2 if it cannot be set up."""
    seed = p.seed if p.seed is not None else loop.draw_seed()
    players, intro = cmd.seats(seed, cmd.options, opponent)
    loop.players_or_exit(players, p.think_time)
    session = table_or_exit(cmd, seed, players, p)
    console.print(Text(intro, style="bold"))
    console.print(Text("Type a number or an action; 'help' for every command, 'quit' to stop.", style=cmd.hint_style))
    return session
