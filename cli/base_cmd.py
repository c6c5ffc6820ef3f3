"""``lehavre base``: play or watch Le Havre (the base game, 1-5 players, full or short).

The play loop is :mod:`cli.play` (the same prompt, two-step choices, ``help``,
``rules``, ``undo``, ``quit`` as ``lehavre inland``); the board is
:class:`cli.render_base.BaseRenderer`.
"""

from __future__ import annotations

import random
from enum import Enum
from typing import Annotated

import typer
from rich.text import Text

from base_game import RULESET, GameOptions
from cli import play as loop
from cli.app import app
from cli.console import error, make_console
from cli.options import JsonOption, LoadOption, NoiseOption, NoSaveOption, NoUndoOption, PlainOption
from cli.render_base import BaseRenderer
from core.agents import AgentSpecError, parse_agent_list, with_noise
from core.protocol import GameError

RULESET_NAME = "base"


class SeatChoice(str, Enum):
    first = "first"
    last = "last"
    random = "random"


def _version(short: bool) -> str:
    return "short game" if short else "full game"


def human_seats(choice: str, players: int, humans: int, seed: int) -> list[int]:
    """The seats of the people: the first K, the last K, or K drawn from the seed."""
    if choice == "first":
        return list(range(humans))
    if choice == "last":
        return list(range(players - humans, players))
    return sorted(random.Random(f"seats-{seed}-{players}-{humans}").sample(range(players), humans))


def _opponent(spec: str) -> str:
    """Check ``--opponent`` (an agent spec)."""
    s = spec.strip().lower()
    try:
        parse_agent_list(s, 1, RULESET)
    except AgentSpecError as exc:
        raise typer.BadParameter(str(exc), param_hint="'--opponent'") from None
    return s


def _options(players: int, short: bool, advanced_selling: bool, expensive_loans: bool) -> GameOptions:
    return GameOptions(players=players, short=short, advanced_selling=advanced_selling, expensive_loans=expensive_loans)


#: options that do not go with --resume/--load, or with --watch/--agents
CONFLICTS = (
    (
        loop.CONTINUING[0],
        (
            "seed",
            "players_n",
            "short",
            "humans",
            "opponent",
            "seat",
            "advanced_selling",
            "expensive_loans",
            "level",
            "think_time",
        ),
        loop.CONTINUING[1],
    ),
    (loop.WATCHING[0], ("humans", "seat", "opponent", "no_undo", "no_save", "plain"), loop.WATCHING[1]),
)


