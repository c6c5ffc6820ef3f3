"""Strength of the ``ai`` agent in the base game (two-player full games), in one run.

    .venv/bin/python benchmarks/base_strength.py --games 10 --json base_strength.json [--jobs 2]

Plays ai:LEVEL (default normal) against ``random`` and against ``greedy``
(``--opponents``: any text of ``benchmarks/peers.py``, e.g. ``mcts:eval@0.3``,
OpenSpiel's MCTS with the game's own evaluation on a determinised copy, 0.3 s a
move).
Game ``i`` of each match uses seed ``seed + i // 2`` and puts the AI in seat
``i % 2``, so every seed is played from both seats.

Prints, per opponent and overall: win rate (a tie counts one half) with its
95% Wilson interval (``core.lab.stats.wilson_interval``), the AI's mean final
wealth, its mean wealth in the games it won, the mean margin, the rate of
games in which the AI took at least one loan, and the AI's time per searched
decision (median, 95th percentile, maximum).  Targets (issue 5): at least 95%
against random, 75% against greedy, a mean winning wealth of at least 120
francs, loans in fewer than 10% of the games.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from base_game import RULESET
from benchmarks.peers import make_peer
from core.agents import make_agent
from core.lab.stats import wilson_interval


def play_one(task: dict[str, Any]) -> dict[str, Any]:
    """One two-player full game; the outcome and the AI's per-decision figures."""
    i, opponent, level, base_seed = (task[k] for k in ("i", "opponent", "level", "seed"))
    seed = base_seed + i // 2
    ai_seat = i % 2
    state = RULESET.new_game(seed, {"players": 2})
    ai = make_agent(f"ai:{level}", seed * 31 + 7, "base")
    opp = make_peer(opponent, seed * 17 + 3, "base")
    agents = [None, None]
    agents[ai_seat], agents[1 - ai_seat] = ai, opp
    times: list[float] = []
    ai_loans = 0
    while not state.is_terminal():
        p = state.current_player()
        t0 = time.perf_counter()
        action = agents[p].choose(state)
        dt = time.perf_counter() - t0
        if p == ai_seat and not ai.last_info.get("forced"):
            times.append(dt)
        before = state.loans[ai_seat]
        state.apply_action(action)
        ai_loans += max(0, state.loans[ai_seat] - before)
    w = state.wealth()
    margin = w[ai_seat] - w[1 - ai_seat]
    return {
        "i": i,
        "seed": seed,
        "ai_seat": ai_seat,
        "opponent": opponent,
        "wealth": w,
        "ai_wealth": w[ai_seat],
        "margin": margin,
        "loans_taken": ai_loans,
        "result": 1.0 if margin > 0 else 0.5 if margin == 0 else 0.0,
        "times": times,
    }


def summarize(label: str, results: list[dict[str, Any]]) -> dict[str, Any]:
    n = len(results)
    wins = sum(1 for r in results if r["result"] == 1.0)
    ties = sum(1 for r in results if r["result"] == 0.5)
    score = wins + 0.5 * ties
    lo, hi = wilson_interval(score, n) if n else (0.0, 1.0)
    times = sorted(t for r in results for t in r["times"])
    won = [r["ai_wealth"] for r in results if r["result"] == 1.0]
    return {
        "opponent": label,
        "games": n,
        "wins": wins,
        "ties": ties,
        "losses": n - wins - ties,
        "win_rate": score / n if n else 0.0,
        "wilson95": [lo, hi],
        "mean_wealth": statistics.mean(r["ai_wealth"] for r in results) if results else 0.0,
        "mean_winning_wealth": statistics.mean(won) if won else 0.0,
        "mean_margin": statistics.mean(r["margin"] for r in results) if results else 0.0,
        "loan_game_rate": sum(1 for r in results if r["loans_taken"]) / n if n else 0.0,
        "loans_per_game": sum(r["loans_taken"] for r in results) / n if n else 0.0,
        "searched_decisions": len(times),
        "median_time": statistics.median(times) if times else 0.0,
        "p95_time": times[int(0.95 * (len(times) - 1))] if times else 0.0,
        "max_time": times[-1] if times else 0.0,
    }


def _line(s: dict[str, Any]) -> str:
    lo, hi = s["wilson95"]
    return (
        f"ai vs {s['opponent']:<8} {s['games']:>3} games  win {100 * s['win_rate']:5.1f}% "
        f"[95% CI {100 * lo:5.1f}-{100 * hi:5.1f}]  W/T/L {s['wins']}/{s['ties']}/{s['losses']}  "
        f"mean wealth {s['mean_wealth']:6.1f}  winning wealth {s['mean_winning_wealth']:6.1f}  "
        f"margin {s['mean_margin']:+6.1f}  loan games {100 * s['loan_game_rate']:4.1f}% "
        f"(loans a game {s['loans_per_game']:.2f})  "
        f"time/decision median {s['median_time']:.2f}s p95 {s['p95_time']:.2f}s max {s['max_time']:.2f}s"
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=10, help="games per opponent (seats alternate)")
    ap.add_argument("--json", type=Path, default=None, help="write the figures to this file")
    ap.add_argument("--level", default="normal", choices=["easy", "normal", "hard"])
    ap.add_argument("--seed", type=int, default=1000)
    ap.add_argument("--jobs", type=int, default=1, help="games played in parallel (processes)")
    ap.add_argument("--opponents", default="random,greedy")
    args = ap.parse_args(argv)
    if args.games < 1:
        ap.error("--games must be at least 1")
    t0 = time.perf_counter()
    all_results: list[dict[str, Any]] = []
    out: dict[str, Any] = {
        "level": args.level,
        "games_per_opponent": args.games,
        "seed": args.seed,
        "players": 2,
        "version": "full",
        "matches": [],
    }
    for opp in [o.strip() for o in args.opponents.split(",") if o.strip()]:
        tasks = [{"i": i, "opponent": opp, "level": args.level, "seed": args.seed} for i in range(args.games)]
        if args.jobs <= 1:
            results = [play_one(t) for t in tasks]
        else:
            with ProcessPoolExecutor(max_workers=args.jobs) as pool:
                results = list(pool.map(play_one, tasks))
        s = summarize(opp, results)
        print(_line(s), flush=True)
        out["matches"].append({**s, "games_detail": [{k: v for k, v in r.items() if k != "times"} for r in results]})
        all_results.extend(results)
    total = summarize("all", all_results)
    print(_line(total))
    out["overall"] = total
    out["elapsed"] = time.perf_counter() - t0
    print(
        f"targets: >=95% vs random, >=75% vs greedy, mean winning wealth >=120, loan games <10%; "
        f"elapsed {out['elapsed']:.0f}s"
    )
    if args.json is not None:
        args.json.write_text(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
