"""``lehavre skill``: skill depth of rule sets, a ladder of doubling search budgets, and with ``--seats``
the seat balance by skill, the first seat's share of decisive games per level (:mod:`core.lab.skill`).

The games are ordinary playtest runs (stored, resumable); this module reads the
command line, drives the progress bar and prints one table per rule set.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table
from rich.text import Text

from cli.console import make_console, output_console
from cli.options import (
    Backend,
    DbOption,
    JobsOption,
    Level,
    buildings_option,
    json_file_option,
    level_choice,
    noise_option,
    seed_option,
)
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
    tables_to,
    write_json,
)
from cli.root import app
from core.lab import playtest as pt
from core.lab import seat_report
from core.lab import skill as sk
from core.lab.report import write_report
from core.lab.seat_report import first_upper, trend_sentence
from core.search import Noise

SKILL_HELP = f"""Skill depth: does searching deeper win more, and how steeply?

For each RULES (inland, base) the ai agent at level --level plays itself with a ladder of node budgets per decision (--from, twice that, four times that ... up to --to): each step puts the doubled budget against the previous one for --games games (seats alternate, --noise varies the play, every step uses the same seeds). Each step is a stored playtest run (--db), resumed when the same command runs again.

Defaults: --from {sk.FIRST_NODES} --to {sk.LAST_NODES}, level {sk.LEVEL}. A base-game step of 1,000 against 2,000 nodes takes about two minutes a game on a busy 2-core machine.

With --seats: the seat balance by skill instead. Each level of --levels (easy, normal, hard or an ai agent text such as ai:easy@nodes=50) plays itself, the same level in both seats with --noise, for its count of --games (one count per level, e.g. 400,200,40, or one for all); game i of every level starts from the same set-up. Reported per level: the first seat's share of the decisive games with its 95% interval and a test against 50%, and whether the share changes from the first level to the last. --html draws the curve. Example: lehavre skill inland --seats --levels easy,normal --games 200,40 --html seats.html
"""
SKILL_EPILOG = """Reported per rule set, all on the stronger side's score (its points per game, a win 1 and a tie 1/2): the score at each step with its 95% Wilson interval and Elo equivalent; the pooled score with its interval, Elo and the score test against 50% (p < 0.05 exactly when the interval leaves 50% out); and the fitted slope, the least-squares line of the score against log2 of the budget (percentage points per doubling, 95% interval from the steps' binomial variances). A higher score means skill matters more; a negative slope means each doubling pays less than the last. The steps share their seeds, so they are paired: the pooled test treats them as independent.

With --seats, per level: games, decisive games (one winner), the first seat's (the starting player's) wins, ties, its share of the decisive games with a 95% Wilson interval and an exact binomial test against 50%; across levels, the Cochran-Armitage test of a trend in that share (the levels share their set-ups, so they are paired; the test treats them as independent). The target zone is 42% to 58%."""


def ladder_table(result: dict[str, Any]) -> Table:
    """One rule set's ladder: a row per step, then the pooled score, its test and the slope in the caption.

    Every figure is on the stronger side's score (a tie counts 1/2), as the caption says."""
    table = Table(title=f"Skill depth: {result['rules']}", title_justify="left")
    for col, justify in (
        ("nodes: strong vs weak", "left"),
        ("games", "right"),
        ("strong won", "right"),
        ("weak won", "right"),
        ("ties", "right"),
        ("strong's score\n[95% CI]", "right"),
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
            f"{format_pct(s['score'])} [{100 * s['ci95'][0]:.0f}, {100 * s['ci95'][1]:.0f}]",
            _elo_text(s["elo"]),
        )
    fit = result["fit"]
    slope = (
        "–"
        if fit["slope"] is None
        else f"{100 * fit['slope']:+.1f} points per doubling [{100 * fit['ci_low']:+.1f}, {100 * fit['ci_high']:+.1f}]"
    )
    lo, hi = result["elo95"]
    table.caption = Text(
        f"{first_upper(result['quantity'])}; the interval (Wilson), the test, the Elo and the slope are all on it. "
        f"All steps: the stronger side scored {_score_cell(result)} over {result['games']} games, Elo "
        f"{_elo_text(result['elo'])} [{_elo_text(lo)}, {_elo_text(hi)}] (score test against 50%: "
        f"p={format_p(result['test']['p_value'])}); fitted slope of the score: {slope}. "
        f"{first_upper(result['paired'])}.",
        justify="left",
    )
    return table


