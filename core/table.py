"""One game as it is being played: the table.

Every place that plays a game to its end -- a game at this keyboard, a hosted network game, a
watched game, a playtest, the tuner's self-play, a long measurement -- plays it through one
:class:`Table`, so the rules of play are written once (a record's action texts are replayed by
:func:`core.records.replay_actions`):

* the state, and the stack of positions before each action (python-chess's ``Board.push`` /
  ``pop``; :meth:`Table.push`, :meth:`Table.pop_to`), kept only where something may go back
  (``keep_positions``);
* the record, saved after every action when the table has a file (:meth:`Table.save`);
* the seats: a person at this keyboard, an agent, or a seat played elsewhere (:class:`Seat`);
* the seat agents, each made by :func:`seat_agent` with its seat's seed (:mod:`core.seeds`);
* the undo rule (:meth:`Table.undo_target`);
* one step (:meth:`Table.step`): whose decision it is (:meth:`Table.to_decide`), that seat's
  decision taken, and played (:meth:`Table.take`, with the guard on the number of actions);
  the loop (:meth:`Table.play`) repeats it until the game ends, asking whichever seat is to decide
  for its next action, whether the same seat decides again or not.  The network server drives the
  same step from its events (a move arriving, an agent done thinking).

The search never sees the table: agents get a copy of the state.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from core import records
from core.agents import Agent, check_noise, check_think_time, make_agent
from core.protocol import GameSpec, GameState
from core.search import Noise, ThinkTime
from core.seeds import PERSON_SEATS, SEAT, derive_seed

#: a seat's kinds: a person at this keyboard, an agent played by this process, a seat played elsewhere
PERSON = "person"
AGENT = "agent"
REMOTE = "remote"

#: a game that has not ended after this many actions is a bug in the rules or an agent
MAX_ACTIONS = 200_000


class EndlessGame(RuntimeError):
    """A game that has not ended after :attr:`Table.max_actions` actions: a bug in the rules or an agent."""


def seat_agent(
    game: GameSpec | str | None,
    game_seed: int,
    seat: int,
    spec: str,
    *,
    noise: Noise | None = None,
    think_time: ThinkTime | None = None,
) -> Agent:
    """The agent ``spec`` at ``seat`` of the game set up with ``game_seed``: the one place a seat's agent
    is made, with the seat's seed (:data:`core.seeds.SEAT`), so a game between agents is reproduced by
    its seed wherever it is played.  ``noise`` and ``think_time`` go to an ai agent (see
    :func:`core.agents.make_agent`); an :class:`~core.agents.AgentSpecError` if ``spec`` is not an agent."""
    return make_agent(spec, derive_seed(game_seed, SEAT, seat), game, noise=noise, think_time=think_time)


def seat_agents(
    game: GameSpec | str | None,
    game_seed: int,
    specs: Sequence[str | None],
    *,
    noise: Noise | None = None,
    think_time: ThinkTime | None = None,
) -> list[Agent | None]:
    """The agents of a new game's seats, each :func:`seat_agent` (``specs``: an agent's text by seat, None
    where a person sits); ``noise`` and ``think_time`` go to the ai agents.  An
    :class:`~core.agents.AgentSpecError` if an agent has its own noise besides ``noise``, or a
    :class:`~core.agents.ThinkTimeError` if ``think_time`` is given and no ai plays."""
    agents = [spec for spec in specs if spec is not None]
    check_noise(agents, noise)
    check_think_time(agents, think_time)
    return [
        None if spec is None else seat_agent(game, game_seed, s, spec, noise=noise, think_time=think_time)
        for s, spec in enumerate(specs)
    ]


def person_seats(game_seed: int, players: int, persons: int) -> list[int]:
    """The seats of ``persons`` people among ``players``, drawn from the game's seed (in order)."""
    return sorted(random.Random(derive_seed(game_seed, PERSON_SEATS, players, persons)).sample(range(players), persons))


