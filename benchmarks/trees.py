"""One speed measurement run on two source trees alternately, in one run (issue 18).

A speed script measures search nodes per second on positions it makes from
seeds.  With ``--before DIR`` it runs that measurement as a subprocess on the
tree ``DIR`` (e.g. ``git archive <commit> | tar -x -C DIR``) and on this
checkout, alternating before, after, before, after..., and prints each run's
nodes per CPU second (process time: on a shared machine, wall time mostly
measures the neighbours), the medians and their ratio.  Both children make the same
positions (the same seeds and the same greedy/random play, which both trees
share), and each prints every search's best move, score, depth and nodes: the
parent checks that the two trees' searches are identical node for node.

A child is started as ``script --tree DIR --json ...``; :func:`use_tree` (called
by the script before it imports a game) puts ``DIR`` first on ``sys.path``.
"""

from __future__ import annotations

import inspect
import json
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parents[1]


def use_tree(argv: list[str]) -> Path:
    """The tree to import the games from (``--tree DIR`` in ``argv``, else this checkout), first on ``sys.path``."""
    tree = HERE
    if "--tree" in argv:
        i = argv.index("--tree")
        if i + 1 >= len(argv):
            raise SystemExit("--tree needs a directory")
        tree = Path(argv[i + 1]).resolve()
        if not (tree / "core" / "search.py").is_file():
            raise SystemExit(f"--tree {tree}: not a lehavre source tree (no core/search.py)")
    sys.path.insert(0, str(tree))
    return tree


def search_record(result: Any) -> list[Any]:
    """What must be identical between two trees for one search: move, score, depth, nodes."""
    return [str(result.action), result.score, result.depth, result.nodes]


def evaluator_options(searcher: Any, evaluator: Any) -> dict[str, Any]:
    """The ``Searcher`` keywords that give it the game's ``evaluator``, in either tree's API: the Evaluator
    object itself, or (a tree from before it) its ``evaluate`` and ``search_actions`` callables."""
    try:
        params = inspect.signature(searcher).parameters
    except ValueError:  # a Searcher compiled with mypyc shows no signature: it takes the Evaluator
        return {"evaluator": evaluator}
    if "actions" in params:
        return {"evaluator": evaluator.evaluate, "actions": evaluator.search_actions}
    return {"evaluator": evaluator}


def _child(script: Path, tree: Path, args: list[str]) -> dict[str, Any]:
    out = subprocess.run(
        [sys.executable, str(script), "--tree", str(tree), "--json", *args],
        capture_output=True,
        text=True,
        check=False,
    )
    if out.returncode != 0:
        raise SystemExit(f"the measurement on {tree} failed:\n{out.stderr}")
    data: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return data


def compare(script: Path, before: Path, rounds: int, args: list[str]) -> None:
    """Alternate the measurement on ``before`` and this checkout ``rounds`` times; print rates, ratio, identity."""
    before = before.resolve()
    if not (before / "core" / "search.py").is_file():
        raise SystemExit(f"--before {before}: not a lehavre source tree (no core/search.py)")
    rates: dict[str, list[float]] = {"before": [], "after": []}
    records: dict[str, list[Any]] = {}
    for r in range(rounds):
        for name, tree in (("before", before), ("after", HERE)):
            data = _child(script, tree, args)
            nps = data["nodes"] / data["seconds"]
            rates[name].append(nps)
            print(f"round {r + 1} {name:6} {nps:10.0f} nodes/s  ({data['nodes']} nodes, {data['seconds']:.2f} CPU s)")
            if name in records and records[name] != data["searches"]:
                print(f"  warning: {name}'s searches differ between rounds (a time cap was reached?)")
            records.setdefault(name, data["searches"])
    b, a = statistics.median(rates["before"]), statistics.median(rates["after"])
    pairs = [y / x for x, y in zip(rates["before"], rates["after"], strict=True)]
    print(f"before ({before}): median {b:10.0f} nodes/s")
    print(f"after  ({HERE}): median {a:10.0f} nodes/s")
    print(f"ratio after/before: {a / b:.2f}x (per round: {', '.join(f'{x:.2f}' for x in pairs)})")
    old, new = records["before"], records["after"]
    same = sum(1 for x, y in zip(old, new, strict=False) if x == y)
    print(f"identical searches (move, score, depth, nodes): {same} of {max(len(old), len(new))} positions")
    for x, y in zip(old, new, strict=False):
        if x != y:
            print(f"  differs: before {x}  after {y}")
