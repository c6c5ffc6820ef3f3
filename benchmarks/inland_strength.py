"""Strength of the ``ai`` agent at the Inland Port, measured in one run.

    python benchmarks/inland_strength.py --games 20 --json strength.json [--jobs 2]

Plays ai:LEVEL (default normal) against ``random``, ``greedy``, OpenSpiel's
MCTSBot with random rollouts (``mcts``) or with the game's own evaluation
(``mcts:eval``; ``mcts:eval*4`` has four times the time), and other levels
(``ai:hard``) -- ``--opponents random,greedy,mcts:eval,mcts:eval*4`` -- (MCTS
needs ``lehavre[openspiel]``; skipped with a note otherwise).  Game ``i`` uses seed ``seed + i // 2`` and puts the AI in
seat ``i % 2``, so every seed is played from both seats.  MCTS gets the same
wall time per move as the AI used on average in the random and greedy games
of this run (or ``--mcts-time``); its simulations per move are set from its
own measured rate.

Prints win rates (a tie counts one half) with 95% Wilson intervals, the AI's
time per move, nodes per second, depth reached, effective branching factor
(nodes ** (1 / depth) per search), transposition-table hit rate, and the node
ratio of alpha-beta (with TT and move ordering) to plain minimax at equal
depth on the same positions (with a check that both find the same value).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import statistics
import sys
import time
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.peers import make_peer
from core.agents import make_agent
from core.search import SearchAgent, Searcher
from inland_port import RULESET


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval for a proportion."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def make_ai(level: str, seed: int, state: Any) -> SearchAgent:
    return make_agent(f"ai:{level}", seed)


def mcts_kind(kind: str) -> tuple[str, float] | None:
    """``mcts`` / ``mcts:eval`` with an optional ``*K`` time multiple -> (peer name, K); None if not MCTS."""
    name, _, times = kind.partition("*")
    if name not in ("mcts", "mcts:eval"):
        return None
    return name, float(times or 1)


def make_opponent(kind: str, seed: int, mcts_time: float):
    """The opponent, made by ``benchmarks/peers.py``; MCTS gets ``mcts_time`` (times K) a move."""
    m = mcts_kind(kind)
    return make_peer(f"{m[0]}@{mcts_time * m[1]:g}" if m else kind, seed, "inland")


def play_one(task: dict[str, Any]) -> dict[str, Any]:
    """One game; returns the outcome and the AI's per-move figures."""
    i, opponent, level, base_seed, mcts_time = (task[k] for k in ("i", "opponent", "level", "seed", "mcts_time"))
    seed = base_seed + i // 2
    ai_seat = i % 2
    state = RULESET.new_game(seed)
    ai = make_ai(level, seed * 31 + 7, state)
    opp = make_opponent(opponent, seed * 17 + 3, mcts_time)
    agents = [None, None]
    agents[ai_seat], agents[1 - ai_seat] = ai, opp
    moves: list[dict[str, Any]] = []
    opp_times: list[float] = []
    while not state.is_terminal():
        p = state.current_player()
        t0 = time.perf_counter()
        action = agents[p].choose(state)
        dt = time.perf_counter() - t0
        if action not in state.legal_actions():
            raise AssertionError(f"{agents[p].name} returned an illegal action {action}")
        if p == ai_seat:
            info = ai.last_info
            if not info.get("forced"):
                moves.append(
                    {
                        "time": dt,
                        "nodes": info["nodes"],
                        "depth": info["depth"],
                        "nps": info["nps"],
                        "tt_probes": info["tt_probes"],
                        "tt_hits": info["tt_hits"],
                        "legal": len(state.legal_actions()),
                    }
                )
        elif len(state.legal_actions()) > 1:
            opp_times.append(dt)
        state.apply_action(action)
    w = state.wealth()
    margin = w[ai_seat] - w[1 - ai_seat]
    return {
        "i": i,
        "seed": seed,
        "ai_seat": ai_seat,
        "opponent": opponent,
        "wealth": w,
        "margin": margin,
        "result": 1.0 if margin > 0 else 0.5 if margin == 0 else 0.0,
        "moves": moves,
        "opp_times": opp_times,
    }


def run_matches(opponent: str, games: int, level: str, seed: int, mcts_time: float, jobs: int) -> list[dict[str, Any]]:
    tasks = [{"i": i, "opponent": opponent, "level": level, "seed": seed, "mcts_time": mcts_time} for i in range(games)]
    if jobs <= 1:
        return _with_progress((play_one(t) for t in tasks), games)
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        return _with_progress(pool.map(play_one, tasks), games)


