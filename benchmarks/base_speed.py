"""Speed of the base game engine: random two-player full games per second.

Run: ``.venv/bin/python benchmarks/base_speed.py [seconds]``.

Prints (1) random 2-player full games per second, (2) games per second when
the state is copied before every action with ``state.clone()`` (what a search
does), and (3) the same with ``copy.deepcopy``; the ratio of (2) to (3) is
measured in the same run; (4) the copies alone: the mean time of one
``clone()`` and of one ``copy.deepcopy`` over the positions of a few random
games, and their ratio; (5) the search's nodes per CPU second: searches of
``ai:normal``'s node budget, with the game's evaluation and actions worth
searching, on positions of greedy 2-player games.

With ``--before DIR`` only (5) is measured, on the tree ``DIR`` and on this
checkout alternately (``--rounds`` times each), and the ratio is printed with
a check that both trees' searches are identical node for node (best move,
score, depth and nodes of every search); see ``benchmarks/trees.py``:

    git archive da82bf7 | tar -x -C /tmp/before-da82bf7
    .venv/bin/python benchmarks/base_speed.py --before /tmp/before-da82bf7 [--rounds 3] [--search-games 2]
"""

from __future__ import annotations

import argparse
import copy
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.trees import compare, evaluator_options, search_record, use_tree

use_tree(sys.argv)  # --tree DIR: import the game from DIR (a child of --before)

from base_game import RULESET


def _is_sale(a) -> bool:
    # typed actions (a ``verb``); plain texts in versions before issue 12, so both can be compared
    verb = getattr(a, "verb", None)
    return verb in ("sell", "sell ship") if verb is not None else a.startswith("sell")


def positions(games: int = 3) -> list:
    out = []
    for seed in range(games):
        s = RULESET.new_game(seed, {"players": 2})
        rng = random.Random(seed)
        while not s.is_terminal():
            out.append(s.clone())
            s.apply_action(rng.choice(s.legal_actions()))
    return out


def copy_times(states: list, rounds: int = 3) -> tuple[float, float]:
    """Mean seconds per clone() and per deepcopy (best of ``rounds``)."""
    best_c = best_d = float("inf")
    for _ in range(rounds):
        t0 = time.perf_counter()
        for s in states:
            s.clone()
        t1 = time.perf_counter()
        for s in states:
            copy.deepcopy(s)
        t2 = time.perf_counter()
        best_c = min(best_c, (t1 - t0) / len(states))
        best_d = min(best_d, (t2 - t1) / len(states))
    return best_c, best_d


def play(seed: int, copier=None) -> int:
    s = RULESET.new_game(seed, {"players": 2})
    rng = random.Random(seed)
    steps = 0
    while not s.is_terminal():
        if copier is not None:
            s = copier(s)
        acts = s.legal_actions()
        keep = [a for a in acts if not _is_sale(a)]
        s.apply_action(rng.choice(keep) if keep and rng.random() < 0.9 else rng.choice(acts))
        steps += 1
    return steps


def rate(budget: float, copier=None) -> tuple[float, float]:
    t0 = time.perf_counter()
    games = steps = 0
    while time.perf_counter() - t0 < budget:
        steps += play(games, copier)
        games += 1
    dt = time.perf_counter() - t0
    return games / dt, steps / dt


def search_speed(games: int = 2) -> tuple[int, float, list[list[object]]]:
    """(nodes, CPU seconds, each search's record) of searches of ai:normal's node budget, with the game's
    evaluation and actions worth searching, on every 16th searched decision of greedy 2-player games."""
    from core.agents import make_agent
    from core.search import Searcher

    ev = RULESET.evaluator
    budget = RULESET.ai_levels["normal"].max_nodes
    positions = []
    for seed in range(games):
        s = RULESET.new_game(seed, {"players": 2})
        agents = [make_agent("greedy", seed), make_agent("greedy", seed + 7)]
        decisions = 0
        while not s.is_terminal():
            if len(ev.search_actions(s)) > 1:
                decisions += 1
                if decisions % 16 == 3:
                    positions.append(s.clone())
            s.apply_action(agents[s.current_player()].choose(s))
    total = 0
    records = []
    t0 = time.process_time()  # CPU time: on a shared machine wall time mostly measures the neighbours
    for p in positions:
        result = Searcher(max_nodes=budget, seed=1, **evaluator_options(Searcher, ev)).search(p)
        total += result.nodes
        records.append(search_record(result))
    return total, time.process_time() - t0, records


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("seconds", type=float, nargs="?", default=3.0, help="seconds per games/s measurement")
    ap.add_argument("--before", type=Path, help="compare the search's speed with this source tree (see above)")
    ap.add_argument("--rounds", type=int, default=3, help="with --before: runs on each tree (default 3)")
    ap.add_argument("--search-games", type=int, default=2, help="greedy games the searched positions come from")
    ap.add_argument("--tree", type=Path, help=argparse.SUPPRESS)
    ap.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.before is not None:
        compare(Path(__file__), args.before, args.rounds, ["--search-games", str(args.search_games)])
        return
    if args.json:
        sn, st, records = search_speed(args.search_games)
        print(json.dumps({"nodes": sn, "seconds": st, "searches": records}))
        return
    budget = args.seconds
    g, st = rate(budget)
    print(f"random 2-player full games: {g:.1f} games/s ({st:.0f} actions/s)")
    gc, _ = rate(budget, lambda s: s.clone())
    gd, _ = rate(budget, copy.deepcopy)
    print(f"with a copy before every action: clone() {gc:.2f} games/s, deepcopy {gd:.2f} games/s, ratio {gc / gd:.1f}x")
    c, d = copy_times(positions())
    print(f"one copy: clone() {c * 1e6:.1f} us, deepcopy {d * 1e6:.1f} us, ratio {d / c:.1f}x")
    sn, st, _ = search_speed(args.search_games)
    print(f"search nodes per CPU second: {sn / st:.0f} ({sn} nodes on greedy games' positions)")


if __name__ == "__main__":
    main()
