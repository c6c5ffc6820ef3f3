"""CPU seconds of whole mirror games between two ``ai`` agents, on this tree against another, alternating.

One game each of: the Inland Port between two ``ai:normal`` agents, the Inland Port between two
``ai:hard`` agents, and the base game for two players between two ``ai:normal`` agents (each agent on its
node budget alone, no time cap, so the machine's load changes the time a game takes but never the game).
Each game is played in a child process on the tree ``--before DIR`` and on this checkout, alternating
(``--rounds`` times each); the script prints each game's CPU seconds (process time: on a shared machine
wall time mostly measures the neighbours), the medians, their ratio, and whether both trees played the same
game (every action's text).

    git archive ba58918 | tar -x -C /tmp/ba58918
    .venv/bin/python benchmarks/game_cpu.py --before /tmp/ba58918 [--rounds 2] [--games inland:normal,base:normal]

Without ``--before`` it times the games on this checkout once.  ``LEHAVRE_PURE=1`` times this checkout's
engine as pure Python (``core/compiled.py``).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.trees import HERE, use_tree

use_tree(sys.argv)  # --tree DIR: import the games from DIR (a child of --before)

from core.agents import make_agent
from core.lab.playtest.config import load_ruleset, new_game

#: the games timed by default: (rules, level)
DEFAULT = "inland:normal,inland:hard,base:normal"
OPTIONS = {"inland": {}, "base": {"players": 2}}


def play_one(rules: str, level: str, seed: int) -> dict[str, object]:
    """Play the mirror game (``rules``, ``ai:<level>`` in every seat) from ``seed``: its CPU seconds and a digest
    of its actions."""
    game = load_ruleset(rules)
    t0 = time.process_time()
    state = new_game(rules, OPTIONS[rules], seed)
    agents = [make_agent(f"ai:{level}", seed * 10 + k, game, time_cap=False) for k in range(state.num_players)]
    while not state.is_terminal():
        state.apply_action(agents[state.current_player()].choose(state))
    seconds = time.process_time() - t0
    digest = hashlib.sha256("\n".join(state.history).encode()).hexdigest()[:12]
    return {"seconds": seconds, "game": digest, "actions": len(state.history)}


def _child(tree: Path, rules: str, level: str, seed: int) -> dict[str, object]:
    args = [sys.executable, __file__, "--tree", str(tree), "--json", "--games", f"{rules}:{level}", "--seed", str(seed)]
    out = subprocess.run(args, capture_output=True, text=True, check=False)
    if out.returncode != 0:
        raise SystemExit(f"the game on {tree} failed:\n{out.stderr}")
    data: dict[str, object] = json.loads(out.stdout.strip().splitlines()[-1])
    return data


def compare(before: Path, games: list[tuple[str, str]], rounds: int, seed: int) -> None:
    for rules, level in games:
        secs: dict[str, list[float]] = {"before": [], "after": []}
        digests: dict[str, str] = {}
        for r in range(rounds):
            for name, tree in (("before", before.resolve()), ("after", HERE)):
                data = _child(tree, rules, level, seed)
                secs[name].append(float(data["seconds"]))  # type: ignore[arg-type]
                digests[name] = str(data["game"])
                print(
                    f"{rules} ai:{level} round {r + 1} {name:6} {data['seconds']:8.1f} CPU s  ({data['actions']} actions)"
                )
        b, a = statistics.median(secs["before"]), statistics.median(secs["after"])
        same = "the same game" if digests["before"] == digests["after"] else "DIFFERENT games"
        print(
            f"{rules} ai:{level} mirror game: before {b:.1f} CPU s, after {a:.1f} CPU s: {b / a:.2f}x faster ({same})"
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--before", type=Path, help="time the games on this source tree too, alternating")
    ap.add_argument("--rounds", type=int, default=2, help="with --before: games on each tree (default 2)")
    ap.add_argument("--games", default=DEFAULT, help=f"rules:level, comma-separated (default {DEFAULT})")
    ap.add_argument("--seed", type=int, default=1, help="the games' seed (default 1)")
    ap.add_argument("--tree", type=Path, help=argparse.SUPPRESS)
    ap.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    games = [(g.partition(":")[0], g.partition(":")[2] or "normal") for g in args.games.split(",")]
    if args.json:
        print(json.dumps(play_one(games[0][0], games[0][1], args.seed)))
        return
    if args.before is not None:
        compare(args.before, games, args.rounds, args.seed)
        return
    for rules, level in games:
        data = play_one(rules, level, args.seed)
        print(f"{rules} ai:{level} mirror game: {data['seconds']:.1f} CPU s ({data['actions']} actions)")


if __name__ == "__main__":
    main()
