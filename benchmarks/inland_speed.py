"""Inland Port speed, as ratios measured in one run.

Prints random full games per second, legal-action generations per second, and
the same random-game loop run twice more, copying the state before every
action (as a search does): once with ``state.clone()``, once with
``copy.deepcopy`` as the baseline; the ratio is clone's speed-up.

Then the branching the search meets: over games between two ``greedy``
agents (random play sells everything and passes, which is no guide), the mean
number of legal actions per decision against the number the search looks at
(``RULESET.evaluator.search_actions(state)``, which prunes sales that cannot change anything),
overall and at the decisions after a main action (sell or end the turn), and
the share of decisions that are forced (one action worth searching), which
the search passes through without spending depth.  And the search's nodes
per second: searches of ``ai:normal``'s 5,000 nodes on positions of greedy
games.

    .venv/bin/python benchmarks/inland_speed.py [--games N]

With ``--before DIR`` only the search's nodes per second is measured, on the
tree ``DIR`` and on this checkout alternately (``--rounds`` times each), and
the ratio is printed with a check that both trees' searches are identical
node for node (best move, score, depth and nodes of every search); see
``benchmarks/trees.py``:

    git archive da82bf7 | tar -x -C /tmp/before-da82bf7
    .venv/bin/python benchmarks/inland_speed.py --before /tmp/before-da82bf7 [--rounds 3] [--search-games 2]
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

from inland_port import RULESET


def random_games(n: int, copier=None) -> tuple[float, int]:
    """Play ``n`` seeded random games; return (seconds, legal-action generations)."""
    gens = 0
    t0 = time.perf_counter()
    for seed in range(n):
        s = RULESET.new_game(seed)
        rng = random.Random(seed)
        while not s.is_terminal():
            if copier is not None:
                s = copier(s)
            legal = s.legal_actions()
            gens += 1
            s.apply_action(rng.choice(legal))
    return time.perf_counter() - t0, gens


def branching(n: int) -> dict[str, float]:
    """Legal vs searched actions per decision over ``n`` greedy-vs-greedy games."""
    from core.agents import make_agent

    legal = searched = after_legal = after_searched = decisions = after = forced = 0
    for seed in range(n):
        s = RULESET.new_game(seed)
        agents = [make_agent("greedy", seed), make_agent("greedy", seed + 1)]
        while not s.is_terminal():
            acts = s.legal_actions()
            kept = RULESET.evaluator.search_actions(s)
            decisions += 1
            legal += len(acts)
            searched += len(kept)
            forced += len(kept) == 1
            if s.acted:
                after += 1
                after_legal += len(acts)
                after_searched += len(kept)
            s.apply_action(agents[s.current_player()].choose(s))
    return {
        "decisions per game": decisions / n,
        "legal": legal / decisions,
        "searched": searched / decisions,
        "after action: share": after / decisions,
        "after action: legal": after_legal / max(1, after),
        "after action: searched": after_searched / max(1, after),
        "forced share": forced / decisions,
    }


def search_speed(games: int = 2, nodes: int = 5000) -> tuple[int, float, list[list[object]]]:
    """(nodes, CPU seconds, each search's record) of ai:normal-sized searches (``nodes`` each) on positions
    of greedy games, with the game's evaluation and actions worth searching (as the ``ai`` agent)."""
    from core.agents import make_agent
    from core.search import Searcher

    positions = []
    for seed in range(games):
        s = RULESET.new_game(seed)
        agents = [make_agent("greedy", seed), make_agent("greedy", seed + 7)]
        while not s.is_terminal():
            fresh = not positions or positions[-1].main_action_count != s.main_action_count
            if not getattr(s, "acted", False) and s.main_action_count % 6 == 3 and fresh:
                positions.append(s.clone())
            s.apply_action(agents[s.current_player()].choose(s))
    total = 0
    records = []
    ev = RULESET.evaluator
    t0 = time.process_time()  # CPU time: on a shared machine wall time mostly measures the neighbours
    for p in positions:
        # the search's copy (without the game's action list) where the tree has one, as the ai agent searches
        root = p.copy_for_search() if hasattr(p, "copy_for_search") else p.clone()
        result = Searcher(max_nodes=nodes, seed=1, **evaluator_options(Searcher, ev)).search(root)
        total += result.nodes
        records.append(search_record(result))
    return total, time.process_time() - t0, records


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=200, help="random games per measurement (default 200)")
    ap.add_argument(
        "--branching-games", type=int, default=20, help="greedy games for the branching figures (default 20)"
    )
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
    n = args.games
    secs, gens = random_games(n)
    print(f"random full games per second:          {n / secs:10.1f}   ({n} games, {secs:.2f} s)")
    print(f"legal-action generations per second:   {gens / secs:10.0f}   ({gens} generations)")
    secs_clone, _ = random_games(n, lambda s: s.clone())
    secs_deep, _ = random_games(n, copy.deepcopy)
    print(f"games/s copying with state.clone():    {n / secs_clone:10.1f}")
    print(f"games/s copying with copy.deepcopy:    {n / secs_deep:10.1f}")
    print(f"ratio clone / deepcopy (speed-up):     {secs_deep / secs_clone:10.2f}x")
    sn, st, _ = search_speed(args.search_games)
    print(f"search nodes per CPU second:           {sn / st:10.0f}   ({sn} nodes on greedy games' positions)")
    b = branching(args.branching_games)
    print(f"branching over {args.branching_games} greedy-vs-greedy games:")
    print(f"decisions per game:                    {b['decisions per game']:10.1f}")
    print(f"actions per decision, legal:           {b['legal']:10.2f}")
    print(
        f"actions per decision, searched:        {b['searched']:10.2f}   (ratio {b['legal'] / b['searched']:.2f}x fewer)"
    )
    print(
        f"after the main action ({b['after action: share']:.0%} of decisions): "
        f"legal {b['after action: legal']:.2f}, searched {b['after action: searched']:.2f}"
    )
    print(f"forced decisions (no depth spent):     {b['forced share']:10.0%}")


if __name__ == "__main__":
    main()