@dataclass
class Seat:
    """Who decides at one seat: ``kind`` is :data:`PERSON`, :data:`AGENT` or :data:`REMOTE`;
    ``spec`` is an agent's text (``ai:normal``), ``agent`` the agent once made."""

    name: str
    kind: str = PERSON
    spec: str | None = None
    agent: Agent | None = None

    @property
    def label(self) -> str:
        if self.spec is None or self.spec == self.name:
            return self.name
        return f"{self.name} ({self.spec})"

    def record_seat(self) -> records.Seat:
        return (
            records.Seat.of_agent(self.spec, self.name)
            if self.kind == AGENT and self.spec
            else records.Seat.human(self.name)
        )


#: ``decide(table, seat)``: the seat's next action, or None to look again (the position changed: an undo,
#: a move that arrived from elsewhere)
Decide = Callable[["Table", int], Any]
#: ``after(table, before, actor, action)``: called after every action the loop plays (``before`` is None
#: at a table that keeps no positions)
After = Callable[["Table", GameState | None, int, Any], None]


@dataclass
class Table:
    """A game being played; see the module docstring."""

    game: GameSpec
    options: Any
    seed: int
    state: GameState
    seats: list[Seat]
    record: records.GameRecord | None = None
    save_path: Path | None = None
    #: keep the position before every action (undo, review); a playtest does not
    keep_positions: bool = True
    #: the position before each of the last ``len(positions)`` actions, oldest first
    positions: list[GameState] = field(default_factory=list)
    #: why the last save failed ("" when it did not)
    save_error: str = ""
    #: the guard: a game longer than this is a bug (:class:`EndlessGame`)
    max_actions: int = MAX_ACTIONS

    # -- making one ------------------------------------------------------------------------------
    @classmethod
    def new(
        cls,
        game: GameSpec,
        options: Any,
        seed: int,
        seats: Sequence[Seat],
        *,
        record: bool = True,
        save_path: Path | None = None,
        keep_positions: bool = True,
    ) -> Table:
        """A fresh game; with ``record`` a record (saved after every action when ``save_path`` is given)."""
        opts = game.parse_options(options) if options is not None else None
        state = game.new_game(seed, opts)
        table = cls(game, opts, seed, state, list(seats), keep_positions=keep_positions)
        if record:
            table.record = records.new_record(
                game.name, opts, seed, [s.record_seat() for s in table.seats], state=state
            )
            table.save_path = save_path
        return table

    @classmethod
    def load(cls, path: Path, *, record: records.GameRecord | None = None) -> Table:
        """The game saved in ``path`` (its record already read, or read here), replayed to its end; the
        seats as the record names them (agents made again from their seeds)."""
        rec = record if record is not None else records.load_record(path)
        states = records.replay_all(rec, source=path)
        game = records.get_ruleset(rec.ruleset)
        options = records.options_from_dict(game, rec.options)
        seats = [Seat(s.name, AGENT, s.agent) if s.agent is not None else Seat(s.name) for s in rec.players]
        while len(seats) < states[-1].num_players:
            seats.append(Seat(f"Player {len(seats) + 1}"))
        return cls(game, options, rec.seed, states[-1], seats, rec, path, positions=states[:-1])

    # -- seats -----------------------------------------------------------------------------------
    def agent_for(self, seat: int, **kw: Any) -> Agent:
        """The agent at ``seat``, made once from its spec (:func:`seat_agent`); ``kw`` (noise, think
        time) go to :func:`core.agents.make_agent`."""
        s = self.seats[seat]
        if s.agent is None:
            if s.spec is None:
                raise ValueError(f"seat {seat + 1} ({s.name}) has no agent")
            s.agent = seat_agent(self.game, self.seed, seat, s.spec, **kw)
        return s.agent

    def persons(self) -> set[int]:
        """The seats where people decide (here or elsewhere)."""
        return {i for i, s in enumerate(self.seats) if s.kind != AGENT}

    # -- the stack of positions ----------------------------------------------------------------
    def push(self, action: Any) -> GameState | None:
        """Apply ``action`` (trusted: legal here), record it and save; returns the position before it
        (None at a table that keeps no positions)."""
        before = self.state.clone() if self.keep_positions else None
        if before is not None:
            self.positions.append(before)
        self.state.apply_action(action)
        if self.record is not None:
            self.record.append(str(action), self.state)
        self.save()
        return before

    def action_text(self, k: int) -> str:
        """The text of the action played from ``positions[k]``."""
        return self.state.history[len(self.state.history) - len(self.positions) + k]

    def pop_to(self, k: int) -> list[str]:
        """Go back to ``positions[k]``; returns the texts of the actions taken back (record and file follow)."""
        removed = list(self.state.history[len(self.state.history) - len(self.positions) + k :])
        self.state = self.positions[k]
        del self.positions[k:]
        if self.record is not None and removed:
            self.record.undo(len(removed))
            self.record.sync(self.state)
        self.save()
        return removed

    def taken_back(self, k: int) -> list[tuple[int, str]]:
        """What going back to ``positions[k]`` takes back: (who decided, the action's text) in order."""
        return [(self.positions[j].current_player(), self.action_text(j)) for j in range(k, len(self.positions))]

    def undo_target(self, persons: set[int] | None = None) -> tuple[int, int] | None:
        """The undo rule: ``(k, who)`` for the last decision a person made (``positions[k]`` is the
        position they decided in, ``who`` their seat); the decisions after it (the computer's replies)
        go with it. None when no person has decided yet."""
        people = self.persons() if persons is None else persons
        found = None
        for k, before in enumerate(self.positions):
            mover = before.current_player()
            if mover in people:
                found = (k, mover)
        return found

    # -- the record ------------------------------------------------------------------------------
    def save(self) -> bool:
        """Write the record to its file (if it has one); False, with :attr:`save_error`, if that failed.
        The game goes on either way."""
        if self.record is None or self.save_path is None:
            return True
        try:
            records.save_record(self.record, self.save_path)
        except records.SaveError as exc:
            self.save_error = str(exc)
            return False
        self.save_error = ""
        return True

    # -- the one step, and the loop ---------------------------------------------------------------
    def to_decide(self) -> int | None:
        """Whose decision it is now (None: the game is over)."""
        return None if self.state.is_terminal() else self.state.current_player()

    def take(self, seat: int, action: Any, after: After | None = None) -> GameState | None:
        """Play ``action``, decided by ``seat`` (whose decision it is: :meth:`to_decide`), and tell ``after``;
        returns the position before it (None at a table that keeps no positions).  Raises
        :class:`EndlessGame` instead once the game has :attr:`max_actions` actions."""
        if seat != self.state.current_player():
            raise ValueError(f"seat {seat + 1} decided, but it is seat {self.state.current_player() + 1}'s decision")
        if len(self.state.history) >= self.max_actions:
            raise EndlessGame(f"the game (seed {self.seed}) did not end after {self.max_actions} actions")
        before = self.push(action)
        if after is not None:
            after(self, before, seat, action)
        return before

    def step(self, decide: Decide, after: After | None = None) -> bool:
        """One step: whose decision it is, that seat's decision (``decide(table, seat)``: the action, or
        None to look again), and the action played.  False once the game is over."""
        seat = self.to_decide()
        if seat is None:
            return False
        action = decide(self, seat)
        if action is not None:
            self.take(seat, action, after)
        return True

    def play(self, decide: Decide, after: After | None = None) -> GameState:
        """Take steps until the game ends.  The same seat may decide several times in a row (sales before
        and after a main action, ending a turn): every step asks whoever is to decide, never assuming the
        turn passed."""
        while self.step(decide, after):
            pass
        return self.state


def agents_decide(table: Table, seat: int) -> Any:
    """The :data:`Decide` of a table where agents sit at every seat: each agent gets a copy of the state."""
    return table.agent_for(seat).choose(table.state.clone())


__all__ = [
    "AGENT",
    "MAX_ACTIONS",
    "PERSON",
    "REMOTE",
    "After",
    "Decide",
    "EndlessGame",
    "Seat",
    "Table",
    "agents_decide",
    "person_seats",
    "seat_agent",
]
