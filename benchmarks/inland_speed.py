"""Inland Port speed, as ratios measured in one run.

Prints random full games per second, legal-action generations per second, and
the same random-game loop run twice more, copying the state before every
action (as a search does): once with ``state.clone()``, once with
``copy.deepcopy`` as the baseline; the ratio is clone's speed-up.

    .venv/bin/python benchmarks/inland_speed.py [--games N]
"""

from __future__ import annotations

import argparse
import copy
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from inland_port import RULESET  # noqa: E402


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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=200, help="random games per measurement (default 200)")
    args = ap.parse_args()
    n = args.games
    secs, gens = random_games(n)
    print(f"random full games per second:          {n / secs:10.1f}   ({n} games, {secs:.2f} s)")
    print(f"legal-action generations per second:   {gens / secs:10.0f}   ({gens} generations)")
    secs_clone, _ = random_games(n, lambda s: s.clone())
    secs_deep, _ = random_games(n, copy.deepcopy)
    print(f"games/s copying with state.clone():    {n / secs_clone:10.1f}")
    print(f"games/s copying with copy.deepcopy:    {n / secs_deep:10.1f}")
    print(f"ratio clone / deepcopy (speed-up):     {secs_deep / secs_clone:10.2f}x")


if __name__ == "__main__":
    main()
