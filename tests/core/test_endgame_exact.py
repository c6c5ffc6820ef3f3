"""Where the search plays exactly (issue 18): an exhausted search's value is the plain minimax value.

Positions are sampled from the last decisions of seeded games of both games.
When the alpha-beta search (transposition table, move ordering, forced moves
free) reports that it reached the end of the game on every line, its value
must equal that of plain minimax to the end over the same actions worth
searching (no pruning, no table, every ply one depth).
"""

from __future__ import annotations

import pytest

from core.agents import make_agent
from core.games import game_spec
from core.protocol import GameState
from core.search import Searcher, minimax_value


def _last_positions(name: str, seed: int, k: int) -> list[GameState]:
    spec = game_spec(name)
    state = spec.new_game(seed, {"players": 2} if name == "base" else None)
    agents = [make_agent("greedy", seed * 2 + p, spec) for p in range(2)]
    seen: list[GameState] = []
    while not state.is_terminal():
        seen.append(state.clone())
        state.apply_action(agents[state.current_player()].choose(state))
    return seen[-k:]


@pytest.mark.parametrize(("name", "seeds"), [("inland", (1, 2, 3, 4, 5, 6, 7, 8)), ("base", (5, 6, 7))])
def test_exhausted_search_value_is_the_minimax_value(name: str, seeds: tuple[int, ...]) -> None:
    spec = game_spec(name)
    ev = spec.evaluator
    compared = searched = 0
    for seed in seeds:
        for state in _last_positions(name, seed, 4):
            if len(ev.search_actions(state)) < 2:
                continue
            result = Searcher(max_nodes=4_000, seed=seed, evaluator=ev).search(state)
            searched += 1
            if not result.exhausted:
                continue
            value, best, _ = minimax_value(state, 64, evaluator=ev)
            assert result.score == value, (seed, state.history[-3:])
            assert result.action in best
            compared += 1
    assert compared >= 3, f"only {compared} of {searched} searched positions were exhausted"
