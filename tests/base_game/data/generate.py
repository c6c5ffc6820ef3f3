"""Freeze the base game's behaviour as test data (issue 12: "behaviour does not change").

Run once, from the repository root, at a commit whose behaviour is the
reference (it was first run at db44d7a, before the base game was typed):

    .venv/bin/python tests/base_game/data/generate.py

It writes, into this folder:

* ``saves/*.json``: save files as ``lehavre`` writes them (core.records), of
  games played by the ``random`` and ``greedy`` agents: several player counts,
  full and short, some to the end and some cut after a few dozen actions.
  Each record carries its final ``state_hash`` (and its final wealth when the
  game is over).
* ``watch.json``: for fixed seeds and non-timed agents (``random``,
  ``greedy``, ``ai:easy`` whose node budget ends every search), the exact
  stdout of ``lehavre base --watch --json`` and of ``lehavre base --watch``
  (the text log, drawn by ``cli/render_base.py``, which shows every action).

``tests/base_game/test_frozen_behaviour.py`` checks the code against them.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
sys.path.insert(0, str(ROOT))

import cli.app  # noqa: E402,F401  (the agents as the CLI registers them)
from base_game import RULESET  # noqa: E402
from core.agents import make_agent  # noqa: E402
from core.records import Seat, record_from_state, save_record  # noqa: E402

#: (file name, players, short, seed, agents, actions to play or None for the whole game)
SAVES = [
    ("p1_full_random_60", 1, False, 101, ("random",), 60),
    ("p2_full_random_end", 2, False, 102, ("random", "random"), None),
    ("p2_short_greedy_end", 2, True, 103, ("greedy", "random"), None),
    ("p3_full_greedy_80", 3, False, 104, ("greedy", "random", "greedy"), 80),
    ("p3_short_random_end", 3, True, 105, ("random", "greedy", "random"), None),
    ("p4_full_random_end", 4, False, 106, ("random", "random", "greedy", "random"), None),
    ("p4_short_greedy_50", 4, True, 107, ("greedy", "greedy", "random", "random"), 50),
    ("p5_full_random_70", 5, False, 108, ("random", "greedy", "random", "greedy", "random"), 70),
    ("p5_short_random_end", 5, True, 109, ("random", "random", "random", "random", "greedy"), None),
    ("p1_short_greedy_end", 1, True, 110, ("greedy",), None),
]

#: (players, short, seed, agents) for ``lehavre base --watch``
WATCHES = [
    (2, False, 1, ("random", "greedy")),
    (3, True, 2, ("greedy", "random", "greedy")),
    (4, True, 3, ("random", "random", "greedy", "random")),
    (2, True, 4, ("ai:easy", "greedy")),
    (3, True, 5, ("ai:easy", "random", "ai:easy")),
]


def play_agents(players: int, short: bool, seed: int, agents: tuple[str, ...], limit: int | None):
    state = RULESET.new_game(seed, {"players": players, "short": short})
    bots = [make_agent(a, seed=seed * 10 + i) for i, a in enumerate(agents)]
    n = 0
    while not state.is_terminal() and (limit is None or n < limit):
        state.apply_action(bots[state.current_player()].choose(state.clone()))
        n += 1
    return state


def watch_args(players: int, short: bool, seed: int, agents: tuple[str, ...], as_json: bool) -> list[str]:
    args = ["base", "--watch", "--agents", ",".join(agents), "--players", str(players), "--seed", str(seed)]
    if short:
        args.append("--short")
    if as_json:
        args.append("--json")
    return args


def run_cli(args: list[str]) -> str:
    env = dict(os.environ, COLUMNS="100")
    env.pop("NO_COLOR", None)
    out = subprocess.run([sys.executable, "-m", "cli", *args], capture_output=True, text=True, env=env,
                         timeout=600, cwd=ROOT, check=True)
    return out.stdout


def main() -> None:
    random.seed(0)
    saves = HERE / "saves"
    saves.mkdir(exist_ok=True)
    for name, players, short, seed, agents, limit in SAVES:
        state = play_agents(players, short, seed, agents, limit)
        rec = record_from_state("base", {"players": players, "short": short}, seed, state,
                                [Seat.of_agent(a, f"P{i + 1} {a}") for i, a in enumerate(agents)])
        save_record(rec, saves / f"{name}.json")
        print(name, len(state.history), "actions", state.state_hash(), "over" if state.is_terminal() else "")
    watches = []
    for players, short, seed, agents in WATCHES:
        entry = {
            "players": players, "short": short, "seed": seed, "agents": list(agents),
            "json_stdout": run_cli(watch_args(players, short, seed, agents, True)),
            "text_stdout": run_cli(watch_args(players, short, seed, agents, False)),
        }
        watches.append(entry)
        print("watch", players, short, seed, agents, entry["json_stdout"].strip()[:100])
    (HERE / "watch.json").write_text(json.dumps(watches, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
