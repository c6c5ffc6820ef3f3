"""Speed of the base game engine: random two-player full games per second.

Run: ``.venv/bin/python benchmarks/base_speed.py [seconds]``.

Prints (1) random 2-player full games per second, (2) games per second when
the state is copied before every action with ``state.clone()`` (what a search
does), and (3) the same with ``copy.deepcopy``; the ratio of (2) to (3) is
measured in the same run.
"""

from __future__ import annotations

import copy
import random
import sys
import time

from base_game import RULESET


def play(seed: int, copier=None) -> int:
    s = RULESET.new_game(seed, {"players": 2})
    rng = random.Random(seed)
    steps = 0
    while not s.is_terminal():
        if copier is not None:
            s = copier(s)
        acts = s.legal_actions()
        keep = [a for a in acts if a.verb not in ("sell", "sell ship")]
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
    print(f"with a copy before every action: clone() {gc:.2f} games/s, deepcopy {gd:.2f} games/s, "
          f"ratio {gc / gd:.1f}x")


if __name__ == "__main__":
    main()
