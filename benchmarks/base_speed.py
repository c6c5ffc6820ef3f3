"""Speed of the base game engine: random two-player full games per second.

Run: ``.venv/bin/python benchmarks/base_speed.py [seconds]``.

Prints (1) random 2-player full games per second, (2) games per second when
the state is copied before every action with ``state.clone()`` (what a search
does), and (3) the same with ``copy.deepcopy``; the ratio of (2) to (3) is
measured in the same run; (4) the copies alone: the mean time of one
``clone()`` and of one ``copy.deepcopy`` over the positions of a few random
games, and their ratio.
"""

from __future__ import annotations

import copy
import random
import sys
import time

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


def main() -> None:
    budget = float(sys.argv[1]) if len(sys.argv) > 1 else 3.0
    g, st = rate(budget)
    print(f"random 2-player full games: {g:.1f} games/s ({st:.0f} actions/s)")
    gc, _ = rate(budget, lambda s: s.clone())
    gd, _ = rate(budget, copy.deepcopy)
    print(f"with a copy before every action: clone() {gc:.2f} games/s, deepcopy {gd:.2f} games/s, ratio {gc / gd:.1f}x")
    c, d = copy_times(positions())
    print(f"one copy: clone() {c * 1e6:.1f} us, deepcopy {d * 1e6:.1f} us, ratio {d / c:.1f}x")


if __name__ == "__main__":
    main()