@app.command("base")
def base(
    ctx: typer.Context,
    players_n: Annotated[int, typer.Option("--players", "-p", min=1, max=5, help="Number of players, 1-5.")] = 2,
    short: Annotated[
        bool, typer.Option("--short", help="The shortened version (fewer rounds, goods and ships at the start).")
    ] = False,
    humans: Annotated[
        int, typer.Option("--humans", help="How many people play at this keyboard (the other seats are the computer).")
    ] = 1,
    opponent: Annotated[
        str,
        typer.Option(
            "--opponent",
            metavar="AGENT",
            help="Who plays the computer's seats: ai (= ai:normal), ai:easy, ai:hard, greedy, random.",
        ),
    ] = "ai",
    seat: Annotated[
        SeatChoice,
        typer.Option(
            "--seat",
            case_sensitive=False,
            help="Seats of the people: first (seat 1 starts), last, or random (drawn from the seed).",
        ),
    ] = SeatChoice.random,
    seed: Annotated[
        int | None, typer.Option("--seed", help="Seed of the game (drawn and printed if not given).")
    ] = None,
    noise: NoiseOption = 0.0,
    watch: Annotated[bool, typer.Option("--watch", help="Watch agents play a whole game (see --agents).")] = False,
    agents: Annotated[
        str | None,
        typer.Option(
            "--agents",
            metavar="A,B,...",
            help="One agent per player for --watch, e.g. random,greedy (implies --watch).",
        ),
    ] = None,
    json_out: JsonOption = False,
    advanced_selling: Annotated[
        bool,
        typer.Option(
            "--advanced-selling",
            help="Advanced rule (the Polish rulebook, Rules for advanced players): sell outside your turn only to pay a debt.",
        ),
    ] = False,
    expensive_loans: Annotated[
        bool,
        typer.Option(
            "--expensive-loans",
            help="Advanced rule (the Polish rulebook, Rules for advanced players): 2 francs of interest for a player with at least as many loans as there are players.",
        ),
    ] = False,
    resume: Annotated[bool, typer.Option("--resume", help="Continue the most recent unfinished base game.")] = False,
    load: LoadOption = None,
    no_undo: NoUndoOption = False,
    no_save: NoSaveOption = False,
    plain: PlainOption = False,
    level: Annotated[
        loop.Level | None, typer.Option("--level", case_sensitive=False, help=loop.level_help(RULESET))
    ] = None,
    think_time: Annotated[
        float | None, typer.Option("--think-time", min=0.01, metavar="SECONDS", help=loop.think_time_help(RULESET))
    ] = None,
) -> None:
    """Play Le Havre (the base game, 1-5 players) in the terminal, or watch agents play it.

    At the prompt type a number from the list, or an action such as 'take wood',
    'enter Fishery', 'buy Joinery', 'sell wooden ship 4'; 'help' lists every command.
    """
    console = make_console()
    if agents is not None:
        watch = True
    opponent = loop.opponent_with_level(opponent, level, watch)
    loop.check_mode(watch, json_out, resume, load, noise)
    loop.refuse_conflicts(ctx, CONFLICTS)
    renderer = BaseRenderer(console=console)
    options = _options(players_n, short, advanced_selling, expensive_loans)

    if watch:
        text = agents if agents is not None else ",".join(["ai"] * players_n)
        try:
            specs = [with_noise(x, noise) for x in parse_agent_list(text, players_n, RULESET)]
        except AgentSpecError as exc:
            msg = str(exc)
            if msg.startswith("expected"):
                msg += f": one agent per player (--players is {players_n}; change it with --players N)"
            raise typer.BadParameter(msg, param_hint="'--agents'") from None
        game_seed = seed if seed is not None else loop.draw_seed()
        seats = [
            loop.make_player(spec, game_seed, s, think_time=think_time, game=RULESET) for s, spec in enumerate(specs)
        ]
        loop.players_or_exit(seats, think_time)
        state = RULESET.new_game(game_seed, options)
        if not json_out:
            who = ", ".join(
                f"P{s + 1} {p.label}" + (" (starts)" if s == state.starting_player else "") for s, p in enumerate(seats)
            )
            console.print(
                Text(
                    f"{RULESET.title} ({_version(short)}, {loop.plural(players_n, 'player')}): {who}; seed {game_seed}",
                    style="bold",
                )
            )
            console.print(renderer.opening_line(state), soft_wrap=True)
        loop.watch_or_exit(state, seats, renderer, console, seed=game_seed, ruleset_name=RULESET_NAME, as_json=json_out)
        return

    if resume or load is not None:
        session = loop.resume_or_exit(load, RULESET_NAME, RULESET.title, renderer, console, no_save)
        if session is None:
            return
    else:
        if not 1 <= humans <= players_n:
            raise typer.BadParameter(
                f"{humans} is not between 1 and the number of players ({players_n}); to watch agents only, use --watch",
                param_hint="'--humans'",
            )
        opp = _opponent(opponent) if humans < players_n else opponent
        game_seed = seed if seed is not None else loop.draw_seed()
        people = human_seats(seat.value, players_n, humans, game_seed)
        seats: list[loop.Player] = []
        for s in range(players_n):
            if s in people:
                seats.append(loop.Player("You" if humans == 1 else f"Player {s + 1}"))
            else:
                seats.append(loop.make_player(opp, game_seed, s, think_time=think_time, game=RULESET))
        loop.players_or_exit(seats, think_time)
        try:
            session = loop.new_session(RULESET_NAME, RULESET, options, game_seed, seats, autosave=not no_save)
        except GameError as exc:
            error(str(exc))
            raise typer.Exit(2) from None
        if humans == 1:
            me = people[0]
            intro = f"You are P{me + 1}" + (" and start." if me == options.starting_player else ".")
        else:
            intro = "People at this keyboard: " + ", ".join(f"P{s + 1}" for s in people) + "."
        others = [f"P{s + 1} {p.label}" for s, p in enumerate(seats) if not p.is_human]
        if others:
            intro += " Computer: " + ", ".join(others) + "."
        console.print(
            Text(
                f"{RULESET.title} ({_version(short)}, {loop.plural(players_n, 'player')}), seed {game_seed}. {intro}",
                style="bold",
            )
        )
        console.print(Text("Type a number or an action; 'help' for every command, 'quit' to stop.", style="dim"))
    code = loop.play(session, renderer, console, allow_undo=not no_undo, plain=plain)
    if code:
        raise typer.Exit(code)