def _score_cell(figures: dict[str, Any]) -> str:
    lo, hi = figures["ci95"]
    return f"{format_pct(figures['score'])} [{format_pct(lo)}, {format_pct(hi)}]"


def _elo_text(x: float | None) -> str:
    return "–" if x is None else f"{x:+.0f}"


def seat_table(curve: dict[str, Any]) -> Table:
    """One rule set's seat curve at 80 columns: a row per level, the trend in the caption."""
    noise = f", noise {curve['noise']:g}" if curve["noise"] else ""
    table = Table(title=f"Seat balance by skill: {curve['rules']}{noise}", title_justify="left")
    for col, justify in (
        ("level", "left"),
        ("games", "right"),
        ("ties", "right"),
        ("first won\n/ decisive", "right"),
        ("share [95% CI]", "right"),
        ("p (50%)", "right"),
    ):
        table.add_column(col, justify=justify)  # type: ignore[arg-type]
    for lv in curve["levels"]:
        share = "–" if lv["share"] is None else format_pct(lv["share"])
        table.add_row(
            lv["level"],
            str(lv["games"]),
            str(lv["ties"]),
            f"{lv['first_wins']} / {lv['decisive']}",
            f"{share} [{100 * lv['ci95'][0]:.0f}, {100 * lv['ci95'][1]:.0f}]",
            format_p(lv["test"]["p_value"]),
        )
    lo, hi = curve["target_zone"]
    table.caption = Text(
        f"share: the first seat's (the starting player's) share of decisive games; p: exact binomial test against "
        f"50%; target zone {format_pct(lo)} to {format_pct(hi)}. {first_upper(trend_sentence(curve))}. "
        f"{first_upper(curve['paired'])}.",
        justify="left",
    )
    return table


def _seat_curves(
    names: list[str],
    levels: list[str],
    counts: list[int],
    opts: dict[str, Any],
) -> tuple[list[dict[str, Any]], bool, str]:
    """Play (or resume) every rule set's mirror runs; the curves, whether Ctrl-C stopped them, the database."""
    err = make_console(stderr=True)
    store, db_path = open_store(opts["db"], err)
    curves = []
    interrupted = False
    with store, progress_bar(err) as progress:
        for name in names:

            def play(config: pt.Config, n: int) -> pt.RunResult:
                nonlocal interrupted
                r = play_stored(
                    store,
                    config,
                    opts["seed"],
                    n,
                    True,
                    opts["jobs"],
                    Backend.local,
                    None,
                    progress,
                    f"{config.label}: ",
                )
                interrupted = interrupted or r.interrupted
                return r

            curves.append(
                sk.run_seat_curve(store, name, levels, counts, opts["seed"], opts["noise"], opts["buildings"], run=play)
            )
            if interrupted:
                break
    return curves, interrupted, db_path


def seats(names: list[str], levels_text: str, games_text: str, opts: dict[str, Any]) -> None:
    """``skill --seats``: check everything, play, print a table per rule set, write the JSON and HTML asked for."""
    out = output_console()
    err = make_console(stderr=True)
    levels = sk.parse_levels(levels_text)
    counts = sk.parse_games(games_text, len(levels))
    for name in names:
        for level in levels:
            sk.mirror_config(name, level, opts["noise"], opts["buildings"])  # checks rules, level, data file
    curves, interrupted, db_path = _seat_curves(names, levels, counts, opts)
    written: list[Path] = []  # before any table: the files are written whatever becomes of standard output
    if opts["json_path"] is not None:
        payload = {"command": command_line(), "levels": levels, "games": counts, "curves": curves}
        written.append(write_json(opts["json_path"], payload))
    if opts["html"] is not None:
        written.append(write_report(opts["html"], seat_report.render(curves, [command_line()])))
    with tables_to(out, err, written):
        for curve in curves:
            out.print(seat_table(curve))
        out.print(f"Runs stored in {db_path}; the same command resumes them.", style="dim", markup=False)
        if opts["html"] is not None:
            out.print(f"Report written to {written[-1]}.", markup=False)
    if interrupted:
        err.print("Interrupted: run the same command again to play the rest.", style="italic", markup=False)
        raise typer.Exit(EXIT_INTERRUPTED)


