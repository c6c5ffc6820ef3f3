"""``lehavre base``: play or watch Le Havre (the base game, 1-5 players, full or short).

The play loop is :mod:`cli.play` (the same prompt, two-step choices, ``help``,
``rules``, ``undo``, ``quit`` as ``lehavre inland``); the board is
:class:`cli.render_base.BaseRenderer`.
"""

from __future__ import annotations

from functools import partial
from typing import Annotated

import typer
from rich.console import Console
from rich.text import Text

from base_game import RULESET, BaseState, GameOptions
from cli import game_cmd
from cli import play as loop
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
from cli.render_base import BaseRenderer
from cli.renderer import Renderer
from cli.root import app
from core.agents import AgentSpecError, parse_agent_list
from core.protocol import GameState
from core.search import ThinkTime
from core.table import person_seats

RULESET_NAME = "base"


def _version(short: bool) -> str:
    return "short game" if short else "full game"


def human_seats(choice: str, players: int, humans: int, seed: int) -> list[int]:
    """The seats of the people (``--seat``): the first K, the last K, K in a row from a seat number, or
    K drawn from the seed."""
    chosen = chosen_seats(choice, players, humans)
    if chosen is not None:
        return chosen
    return person_seats(seed, players, humans)


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
WatchOption = Annotated[bool, typer.Option("--watch", help="Watch agents play a whole game (see --agents).")]
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
LevelOption = Annotated[loop.Level | None, typer.Option("--level", case_sensitive=False, help=loop.level_help(RULESET))]
ThinkTimeOption = Annotated[ThinkTime | None, think_time_option(RULESET)]


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
        loop.CONTINUING_WHY,
    ),
    (
        (WatchOption, AgentsOption),
        (HumansOption, SeatOption, OpponentOption, NoUndoOption, PlainOption),
        loop.WATCHING_WHY,
    ),
)


@app.command("base")
def base(
    ctx: typer.Context,
    players_n: PlayersOption = 2,
    short: ShortOption = False,
    humans: HumansOption = 1,
    opponent: OpponentOption = "ai",
    seat: SeatOption = "random",
    seed: SeedOption = None,
    noise: NoiseOption = None,
    watch: WatchOption = False,
    agents: AgentsOption = None,
    json_out: JsonOption = False,
    advanced_selling: AdvancedSellingOption = False,
    expensive_loans: ExpensiveLoansOption = False,
    resume: ResumeOption = False,
    load: LoadOption = None,
    no_undo: NoUndoOption = False,
    no_save: NoSaveOption = False,
    plain: PlainOption = False,
    level: LevelOption = None,
    think_time: ThinkTimeOption = None,
    pace: PaceOption = None,
) -> None:
    """Play Le Havre (the base game, 1-5 players) in the terminal, or watch agents play it.

    At the prompt type a number from the list, or an action such as 'take wood',
    'enter Fishery', 'buy Joinery', 'sell wooden ship 4'; 'help' lists every command.
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
    rules = RulesOptions(
        players=players_n, short=short, advanced_selling=advanced_selling, expensive_loans=expensive_loans
    )
    game_cmd.run(command(p, rules, humans), ctx, p)


def game_options(rules: RulesOptions) -> GameOptions:
    return GameOptions(
        players=rules.players,
        short=rules.short,
        advanced_selling=rules.advanced_selling,
        expensive_loans=rules.expensive_loans,
    )


def command(p: PlayOptions, rules: RulesOptions, humans: int) -> game_cmd.GameCommand:
    """What ``lehavre base`` gives the shared flow."""
    return game_cmd.GameCommand(
        name=RULESET_NAME,
        spec=RULESET,
        renderer=BaseRenderer,
        conflicts=CONFLICTS,
        options=game_options(rules),
        players=rules.players,
        seats=partial(seats, p, humans),
        watch_intro=partial(watch_intro, rules.short),
        agents_hint=f": one agent per player (--players is {rules.players}; change it with --players N)",
        hint_style="dim",
    )


def watch_intro(
    short: bool, console: Console, renderer: Renderer, state: GameState, players: list[loop.Player], seed: int
) -> None:
    assert isinstance(renderer, BaseRenderer) and isinstance(state, BaseState)
    who = ", ".join(
        f"P{s + 1} {pl.label}" + (" (starts)" if s == state.starting_player else "") for s, pl in enumerate(players)
    )
    n = len(players)
    console.print(
        Text(f"{RULESET.title} ({_version(short)}, {loop.plural(n, 'player')}): {who}; seed {seed}", style="bold")
    )
    console.print(renderer.opening_line(state), soft_wrap=not console.is_terminal)  # whole words in a terminal


def seats(p: PlayOptions, humans: int, seed: int, options: GameOptions, opponent: str) -> tuple[list[loop.Player], str]:
    """The seats of a new game at this keyboard (``--humans`` of them people) and its opening line."""
    n = options.players
    if not 1 <= humans <= n:
        raise typer.BadParameter(
            f"{humans} is not between 1 and the number of players ({n}); to watch agents only, use --watch",
            param_hint="'--humans'",
        )
    people = human_seats(p.seat, n, humans, seed)
    players = [
        loop.Player("You" if humans == 1 else f"Player {s + 1}")
        if s in people
        else loop.make_player(opponent, seed, s, think_time=p.think_time, game=RULESET)
        for s in range(n)
    ]
    if humans == 1:
        me = people[0]
        intro = f"You are P{me + 1}" + (" and start." if me == options.starting_player else ".")
    else:
        intro = "People at this keyboard: " + ", ".join(f"P{s + 1}" for s in people) + "."
    others = [f"P{s + 1} {pl.label}" for s, pl in enumerate(players) if pl.agent is not None]
    if others:
        intro += " Computer: " + ", ".join(others) + "."
    return players, f"{RULESET.title} ({_version(options.short)}, {loop.plural(n, 'player')}), seed {seed}. {intro}"
