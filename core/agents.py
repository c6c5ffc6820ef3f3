"""Agents that play any game implementing :mod:`core.protocol`.

An agent is anything with ``name`` and ``choose(state) -> action``.  Agents
are made from a text spec (``random``, ``greedy``, ``ai``, ``ai:hard``) by
:func:`make_agent`, for the game they will play (its spec declares the AI's
levels).
Every agent draws its randomness from its own seeded generator, so a game
between agents is reproduced by the seeds alone.
"""

from __future__ import annotations

import random
from typing import Any, Protocol

from core.protocol import GameError, GameSpec, GameState


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


#: the agent kinds :func:`make_agent` knows, and what each is
AGENT_KINDS: dict[str, str] = {
    "random": "picks uniformly among the legal actions",
    "greedy": "one ply of look-ahead on the wealth margin",
    "ai": (
        "alpha-beta search; a level may follow: ai:easy, ai:normal, ai:hard; @nodes=N sets its node budget "
        "(ai:normal@nodes=500); ~X adds noise X (ai:easy~3)"
    ),
}


def agent_kinds() -> list[str]:
    return sorted(AGENT_KINDS)


def make_agent(spec: str, seed: int = 0, game: GameSpec | str | None = None, noise: float = 0.0) -> Agent:
    """Build an agent from ``kind[:level][@nodes=N][~X]``; raises :class:`AgentSpecError`.

    ``@nodes=N`` gives an ``ai`` agent a node budget of ``N`` per decision
    instead of its level's (the level keeps its depth and time cap).

    ``noise`` (or ``~X`` after the spec: ``ai:easy~3``) makes an ``ai`` agent
    draw among its root moves within that many evaluation points of the best
    (see :class:`core.search.SearchAgent`); the other agents take none.

    ``game`` (a spec or a game's name) is the game the agent will play: the
    ``ai`` agent's levels and budgets are that game's.  Without it the ``ai``
    agent takes them from each state's own game (:mod:`core.games`), so the
    same text always gives the same agent whatever has been imported.
    """
    text, _, noise_text = spec.strip().lower().partition("~")
    if noise_text:
        try:
            noise = float(noise_text)
        except ValueError:
            raise AgentSpecError(f"agent '{spec}': the noise after ~ must be a number, e.g. ai:easy~3") from None
        if noise < 0:
            raise AgentSpecError(f"agent '{spec}': the noise after ~ must not be negative")
    text, _, budget_text = text.partition("@")
    max_nodes = _node_budget(spec, budget_text) if budget_text else None
    kind, _, level = text.partition(":")
    if kind not in AGENT_KINDS:
        raise AgentSpecError(
            f"unknown agent '{spec}' (allowed: {', '.join(agent_kinds())}; the AI takes a level, e.g. ai:hard)"
        )
    if kind != "ai":
        if noise_text:
            raise AgentSpecError(f"agent '{spec}': only the ai agent takes a noise (e.g. ai:easy~3)")
        if level:
            raise AgentSpecError(f"agent '{spec}': only the ai agent takes a level (e.g. ai:hard)")
        if budget_text:
            raise AgentSpecError(f"agent '{spec}': only the ai agent takes a node budget (e.g. ai:normal@nodes=500)")
        return RandomAgent(seed) if kind == "random" else GreedyAgent(seed)
    from core.games import game_spec
    from core.search import SearchAgent

    try:
        return SearchAgent(
            level=level or None,
            seed=seed,
            game=game_spec(game) if game is not None else None,
            noise=noise,
            max_nodes=max_nodes,
        )
    except ValueError as exc:
        raise AgentSpecError(f"agent '{spec}': {exc}") from None


def _node_budget(spec: str, text: str) -> int:
    """The ``N`` of ``@nodes=N`` in an agent text."""
    key, _, value = text.partition("=")
    if key.strip() != "nodes" or not value.strip().isdigit() or int(value) < 1:
        raise AgentSpecError(
            f"agent '{spec}': after @ give a node budget, nodes=N with N a whole number >= 1 (ai@nodes=500)"
        )
    return int(value)


def with_nodes(spec: str, nodes: int) -> str:
    """``spec`` (an ``ai`` agent, any level, no budget yet) with a node budget: ``ai:normal`` -> ``ai:normal@nodes=500``."""
    text, tilde, noise = spec.strip().partition("~")
    return f"{text}@nodes={nodes}{tilde}{noise}"


def with_noise(spec: str, noise: float) -> str:
    """``spec`` with noise ``noise`` for an ``ai`` agent (``ai:easy`` -> ``ai:easy~3``); others unchanged."""
    if noise <= 0 or "~" in spec or not spec.strip().lower().startswith("ai"):
        return spec
    return f"{spec.strip()}~{noise:g}"


def parse_agent_list(text: str, count: int | None = None, game: GameSpec | str | None = None) -> list[str]:
    """Split ``A,B,...`` and check each spec (for ``game``); ``count`` demands that many."""
    specs = [s.strip() for s in text.split(",") if s.strip()]
    if count is not None and len(specs) != count:
        raise AgentSpecError(f"expected {count} agents separated by commas, got {len(specs)} ('{text}')")
    for s in specs:
        make_agent(s, 0, game)
    return specs