def ladders(
    names: list[str], games: str, ends: tuple[int, int], level: str, opts: dict[str, Any], json_path: Path | None
) -> None:
    """``skill`` without ``--seats``: check everything, play each rule set's ladder, print its table, write the JSON."""
    out = output_console()
    err = make_console(stderr=True)
    seed, noise, jobs = opts["seed"], opts["noise"], opts["jobs"]
    if "," in games:
        raise pt.PlaytestError(f"--games takes one count per step without --seats (got '{games}'), e.g. --games 20")
    games_per_step = sk.parse_games(games, 1)[0]
    budgets = sk.ladder(*ends)
    for name in names:
        sk.step_config(name, budgets[0], budgets[1], level, noise)  # checks the rule set, level and agents
    store, db_path = open_store(opts["db"], err)
    results = []
    interrupted = False
    with store, progress_bar(err) as progress:
        for name in names:

            def play(config: pt.Config, n: int) -> pt.RunResult:
                nonlocal interrupted
                r = play_stored(store, config, seed, n, True, jobs, Backend.local, None, progress, f"{config.label}: ")
                interrupted = interrupted or r.interrupted
                return r

            results.append(sk.run_ladder(store, name, budgets, games_per_step, seed, level, noise, run=play))
            if interrupted:
                break
    payload = {"command": command_line(), "budgets": budgets, "ladders": results}
    written = [] if json_path is None else [write_json(json_path, payload)]
    with tables_to(out, err, written):
        for result in results:
            out.print(ladder_table(result))
        out.print(f"Runs stored in {db_path}; the same command resumes them.", style="dim", markup=False)
    if interrupted:
        err.print("Interrupted: run the same command again to play the rest.", style="italic", markup=False)
        raise typer.Exit(EXIT_INTERRUPTED)


#: the ladder's level and both agents' noise when not given
DEFAULT_LEVEL, DEFAULT_NOISE = Level(sk.LEVEL), Noise(2.0)


@app.command("skill", help=SKILL_HELP, epilog=SKILL_EPILOG)
def skill(
    rules: Annotated[list[str], typer.Argument(metavar="RULES...", help="Rule sets: inland, base (one or more).")],
    first: Annotated[int, typer.Option("--from", metavar="NODES", help="The ladder's first budget.")] = sk.FIRST_NODES,
    last: Annotated[int, typer.Option("--to", metavar="NODES", help="The ladder's last budget.")] = sk.LAST_NODES,
    games: Annotated[
        str,
        typer.Option(
            "--games", "-n", metavar="N[,N...]", help="Games per step; with --seats, per level (one count or one each)."
        ),
    ] = "20",
    level: Annotated[Level, level_choice("The ai level whose depth and time cap are used.")] = DEFAULT_LEVEL,
    noise: Annotated[Noise, noise_option("Noise of both agents (francs; 0 repeats games).")] = DEFAULT_NOISE,
    seed: Annotated[int, seed_option("Seed of every step's run.")] = 0,
    seat_curve: Annotated[
        bool, typer.Option("--seats", help="The seat balance by skill instead of the ladder (see above).")
    ] = False,
    levels: Annotated[
        str | None,
        typer.Option("--levels", metavar="L,L...", help="With --seats: the levels, weakest first (easy,normal,hard)."),
    ] = None,
    buildings: Annotated[Path | None, buildings_option("With --seats: play with this building data.")] = None,
    html: Annotated[
        Path | None, typer.Option("--html", metavar="PATH", help="With --seats: write the curve to this HTML file.")
    ] = None,
    jobs: JobsOption = 1,
    db: DbOption = None,
    json_path: Annotated[Path | None, json_file_option("Write every ladder (or curve) to this JSON file.")] = None,
) -> None:
    with clean_exit():
        check_jobs(jobs, Backend.local, None)
        names = [r if ":" in r else r.strip().lower() for r in rules]
        if seat_curve:
            opts = {"seed": seed, "noise": noise, "buildings": buildings, "jobs": jobs, "db": db}
            seats(names, levels or ",".join(sk.SEAT_LEVELS), games, opts | {"json_path": json_path, "html": html})
            return
        for given, option in ((levels, "--levels"), (buildings, "--buildings"), (html, "--html")):
            if given is not None:
                raise pt.PlaytestError(f"{option} goes with --seats (the seat balance by skill); add --seats")
        ladders(
            names,
            games,
            (first, last),
            level.value,
            {"seed": seed, "noise": noise, "jobs": jobs, "db": db},
            json_path,
        )
