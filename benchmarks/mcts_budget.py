"""How many MCTS simulations a move take the CPU time ``ai:LEVEL`` takes for a move: the budget of the
long measurements' MCTS peers (``mcts:eval@sims=N``), which then play by simulations, not by time.

    python benchmarks/mcts_budget.py base --level normal --times 1      # equal time
    python benchmarks/mcts_budget.py inland --level normal --times 4    # four times the AI's time

Positions: every third decision of a game between two greedy agents (seed ``--seed``) with more than
one legal action.  On each, ``ai:LEVEL`` (its node budget, no time cap) chooses, and OpenSpiel's MCTS
with the game's evaluation runs ``--probe`` simulations; both timed in CPU seconds of this process.
Prints the AI's mean CPU seconds a searched move, MCTS's CPU seconds a simulation, and the budget
``N = times x AI time / MCTS time a simulation``.  Needs the ``openspiel`` extra.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core.agents import make_agent
from core.games import game_spec
from core.lab.openspiel_adapter import TimedMCTSAgent
from core.protocol import GameState


def positions(rules: str, seed: int, every: int) -> list[GameState]:
    game = game_spec(rules)
    state = game.new_game(seed, game.parse_options({"players": 2} if rules == "base" else None))
    agents = [make_agent("greedy", seed + s, game) for s in range(2)]
    out: list[GameState] = []
    decision = 0
    while not state.is_terminal():
        if len(state.legal_actions()) > 1:
            decision += 1
            if decision % every == 0:
                out.append(state.clone())
        state.apply_action(agents[state.current_player()].choose(state.clone()))
    return out


def cpu(call: object) -> float:
    start = time.process_time()
    call()  # type: ignore[operator]
    return time.process_time() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("rules", choices=["inland", "base"])
    parser.add_argument("--level", default="normal")
    parser.add_argument("--times", type=float, default=1.0, help="the MCTS budget as a multiple of the AI's time")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--every", type=int, default=3, help="take every Nth decision of the greedy game")
    parser.add_argument("--probe", type=int, default=200, help="simulations of each timed MCTS search")
    args = parser.parse_args()
    game = game_spec(args.rules)
    found = positions(args.rules, args.seed, args.every)
    ai_times, sim_times = [], []
    for k, state in enumerate(found):
        ai = make_agent(f"ai:{args.level}", k, game, time_cap=False)
        ai_times.append(cpu(lambda ai=ai, state=state: ai.choose(state.clone())))
        mcts = TimedMCTSAgent(seed=k, evaluator="eval", simulations=args.probe)
        sim_times.append(cpu(lambda mcts=mcts, state=state: mcts.choose(state.clone())) / args.probe)
        print(
            f"position {k + 1}/{len(found)}: ai {ai_times[-1]:.2f} s, mcts {1000 * sim_times[-1]:.2f} ms a simulation"
        )
    ai_mean = sum(ai_times) / len(ai_times)
    sim_mean = sum(sim_times) / len(sim_times)
    budget = round(args.times * ai_mean / sim_mean)
    print(
        f"{args.rules}: ai:{args.level} {ai_mean:.2f} CPU s a move over {len(found)} positions; "
        f"MCTS {1000 * sim_mean:.2f} CPU ms a simulation; {args.times:g} x the AI's time = {budget} simulations "
        f"(mcts:eval@sims={budget})"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
