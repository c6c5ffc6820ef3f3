"""``lehavre skill``: skill depth of rule sets, a ladder of doubling search budgets (:mod:`core.lab.skill`).

The games are ordinary playtest runs (stored, resumable); this module reads the
command line, drives the progress bar and prints one table per rule set.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table
from rich.text import Text

from cli.app import app
from cli.console import make_console, output_console
from cli.options import Backend, DbOption, JobsOption
from cli.playtest_cmd import (
    EXIT_INTERRUPTED,
    check_jobs,
    clean_exit,
    command_line,
    format_p,
    format_pct,
    open_store,
    play_stored,
    progress_bar,
    write_json,
)
from core.lab import playtest as pt
from core.lab import skill as sk

SKILL_HELP = f"""Skill depth: does searching deeper win more, and how steeply?

For each RULES (inland, base) the ai agent at level --level plays itself with a ladder of node budgets per decision (--from, twice that, four times that ... up to --to): each step puts the doubled budget against the previous one for --games games (seats alternate, --noise varies the play, every step uses the same seeds). Each step is a stored playtest run (--db), resumed when the same command runs again.

Defaults: --from {sk.FIRST_NODES} --to {sk.LAST_NODES}, level {sk.LEVEL}. A base-game step of 1,000 against 2,000 nodes takes about two minutes a game on a busy 2-core machine.
"""
SKILL_EPILOG = """Reported per rule set: the stronger side's win rate at each step (ties count for nobody) with its 95% Wilson interval and Elo equivalent (a tie counts half); the pooled rate with an exact binomial test of its share of the decisive games against 50%; and the fitted slope, the least-squares line of the win rate against log2 of the budget (percentage points per doubling, 95% interval from the steps' binomial variances). A higher rate means skill matters more; a negative slope means each doubling pays less than the last."""


def ladder_table(result: dict[str, Any]) -> Table:
    """One rule set's ladder: a row per step, then the pooled rate and the slope in the caption."""
    table = Table(title=f"Skill depth: {result['rules']}", title_justify="left")
    for col, justify in (
        ("nodes: strong vs weak", "left"),
        ("games", "right"),
        ("strong won", "right"),
        ("weak won", "right"),
        ("ties", "right"),
        ("strong's rate [95% CI]", "right"),
        ("Elo", "right"),
    ):
        table.add_column(col, justify=justify)  # type: ignore[arg-type]
    for s in result["steps"]:
        table.add_row(
            f"{s['strong_nodes']} vs {s['weak_nodes']}",
            str(s["games"]),
            str(s["strong_wins"]),
            str(s["weak_wins"]),
            str(s["ties"]),
            f"{format_pct(s['rate'])} [{format_pct(s['ci95'][0])}, {format_pct(s['ci95'][1])}]",
            "–" if s["elo"] is None else f"{s['elo']:+.0f}",
        )
    fit = result["fit"]
    slope = (
        "–"
        if fit["slope"] is None
        else f"{100 * fit['slope']:+.1f} points per doubling [{100 * fit['ci_low']:+.1f}, {100 * fit['ci_high']:+.1f}]"
    )
    table.caption = Text(
        f"all steps: the stronger side won {format_pct(result['rate'])} [{format_pct(result['ci95'][0])}, "
        f"{format_pct(result['ci95'][1])}] of {result['games']} games (binomial test of its share of decisive games "
        f"against 50%: p={format_p(result['test']['p_value'])}); fitted slope: {slope}",
        justify="left",
    )
    return table


@app.command("skill", help=SKILL_HELP, epilog=SKILL_EPILOG)
def skill(
    rules: Annotated[list[str], typer.Argument(metavar="RULES...", help="Rule sets: inland, base (one or more).")],
    first: Annotated[int, typer.Option("--from", metavar="NODES", help="The ladder's first budget.")] = sk.FIRST_NODES,
    last: Annotated[int, typer.Option("--to", metavar="NODES", help="The ladder's last budget.")] = sk.LAST_NODES,
    games: Annotated[int, typer.Option("--games", "-n", metavar="N", help="Games per step.")] = 20,
    level: Annotated[
        str, typer.Option("--level", metavar="LEVEL", help="The ai level whose depth and time cap are used.")
    ] = sk.LEVEL,
    noise: Annotated[
        float, typer.Option("--noise", min=0.0, metavar="X", help="Noise of both agents (francs; 0 repeats games).")
    ] = 2.0,
    seed: Annotated[int, typer.Option("--seed", metavar="N", help="Seed of every step's run.")] = 0,
    jobs: JobsOption = 1,
    db: DbOption = None,
    json_path: Annotated[
        Path | None, typer.Option("--json", metavar="PATH", help="Write every ladder to this JSON file.")
    ] = None,
) -> None:
    out = output_console()
    err = make_console(stderr=True)
    with clean_exit():
        check_jobs(jobs, Backend.local, None)
        names = [r if ":" in r else r.strip().lower() for r in rules]
        budgets = sk.ladder(first, last)
        for name in names:
            sk.step_config(name, budgets[0], budgets[1], level, noise)  # checks the rule set, level and agents
        store, db_path = open_store(db, err)
        results = []
        interrupted = False
        with store, progress_bar(err) as progress:
            for name in names:

                def play(config: pt.Config, n: int) -> pt.RunResult:
                    nonlocal interrupted
                    r = play_stored(
                        store, config, seed, n, True, jobs, Backend.local, None, progress, f"{config.label}: "
                    )
                    interrupted = interrupted or r.interrupted
                    return r

                results.append(sk.run_ladder(store, name, budgets, games, seed, level, noise, run=play))
                if interrupted:
                    break
        for result in results:
            out.print(ladder_table(result))
        out.print(f"Runs stored in {db_path}; the same command resumes them.", style="dim", markup=False)
        if json_path is not None:
            write_json(json_path, {"command": command_line(), "budgets": budgets, "ladders": results})
        if interrupted:
            err.print("Interrupted: run the same command again to play the rest.", style="italic", markup=False)
            raise typer.Exit(EXIT_INTERRUPTED)
