"""A game at the table: who sits at each seat (:class:`Player`), the game being played with its
stack of positions and its record (:class:`Session`), starting, loading and continuing one."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.text import Text

from core.agents import Agent, AgentSpecError, make_agent
from core.protocol import GameError, GameSpec, GameState

if TYPE_CHECKING:
    from cli.renderer import Renderer


#: exit codes of a game: finished or quit by the player, end of input, Ctrl-C
EXIT_OK = 0


EXIT_INTERRUPTED = 130


#: the agent spec used for hints (and the default computer opponent)
HINT_AGENT = "ai:normal"


@dataclass
class Player:
    """Who sits at a seat: a person at this keyboard (no ``agent``, no ``remote``), an agent, or a
    connection to a game hosted elsewhere (``remote(seat)`` waits for that seat's move from the server).
    The play loop asks each the same way: :meth:`next_action`."""

    name: str
    agent: Agent | None = None
    spec: str | None = None  # the agent's spec, e.g. "ai:normal"
    remote: Callable[[int], Any] | None = None

    @property
    def is_human(self) -> bool:
        return self.agent is None and self.remote is None

    @property
    def label(self) -> str:
        if self.agent is None or self.spec in (None, self.name):
            return self.name
        return f"{self.name} ({self.spec})"

    def next_action(self, loop: Any, seat: int) -> Any:
        """This seat's decision in ``loop`` (a :class:`cli.prompt.PlayLoop`), or None to look again
        (a move arrived from elsewhere, or an undo)."""
        if self.remote is not None:
            return self.remote(seat)
        if self.agent is not None:
            return loop.agent_move(seat, self)
        return loop.ask(seat)


def agent_seed(seed: int, seat: int) -> int:
    """The seed of the agent at ``seat`` in a game of ``seed`` (reproducible games)."""
    return seed * 1000 + seat


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
    think_time: float | None = None,
    game: GameSpec | None = None,
) -> Player:
    """A player for ``spec`` (``human`` or an agent spec) in ``game``; raises AgentSpecError.

    ``think_time`` (seconds per move) is given to agents that search (``ai``).
    """
    if spec.strip().lower() == "human":
        return Player(name or "You")
    agent = make_agent(spec, agent_seed(seed, seat), game, think_time=think_time)
    label = getattr(agent, "name", spec)
    return Player(name or label, agent, label)


def check_think_time(players: Sequence[Player], think_time: float | None) -> None:
    """``--think-time`` without any searching agent is a mistake worth saying."""
    if think_time is not None and not any(hasattr(p.agent, "think_time") for p in players if p.agent is not None):
        raise AgentSpecError("--think-time applies to the ai agent, and no ai plays in this game")


def draw_seed() -> int:
    """A fresh seed for a game started without ``--seed`` (printed, so it can be replayed)."""
    return random.SystemRandom().randrange(1, 1_000_000)


def seat_of_human(choice: str, seed: int) -> int:
    """Seat 0 or 1 for ``first``, ``second`` or ``random`` (drawn from the seed)."""
    if choice == "first":
        return 0
    if choice == "second":
        return 1
    return random.Random(f"seat-{seed}").randrange(2)


class Session:
    """A game being played: state, players, its record and where it is saved."""

    def __init__(
        self,
        ruleset_name: str,
        options: Any,
        seed: int,
        state: GameState,
        players: list[Player],
        record: Any = None,
        save_path: Path | None = None,
        positions: list[GameState] | None = None,
    ) -> None:
        self.ruleset_name = ruleset_name
        self.options = options
        self.seed = seed
        self.state = state
        self.players = players
        self.record = record
        self.save_path = save_path
        #: the stack of positions before the last ``len(positions)`` actions, oldest first (undo pops
        #: it, like python-chess's ``push``/``pop``); from setup on when it is as long as the history
        self.positions: list[GameState] = list(positions or [])

    def push(self, action: Any) -> GameState:
        """Apply ``action``, keeping the position before it on the stack; returns that position."""
        before = self.state.clone()
        self.positions.append(before)
        self.state.apply_action(action)
        return before

    def action_text(self, k: int) -> str:
        """The text of the action played from ``positions[k]``."""
        return self.state.history[len(self.state.history) - len(self.positions) + k]

    def pop_to(self, k: int) -> list[str]:
        """Go back to ``positions[k]``; returns the texts of the actions taken back."""
        removed = list(self.state.history[len(self.state.history) - len(self.positions) + k :])
        self.state = self.positions[k]
        del self.positions[k:]
        return removed


def _records() -> Any:
    import core.records as records

    return records


def new_session(
    ruleset_name: str, ruleset: Any, options: Any, seed: int, players: list[Player], autosave: bool = True
) -> Session:
    """A fresh game; with ``autosave`` a record and a file in the save folder."""
    state = ruleset.new_game(seed, options)
    session = Session(ruleset_name, options, seed, state, players)
    records = _records()
    seats = [
        records.Seat.human(p.name) if p.is_human else records.Seat.of_agent(p.spec or p.name, p.name) for p in players
    ]
    session.record = records.new_record(ruleset_name, options, seed, seats, state=state)
    if autosave:
        session.save_path = records.new_save_path(session.record)
    return session


def load_session(path: str | Path | None, ruleset_name: str) -> Session:
    """A saved game (``path``), or the latest unfinished one of ``ruleset_name`` when path is None.

    Raises :class:`core.records.RecordError` with the file and the problem.
    """
    records = _records()
    if isinstance(path, str):
        path = records.find_save(path)
    if path is None:
        found = records.latest_unfinished(ruleset=ruleset_name)
        if found is None:
            raise records.RecordError(
                f"no unfinished {ruleset_name} game to resume in {records.default_save_dir()} (start one with 'lehavre {ruleset_name}')"
            )
        path = found
    path = Path(path)
    record = records.load_record(path)
    if record.ruleset != ruleset_name:
        raise records.RecordError(
            f"{path}: this is a '{record.ruleset}' game, not '{ruleset_name}' (use 'lehavre {record.ruleset} --load')"
        )
    states = records.replay_all(record, source=path)
    state = states[-1]
    records.remember_save(path)
    players: list[Player] = []
    for seat, s in enumerate(record.players):
        if s.agent is None:
            players.append(Player(s.name))
        else:
            try:
                agent = make_agent(s.agent, agent_seed(record.seed, seat), record.ruleset)
            except GameError as exc:
                raise records.RecordError(
                    f"{path}: seat {seat + 1} is played by '{s.agent}', which cannot be made here: {exc}"
                ) from None
            players.append(Player(s.name, agent, getattr(agent, "name", s.agent)))
    while len(players) < state.num_players:
        players.append(Player(f"Player {len(players) + 1}"))
    ruleset = records.get_ruleset(record.ruleset)
    options = records.options_from_dict(ruleset, record.options)
    return Session(ruleset_name, options, record.seed, state, players, record, path, positions=states[:-1])


def continue_command(ruleset_name: str, path: Path) -> str:
    """The command that continues the game saved in ``path`` (by its name in the saves folder)."""
    import re

    name = _records().save_name(path)
    if not re.fullmatch(r"[\w.,:@%+=/~-]+", name):
        name = '"' + re.sub(r'(["\\$`])', r"\\\1", name) + '"'
    return f"lehavre {ruleset_name} --load {name}"


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def resume_or_exit(
    load: str | None, ruleset_name: str, title: str, renderer: Renderer, console: Console, no_save: bool
) -> Session | None:
    """The session of ``--resume``/``--load``; ``None`` (after showing the result) if that game is over.

    A broken or missing save file prints its message and exits with code 2.
    """
    import typer

    from cli.console import error
    from core.records import RecordError

    try:
        session = load_session(load, ruleset_name)
    except RecordError as exc:
        error(str(exc))
        raise typer.Exit(2) from None
    if session.state.is_terminal():
        console.print(Text(f"The game in {session.save_path} is already over.", style="bold"))
        console.print(renderer.final(session.state, session.players))
        return None
    if no_save:
        session.save_path = None
    console.print(
        Text(
            f"{title}: continuing the game in {session.save_path or load} "
            f"(seed {session.seed}, {plural(len(session.state.history), 'action')} played).",
            style="bold",
        )
    )
    return session
