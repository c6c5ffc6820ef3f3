"""From how many decisions before the end does each AI level play exactly?

    python benchmarks/endgame.py --game inland --seeds 3 --max-k 12
    python benchmarks/endgame.py --game base --seeds 3 --json endgame_base.json
    python benchmarks/endgame.py --tree /path/to/other/checkout --game inland   # measure another tree

Plays ``--seeds`` seeded games of ``--agent`` (default ``greedy``, in both
seats; the base game with two players) and, for the positions ``k = 1, 2,
...`` decisions before the end, runs each level's search (its node budget and
depth as shipped, without the time cap, so the figures do not depend on the
machine's load) and records whether it was *exhausted*: an iteration reached
the end of the game on every line, so the move is exactly the best one for the
actions the search considers.  A decision with a single action worth
searching is answered without search (exact, counted as "forced").

As the search runs the same iterations with the same seed whatever the
budget, a position exhausted at a smaller budget and depth is exhausted at a
larger one: it is not searched again.  A level's scan stops after
``--stop-after`` positions in a row that were not exhausted (farther from the
end the trees only grow); the positions left out count as not exhausted.
Prints, per level, the largest ``k`` up to which every position (and at
least 90% of the positions) was exhausted, then the table by ``k``.

``--tree DIR`` runs this measurement in a subprocess on another checkout
(``PYTHONPATH=DIR``), e.g. before and after a change to the search's speed.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

TREE_ENV = "LEHAVRE_ENDGAME_TREE"
sys.path.insert(0, os.environ.get(TREE_ENV) or str(Path(__file__).resolve().parent.parent))

import core.search as search_module
from core.agents import make_agent
from core.games import game_spec
from core.protocol import GameSpec, GameState
from core.search import Searcher


def _args(argv: list[str] | None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", choices=["inland", "base"], default="inland")
    ap.add_argument("--seeds", type=int, default=3, help="games measured (seeds --seed, --seed+1, ...)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--agent", default="greedy", help="the agent that plays the games in both seats")
    ap.add_argument("--levels", default="easy,normal,hard")
    ap.add_argument("--max-k", type=int, default=12, help="farthest position from the end measured")
    ap.add_argument("--stop-after", type=int, default=2, help="stop a level's scan after this many misses in a row")
    ap.add_argument("--json", type=Path, default=None, help="write every measurement here")
    ap.add_argument("--tree", type=Path, default=None, help="measure the checkout in DIR instead (a subprocess)")
    return ap.parse_args(argv)


def _play(spec: GameSpec, seed: int, agent: str) -> list[GameState]:
    """Every position of one seeded game, in order (decision positions only)."""
    options = {"players": 2} if spec.max_players > 2 else None
    state = spec.new_game(seed, options)
    agents = [make_agent(agent, seed * 2 + p, spec) for p in range(state.num_players)]
    out = []
    while not state.is_terminal():
        out.append(state.clone())
        state.apply_action(agents[state.current_player()].choose(state))
    return out


def _exact(spec: GameSpec, state: GameState, level: str, seed: int) -> tuple[str, int]:
    """("forced" | "exhausted" | "horizon", nodes) for ``level``'s search of ``state``, as the agent runs it."""
    legal = state.legal_actions()
    if len(legal) == 1 or len(spec.evaluator.search_actions(state)) == 1:
        return "forced", 0
    lv = spec.level(level)
    me = state.current_player()
    view = state.determinize(me, random.Random(seed))
    searcher = Searcher(
        max_depth=lv.max_depth,
        max_nodes=lv.max_nodes,
        seed=seed,
        evaluator=spec.evaluator,
    )
    r = searcher.search(view)
    return ("exhausted" if r.exhausted else "horizon"), r.nodes


