"""What the engine does from fixed seeds, printed as one JSON line: the compiled and the pure engine must print the same.

Searches on positions of greedy games (best move, score, depth, nodes) and whole games between two ``ai``
agents (every action's text and the final wealth), for each game, with node budgets and no time cap, so
the machine's load changes nothing.  ``tests/core/test_compiled.py`` runs it twice, with ``LEHAVRE_PURE=1``
and without, and compares; ``benchmarks/game_cpu.py`` times such games.

    .venv/bin/python benchmarks/engine_play.py [--level easy] [--nodes 1500]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from core import compiled
from core.agents import make_agent
from core.lab.playtest.config import load_ruleset, new_game
from core.protocol import GameState
from core.search import Searcher

#: the games and their options: the Inland Port, and the base game for two players
GAMES: dict[str, dict[str, Any]] = {"inland": {}, "base": {"players": 2}}


def play(rules: str, options: dict[str, Any], seed: int, level: str) -> GameState:
    """A whole game from ``seed`` between two ``ai:<level>`` agents searching on their node budgets alone."""
    game = load_ruleset(rules)
    state = new_game(rules, options, seed)
    agents = [make_agent(f"ai:{level}", seed * 10 + k, game, time_cap=False) for k in range(state.num_players)]
    while not state.is_terminal():
        state.apply_action(agents[state.current_player()].choose(state))
    return state


def positions(rules: str, options: dict[str, Any], seed: int, every: int) -> list[GameState]:
    """Positions of a greedy game from ``seed``: one every ``every`` decisions."""
    game = load_ruleset(rules)
    state = new_game(rules, options, seed)
    agents = [make_agent("greedy", seed + k, game) for k in range(state.num_players)]
    out = []
    while not state.is_terminal():
        if len(state.history) % every == every - 1:
            out.append(state.clone())
        state.apply_action(agents[state.current_player()].choose(state))
    return out


def record(rules: str, level: str, nodes: int, seeds: int) -> dict[str, Any]:
    options = GAMES[rules]
    game = load_ruleset(rules)
    searches = []
    for p in positions(rules, options, 5, 23)[:6]:
        found = Searcher(max_nodes=nodes, seed=1, evaluator=game.evaluator).search(p.copy_for_search())
        searches.append([str(found.action), found.score, found.depth, found.nodes])
    games = []
    for seed in range(seeds):
        end = play(rules, options, seed, level)
        games.append({"actions": end.history, "wealth": end.wealth()})
    return {"searches": searches, "games": games}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--level", default="easy", help="the agents' level in the games (default easy)")
    ap.add_argument("--nodes", type=int, default=1500, help="each search's node budget (default 1500)")
    ap.add_argument("--seeds", type=int, default=1, help="games per rule set (default 1)")
    ap.add_argument("--games", default="inland,base", help="rule sets (default inland,base)")
    args = ap.parse_args()
    out = {rules: record(rules, args.level, args.nodes, args.seeds) for rules in args.games.split(",")}
    print(json.dumps({"engine": compiled.ENGINE, "play": out}))


if __name__ == "__main__":
    main()
