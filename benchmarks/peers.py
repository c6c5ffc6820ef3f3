"""The agents the benchmarks measure the AI against, made from one text each.

    random, greedy                  the simple baselines (core.agents)
    ai:easy, ai:normal, ai:hard     the search at its shipped budgets (node-budgeted)
    ai:normal@T                     the search on a wall time of T seconds a move
    mcts@T                          OpenSpiel's MCTSBot with random rollouts, T seconds a move
    mcts:eval@T                     OpenSpiel's MCTSBot with the game's own evaluation
                                    (tanh of the evaluation margin) instead of rollouts

MCTS needs the ``openspiel`` extra (``pip install -e '.[openspiel]'``).  For
the base game MCTS searches a determinised copy for the player to move, so it
never sees the face-down tiles or the special-building pile.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core.agents import make_agent
from core.search import SearchAgent, ThinkTime

KINDS = ("random", "greedy", "ai", "mcts", "mcts:eval")


def parse(text: str) -> tuple[str, float | None]:
    """``kind[:level][@seconds]`` -> (kind with level, seconds or None)."""
    name, _, at = text.strip().partition("@")
    if at:
        try:
            seconds = float(at)
        except ValueError:
            raise ValueError(f"'{text}': the time after @ must be seconds, e.g. mcts:eval@0.5") from None
        if seconds <= 0:
            raise ValueError(f"'{text}': the time after @ must be positive")
        return name, seconds
    return name, None


def make_peer(text: str, seed: int, game: str) -> Any:
    """An agent for ``game`` from ``text`` (see the module docstring)."""
    name, seconds = parse(text)
    if name in ("mcts", "mcts:eval"):
        if seconds is None:
            raise ValueError(f"'{text}': MCTS needs a time per move, e.g. {name}@0.5")
        from core.lab.openspiel_adapter import TimedMCTSAgent

        agent = TimedMCTSAgent(think_time=seconds, seed=seed, evaluator="eval" if name == "mcts:eval" else "rollout")
        agent.name = text
        return agent
    if name.startswith("ai") and seconds is not None:
        level = name.partition(":")[2] or None
        from core.games import game_spec

        agent = SearchAgent(level=level, think_time=ThinkTime(seconds), seed=seed, game=game_spec(game))
        agent.name = text
        return agent
    if seconds is not None:
        raise ValueError(f"'{text}': only ai and mcts agents take a time")
    agent = make_agent(name, seed, game)
    agent.name = text
    return agent
