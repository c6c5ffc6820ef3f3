"""The long measurements: play what the store lacks, say where they stand, regenerate their tables.

    python benchmarks/longrun.py play [--minutes M] [--runs NAME,NAME]   # play on; Ctrl-C or SIGTERM stops cleanly
    python benchmarks/longrun.py status                                    # games stored per run, time left
    python benchmarks/longrun.py report                                    # every table and report, from the store
    python benchmarks/longrun.py propose [--min-z Z] [--most N]             # each search's candidate, its file and runs
    python benchmarks/longrun.py propose --race                             # the candidates to race, their files and runs
    python benchmarks/longrun.py propose --race --given "Pier.cost.food=10"  # race a candidate of your own
    python benchmarks/longrun.py propose --race --add                       # ... and append its runs to the plan
    python benchmarks/longrun.py propose --confirm --given "Dock.cost.francs=8"  # confirm it, with no race
    python benchmarks/longrun.py adopt --data FILE --name 2026-12          # ship a confirmed candidate as the default

The plan (``benchmarks/longrun/plan.json``) lists every run; the store (``benchmarks/longrun/store/``,
one file a run, one game a line) is committed with the code.  One process, node budgets, no time cap:
see :mod:`core.lab.longrun`.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from core.lab import rebalance
from core.lab.longrun import (
    LongrunError,
    Plan,
    RunPlan,
    StopSignal,
    add_runs,
    load_plan,
    plan_entry,
    play_plan,
    race_verdict,
    read_run,
    skip_reason,
)
from core.lab.longrun_report import Judged, agreement_lines, judge, proposal_lines, write_reports
from core.lab.perturb import write_data
from core.lab.playtest.config import load_ruleset
from core.protocol import GameError
from inland_port import shipped

HERE = Path(__file__).resolve().parent / "longrun"
PLAN = HERE / "plan.json"
STORE = HERE / "store"


def status(plan_path: Path, store: Path) -> None:
    plan = load_plan(plan_path)
    width = max(len(run.name) for run in plan.runs)
    for run in plan.runs:
        games = read_run(store, run)
        seconds = [float(g["wall"]) for g in games]
        mean = sum(seconds) / len(seconds) if seconds else None
        skip = skip_reason(plan, store, run)
        if skip:
            left = f", {skip}"
        elif mean is None:
            left = ""
        else:
            left = f", about {mean * (run.asked(games) - len(games)) / 3600:.1f} h left at {mean:.0f} s a game"
        print(f"{run.name:{width}} {len(games):4}/{run.asked(games)}{left}")


def propose(
    plan_path: Path,
    store: Path,
    folder: Path,
    min_z: float,
    most: int,
    show: int,
    race: bool,
    given: dict[str, int] | None = None,
    add: bool = False,
    confirm: bool = False,
) -> None:
    """Each search's best candidates; the best that qualifies written as a data file, with its confirmation runs
    (``race``: the candidates to race instead, written as data files, with their race runs); ``add``: the runs
    offered are appended to the plan file too; ``confirm``: a given candidate's confirmation runs, not its race's)."""
    plan = load_plan(plan_path)
    held = {run.name: read_run(store, run) for run in plan.runs}
    proposals = rebalance.propose(plan, held, ROOT, min_z=min_z, most=most, keep=show)
    if not proposals:
        print("the plan has no perturbed runs: no search to propose from")
    for line in [*proposal_lines(proposals), *agreement_lines(proposals)]:
        print(line)
    adding = plan_path if add else None
    if race and not given and any(r.group == rebalance.RACE for r in plan.runs):
        print_race_result(plan, held, proposals, folder, adding)
        return
    if given:
        print_given(plan, proposals, given, folder, adding, confirm)
        return
    if race:
        print_races(plan, proposals, folder, adding)
        return
    for prop in proposals:
        best = prop.best
        if prop.waiting:
            continue
        if best is None or not best.qualifies:
            print(f"search {prop.search}: no candidate qualifies, so no data file is written and nothing to confirm")
            continue
        path = rebalance.write_candidate(prop, best, folder, ROOT)
        data = rebalance.plan_path(path, ROOT)
        print(f"search {prop.search}: wrote {data}; the runs that confirm it (plan entries):")
        offer(rebalance.confirmation_runs(plan, prop, best, data), adding, plan)


def offer(runs: Sequence[RunPlan], add: Path | None, plan: Plan) -> None:
    """Print ``runs`` as plan entries; with ``add`` (the plan file), append those it lacks to it."""
    for run in runs:
        print("    " + plan_entry(run) + ",")
    if {r.name for r in runs} <= {r.name for r in plan.runs}:
        print("(the plan holds these runs already)")
        return
    if add is None:
        print("(add them to the plan by hand, or again with --add)")
        return
    added = add_runs(add, runs)
    print(f"added {len(added)} run(s) to {add}" if added else f"{add} holds these runs already")


def print_races(plan: Plan, proposals: list[rebalance.Proposal], folder: Path, add: Path | None) -> None:
    """The race of the search with the most games (the pooled one, with two searches or more): each candidate's
    data file written, and the race runs as plan entries, every candidate's first level before any's next."""
    ready = [p for p in proposals if not p.waiting]
    if not ready:
        print("no search has the games for a fit yet: nothing to race")
        return
    prop = max(ready, key=lambda p: (sum(lv.fit.games for lv in p.levels), p.search == rebalance.POOLED))
    if not prop.race:
        print(f"search {prop.search}: no candidate is predicted in the bands the fits can tell: nothing to race")
        return
    runs = []
    for candidate in prop.race:
        data = rebalance.plan_path(rebalance.write_candidate(prop, candidate, folder, ROOT), ROOT)
        print(f"search {prop.search}: wrote {data} ({candidate.describe()})")
        runs.append(rebalance.race_runs(plan, prop, candidate, data))
    print(f"search {prop.search}: the race runs (plan entries):")
    offer([each[level] for level in range(len(rebalance.RACE_LEVELS)) for each in runs], add, plan)


def print_given(
    plan: Plan,
    proposals: list[rebalance.Proposal],
    given: dict[str, int],
    folder: Path,
    add: Path | None,
    confirm: bool = False,
) -> None:
    """A candidate a designer gives, written as a data file, with its race runs (``confirm``: its confirmation
    runs, with no race first); a warning for each building built too rarely today whose costs it leaves alone
    (the searches' floors)."""
    run = next((r for r in plan.runs if r.perturb is not None), None)
    if run is None:
        raise LongrunError("the plan has no perturbed run, so no numbers are known to move: nothing to race")
    candidate = rebalance.given_candidate(given, rebalance.run_fields(run, ROOT))
    path, entrant = rebalance.write_given(run, candidate, folder, ROOT)
    data = rebalance.plan_path(path, ROOT)
    print(f"given: wrote {data} ({candidate.describe()})")
    floor = next((p.floors for p in proposals if p.floors), ())
    for missed in rebalance.unlifted(candidate, floor):
        print(f"given: it lowers no cost of {missed.building}: {missed.describe()}")
    if confirm:
        print("given: the runs that confirm it, with no race first (plan entries):")
        offer(rebalance.confirming(plan, entrant, data), add, plan)
        return
    print("given: the race runs (plan entries):")
    offer(rebalance.racing(plan, entrant, data), add, plan)


def parse_given(text: str) -> dict[str, int]:
    """``"Pier.cost.food=10, Dock.cost.francs=8"`` as changes; a LongrunError says what is wrong."""
    out: dict[str, int] = {}
    for part in (p.strip() for p in text.split(",")):
        key, sep, value = part.partition("=")
        if not sep or not key.strip() or not value.strip().lstrip("-").isdigit():
            raise LongrunError(
                f"--given takes 'Number=value' pairs separated by commas, e.g. 'Pier.cost.food=10'; not '{part}'"
            )
        out[key.strip()] = int(value)
    return out


def print_race_result(
    plan: Plan,
    held: dict[str, list[dict[str, Any]]],
    proposals: list[rebalance.Proposal],
    folder: Path,
    add: Path | None,
) -> None:
    """Where the plan's race stands: its winner and the runs that confirm it, how many candidates are still in
    it, or, once every one has failed, the next round (:func:`print_races`: candidates not raced yet)."""
    survivors = rebalance.race_survivors(plan, held, ROOT)
    if survivors:
        best = survivors[0]
        shares = ", ".join(f"{level} {100 * share:.1f}%" for level, share in best.shares.items())
        print(f"the race's winner: {best.data} ({best.entrant.described}; {shares})")
        if any(r.group == rebalance.CONFIRMATION and r.options.get("buildings") == best.data for r in plan.runs):
            print("its confirmation runs are in the plan: play them, and the report judges them")
            return
        print("the runs that confirm it (plan entries):")
        offer(rebalance.confirming(plan, best.entrant, best.data), add, plan)
        return
    raced = [r for r in plan.runs if r.group == rebalance.RACE]
    levels: dict[str, set[str]] = {}
    for run in raced:
        levels.setdefault(str(run.options.get("buildings")), set()).add(run.label)
    entered = {data for data, raced_at in levels.items() if set(rebalance.RACE_LEVELS) <= raced_at}
    out = {str(r.options.get("buildings")) for r in raced if (v := race_verdict(r, held[r.name])) and v.failed}
    for data in sorted(set(levels) - entered - out):
        print(f"{data} is not raced at every level ({', '.join(sorted(levels[data]))} only): it cannot win the race")
    if entered <= out:
        print(
            f"every candidate raced at every level ({len(entered)}) failed one (out, or ended outside its band): "
            "none evens them all; the next round races the candidates the fits, with the races' games, put in band"
        )
        print_races(plan, proposals, folder, add)
        return
    print(
        f"the race goes on: {len(entered - out)} candidate(s) still in, {len(out)} failed a level "
        "(python benchmarks/longrun.py report shows each run)"
    )


def below_floor(judged: dict[str, Judged], data: str, allowed: Sequence[str]) -> str:
    """Why ``data`` may be adopted though not every target is met, in words for its data file's notes: every
    target is met but the building floor, and each building under it is one of ``allowed`` and built at least as
    often as on the data the candidate changes; a :class:`LongrunError` saying which condition fails otherwise."""
    verdict = judged[data]
    refused = f"{data} is not confirmed, so it is not adopted: {verdict.line().removeprefix('- ')}"
    if verdict.every:
        return ""
    if not allowed or not verdict.shares_and_owners:
        raise LongrunError(refused)
    others = sorted(set(verdict.rare) - set(allowed))
    if others:
        raise LongrunError(f"{refused} (--below-floor does not name {', '.join(others)})")
    before = judged.get("")
    if before is None or not before.built:
        raise LongrunError(f"{refused} (the data it changes has no ai:normal games to compare its buildings with)")
    said = []
    for building, share in sorted(verdict.rare.items()):
        was = before.built.get(building, 0.0)
        if share < was:
            raise LongrunError(
                f"{refused} ({building} is built in {100 * share:.1f}% of its ai:normal games, less than on the "
                f"data it changes, {100 * was:.1f}%: --below-floor adopts a building under the floor only when the "
                "candidate builds it at least as often)"
            )
        said.append(
            f"{building} built in {100 * share:.1f}% of ai:normal games (the data it changes: {100 * was:.1f}%)"
        )
    floor = f"{100 * rebalance.BUILT_AT_LEAST:.0f}%"
    return f"; adopted under the building floor of {floor}, as no worse than the data it changes: {'; '.join(said)}"


def adopt(plan_path: Path, store: Path, data: str, name: str, allowed: Sequence[str] = ()) -> None:
    """Make a confirmed candidate the Inland Port's default data: shipped as ``buildings-NAME.json`` beside
    today's (which stays shipped, so its saves replay), each changed number noting the runs that confirmed it,
    and named by ``default.json``.  ``allowed``: buildings the candidate may leave under the building floor, if it
    meets every other target and builds each at least as often as the data it changes (said in the notes)."""
    plan = load_plan(plan_path)
    held = {run.name: read_run(store, run) for run in plan.runs}
    judged = {j.data: j for j in judge(plan, held, ROOT)}
    if data not in judged:
        known = ", ".join(d for d in judged if d) or "none yet"
        raise LongrunError(f"no confirmation run plays {data} (data files with confirmation runs: {known})")
    verdict = judged[data]
    despite = below_floor(judged, data, allowed)
    rules = verdict.runs[0].rules
    if rules != "inland":
        raise LongrunError(f"only the Inland Port ships building data files; {data} is {rules}'s")
    target = shipped.shipped_path(f"{shipped.PREFIX}{name}")
    if not re.fullmatch(r"[0-9A-Za-z][0-9A-Za-z-]*", name) or target.exists():
        raise LongrunError(
            f"the new data needs a name of letters, digits and dashes that no shipped file has, like '2026-12' "
            f"(shipped: {', '.join(shipped.shipped_names())}); not '{name}'"
        )
    # the candidate's changes are told against the data its runs were written on (the plan's, today's default
    # until now), and made to that data: the new file is that data with those numbers changed
    reference = verdict.runs[0].reference
    changes = rebalance.changed_numbers(rules, data, ROOT, reference)
    note = f"rebalanced by the long measurements: confirmed by the runs {', '.join(r.name for r in verdict.runs)}"
    note += despite
    base = str((ROOT / reference).resolve()) if reference else None
    write_data(load_ruleset(rules), base, changes, target, note)
    written = json.loads(target.read_text(encoding="utf-8"))
    was = Path(reference).stem if reference else shipped.default_name()
    written["about"] += (
        f" Rebalanced by the long measurements ({', '.join(verdict.changed)}; each changed number's note says how); "
        f"the data it changes ships as {was}."
    )
    target.write_text(json.dumps(written, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    default = shipped.DATA_DIR / shipped.DEFAULT_FILE
    named = json.loads(default.read_text(encoding="utf-8")) | {"buildings": target.stem}
    default.write_text(json.dumps(named, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {target} ({', '.join(verdict.changed)}); {default.name} now names {target.stem}")
    print(
        f"a new game plays {target.stem}; a game saved on {shipped.shipped_names()[0]} or any other shipped data "
        "replays with its own (found by the digest its save records); re-pin the games the tests pin, in one commit"
    )


#: every option: its flag, and what argparse takes for it (the subcommand it serves starts each help)
OPTIONS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("--minutes", {"type": float, "default": None, "help": "play: stop after this many minutes"}),
    ("--runs", {"default": "", "help": "play: only these runs (names, comma-separated)"}),
    ("--plan", {"type": Path, "default": PLAN, "help": "the plan file"}),
    ("--store", {"type": Path, "default": STORE, "help": "the store folder"}),
    ("--out", {"type": Path, "default": HERE, "help": "report: where the tables and HTML go"}),
    (
        "--min-z",
        {"type": float, "default": rebalance.MIN_Z, "help": "propose: move only numbers whose |z| reaches this"},
    ),
    ("--most", {"type": int, "default": rebalance.MOST, "help": "propose: the most numbers a candidate changes"}),
    ("--show", {"type": int, "default": 5, "help": "propose: how many candidates of each search to show"}),
    (
        "--candidates",
        {"type": Path, "default": ROOT / rebalance.CANDIDATES, "help": "propose: where the data files go"},
    ),
    ("--race", {"action": "store_true", "help": "propose: the candidates to race when none qualifies, and their runs"}),
    (
        "--given",
        {"default": "", "help": "propose --race: race this candidate instead ('Pier.cost.food=10,Dock.cost.francs=8')"},
    ),
    ("--add", {"action": "store_true", "help": "propose: append the runs it offers to the plan (those it lacks)"}),
    (
        "--confirm",
        {
            "action": "store_true",
            "help": "propose --given: the candidate's confirmation runs, with no race first (a change a race has judged)",
        },
    ),
    ("--data", {"default": "", "help": "adopt: the confirmed candidate's data file, as the plan names it"}),
    ("--name", {"default": "", "help": "adopt: the new shipped data's name ('2026-12')"}),
    (
        "--below-floor",
        {
            "default": "",
            "help": "adopt: buildings (comma-separated) the candidate may leave under the building floor, if every other target is met and it builds each at least as often as the data it changes",
        },
    ),
)


def make_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("what", choices=["play", "status", "report", "propose", "adopt"])
    for flag, how in OPTIONS:
        parser.add_argument(flag, **how)
    return parser


def check(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Refuse (argparse's usage error, exit 2) values out of range and options given to a subcommand they do not serve."""
    if args.minutes is not None and not args.minutes > 0:
        parser.error(f"--minutes must be a positive number, not {args.minutes:g}")
    if args.min_z < 0 or args.most < 1 or args.show < 1:
        parser.error("--min-z must be 0 or more, --most and --show 1 or more")
    if args.below_floor and args.what != "adopt":
        parser.error(
            "--below-floor names buildings an adopted candidate may leave under the floor: use it with 'adopt'"
        )
    if args.add and args.what != "propose":
        parser.error("--add appends the runs 'propose' offers to the plan: use it with 'propose'")
    if args.given and not (args.what == "propose" and (args.race or args.confirm)):
        parser.error(
            "--given names a candidate to race or confirm: use it with 'propose --race' or 'propose --confirm'"
        )
    if args.confirm and not args.given:
        parser.error("--confirm confirms a candidate you give: use it with --given 'Number=value,...'")
    if args.what == "adopt" and not (args.data and args.name):
        parser.error("adopt needs --data (the confirmed candidate's file) and --name (the new data's name)")


def names(text: str) -> list[str]:
    """A comma-separated list, without blanks."""
    return [n.strip() for n in text.split(",") if n.strip()]


def say(text: str) -> None:
    """A line of progress, at once (the log is read while the runner plays)."""
    print(text, flush=True)


def run(args: argparse.Namespace) -> None:
    """Do what ``args.what`` asks."""
    if args.what == "propose":
        given = parse_given(args.given) if args.given else None
        how = (args.min_z, args.most, args.show, args.race, given, args.add, args.confirm)
        propose(args.plan, args.store, args.candidates, *how)
    elif args.what == "adopt":
        adopt(args.plan, args.store, args.data, args.name, names(args.below_floor))
    elif args.what == "status":
        status(args.plan, args.store)
    elif args.what == "report":
        for path in write_reports(load_plan(args.plan), args.store, args.out, ROOT):
            print(f"wrote {path}")
    else:
        stop = StopSignal.after(args.minutes)
        stop.install()
        played = play_plan(load_plan(args.plan), args.store, ROOT, names(args.runs), say=say, stop=stop)
        print(f"{played} game(s) played this time", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = make_parser()
    args = parser.parse_args(argv)
    check(parser, args)
    try:
        run(args)
    except LongrunError as exc:
        print(f"longrun: {exc}", file=sys.stderr)
        return 2
    except GameError as exc:
        # a data file the plan names is missing or broken: the store and the plan are left as they are
        print(f"longrun: {exc}; restore the file, or take the runs that name it out of the plan", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # the reader went away (``status | head``): nothing more to say, and no traceback
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0


if __name__ == "__main__":
    sys.exit(main())