def measure(args: argparse.Namespace) -> dict[str, Any]:
    spec = game_spec(args.game)
    levels = [x.strip() for x in args.levels.split(",") if x.strip()]
    for lv in levels:
        spec.level(lv)
    rows: list[dict[str, Any]] = []
    for i in range(args.seeds):
        seed = args.seed + i
        positions = _play(spec, seed, args.agent)
        done: dict[int, str] = {}  # k -> result at the previous (smaller) level
        for lv in levels:
            misses = 0
            for k in range(1, min(args.max_k, len(positions)) + 1):
                if misses >= args.stop_after:
                    rows.append({"seed": seed, "level": lv, "k": k, "result": "not searched", "nodes": 0})
                    continue
                prev = done.get(k)
                if prev in ("forced", "exhausted"):
                    result, nodes = prev, 0
                else:
                    result, nodes = _exact(spec, positions[-k], lv, seed * 1000 + k)
                done[k] = result
                misses = misses + 1 if result == "horizon" else 0
                rows.append({"seed": seed, "level": lv, "k": k, "result": result, "nodes": nodes})
    return {"game": args.game, "agent": args.agent, "levels": levels, "seeds": args.seeds, "rows": rows}


def summary(data: dict[str, Any], max_k: int) -> list[str]:
    rows = data["rows"]
    out = [f"{data['game']}: {data['seeds']} games of {data['agent']}; exact = exhausted or forced"]
    table: dict[tuple[str, int], list[str]] = {}
    for r in rows:
        table.setdefault((r["level"], r["k"]), []).append(r["result"])
    for lv in data["levels"]:
        all_k = most_k = 0
        for k in range(1, max_k + 1):
            res = table.get((lv, k), [])
            if not res:
                break
            share = sum(x in ("forced", "exhausted") for x in res) / len(res)
            if share >= 0.9 and most_k == k - 1:
                most_k = k
            if share == 1.0 and all_k == k - 1:
                all_k = k
        nodes = spec_nodes(data["game"], lv)
        out.append(f"  ai:{lv:7} ({nodes:,} nodes): exact at every k <= {all_k}; at >= 90% of positions, k <= {most_k}")
    out.append("  k  " + "  ".join(f"{lv:>18}" for lv in data["levels"]) + "   (exact/measured, forced)")
    for k in range(1, max_k + 1):
        cells = []
        for lv in data["levels"]:
            res = table.get((lv, k), [])
            exact = sum(x in ("forced", "exhausted") for x in res)
            forced = sum(x == "forced" for x in res)
            cells.append(f"{exact:>2}/{len(res):<2} ({forced} forced)".rjust(18))
        out.append(f"  {k:<3}" + "  ".join(cells))
    return out


def spec_nodes(game: str, level: str) -> int:
    return game_spec(game).level(level).max_nodes


def _without_tree(argv: list[str]) -> list[str]:
    """The arguments without ``--tree DIR`` (or ``--tree=DIR``)."""
    out: list[str] = []
    skip = False
    for a in argv:
        if skip:
            skip = False
        elif a == "--tree":
            skip = True
        elif not a.startswith("--tree="):
            out.append(a)
    return out


def main(argv: list[str] | None = None) -> int:
    args = _args(argv)
    if args.tree is not None:
        tree = args.tree.resolve()
        if not (tree / "core" / "search.py").is_file():
            print(
                f"error: --tree {args.tree}: no checkout of lehavre there (core/search.py is missing)", file=sys.stderr
            )
            return 2
        rest = _without_tree(sys.argv[1:] if argv is None else argv)
        env = {**os.environ, "PYTHONPATH": str(tree), TREE_ENV: str(tree)}
        print(f"measuring the tree {tree}", flush=True)
        return subprocess.call([sys.executable, str(Path(__file__).resolve()), *rest], env=env)
    t0 = time.perf_counter()
    data = measure(args)
    data["tree"] = str(Path(search_module.__file__).resolve().parent.parent)
    print("\n".join(summary(data, args.max_k)))
    load = os.getloadavg()
    print(
        f"{time.perf_counter() - t0:.0f} s; load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; tree {data['tree']}"
    )
    if args.json:
        args.json.write_text(json.dumps(data, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
