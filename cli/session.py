"""A game at this keyboard: who sits at each seat (a :class:`~core.table.Seat`), starting, loading and
continuing a game (a :class:`~core.table.Table`: the state, its stack of positions, its record and
where it is saved, the undo rule and the one loop, written once in :mod:`core.table`)."""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.text import Text

from cli.console import Copy, error, told
from cli.renderer import Renderer
from core import records
from core.agents import Agent, AgentSpecError
from core.net.plan import plan_path
from core.protocol import GameError, GameSpec
from core.search import Noise, ThinkTime
from core.table import AGENT, PERSON, Seat, Table, person_seats, seat_agent, seat_agents

#: exit codes of a game: finished or quit by the player, end of input, Ctrl-C
EXIT_OK = 0


EXIT_INTERRUPTED = 130


#: the agent spec used for hints (and the default computer opponent)
HINT_AGENT = "ai:normal"

#: who sits at a seat (the name the renderers use for a seat)
Player = Seat


def with_level(spec: str, level: str | None) -> str:
    """``spec`` with ``--level`` applied: ``ai`` becomes ``ai:LEVEL``; raises AgentSpecError otherwise."""
    if level is None:
        return spec
    kind, _, own = spec.strip().lower().partition(":")
    if kind != "ai":
        raise AgentSpecError(f"--level sets the strength of the ai opponent, not of '{spec}'")
    if own and own != level:
        raise AgentSpecError(f"'{spec}' already names a level; drop --level or write ai:{level}")
    return f"ai:{level}"


def make_player(
    spec: str,
    seed: int,
    seat: int,
    name: str | None = None,
    think_time: ThinkTime | None = None,
    game: GameSpec | None = None,
) -> Seat:
    """The seat for ``spec`` (``human`` or an agent spec) in ``game``; raises AgentSpecError.

    An agent is the table's for the seat (:func:`core.table.seat_agent`, seeded by the one derivation), so a
    game between agents is the same here, in ``--watch`` and in a playtest.  ``think_time`` (seconds
    per move) is given to agents that search (``ai``).
    """
    if spec.strip().lower() == "human":
        return Seat(name or "You", PERSON)
    agent = seat_agent(game, seed, seat, spec, think_time=think_time)
    label = getattr(agent, "name", spec)
    return Seat(name or label, AGENT, label, agent)


def chosen_seats(choice: str, players: int, people: int = 1) -> list[int] | None:
    """The seats (0-based) of ``people`` persons for a ``--seat`` word: the first ones, the last ones,
    or the ones in a row from a seat number; None for random (each game draws them from its seed)."""
    if choice == "random":
        return None
    if choice == "first":
        return list(range(people))
    if choice == "last":
        return list(range(players - people, players))
    first = int(choice)
    if first + people - 1 > players:
        raise typer.BadParameter(
            f"there is no seat {first + people - 1}: {players} players sit at seats 1-{players}"
            if people == 1
            else f"{people} people from seat {first} need seats up to {first + people - 1}, and there are {players}",
            param_hint="'--seat'",
        )
    return list(range(first - 1, first - 1 + people))


def people_seats(choice: str, players: int, people: int, seed: int) -> list[int]:
    """The seats of the people at this keyboard for a ``--seat`` word: the first ones, the last ones,
    the ones in a row from a seat number, or drawn from the seed (every seat when all play here)."""
    if people == players:
        return list(range(players))
    chosen = chosen_seats(choice, players, people)
    return chosen if chosen is not None else person_seats(seed, players, people)


def keyboard_seats(
    game: GameSpec, people: Sequence[int], players: int, opponent: str, seed: int, *, think_time: ThinkTime | None
) -> list[Seat]:
    """The seats of a new game at this keyboard: persons at ``people`` ('You', or 'Player N' when several
    play here), the ``opponent`` agent at the others, made by the table (:func:`core.table.seat_agents`,
    ``think_time`` given to the ai); raises AgentSpecError (a ThinkTimeError for a thinking time with no ai)."""
    specs = [None if s in people else opponent for s in range(players)]
    agents = seat_agents(game, seed, specs, think_time=think_time)
    return [
        Seat("You" if len(people) == 1 else f"Player {s + 1}") if agent is None else agent_seat(agent)
        for s, agent in enumerate(agents)
    ]


def agent_seats(
    game: GameSpec, specs: list[str], seed: int, *, noise: Noise | None = None, think_time: ThinkTime | None = None
) -> list[Seat]:
    """One seat per agent spec (``--watch``), made by the table (:func:`core.table.seat_agents`: ``noise``
    and ``think_time`` go to each ai agent); raises AgentSpecError (a ThinkTimeError for a thinking time
    with no ai)."""
    return [agent_seat(agent) for agent in seat_agents(game, seed, specs, noise=noise, think_time=think_time) if agent]


def agent_seat(agent: Agent) -> Seat:
    """The seat of an agent, named as the agent names itself."""
    return Seat(agent.name, AGENT, agent.name, agent)


def draw_seed() -> int:
    """A fresh seed for a game started without ``--seed`` (printed, so it can be replayed)."""
    return random.SystemRandom().randrange(1, 1_000_000)


def new_session(
    ruleset_name: str, ruleset: GameSpec, options: Any, seed: int, players: list[Seat], autosave: bool = True
) -> Table:
    """A fresh game at the table; with ``autosave`` its record is saved in the save folder after every action."""
    table = Table.new(ruleset, options, seed, players)
    assert table.record is not None and table.game.name == ruleset_name
    if autosave:
        table.save_path = records.new_save_path(table.record)
    return table