def _with_progress(results: Iterable[dict[str, Any]], games: int) -> list[dict[str, Any]]:
    """The results, with one line on stderr as each game ends (a long run shows how it goes)."""
    out: list[dict[str, Any]] = []
    score = 0.0
    for r in results:
        out.append(r)
        score += r["result"]
        print(
            f"{time.strftime('%H:%M:%S')} ai vs {r['opponent']} game {len(out)}/{games}: AI in seat "
            f"{r['ai_seat'] + 1}, result {r['result']:g}, margin {r['margin']:+d}; AI score {score:g}/{len(out)}",
            file=sys.stderr,
            flush=True,
        )
    return out


def summarize(opponent: str, results: list[dict[str, Any]]) -> dict[str, Any]:
    n = len(results)
    score = sum(r["result"] for r in results)
    lo, hi = wilson(score, n)
    moves = [m for r in results for m in r["moves"]]
    opp_times = [t for r in results for t in r["opp_times"]]
    return {
        "opponent": opponent,
        "games": n,
        "wins": sum(1 for r in results if r["result"] == 1.0),
        "ties": sum(1 for r in results if r["result"] == 0.5),
        "losses": sum(1 for r in results if r["result"] == 0.0),
        "win_rate": score / n if n else 0.0,
        "wilson95": [lo, hi],
        "mean_margin": statistics.mean(r["margin"] for r in results) if results else 0.0,
        "ai_moves": len(moves),
        "ai_median_time": statistics.median(m["time"] for m in moves) if moves else 0.0,
        "ai_mean_time": statistics.mean(m["time"] for m in moves) if moves else 0.0,
        "ai_p95_time": sorted(m["time"] for m in moves)[int(0.95 * (len(moves) - 1))] if moves else 0.0,
        "opponent_mean_time": statistics.mean(opp_times) if opp_times else 0.0,
        "_moves": moves,
    }


def search_figures(moves: list[dict[str, Any]]) -> dict[str, Any]:
    ebf = [m["nodes"] ** (1.0 / m["depth"]) for m in moves if m["depth"] >= 1 and m["nodes"] > 1]
    probes = sum(m["tt_probes"] for m in moves)
    hits = sum(m["tt_hits"] for m in moves)
    total_nodes = sum(m["nodes"] for m in moves)
    total_time = sum(m["time"] for m in moves)
    return {
        "searches": len(moves),
        "nodes_per_second": total_nodes / total_time if total_time else 0.0,
        "median_nps": statistics.median(m["nps"] for m in moves) if moves else 0.0,
        "mean_depth": statistics.mean(m["depth"] for m in moves) if moves else 0.0,
        "median_depth": statistics.median(m["depth"] for m in moves) if moves else 0.0,
        "effective_branching_factor": statistics.mean(ebf) if ebf else 0.0,
        "mean_legal_actions": statistics.mean(m["legal"] for m in moves) if moves else 0.0,
        "tt_hit_rate": hits / probes if probes else 0.0,
    }


