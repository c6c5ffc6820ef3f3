"""One playtest game: its seeds, its job and the record it leaves.

Game ``i`` of a run with seed ``S`` is set up with the seed :func:`game_seed`
``(S, i)``, seats the agent list rotated by ``i`` (:func:`seat_order`) and
gives the agent in seat ``s`` the table's seed for that seat (:func:`core.table.seat_agent`, the
one derivation, as in a game at the keyboard or ``--watch``), so its record
depends on nothing but (configuration, ``S``, ``i``).  The game is played through
a :class:`~core.table.Table` that keeps no positions.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from core.agents import Agent
from core.evalcache import forget
from core.lab.playtest.config import load_ruleset, new_game
from core.protocol import GameSpec, GameState
from core.records import replay_actions
from core.search import WIN_BONUS
from core.seeds import GAME, derive_seed
from core.table import AGENT, Seat, Table, agents_decide


def game_seed(run_seed: int, index: int) -> int:
    """The seed of game ``index`` of a run with seed ``run_seed`` (60 bits)."""
    return derive_seed(run_seed, GAME, index)


def seat_order(agents: Sequence[str], index: int) -> list[int]:
    """Which agent (index into ``agents``) sits in each seat in game ``index``."""
    k = len(agents)
    return [(s + index) % k for s in range(k)]


@dataclass(frozen=True)
class GameJob:
    rules: str
    options: dict[str, Any]
    agents: tuple[str, ...]
    run_seed: int
    index: int
    #: given to every ``ai`` agent (``None``: none beyond the agents' own ``~X``)
    noise: float | None = None

    @property
    def seed(self) -> int:
        return game_seed(self.run_seed, self.index)


def _unique_leader(wealth: Sequence[int]) -> int | None:
    best = max(wealth)
    leaders = [p for p, w in enumerate(wealth) if w == best]
    return leaders[0] if len(leaders) == 1 else None


def search_margin(score: float) -> float:
    """A search's root score as a margin in francs: a proven win or loss counts at its true margin."""
    if abs(score) >= WIN_BONUS / 2:
        return score - math.copysign(WIN_BONUS, score)
    return score


def decision_margins(agent: Agent, state: GameState, game: GameSpec, player: int) -> list[float]:
    """Each seat's margin (francs) in the position ``player`` just decided in: the trace entry of a decision.

    The mover's margin is its search's root score when the agent searched
    (``last_info["score"]``, from the mover's view, no extra search), else the
    game's static evaluation; with two players the other seat's is its
    negative, with more each other seat's is the static evaluation.
    """
    info = getattr(agent, "last_info", None)
    score = info.get("score") if isinstance(info, dict) else None
    k = state.num_players
    if score is not None:
        mine = search_margin(float(score))
    elif k == 2:
        seat0 = float(game.evaluator.evaluate(state, 0))
        return [round(seat0, 1), round(-seat0, 1)]
    else:
        mine = float(game.evaluator.evaluate(state, player))
    if k == 2:
        return [round(mine, 1), round(-mine, 1)] if player == 0 else [round(-mine, 1), round(mine, 1)]
    return [round(mine if s == player else float(game.evaluator.evaluate(state, s)), 1) for s in range(k)]