def load_session(path: str | Path | None, ruleset_name: str) -> Table:
    """A saved game (``path``), or the latest unfinished one of ``ruleset_name`` when path is None.

    Raises :class:`core.records.RecordError` with the file and the problem.
    """
    if isinstance(path, str):
        path = records.find_save(path)
    if path is None:
        found = records.latest_unfinished(ruleset=ruleset_name, skip=is_hosted)  # those go on with 'host --resume'
        if found is None:
            hosted = records.latest_unfinished(ruleset=ruleset_name)
            also = f"; a hosted game goes on with 'lehavre host --resume {records.save_name(hosted)}'" if hosted else ""
            raise records.RecordError(
                f"no unfinished {ruleset_name} game to resume in {records.default_save_dir()} (start one with "
                f"'lehavre {ruleset_name}'{also})"
            )
        path = found
    path = Path(path)
    record = records.load_record(path)
    if record.ruleset != ruleset_name:
        theirs, ours = records.get_ruleset(record.ruleset).title, records.get_ruleset(ruleset_name).title
        raise records.RecordError(
            f"{path} is a saved game of '{theirs}', not of '{ours}'; continue it with 'lehavre {record.ruleset} --load'"
        )
    table = Table.load(path, record=record)
    records.remember_save(path)
    for seat, s in enumerate(table.seats):
        if s.kind != AGENT:
            continue
        try:  # the agents now, so a seat that cannot be played here is said before the game goes on
            agent = table.agent_for(seat)
        except GameError as exc:
            raise records.RecordError(
                f"{path}: seat {seat + 1} is played by '{s.spec}', which cannot be made here: {exc}"
            ) from None
        s.spec = getattr(agent, "name", s.spec)
    return table


def is_hosted(path: Path) -> bool:
    """The game saved in ``path`` was hosted over the network (its seats and codes are kept beside it)."""
    return plan_path(path).is_file()


def continue_command(ruleset_name: str, path: Path) -> str:
    """The command that continues the game saved in ``path`` (by its name in the saves folder)."""
    return f"lehavre {ruleset_name} --load {typed_name(path)}"


def typed_name(path: Path) -> str:
    """The name of the game saved in ``path`` as a command line takes it (quoted if it must be)."""
    name = records.save_name(path)
    if not re.fullmatch(r"[\w.,:@%+=/~-]+", name):
        name = '"' + re.sub(r'(["\\$`])', r"\\\1", name) + '"'
    return name


def skipped_saves(ruleset_name: str, newer_than: Path | None) -> list[tuple[Path, str]]:
    """The files of the saves folder newer than ``newer_than`` (all of them when None) that ``--resume``
    passed over because they cannot be read or replayed, newest first, each with why.  (A finished game,
    another game's save or a hosted one is passed over for a reason that is no fault of the file.)"""
    try:
        since = newer_than.stat().st_mtime if newer_than is not None else float("-inf")
        paths = [(p.stat().st_mtime, p) for p in records.default_save_dir().glob(f"*{records.SAVE_SUFFIX}")]
    except OSError:
        return []
    out: list[tuple[Path, str]] = []
    for _, path in sorted((m, p) for m, p in paths if m > since and p != newer_than)[::-1]:
        try:
            if records.load_record(path, verify=False).ruleset == ruleset_name:
                records.load_record(path)  # (it replays)
        except records.RecordError as exc:
            out.append((path, str(exc).removeprefix(f"{path}: ")))
    return out


def say_skipped(console: Console, skipped: list[tuple[Path, str]]) -> None:
    """Which saves ``--resume`` passed over and why, each path on a line of its own."""
    for path, why in skipped:
        console.print(
            told(f"Skipped a save that cannot be read ({why}):", Copy(str(path)), style="warning"), crop=False
        )


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def resume_or_exit(
    load: str | None, ruleset_name: str, title: str, renderer: Renderer, console: Console, no_save: bool
) -> Table | None:
    """The game of ``--resume``/``--load``; ``None`` (after showing the result) if that game is over.

    A broken or missing save file prints its message and exits with code 2.
    """
    try:
        session = load_session(load, ruleset_name)
    except records.RecordError as exc:
        error(str(exc))
        if load is None:
            say_skipped(console, skipped_saves(ruleset_name, None))
        raise typer.Exit(2) from None
    if load is None:  # --resume: the newer saves it passed over, and why
        say_skipped(console, skipped_saves(ruleset_name, session.save_path))
    if session.state.is_terminal():
        console.print(Text(f"The game in {session.save_path} is already over.", style="bold"))
        console.print(renderer.final(session.state, session.seats))
        return None
    if no_save:
        session.save_path = None
    console.print(
        told(
            f"{title}: continuing the game in",
            Copy(str(session.save_path or load)),
            f"(seed {session.seed}, {plural(len(session.state.history), 'action')} played).",
            style="bold",
        ),
        crop=False,
    )
    if session.save_path is not None and is_hosted(session.save_path):
        name = records.save_name(session.save_path)
        console.print(
            Text(
                f"This game was hosted over the network: 'lehavre host --resume {name}' continues it there, with "
                "its seats and join codes. Here every person in it plays at this keyboard.",
                style="muted",
            )
        )
    return session