def alphabeta_vs_minimax(positions: int, depth: int, seed: int) -> dict[str, Any]:
    """Nodes of alpha-beta (TT, ordering) vs plain minimax at equal depth."""
    rng = random.Random(seed)
    greedy = [make_agent("greedy", seed), make_agent("greedy", seed + 1)]
    picked: list[Any] = []
    s = RULESET.new_game(seed)
    step = 0
    while not s.is_terminal() and len(picked) < positions:
        if step % 7 == 3 and len(s.legal_actions()) > 1:
            picked.append(s.clone())
        agent = greedy[s.current_player()] if rng.random() < 0.8 else None
        s.apply_action(agent.choose(s) if agent else rng.choice(s.legal_actions()))
        step += 1
    ab_nodes = id_nodes = mm_nodes = 0
    agree = 0
    for p in picked:
        mm = Searcher(
            max_depth=depth, alphabeta=False, use_tt=False, ordering=False, iterative=False, shuffle_root=False
        ).search(p)
        ab = Searcher(max_depth=depth, iterative=False).search(p)
        ab_id = Searcher(max_depth=depth, iterative=True).search(p)
        mm_nodes += mm.nodes
        ab_nodes += ab.nodes
        id_nodes += ab_id.nodes
        agree += abs(mm.score - ab.score) < 1e-6 and abs(mm.score - ab_id.score) < 1e-6
    return {
        "positions": len(picked),
        "depth": depth,
        "alphabeta_nodes": ab_nodes,
        "alphabeta_iterative_nodes": id_nodes,
        "minimax_nodes": mm_nodes,
        "node_ratio": ab_nodes / mm_nodes if mm_nodes else 0.0,
        "node_ratio_iterative": id_nodes / mm_nodes if mm_nodes else 0.0,
        "same_value": agree,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=20, help="games per opponent (seats alternate)")
    ap.add_argument("--json", type=Path, default=None, help="write the figures to this file")
    ap.add_argument("--level", default="normal", choices=["easy", "normal", "hard"])
    ap.add_argument("--seed", type=int, default=1000)
    ap.add_argument("--jobs", type=int, default=1, help="games played in parallel (processes)")
    ap.add_argument("--mcts-time", type=float, default=None, help="MCTS seconds per move (default: the AI's mean)")
    ap.add_argument("--opponents", default="random,greedy,mcts")
    ap.add_argument("--ratio-positions", type=int, default=8)
    ap.add_argument("--ratio-depth", type=int, default=3)
    args = ap.parse_args(argv)
    if args.games < 1:
        ap.error("--games must be at least 1")

    t_start = time.perf_counter()
    opponents = [o.strip() for o in args.opponents.split(",") if o.strip()]
    report: dict[str, Any] = {
        "command": " ".join(["benchmarks/inland_strength.py"] + (argv if argv is not None else sys.argv[1:])),
        "level": args.level,
        "games_per_opponent": args.games,
        "seed": args.seed,
        "jobs": args.jobs,
        "cpu_count": os.cpu_count(),
        "matches": [],
    }
    all_moves: list[dict[str, Any]] = []
    mcts_time = args.mcts_time
    for opp in opponents:
        if mcts_kind(opp) is not None:
            try:
                import pyspiel  # noqa: F401
            except ImportError:
                print("mcts: skipped (install the extra: pip install 'lehavre[openspiel]')")
                continue
            if mcts_time is None:
                if not all_moves:  # measure the AI's time a move first, against greedy
                    probe = summarize("greedy", run_matches("greedy", 2, args.level, args.seed, 1.0, args.jobs))
                    all_moves.extend(probe.pop("_moves"))
                mcts_time = statistics.mean(m["time"] for m in all_moves)
        t0 = time.perf_counter()
        results = run_matches(opp, args.games, args.level, args.seed, mcts_time or 1.0, args.jobs)
        summary = summarize(opp, results)
        moves = summary.pop("_moves")
        all_moves.extend(moves)
        summary["seconds"] = time.perf_counter() - t0
        if mcts_kind(opp) is not None:
            summary["mcts_think_time"] = (mcts_time or 1.0) * mcts_kind(opp)[1]
        report["matches"].append(summary)
        lo, hi = summary["wilson95"]
        extra = (
            f", opponent {summary['opponent_mean_time']:.2f} s/move" if mcts_kind(opp) or opp.startswith("ai:") else ""
        )
        print(
            f"ai:{args.level} vs {opp:7s}: {summary['wins']}-{summary['ties']}-{summary['losses']} (W-T-L) "
            f"win rate {summary['win_rate']:.0%} [95% CI {lo:.0%}-{hi:.0%}], mean margin {summary['mean_margin']:+.1f}; "
            f"AI median {summary['ai_median_time']:.2f} s/move (p95 {summary['ai_p95_time']:.2f}){extra}",
            flush=True,
        )

    figures = search_figures(all_moves)
    report["search"] = figures
    print(
        f"search: {figures['nodes_per_second']:.0f} nodes/s (median per move {figures['median_nps']:.0f}), "
        f"mean depth {figures['mean_depth']:.2f}, effective branching factor {figures['effective_branching_factor']:.2f} "
        f"(mean legal actions {figures['mean_legal_actions']:.1f}), TT hit rate {figures['tt_hit_rate']:.1%}",
        flush=True,
    )
    ratio = alphabeta_vs_minimax(args.ratio_positions, args.ratio_depth, args.seed)
    report["alphabeta_vs_minimax"] = ratio
    print(
        f"alpha-beta vs minimax at depth {ratio['depth']} on {ratio['positions']} positions: "
        f"{ratio['alphabeta_nodes']} vs {ratio['minimax_nodes']} nodes, ratio {ratio['node_ratio']:.3f} "
        f"(with iterative deepening, all iterations counted: {ratio['alphabeta_iterative_nodes']} nodes, ratio "
        f"{ratio['node_ratio_iterative']:.3f}); same value on {ratio['same_value']}/{ratio['positions']}",
        flush=True,
    )
    report["seconds"] = time.perf_counter() - t_start
    print(f"total {report['seconds']:.0f} s")
    if args.json:
        args.json.write_text(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    code = main()
    sys.stdout.flush()
    sys.exit(code)
