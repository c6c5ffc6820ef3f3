"""Agents that play any game implementing :mod:`core.protocol`.

An agent is anything with ``name`` and ``choose(state) -> action``.  Agents
are made from a text spec (``random``, ``greedy``, ``ai``, ``ai:hard``) by
:func:`make_agent`; new kinds register themselves with :func:`register_agent`.
Every agent draws its randomness from its own seeded generator, so a game
between agents is reproduced by the seeds alone.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Protocol

from core.protocol import GameError, GameState


class Agent(Protocol):
    name: str

    def choose(self, state: GameState) -> Any: ...


class AgentSpecError(GameError):
    pass


class RandomAgent:
    """Picks uniformly among the legal actions."""

    def __init__(self, seed: int = 0) -> None:
        self.name = "random"
        self.rng = random.Random(seed)

    def choose(self, state: GameState) -> Any:
        return self.rng.choice(state.legal_actions())


def wealth_margin(state: GameState, player: int) -> int:
    """``player``'s wealth minus the best other player's (own wealth when alone)."""
    w = state.wealth()
    others = [x for p, x in enumerate(w) if p != player]
    return w[player] - (max(others) if others else 0)


class GreedyAgent:
    """One ply of look-ahead: the action that leaves the best wealth margin now.

    Ties are broken at random.  It ignores everything but current wealth,
    which makes it a clear, cheap baseline rather than a good player.
    """

    def __init__(self, seed: int = 0) -> None:
        self.name = "greedy"
        self.rng = random.Random(seed)

    def choose(self, state: GameState) -> Any:
        player = state.current_player()
        best: list[Any] = []
        best_score: float | None = None
        for action in state.legal_actions():
            child = state.clone()
            child.apply_action(action)
            score = wealth_margin(child, player)
            if best_score is None or score > best_score:
                best, best_score = [action], score
            elif score == best_score:
                best.append(action)
        return self.rng.choice(best)


AgentFactory = Callable[[str | None, int], Agent]
_REGISTRY: dict[str, AgentFactory] = {
    "random": lambda level, seed: RandomAgent(seed),
    "greedy": lambda level, seed: GreedyAgent(seed),
}


def register_agent(kind: str, factory: AgentFactory) -> None:
    _REGISTRY[kind] = factory


def agent_kinds() -> list[str]:
    _load_plugins()
    return sorted(_REGISTRY)


def _load_plugins() -> None:
    # The search agent lives in core.search and registers "ai" on import.
    try:
        import core.search  # noqa: F401
    except ImportError:
        pass


def make_agent(spec: str, seed: int = 0) -> Agent:
    """Build an agent from ``kind[:level]``; raises :class:`AgentSpecError`."""
    _load_plugins()
    kind, _, level = spec.strip().lower().partition(":")
    if kind not in _REGISTRY:
        raise AgentSpecError(f"unknown agent '{spec}' (allowed: {', '.join(sorted(_REGISTRY))}; the AI takes a level, e.g. ai:hard)")
    try:
        agent = _REGISTRY[kind](level or None, seed)
    except ValueError as exc:
        raise AgentSpecError(f"agent '{spec}': {exc}") from None
    return agent


def parse_agent_list(text: str, count: int | None = None) -> list[str]:
    """Split ``A,B,...`` and check each spec; ``count`` demands that many."""
    specs = [s.strip() for s in text.split(",") if s.strip()]
    if count is not None and len(specs) != count:
        raise AgentSpecError(f"expected {count} agents separated by commas, got {len(specs)} ('{text}')")
    for s in specs:
        make_agent(s, 0)
    return specs