class Decisions:
    """The table's ``decide`` where agents sit at every seat, keeping for each decision its trace entry
    (:func:`decision_margins`), when it builds or uses a building ``[verb, building, seat]``, and the rises
    of the game's per-seat tallies (:meth:`~core.protocol.GameState.player_tallies`, read at each decision
    and at the end: :meth:`tallies`)."""

    def __init__(self, game: GameSpec) -> None:
        self.game = game
        self.trace: list[list[float]] = []
        self.buildings: list[list[Any]] = []
        self._held: dict[str, list[int]] = {}
        self._rises: dict[str, list[int]] = {}

    def _observe(self, state: GameState) -> None:
        """Add each seat's rise of each tally since the last look."""
        now = state.player_tallies()
        for name, values in now.items():
            held = self._held.get(name, [0] * len(values))
            rises = self._rises.setdefault(name, [0] * len(values))
            for seat, (before, after) in enumerate(zip(held, values, strict=True)):
                if after > before:
                    rises[seat] += after - before
        self._held = now

    def tallies(self, final: GameState) -> dict[str, Any]:
        """A record's ``tallies``: each tally's rises per seat over the game that ended in ``final`` (no
        entry when the game declares none)."""
        self._observe(final)
        return {"tallies": self._rises} if self._rises else {}

    def __call__(self, table: Table, player: int) -> Any:
        self._observe(table.state)
        action = agents_decide(table, player)
        self.trace.append(decision_margins(table.agent_for(player), table.state, self.game, player))
        hit = table.state.action_building(action)
        if hit is not None:
            self.buildings.append([hit[0], hit[1], player])
        return action


class LeadChanges:
    """The table's ``after``: the actions played, and how often the sole leader in wealth changed,
    measured whenever the turn passes to another seat and at the end (a tied lead keeps the last
    sole leader)."""

    def __init__(self) -> None:
        self.leader: int | None = None
        self.changes = 0
        self.steps = 0

    def after(self, table: Table, before: GameState | None, player: int, action: Any) -> None:
        self.observe(table.state, player)

    def observe(self, state: GameState, player: int) -> None:
        """``state`` just after ``player`` acted."""
        self.steps += 1
        if state.is_terminal() or state.current_player() != player:
            now = _unique_leader(state.wealth())
            if now is not None:
                if self.leader is not None and now != self.leader:
                    self.changes += 1
                self.leader = now


def play_game(job: GameJob) -> dict[str, Any]:
    """Play one game to its end; the record holds everything statistics and replays need.

    ``trace`` holds one entry per decision (:func:`decision_margins`; the
    measures of :mod:`core.lab.measures` read it).  ``lead_changes`` counts how often the sole leader in wealth changed,
    measured whenever the turn passes to another seat and at the end (a tied
    lead keeps the last sole leader).

    The engine's caches are emptied first (:func:`core.evalcache.forget`; play is the same): a process
    playing game after game holds one game's cache entries, not every game's up to the caches' limits.
    """
    forget()
    seed = job.seed
    order = seat_order(job.agents, job.index)
    seats = [job.agents[i] for i in order]
    game = load_ruleset(job.rules)
    state = new_game(job.rules, job.options, seed)
    table = Table(game, None, seed, state, [Seat(spec, AGENT, spec) for spec in seats], keep_positions=False)
    for s in range(len(seats)):
        table.agent_for(s, noise=job.noise)
    log = Decisions(game)
    lead = LeadChanges()
    start = time.perf_counter()
    state = table.play(log, lead.after)
    events, trace = log.buildings, log.trace
    seconds = time.perf_counter() - start
    return {
        "index": job.index,
        "seed": seed,
        "seats": seats,
        "seat_agents": order,
        "wealth": list(state.wealth()),
        "winners": list(state.winners()),
        "actions": list(state.history),
        "main_actions": int(state.main_action_count),
        "steps": lead.steps,
        "seconds": seconds,
        "lead_changes": lead.changes,
        "buildings": events,
        "owners": dict(state.building_owners()),
        "trace": trace,
    } | log.tallies(state)


def replayed_lead_changes(state: GameState, actions: Sequence[str]) -> int:
    """:class:`LeadChanges` of the game whose action texts are ``actions``, replayed from its start ``state``
    (changed in place), for a record kept without them."""
    lead = LeadChanges()
    for step in replay_actions(state, actions):
        lead.observe(state, step.actor)
    return lead.changes


def result_fingerprint(record: dict[str, Any]) -> dict[str, Any]:
    """A record without its timing: what must be identical for any number of processes."""
    return {k: v for k, v in record.items() if k != "seconds"}
