"""``lehavre inland``: play or watch the Inland Port."""

from __future__ import annotations

from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.text import Text

import inland_port
from cli import game_cmd
from cli import play as loop
from cli.console import error
from cli.game_cmd import PlayOptions
from cli.options import (
    Conflict,
    JsonOption,
    LoadOption,
    NoiseOption,
    NoSaveOption,
    NoUndoOption,
    PaceOption,
    PlainOption,
    ResumeOption,
    RulesOptions,
    SeedOption,
    chosen_seats,
    seat_option,
    think_time_option,
)
from cli.render_inland import InlandRenderer
from cli.renderer import Renderer
from cli.root import app
from cli.tutorial import TUTORIAL_OPPONENT, TUTORIAL_SEED, InlandTutorial
from core.agents import AgentSpecError, parse_agent_list
from core.cards import DataFileError
from core.protocol import GameState
from core.search import ThinkTime
from inland_port import RULESET, InlandOptions

RULESET_NAME = "inland"


def _opponent(spec: str) -> str:
    """Check ``--opponent``: ``human`` or an agent spec."""
    s = spec.strip().lower()
    if s == "human":
        return s
    try:
        parse_agent_list(s, 1, RULESET)
    except AgentSpecError as exc:
        raise typer.BadParameter(f"{exc}; or 'human'", param_hint="'--opponent'") from None
    return s


#: the options of ``lehavre inland`` (Typer's Annotated style: one declaration each)
OpponentOption = Annotated[
    str,
    typer.Option(
        "--opponent",
        metavar="human|ai",
        callback=_opponent,
        help="Who plays the other seat: human (two people at one keyboard), ai (= ai:normal), ai:easy, ai:hard, greedy, random.",
    ),
]
SeatOption = Annotated[str, seat_option("1-2: seat 1 has the A-F board and starts round A")]
BuildingsOption = Annotated[
    Path | None,
    typer.Option("--buildings", metavar="PATH", help="Use this building data file instead of the built-in one."),
]
WatchOption = Annotated[bool, typer.Option("--watch", help="Watch two agents play a whole game (see --agents).")]
AgentsOption = Annotated[
    str | None,
    typer.Option(
        "--agents",
        metavar="A,B",
        help="The two agents for --watch, e.g. random,greedy or ai:hard,ai (implies --watch).",
    ),
]
TutorialOption = Annotated[
    bool,
    typer.Option(
        "--tutorial",
        help="A guided first game: you against ai:easy, with short notes at the moments that matter "
        "('skip' at the prompt turns them off).",
    ),
]
LevelOption = Annotated[loop.Level | None, typer.Option("--level", case_sensitive=False, help=loop.level_help(RULESET))]
ThinkTimeOption = Annotated[ThinkTime | None, think_time_option(RULESET)]


#: options that do not go with --resume/--load, with --watch/--agents, or with --tutorial
CONFLICTS: tuple[Conflict, ...] = (
    (
        (ResumeOption, LoadOption),
        (SeedOption, OpponentOption, SeatOption, BuildingsOption, LevelOption, ThinkTimeOption),
        loop.CONTINUING_WHY,
    ),
    (
        (WatchOption, AgentsOption),
        (OpponentOption, SeatOption, NoUndoOption, TutorialOption, PlainOption),
        loop.WATCHING_WHY,
    ),
    (
        (TutorialOption,),
        (
            SeedOption,
            OpponentOption,
            SeatOption,
            BuildingsOption,
            LevelOption,
            ThinkTimeOption,
            ResumeOption,
            LoadOption,
        ),
        "the tutorial is a fixed game: you in the first seat against ai:easy, with the built-in buildings",
    ),
)


@app.command("inland")
def inland(
    ctx: typer.Context,
    opponent: OpponentOption = "ai",
    seat: SeatOption = "random",
    seed: SeedOption = None,
    buildings: BuildingsOption = None,
    noise: NoiseOption = None,
    watch: WatchOption = False,
    agents: AgentsOption = None,
    json_out: JsonOption = False,
    resume: ResumeOption = False,
    load: LoadOption = None,
    no_undo: NoUndoOption = False,
    no_save: NoSaveOption = False,
    tutorial: TutorialOption = False,
    plain: PlainOption = False,
    level: LevelOption = None,
    think_time: ThinkTimeOption = None,
    pace: PaceOption = None,
) -> None:
    """Play Le Havre: The Inland Port in the terminal (or watch two agents play it).

    At the prompt type a number from the list, or an action such as 'build Farm',
    'use Hardware Store: clay', 'sell Farm'; 'help' lists every command.
    """
    p = PlayOptions(
        seed=seed,
        noise=noise,
        think_time=think_time,
        watch=watch,
        agents=agents,
        json_out=json_out,
        resume=resume,
        load=load,
        no_undo=no_undo,
        no_save=no_save,
        plain=plain,
        level=level,
        opponent=opponent,
        seat=seat,
        pace=pace,
    )
    if tutorial:  # a fixed game: you in the first seat against ai:easy (its conflicts are refused by the flow)
        p = replace(p, seed=TUTORIAL_SEED, opponent=TUTORIAL_OPPONENT, seat="first")
    loop.refuse_conflicts(ctx, CONFLICTS)  # before the building file is read: '--load with --buildings' first
    game_cmd.run(command(p, game_options(RulesOptions(buildings=buildings)), tutorial), ctx, p)


def game_options(rules: RulesOptions) -> InlandOptions:
    """The game's options; a malformed building file exits with code 2 and its message."""
    options = InlandOptions(buildings=str(rules.buildings) if rules.buildings is not None else None)
    try:
        inland_port.catalog(options)
    except DataFileError as exc:
        error(str(exc))
        raise typer.Exit(2) from None
    return options


def command(p: PlayOptions, options: InlandOptions, tutorial: bool) -> game_cmd.GameCommand:
    """What ``lehavre inland`` gives the shared flow."""
    return game_cmd.GameCommand(
        name=RULESET_NAME,
        spec=RULESET,
        renderer=InlandRenderer,
        conflicts=CONFLICTS,
        options=options,
        players=2,
        seats=partial(seats, p, tutorial),
        watch_intro=watch_intro,
        coach=InlandTutorial(0) if tutorial else None,
        number_alike=True,
    )


def watch_intro(console: Console, renderer: Renderer, state: GameState, players: list[loop.Player], seed: int) -> None:
    console.print(
        Text(
            f"{RULESET.title}: {players[0].label} (seat 1, starts) against {players[1].label}, seed {seed}",
            style="bold",
        )
    )


def seats(
    p: PlayOptions, tutorial: bool, seed: int, options: InlandOptions, opponent: str
) -> tuple[list[loop.Player], str]:
    """The seats of a new game at this keyboard and its opening line."""
    if opponent == "human":
        players = [loop.Player("Player 1"), loop.Player("Player 2")]
        intro = "Two players at one keyboard."
    else:
        chosen = chosen_seats(p.seat, 2)
        me = chosen[0] if chosen is not None else loop.seat_of_human("random", seed)
        players = [
            loop.Player("You")
            if s == me
            else loop.make_player(opponent, seed, s, think_time=p.think_time, game=RULESET)
            for s in (0, 1)
        ]
        other = players[1 - me].label
        intro = (
            f"You are seat {me + 1} ({'A-F board, you start round A' if me == 0 else 'G-L board'}); "
            f"{other} plays seat {2 - me}."
        )
    if tutorial:
        intro = "A guided first game: " + intro
    return players, f"{RULESET.title}, seed {seed}. {intro}"
