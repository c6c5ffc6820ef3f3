"""The flow every game command shares, written once: watch agents, continue a saved game, or start
a new one at this keyboard, then play it.  A game command (``lehavre inland``, ``lehavre base``)
reads its options into one :class:`PlayOptions` (the options every game command takes, declared once:
:func:`play_command`) and gives the flow a :class:`GameCommand`, plain data: its game, its game options
(made already), its conflicts, how many play and how many of them are people.  The flow makes the seats
(:mod:`cli.session`) and the game's renderer says its opening lines."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import typer
from rich.console import Console
from rich.text import Text

from cli.console import error, make_console
from cli.options import (
    Conflict,
    JsonOption,
    Level,
    LoadOption,
    NoiseOption,
    NoSaveOption,
    NoUndoOption,
    PaceOption,
    PlainOption,
    ResumeOption,
    SeedOption,
    WatchOption,
    check_mode,
    opponent_with_level,
    refuse_conflicts,
)
from cli.prompt import Coach, play
from cli.renderer import Renderer
from cli.session import agent_seats, draw_seed, keyboard_seats, new_session, people_seats, resume_or_exit
from cli.watch import watch_or_exit
from core.agents import AgentSpecError, ThinkTimeError, parse_agent_list
from core.protocol import GameError, GameSpec
from core.search import Noise, ThinkTime
from core.table import Seat, Table


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


#: the options every game command takes, declared once here and added to its own by :func:`play_command`
#: (name, declaration, default), in the order ``--help`` lists them after the game's own
SHARED_OPTIONS: tuple[tuple[str, Any, Any], ...] = (
    ("seed", SeedOption, None),
    ("noise", NoiseOption, None),
    ("watch", WatchOption, False),
    ("json_out", JsonOption, False),
    ("resume", ResumeOption, False),
    ("load", LoadOption, None),
    ("no_undo", NoUndoOption, False),
    ("no_save", NoSaveOption, False),
    ("plain", PlainOption, False),
    ("pace", PaceOption, None),
)


@dataclass(frozen=True)
class PlayDeclarations:
    """The options of :class:`PlayOptions` a game declares in its own words: who plays the other seats,
    which seat a person takes, the agents of ``--watch``, and the AI's levels and time (the game's budgets)."""

    opponent: Any
    seat: Any
    agents: Any
    level: Any
    think_time: Any

    def parameters(self) -> list[inspect.Parameter]:
        """Every option of :class:`PlayOptions` as a command's parameter."""
        own = (
            ("opponent", self.opponent, "ai"),
            ("seat", self.seat, "random"),
            ("agents", self.agents, None),
            ("level", self.level, None),
            ("think_time", self.think_time, None),
        )
        return [
            inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, annotation=declaration, default=default)
            for name, declaration, default in (*own, *SHARED_OPTIONS)
        ]


def play_command(declared: PlayDeclarations) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """A game command (``command(ctx, p, **its own options)``) taking the options of :class:`PlayOptions`
    besides its own: they are read once into ``p``, as ``declared`` and :data:`SHARED_OPTIONS` declare them."""

    def wrap(command: Callable[..., None]) -> Callable[..., None]:
        own = list(inspect.signature(command, eval_str=True).parameters.values())
        shared = declared.parameters()
        names = [q.name for q in shared]

        @functools.wraps(command)
        def with_play_options(ctx: typer.Context, **given: Any) -> None:
            command(ctx, PlayOptions(**{name: given.pop(name) for name in names}), **given)

        with_play_options.__signature__ = inspect.Signature([own[0], *own[2:], *shared])  # type: ignore[attr-defined]
        return with_play_options

    return wrap


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
    #: how many of them are people at this keyboard
    people: int = 1
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
    opponent = opponent_with_level(p.opponent, p.level, p.watching)
    check_mode(p.watching, p.json_out, p.resume, p.load, p.noise)
    refuse_conflicts(ctx, cmd.conflicts)
    renderer = cmd.renderer(console=console)
    if p.watching:
        watch(cmd, console, renderer, p)
        return
    if p.resume or p.load is not None:
        session = resume_or_exit(p.load, cmd.name, cmd.spec.title, renderer, console, p.no_save)
        if session is None:
            return
    else:
        session = new_game(cmd, console, renderer, p, opponent)
    code = play(session, renderer, console, allow_undo=not p.no_undo, plain=p.plain, coach=cmd.coach)
    if code:
        raise typer.Exit(code)


