"""A round-robin ladder of agents, measured in one run.

    python benchmarks/ladder.py --game inland --games 10 --jobs 2 --json ladder.json
    python benchmarks/ladder.py --game base --games 10 --entries ai:normal,mcts:eval@0.4,greedy,random

Every pair of entries plays ``--games`` games (two-player games; the base
game is its two-player full game): game ``i`` uses seed ``--seed + i // 2``
and seats the first entry in seat ``i % 2``, so every seed is played from
both seats.  Entries are agent texts (``benchmarks/peers.py``): ``random``,
``greedy``, ``ai:LEVEL`` (node budgets as shipped), ``ai:LEVEL@T``,
``mcts@T`` and ``mcts:eval@T`` (T seconds a move).  The default entries give
the MCTS peers the time ``--time`` (default 0.5 s, about ``ai:normal``'s
median time a move) and four times it.

Prints the pairwise win rates (a tie counts one half) with 95% Wilson
intervals, each entry's mean seconds a move, and Bradley-Terry ratings on
the Elo scale (400 log10 of the strength ratio, the mean rating 1500) with
95% intervals from a bootstrap over the games (1,000 resamples).  A prior of
one tie between every two entries keeps the ratings finite when an entry
wins every game; it pulls ratings a little toward each other.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from itertools import combinations
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.peers import make_peer, parse
from core.games import game_spec
from core.lab.stats import wilson_interval as wilson


def new_state(game: str, seed: int) -> Any:
    spec = game_spec(game)
    options = {"players": 2} if game == "base" else None
    return spec.new_game(seed, options)


def play_one(task: tuple[str, str, str, int, int]) -> dict[str, Any]:
    """One game: (game, entry A, entry B, seed, seat of A) -> result."""
    game, a, b, seed, seat_a = task
    state = new_state(game, seed)
    names = [a, b] if seat_a == 0 else [b, a]
    agents = [make_peer(names[p], seed * 2 + p, game) for p in range(2)]
    times: list[list[float]] = [[], []]
    while not state.is_terminal():
        p = state.current_player()
        t0 = time.perf_counter()
        action = agents[p].choose(state)
        times[p].append(time.perf_counter() - t0)
        state.apply_action(action)
    w = state.wealth()
    score_a = 1.0 if w[seat_a] > w[1 - seat_a] else 0.0 if w[seat_a] < w[1 - seat_a] else 0.5
    return {
        "a": a,
        "b": b,
        "seed": seed,
        "seat_a": seat_a,
        "wealth": w,
        "score_a": score_a,
        "time_a": times[seat_a],
        "time_b": times[1 - seat_a],
        "history": len(state.history),
    }


def bradley_terry(entries: list[str], games: list[dict[str, Any]], prior: float = 0.5) -> dict[str, float]:
    """Strengths by the MM algorithm (Hunter 2004); ``prior`` wins each way per pair."""
    idx = {e: i for i, e in enumerate(entries)}
    n = len(entries)
    wins = [[0.0] * n for _ in range(n)]
    for i, j in combinations(range(n), 2):
        wins[i][j] += prior
        wins[j][i] += prior
    for g in games:
        i, j = idx[g["a"]], idx[g["b"]]
        wins[i][j] += g["score_a"]
        wins[j][i] += 1.0 - g["score_a"]
    strength = [1.0] * n
    for _ in range(2000):
        new = []
        for i in range(n):
            w_i = sum(wins[i])
            denom = sum((wins[i][j] + wins[j][i]) / (strength[i] + strength[j]) for j in range(n) if j != i)
            new.append(w_i / denom if denom else strength[i])
        g_mean = math.exp(sum(math.log(x) for x in new) / n)
        new = [x / g_mean for x in new]
        if max(abs(x - y) for x, y in zip(new, strength, strict=True)) < 1e-10:
            strength = new
            break
        strength = new
    return {e: 1500 + 400 * math.log10(strength[idx[e]]) for e in entries}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", choices=["inland", "base"], default="inland")
    ap.add_argument("--games", type=int, default=10, help="games per pair (seats alternate)")
    ap.add_argument("--jobs", type=int, default=1, help="games played in parallel (processes)")
    ap.add_argument("--json", type=Path, default=None, help="write every game and the ratings to this file")
    ap.add_argument("--seed", type=int, default=2000)
    ap.add_argument("--time", type=float, default=0.5, help="seconds a move for the MCTS entries (and 4x)")
    ap.add_argument("--entries", default=None, help="comma-separated agent texts (default: see the docstring)")
    args = ap.parse_args()
    t = args.time
    entries = (
        [e.strip() for e in args.entries.split(",") if e.strip()]
        if args.entries
        else ["random", "greedy", f"mcts@{t:g}", f"mcts:eval@{t:g}", f"mcts:eval@{4 * t:g}", "ai:normal", "ai:hard"]
    )
    for e in entries:
        parse(e)
        make_peer(e, 0, args.game)  # refuse a bad entry before playing
    tasks = [
        (args.game, a, b, args.seed + i // 2, i % 2) for a, b in combinations(entries, 2) for i in range(args.games)
    ]
    t0 = time.perf_counter()
    results: list[dict[str, Any]] = []
    if args.jobs > 1:
        with ProcessPoolExecutor(max_workers=args.jobs) as pool:
            results = list(pool.map(play_one, tasks))
    else:
        results = [play_one(x) for x in tasks]
    wall = time.perf_counter() - t0

    ratings = bradley_terry(entries, results)
    rng = random.Random(args.seed)
    boot: dict[str, list[float]] = {e: [] for e in entries}
    for _ in range(1000):
        sample = [rng.choice(results) for _ in results]
        for e, r in bradley_terry(entries, sample).items():
            boot[e].append(r)
    move_times: dict[str, list[float]] = {e: [] for e in entries}
    for g in results:
        move_times[g["a"]].extend(g["time_a"])
        move_times[g["b"]].extend(g["time_b"])

    print(f"Ladder: {args.game}, {args.games} games per pair, {len(results)} games, {wall:.0f} s")
    print(f"{'entry':16} {'rating':>7}  {'95% interval':>15}  {'s/move (median)':>15}")
    for e in sorted(entries, key=lambda x: -ratings[x]):
        lo, hi = sorted(boot[e])[25], sorted(boot[e])[974]
        med = statistics.median(move_times[e]) if move_times[e] else 0.0
        print(f"{e:16} {ratings[e]:7.0f}  [{lo:6.0f}, {hi:6.0f}]  {med:15.3f}")
    print("pairwise (row's score against column, ties half; 95% Wilson interval):")
    pairs = []
    for a, b in combinations(entries, 2):
        gs = [g for g in results if g["a"] == a and g["b"] == b]
        score = sum(g["score_a"] for g in gs)
        lo, hi = wilson(score, len(gs))
        margin = statistics.mean(g["wealth"][g["seat_a"]] - g["wealth"][1 - g["seat_a"]] for g in gs)
        print(
            f"  {a:16} vs {b:16} {score:5.1f}/{len(gs)}  {score / len(gs):5.0%} [{lo:.0%}, {hi:.0%}]  mean margin {margin:+.1f}"
        )
        pairs.append({"a": a, "b": b, "score": score, "games": len(gs), "ci95": [lo, hi], "mean_margin": margin})
    if args.json:
        args.json.write_text(
            json.dumps(
                {
                    "game": args.game,
                    "games_per_pair": args.games,
                    "entries": entries,
                    "ratings": ratings,
                    "ratings_ci95": {e: [sorted(boot[e])[25], sorted(boot[e])[974]] for e in entries},
                    "pairs": pairs,
                    "results": results,
                },
                indent=1,
            )
        )


if __name__ == "__main__":
    main()
