"""``lehavre base``: play or watch Le Havre (the base game, 1-5 players, full or short).

The play loop is :mod:`cli.play` (the same prompt, two-step choices, ``help``,
``rules``, ``undo``, ``quit`` as ``lehavre inland``); the board is
:class:`cli.render_base.BaseRenderer`.
"""

from __future__ import annotations

from typing import Annotated

import typer

from base_game import RULESET, GameOptions
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
    level_option,
    seat_option,
    think_time_declaration,
)
from cli.render_base import BaseRenderer
from cli.root import app
from core.agents import AgentSpecError, parse_agent_list

RULESET_NAME = "base"


def _opponent(spec: str) -> str:
    """Check ``--opponent`` (an agent spec)."""
    s = spec.strip().lower()
    try:
        parse_agent_list(s, 1, RULESET)
    except AgentSpecError as exc:
        raise typer.BadParameter(str(exc), param_hint="'--opponent'") from None
    return s


#: the options of ``lehavre base`` (Typer's Annotated style: one declaration each)
PlayersOption = Annotated[int, typer.Option("--players", "-p", min=1, max=5, help="Number of players, 1-5.")]
ShortOption = Annotated[
    bool, typer.Option("--short", help="The shortened version (fewer rounds, goods and ships at the start).")
]
HumansOption = Annotated[
    int,
    typer.Option(
        "--humans", metavar="K", help="How many people play at this keyboard (the other seats are the computer)."
    ),
]
OpponentOption = Annotated[
    str,
    typer.Option(
        "--opponent",
        metavar="AGENT",
        callback=_opponent,
        help="Who plays the computer's seats: ai (= ai:normal), ai:easy, ai:hard, greedy, random.",
    ),
]
SeatOption = Annotated[
    str,
    seat_option(
        "1-N for N players",
        people=" With --humans K, the seats of the K people: the first K, the last K, K drawn from the seed, "
        "or K in a row from seat N.",
    ),
]
AgentsOption = Annotated[
    str | None,
    typer.Option(
        "--agents",
        metavar="A,B,...",
        help="One agent per player for --watch, e.g. random,greedy (implies --watch).",
    ),
]
AdvancedSellingOption = Annotated[
    bool,
    typer.Option(
        "--advanced-selling",
        help="Advanced rule (the Polish rulebook, Rules for advanced players): sell outside your turn only to pay a debt.",
    ),
]
ExpensiveLoansOption = Annotated[
    bool,
    typer.Option(
        "--expensive-loans",
        help="Advanced rule (the Polish rulebook, Rules for advanced players): 2 francs of interest for a player with at least as many loans as there are players.",
    ),
]
LevelOption = level_option(RULESET)
ThinkTimeOption = think_time_declaration(RULESET)


#: options that do not go with --resume/--load, or with --watch/--agents
CONFLICTS: tuple[Conflict, ...] = (
    (
        (ResumeOption, LoadOption),
        (
            SeedOption,
            PlayersOption,
            ShortOption,
            HumansOption,
            OpponentOption,
            SeatOption,
            AdvancedSellingOption,
            ExpensiveLoansOption,
            LevelOption,
            ThinkTimeOption,
        ),
        CONTINUING_WHY,
    ),
    (
        (WatchOption, AgentsOption),
        (HumansOption, SeatOption, OpponentOption, NoUndoOption, PlainOption),
        WATCHING_WHY,
    ),
)


@app.command("base", short_help="Play Le Havre (1-5 players), or watch agents play it.")
@play_command(PlayDeclarations(OpponentOption, SeatOption, AgentsOption, LevelOption, ThinkTimeOption))
def base(
    ctx: typer.Context,
    p: PlayOptions,
    players_n: PlayersOption = 2,
    short: ShortOption = False,
    humans: HumansOption = 1,
    advanced_selling: AdvancedSellingOption = False,
    expensive_loans: ExpensiveLoansOption = False,
) -> None:
    """Play Le Havre (the base game, 1-5 players) in the terminal, or watch agents play it.

    At the prompt type a number from the list, or an action such as 'take wood',
    'enter Fishery', 'buy Joinery', 'sell wooden ship 4'; 'help' lists every command.
    """
    rules = RulesOptions(
        players=players_n, short=short, advanced_selling=advanced_selling, expensive_loans=expensive_loans
    )
    run(command(rules, humans), ctx, p)


def game_options(rules: RulesOptions) -> GameOptions:
    return GameOptions(
        players=rules.players,
        short=rules.short,
        advanced_selling=rules.advanced_selling,
        expensive_loans=rules.expensive_loans,
    )


def command(rules: RulesOptions, humans: int) -> GameCommand:
    """What ``lehavre base`` gives the shared flow."""
    return GameCommand(
        name=RULESET_NAME,
        spec=RULESET,
        renderer=BaseRenderer,
        conflicts=CONFLICTS,
        options=game_options(rules),
        players=rules.players,
        people=humans,
        agents_hint=f": one agent per player (--players is {rules.players}; change it with --players N)",
        hint_style="dim",
    )
