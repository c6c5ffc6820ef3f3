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
from collections.abc import Sequence
from typing import Protocol

from core.games import game_spec
from core.protocol import A, GameError, GameSpec, GameState, wealth_margin
from core.search import NO_NOISE, Noise, SearchAgent, ThinkTime


class Agent(Protocol):
    """Plays any game: ``choose`` answers a state of a game with one of that game's actions."""

    name: str

    def choose(self, state: GameState[A]) -> A: ...


class AgentSpecError(GameError):
    pass


class RandomAgent:
    """Picks uniformly among the legal actions."""

    def __init__(self, seed: int = 0) -> None:
        self.name = "random"
        self.rng = random.Random(seed)

    def choose(self, state: GameState[A]) -> A:
        return self.rng.choice(state.legal_actions())


class GreedyAgent:
    """One ply of look-ahead: the action that leaves the best wealth margin now.

    Ties are broken at random.  It ignores everything but current wealth,
    which makes it a clear, cheap baseline rather than a good player.
    """

    def __init__(self, seed: int = 0) -> None:
        self.name = "greedy"
        self.rng = random.Random(seed)

    def choose(self, state: GameState[A]) -> A:
        player = state.current_player()
        best: list[A] = []
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


def make_agent(
    spec: str,
    seed: int = 0,
    game: GameSpec | str | None = None,
    *,
    noise: float | None = None,
    think_time: float | None = None,
    time_cap: bool = True,
) -> Agent:
    """Build an agent from ``kind[:level][@nodes=N][~X]``; raises :class:`AgentSpecError`.

    ``@nodes=N`` gives an ``ai`` agent a node budget of ``N`` per decision
    instead of its level's (the level keeps its depth and time cap; ``time_cap=False``: no time cap,
    the node budget alone ends each search).

    ``noise`` (or ``~X`` after the spec: ``ai:easy~3``, not both) makes an
    ``ai`` agent draw among its root moves within that many evaluation points
    of the best (see :class:`core.search.SearchAgent`); ``think_time``
    (seconds per move) makes it search on time.  The other agents take
    neither option (a ``~X`` in their text is refused).

    ``game`` (a spec or a game's name) is the game the agent will play: the
    ``ai`` agent's levels and budgets are that game's.  Without it the ``ai``
    agent takes them from each state's own game (``state.game``), so the
    same text always gives the same agent whatever has been imported.
    """
    text, _, noise_text = spec.strip().lower().partition("~")
    own = own_noise(spec)
    try:  # a Noise or a ThinkTime stays as it is; a plain number becomes one (its one check)
        points = Noise(noise) if noise is not None else None
        seconds = ThinkTime(think_time) if think_time is not None else None
    except ValueError as exc:
        raise AgentSpecError(str(exc)) from None
    check_noise([spec], points)
    text, _, budget_text = text.partition("@")
    max_nodes = _node_budget(spec, budget_text) if budget_text else None
    kind, _, level = text.partition(":")
    if kind not in AGENT_KINDS:
        raise AgentSpecError(
            f"unknown agent '{spec}' (allowed: {', '.join(agent_kinds())}; the AI takes a level, e.g. ai:hard)"
        )
    if kind != "ai":
        return _simple_agent(spec, kind, seed, (noise_text, level, budget_text))
    try:
        return SearchAgent(
            level=level or None,
            think_time=seconds,
            seed=seed,
            game=game_spec(game) if game is not None else None,
            noise=own if own is not None else points or NO_NOISE,
            max_nodes=max_nodes,
            time_cap=time_cap,
        )
    except ValueError as exc:
        raise AgentSpecError(f"agent '{spec}': {exc}") from None


def _simple_agent(spec: str, kind: str, seed: int, extras: tuple[str, str, str]) -> Agent:
    """``random`` or ``greedy``; ``extras`` (the text's noise, level and node budget) must be empty."""
    noise_text, level, budget_text = extras
    if noise_text:
        raise AgentSpecError(f"agent '{spec}': only the ai agent takes a noise (e.g. ai:easy~3)")
    if level:
        raise AgentSpecError(f"agent '{spec}': only the ai agent takes a level (e.g. ai:hard)")
    if budget_text:
        raise AgentSpecError(f"agent '{spec}': only the ai agent takes a node budget (e.g. ai:normal@nodes=500)")
    return RandomAgent(seed) if kind == "random" else GreedyAgent(seed)


def _own_noise(spec: str, text: str) -> Noise:
    """The ``X`` of ``~X`` in an agent text."""
    try:
        return Noise(float(text))
    except ValueError:
        raise AgentSpecError(
            f"agent '{spec}': the noise after ~ must be a number >= 0 (evaluation points, about francs), e.g. ai:easy~3"
        ) from None


def own_noise(spec: str) -> Noise | None:
    """The noise an agent text carries (``ai:easy~3``), if any; raises AgentSpecError if it is no noise."""
    _, tilde, text = spec.strip().lower().partition("~")
    return _own_noise(spec, text) if tilde else None


class ThinkTimeError(AgentSpecError):
    """A thinking time given to a game where no agent searches."""


def check_think_time(specs: Sequence[str], think_time: ThinkTime | None) -> None:
    """``think_time`` (``--think-time``) goes to the ai agents; ThinkTimeError if none of ``specs`` is one."""
    kinds = [spec.strip().lower().partition("~")[0].partition("@")[0].partition(":")[0] for spec in specs]
    if think_time is not None and "ai" not in kinds:
        raise ThinkTimeError("--think-time applies to the ai agent, and no ai plays in this game")


def check_noise(specs: Sequence[str], noise: Noise | None) -> None:
    """``noise`` (``--noise``) goes to agents without a noise of their own; AgentSpecError if one has."""
    for spec in specs:
        own = own_noise(spec)
        if own is not None and noise is not None:
            raise AgentSpecError(f"agent '{spec.strip()}' has its own noise {own:g}; drop it or drop --noise {noise:g}")


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


def parse_agent_list(text: str, count: int | None = None, game: GameSpec | str | None = None) -> list[str]:
    """Split ``A,B,...`` and check each spec (for ``game``); ``count`` demands that many."""
    specs = [s.strip() for s in text.split(",") if s.strip()]
    if count is not None and len(specs) != count:
        raise AgentSpecError(f"expected {count} agents separated by commas, got {len(specs)} ('{text}')")
    for s in specs:
        make_agent(s, 0, game)
    return specs
