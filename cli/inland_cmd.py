"""``lehavre inland``: play or watch the Inland Port."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Annotated

import typer

import inland_port
from cli.console import error
from cli.game_cmd import GameCommand, PlayDeclarations, PlayOptions, play_command, run
from cli.options import (
    CONTINUING_WHY,
    WATCHING_WHY,
    Conflict,
    LoadOption,
    NoUndoOption,
    PlainOption,
    ResumeOption,
    RulesOptions,
    SeedOption,
    WatchOption,
    buildings_option,
    level_option,
    refuse_conflicts,
    seat_option,
    think_time_declaration,
)
from cli.render_inland import InlandRenderer
from cli.root import app
from cli.tutorial import TUTORIAL_OPPONENT, TUTORIAL_SEED, InlandTutorial
from core.agents import AgentSpecError, parse_agent_list
from core.cards import DataFileError
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
BuildingsOption = Annotated[Path | None, buildings_option("Play with this building data instead of the default.")]
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
LevelOption = level_option(RULESET)
ThinkTimeOption = think_time_declaration(RULESET)


#: options that do not go with --resume/--load, with --watch/--agents, or with --tutorial
CONFLICTS: tuple[Conflict, ...] = (
    (
        (ResumeOption, LoadOption),
        (SeedOption, OpponentOption, SeatOption, BuildingsOption, LevelOption, ThinkTimeOption),
        CONTINUING_WHY,
    ),
    (
        (WatchOption, AgentsOption),
        (OpponentOption, SeatOption, NoUndoOption, TutorialOption, PlainOption),
        WATCHING_WHY,
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


@app.command("inland", short_help="Play the Inland Port, or watch two agents play it.")
@play_command(PlayDeclarations(OpponentOption, SeatOption, AgentsOption, LevelOption, ThinkTimeOption))
def inland(
    ctx: typer.Context, p: PlayOptions, buildings: BuildingsOption = None, tutorial: TutorialOption = False
) -> None:
    """Play Le Havre: The Inland Port in the terminal (or watch two agents play it).

    At the prompt type a number from the list, or an action such as 'build Farm',
    'use Hardware Store: clay', 'sell Farm'; 'help' lists every command.
    """
    if tutorial:  # a fixed game: you in the first seat against ai:easy (its conflicts are refused by the flow)
        p = replace(p, seed=TUTORIAL_SEED, opponent=TUTORIAL_OPPONENT, seat="first")
    refuse_conflicts(ctx, CONFLICTS)  # before the building file is read: '--load with --buildings' first
    run(command(p, game_options(RulesOptions(buildings=buildings)), tutorial), ctx, p)


def game_options(rules: RulesOptions) -> InlandOptions:
    """The game's options; a malformed building file exits with code 2 and its message."""
    options = InlandOptions(buildings=str(rules.buildings) if rules.buildings is not None else None)
    try:
        inland_port.catalog(options)
    except DataFileError as exc:
        error(str(exc))
        raise typer.Exit(2) from None
    return options


def command(p: PlayOptions, options: InlandOptions, tutorial: bool) -> GameCommand:
    """What ``lehavre inland`` gives the shared flow."""
    return GameCommand(
        name=RULESET_NAME,
        spec=RULESET,
        renderer=InlandRenderer,
        conflicts=CONFLICTS,
        options=options,
        players=2,
        people=2 if p.opponent == "human" else 1,
        coach=InlandTutorial(0) if tutorial else None,
        number_alike=True,
    )
