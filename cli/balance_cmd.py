"""``lehavre balance``: search small changes of a building file's numbers until playtests meet targets.

The search is :mod:`core.lab.balance` (common random numbers, successive
halving, every game stored, resumable); this module reads the command line,
drives a Rich progress bar and prints Rich tables.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from cli.console import make_console, output_console
from cli.options import (
    AddressOption,
    Backend,
    BackendOption,
    DbOption,
    JobsOption,
    games_option,
    noise_option,
    report_option,
    resume_option,
    seed_option,
)
from cli.playtest_cmd import EXIT_INTERRUPTED, check_jobs, clean_exit, command_line, open_store, progress_bar
from cli.root import app
from core.lab import playtest as pt
from core.lab.balance import report as br
from core.lab.balance import search as bs
from core.lab.balance.measures import Measures, Targets
from core.lab.report import write_report
from core.protocol import GameSpec
from core.records import data_dir
from core.search import Noise

HELP = (
    "Search building data that meets balance targets.\n\n"
    "It moves the numbers of a building file, as few as possible, until playtests meet the targets."
)
EPILOG = (
    "Every candidate (the data with some numbers moved by one) plays the same games (the same seeds, the same seat "
    "rotation); weak candidates are dropped early (successive halving); a candidate closer to the targets replaces "
    "the current data, fewer changed numbers winning ties. Every game is stored as it finishes: Ctrl-C keeps them "
    "and --resume continues to the same result. The best data is written to --out, every changed number tagged "
    "'reconstructed' with a note naming this run.\n\n"
    "Time: --budget is the number of search games; an ai:easy Inland Port game takes about 3-5 s, so the default "
    "--budget 1000 with --jobs 2 runs about half an hour on two cores. --check plays fresh games afterwards; the "
    "same command with --resume and --check replays a finished search from the store and only checks. "
    "--fields takes patterns of field names CARD.FIELD[.PART] (e.g. 'Wood Company.cost.clay'), comma-separated. "
    "--check [AGENTS=]GAMES plays with the search's agents, or AGENTS, e.g. --check 400 --check ai:normal=100."
)


def _percent_range(text: str) -> tuple[float, float]:
    lo, sep, hi = text.partition("-")
    try:
        a, b = float(lo), float(hi)
    except ValueError:
        raise pt.PlaytestError(f"--first takes LOW-HIGH in percent, e.g. 45-55; got '{text}'") from None
    if not sep or not 0 <= a <= b <= 100:
        raise pt.PlaytestError(f"--first takes LOW-HIGH in percent with 0 <= LOW <= HIGH <= 100; got '{text}'")
    return a / 100, b / 100


#: the noise of the search's ai agents when --noise is not given (and no agent carries its own ~X)
DEFAULT_NOISE = 2.0


def _seats(agents: str, spec: GameSpec) -> tuple[str, ...]:
    names = [a.strip() for a in agents.split(",") if a.strip()]
    if len(names) == 1:
        names *= spec.min_players
    return tuple(names)


def _noise(seats: tuple[str, ...], noise: float | None) -> float | None:
    """``--noise``, else :data:`DEFAULT_NOISE` unless an agent carries its own (``ai:easy~3``)."""
    if noise is not None or any("~" in a for a in seats):
        return noise
    return DEFAULT_NOISE


def _checks(items: list[str], search_agents: tuple[str, ...], spec: GameSpec) -> list[tuple[tuple[str, ...], int]]:
    out = []
    for item in items:
        agents_text, eq, n = item.rpartition("=")
        if not n.strip().isdigit() or int(n) < 1 or (eq and not agents_text.strip()):
            raise pt.PlaytestError(
                f"--check takes GAMES or AGENTS=GAMES (e.g. --check 400 or --check ai:normal=100); got '{item}'"
            )
        agents = _seats(agents_text, spec) if eq else search_agents
        out.append((agents, int(n)))
    return out


def _first(m: Measures) -> str:
    lo, hi = m.first_ci()
    return f"{100 * m.first_share:.1f}% [{100 * lo:.0f}–{100 * hi:.0f}]"


def _misses(m: Measures, kind: str) -> str:
    names = [n for k, n, _o in m.misses if k == kind]
    if len(names) > 4:
        return f"{len(names)}: " + ", ".join(names[:3]) + f" and {len(names) - 3} more"
    return ", ".join(names) if names else "none"


def result_tables(result: bs.Result) -> list[Table]:
    fields = {f.key: f for f in result.fields}
    changes = Table(title="Changed data", title_justify="left")
    for col in ("field", "before", "after", "source before"):
        changes.add_column(col, justify="left" if col in ("field", "source before") else "right")
    for k, v in result.best.changes:
        changes.add_row(k, str(fields[k].value), str(v), fields[k].source)
    t = result.settings.targets
    targets = Table(title=f"Targets ({t.describe()})", title_justify="left")
    targets.add_column("games")
    targets.add_column("first seat (95% CI)")
    targets.add_column("rarely built", overflow="fold")
    targets.add_column(f"owner wins > {100 * t.max_owner_win:g}%", overflow="fold")
    targets.add_column("distance", justify="right")
    rows = [("search", result.base, result.best_measures)]
    rows += [(f"check {agents}", a, b) for agents, _n, a, b in result.checks]
    for label, a, b in rows:
        for when, m in (("before", a), ("after", b)):
            targets.add_row(
                f"{label}, {when} ({m.games})",
                _first(m),
                _misses(m, "rarely built"),
                _misses(m, "owner wins"),
                f"{m.penalty:.3f}",
            )
        targets.add_section()
    targets.caption = (
        "first seat: its share of the decisive games; owner wins: (won + 1) / (owned + 2); worst first; "
        "distance: how far from all targets (0: met)"
    )
    return [changes, targets]


def _report_result(out: Console, result: bs.Result) -> None:
    if result.best.changes:
        out.print(result_tables(result)[0])
    else:
        out.print("No field changed: no candidate came closer to the targets than the data as given.", markup=False)
    out.print(result_tables(result)[1])
    out.print(
        f"Stopped: {result.stop}. {result.used} of a budget of {result.settings.budget} search games used "
        f"({len(result.steps)} round{'' if len(result.steps) == 1 else 's'} changed the data).",
        markup=False,
    )


def _settings(
    rules: str,
    data: Path | None,
    fields: str,
    agents: tuple[str, ...],
    targets: Targets,
    numbers: tuple[int, ...],
    noise: float | None = None,
) -> tuple[GameSpec, bs.Settings]:
    seed, games, candidates, budget, jobs = numbers
    spec = pt.load_ruleset(rules)
    if spec.tuning is None:
        raise bs.BalanceError(f"{spec.title} declares no tunable data, so it cannot be balanced (try: inland)")
    if data is not None and not data.expanduser().is_file():
        raise pt.PlaytestError(f"--data '{data}' does not exist or is not a file")
    base = str(data.expanduser().resolve()) if data is not None else None
    pt.make_config(rules, agents, buildings=base, noise=noise)  # agents and data are checked before anything is played
    chosen = bs.select_fields(spec.tuning.fields(base), fields.split(","))
    players = len(agents)
    if games < 2 * players or games % players:
        raise pt.PlaytestError(
            f"--games must be a multiple of {players} (one rotation of the seats) and at least {2 * players}; got {games}"
        )
    if budget < games:
        raise pt.PlaytestError(f"--budget ({budget}) must allow at least the --games ({games}) of the data as given")
    work = data_dir() / "balance"
    return spec, bs.Settings(
        rules,
        agents,
        base,
        tuple(f.key for f in chosen),
        targets,
        seed,
        games,
        candidates,
        budget,
        work,
        jobs=jobs,
        noise=noise,
    )


def _search(
    spec: GameSpec, settings: bs.Settings, store: pt.Store, resume: bool, checks: list[tuple[tuple[str, ...], int]]
) -> bs.Result:
    """Run (or resume) the search and the checks under a progress bar (on standard error)."""
    err = make_console(stderr=True)
    total = settings.budget + sum(2 * n for _a, n in checks)
    with progress_bar(err) as progress:
        task = progress.add_task("balancing", total=total)
        search = bs.Search(
            spec,
            settings,
            store,
            resume=resume,
            on_phase=lambda text: progress.update(task, description=text),
            on_games=lambda n: progress.advance(task, n),
        )
        result = search.run()
        for agents, n in checks if not result.interrupted else []:
            try:
                before, after = search.check(result, agents, n)
            except bs.SearchStopped:
                result.interrupted = True
                break
            result.checks.append((",".join(agents), n, before, after))
        done = progress.tasks[0].completed
        progress.update(task, total=done, description="interrupted" if result.interrupted else "done")
    return result


RulesArg = Annotated[str, typer.Argument(metavar="RULES", help="The rule set whose data is balanced: inland.")]
DataOpt = Annotated[
    Path | None,
    typer.Option(
        "--data", "--buildings", metavar="FILE", help="The building file to balance (default: the game's own)."
    ),
]
FieldsOpt = Annotated[
    str,
    typer.Option(
        "--fields",
        metavar="WHICH",
        help="Numbers that may change: reconstructed, all, or patterns such as 'Dock.*,*.value'.",
    ),
]
AgentsOpt = Annotated[
    str,
    typer.Option("--agents", metavar="A[,B]", help="The agents: one for all seats, or one per seat."),
]
NoiseOpt = Annotated[
    Noise | None,
    noise_option(
        "Every AI chooses, with a seeded draw, among its moves within X (about francs) of the best "
        f"(default {DEFAULT_NOISE:g}, unless an agent is written with its own noise, e.g. ai:easy~3)."
    ),
]
GamesOpt = Annotated[int, games_option("Games per candidate at the last rung.")]
CandidatesOpt = Annotated[int, typer.Option("--candidates", metavar="N", min=1, help="Candidates tried per round.")]
BudgetOpt = Annotated[
    int, typer.Option("--budget", metavar="N", min=1, help="At most this many search games (checks apart).")
]
SeedOpt = Annotated[int, seed_option("Seed of the search games.")]
FirstOpt = Annotated[
    str,
    typer.Option("--first", metavar="LOW-HIGH", help="Target: the first seat's share of decisive games, in %."),
]
MinBuiltOpt = Annotated[
    float,
    typer.Option("--min-built", metavar="%", min=0, max=100, help="Every building built in at least % of games."),
]
MaxOwnerWinOpt = Annotated[
    float,
    typer.Option(
        "--max-owner-win",
        metavar="%",
        min=0,
        max=100,
        help="No building whose owner wins more than % of the games it is owned in.",
    ),
]
CheckOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--check",
        metavar="[AGENTS=]GAMES",
        help="Then play GAMES fresh games of the data before and after (repeatable).",
    ),
]
OutOpt = Annotated[
    Path | None,
    typer.Option("--out", metavar="FILE", help="Where the balanced data goes (default: balanced-RUN.json here)."),
]
ReportOpt = Annotated[Path | None, report_option("Write an HTML report: data and targets, before and after.")]
ResumeOpt = Annotated[bool, resume_option("Continue the stored search of the same command.")]


@app.command("balance", help=HELP, epilog=EPILOG)
def balance(
    rules: RulesArg = "inland",
    data: DataOpt = None,
    fields: FieldsOpt = "reconstructed",
    agents: AgentsOpt = "ai:easy",
    noise: NoiseOpt = None,
    games: GamesOpt = 24,
    candidates: CandidatesOpt = 12,
    budget: BudgetOpt = 1000,
    seed: SeedOpt = 0,
    first: FirstOpt = "45-55",
    min_built: MinBuiltOpt = 5.0,
    max_owner_win: MaxOwnerWinOpt = 70.0,
    check: CheckOpt = None,
    out_file: OutOpt = None,
    report: ReportOpt = None,
    resume: ResumeOpt = False,
    jobs: JobsOption = 1,
    backend: BackendOption = Backend.local,
    address: AddressOption = None,
    db: DbOption = None,
) -> None:
    out = output_console()
    err = make_console(stderr=True)
    with clean_exit():
        check_jobs(jobs, backend, address)
        rules_name = rules if ":" in rules else rules.strip().lower()
        spec = pt.load_ruleset(rules_name)
        seats = _seats(agents, spec)
        lo, hi = _percent_range(first)
        targets = Targets(lo, hi, min_built / 100, max_owner_win / 100)
        numbers = (seed, games, candidates, budget, jobs)
        spec, settings = _settings(rules_name, data, fields, seats, targets, numbers, _noise(seats, noise))
        settings = replace(settings, backend=backend.value, address=address)
        checks = _checks(check or [], seats, spec)
        store, db_path = open_store(db, err)
        with store:
            result = _search(spec, settings, store, resume, checks)
        if result.interrupted:
            err.print(
                f"Interrupted: every finished game is stored in {db_path}. Run the same command with --resume "
                "to go on; the result will be that of one uninterrupted run.",
                style="italic",
                markup=False,
            )
            raise typer.Exit(EXIT_INTERRUPTED)
        _write_results(out, spec, settings, result, out_file, report)


def _write_results(
    out: Console, spec: GameSpec, settings: bs.Settings, result: bs.Result, out_file: Path | None, report: Path | None
) -> None:
    """Print the tables, write the balanced data (and the HTML report if asked)."""
    _report_result(out, result)
    command = command_line()
    target = out_file or Path(f"balanced-{settings.run_name()}.json")
    note = bs.run_note(settings, command, datetime.now(UTC).strftime("%Y-%m-%d"))
    bs.write_best(spec, result, target, note)
    out.print(f"Balanced data written to {target}", markup=False)
    if report is not None:
        write_report(report, br.render(result, f"Balancing {spec.label}", [command], str(target)))
        out.print(f"Report written to {report}", markup=False)