def watch(cmd: GameCommand, console: Console, renderer: Renderer, p: PlayOptions) -> None:
    """``--watch``: a whole game between the agents of ``--agents`` (or the default AI in every seat)."""
    text = p.agents if p.agents is not None else ",".join(["ai"] * cmd.players)
    seed = p.seed if p.seed is not None else draw_seed()
    try:
        specs = parse_agent_list(text, cmd.players, cmd.spec)
    except AgentSpecError as exc:
        hint = cmd.agents_hint if str(exc).startswith("expected") else ""
        raise typer.BadParameter(f"{exc}{hint}", param_hint="'--agents'") from None
    try:
        players = agent_seats(cmd.spec, specs, seed, noise=p.noise, think_time=p.think_time)
    except AgentSpecError as exc:
        raise seat_error(exc) from None
    if cmd.number_alike:
        number_alike(players, specs)
    # the watched game keeps its positions (what each action did is shown from the position before it)
    # and is saved like a game at the keyboard, so it can be replayed and reviewed (not with --no-save)
    table = table_or_exit(cmd, seed, players, p)
    if not p.json_out:
        for line in renderer.watch_lines(table.state, players, seed):
            console.print(line, soft_wrap=not console.is_terminal)  # whole words in a terminal
    watch_or_exit(table, renderer, console, as_json=p.json_out, pace=p.pace)


def number_alike(players: list[Seat], specs: list[str]) -> None:
    """Agents of the same kind told apart by their seat: 'random #1', 'random #2' (two seats)."""
    for s, player in enumerate(players):
        if specs.count(specs[s]) > 1 or player.name == specs[1 - s]:
            player.name = f"{player.name} #{s + 1}"


def table_or_exit(cmd: GameCommand, seed: int, players: list[Seat], p: PlayOptions) -> Table:
    """The table of a new game; exit 2 with the reason if it cannot be set up."""
    try:
        return new_session(cmd.name, cmd.spec, cmd.options, seed, players, autosave=not p.no_save)
    except GameError as exc:
        error(str(exc))
        raise typer.Exit(2) from None


def new_game(cmd: GameCommand, console: Console, renderer: Renderer, p: PlayOptions, opponent: str) -> Table:
    """A new game at this keyboard, with its opening lines; exit 2 if it cannot be set up."""
    seed = p.seed if p.seed is not None else draw_seed()
    people = people_or_exit(p.seat, cmd.players, cmd.people, seed)
    try:
        players = keyboard_seats(cmd.spec, people, cmd.players, opponent, seed, think_time=p.think_time)
    except AgentSpecError as exc:
        raise seat_error(exc) from None
    session = table_or_exit(cmd, seed, players, p)
    guided = "A guided first game: " if cmd.coach is not None else ""
    seats = renderer.seats_line(session.state, players, people)
    console.print(Text(f"{renderer.game_line(session.state)}, seed {seed}. {guided}{seats}", style="bold"))
    console.print(Text("Type a number or an action; 'help' for every command, 'quit' to stop.", style=cmd.hint_style))
    return session


def people_or_exit(choice: str, players: int, people: int, seed: int) -> list[int]:
    """The seats of the people at this keyboard (``--seat``); a usage error if they do not fit."""
    if not 1 <= people <= players:
        raise typer.BadParameter(
            f"{people} is not between 1 and the number of players ({players}); to watch agents only, use --watch",
            param_hint="'--humans'",
        )
    return people_seats(choice, players, people, seed)


def seat_error(exc: AgentSpecError) -> typer.BadParameter:
    """An agent that cannot sit, or ``--think-time`` with no ai, as a usage error naming its option."""
    return typer.BadParameter(
        str(exc), param_hint="'--think-time'" if isinstance(exc, ThinkTimeError) else "'--agents'"
    )
