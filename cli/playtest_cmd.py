"""``lehavre playtest`` and ``lehavre compare``: many games between agents, statistics, reports.

The work is done by :mod:`core.lab.playtest` (games, storage, summaries),
:mod:`core.lab.stats` (tests) and :mod:`core.lab.report` (HTML); this module reads the
command line, drives a Rich progress bar and prints Rich tables.
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
import shlex
import sys
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table
from rich.text import Text

from cli import costs
from cli.console import error, make_console, output_console
from cli.options import (
    AddressOption,
    Backend,
    BackendOption,
    DbOption,
    JobsOption,
    NoiseOption,
    buildings_option,
    games_option,
    json_file_option,
    report_option,
    resume_option,
    seed_option,
)
from cli.review_view import check_review_level, francs_lost_table, playtest_francs_lost
from cli.root import app
from core.agents import agent_kinds, make_agent
from core.lab import playtest as pt
from core.lab import report as rp
from core.lab import stats
from core.lab.measures import CLEAR_LEAD, DEFINITIONS, game_measures
from core.protocol import GameError
from core.records import data_dir

EXIT_INTERRUPTED = 130

MEASURES_HELP = (
    "Designer's measures (from each decision's evaluation by the agent that made it: an ai agent's search "
    "score, otherwise the game's static evaluation; margins in francs, the eventual winner's lead = winner "
    "minus the best other player): "
    + "; ".join(f"{pt.MEASURE_NAMES[k]}: {v}" for k, v in DEFINITIONS.items())
    + "; lead curve: the eventual winner's lead, median and quartiles, per tenth of the game. Ties are not measured."
)

ClearLeadOption = Annotated[
    float,
    typer.Option(
        "--clear-lead",
        metavar="FRANCS",
        min=0.0,
        help="Decisiveness: the winner is clearly ahead once its lead exceeds every other lead and FRANCS.",
    ),
]


def default_db_path() -> Path:
    """Where runs are stored unless ``--db`` says otherwise: in the data directory (``$LEHAVRE_DATA_DIR``)."""
    return data_dir() / "playtest.sqlite3"


def open_store(db: Path | None, err: Console) -> tuple[pt.Store, str]:
    """The results database and where it is (for messages).

    ``--db`` that cannot be used is an error; the default one in a data
    directory that cannot be written gives a warning, and the games are kept
    in memory for this run only.
    """
    if db is not None:
        return pt.Store(db), str(db)
    path = default_db_path()
    try:
        return pt.Store(path), str(path)
    except pt.PlaytestError as exc:
        err.print(
            f"Warning: {exc}. The games of this run are not stored (nothing to --resume); give --db PATH to keep them.",
            style="warning",
            markup=False,
        )
        return pt.Store(":memory:"), "memory (for this run only)"


class RateColumn(ProgressColumn):
    """Games per second (or seconds per game when slower than one a second)."""

    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        if not speed:
            return Text("– games/s", style="progress.data.speed")
        if speed >= 1:
            return Text(f"{speed:.1f} games/s", style="progress.data.speed")
        return Text(f"{1 / speed:.1f} s/game", style="progress.data.speed")


def progress_bar(console: Console) -> Progress:
    return Progress(
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("games"),
        RateColumn(),
        TextColumn("elapsed"),
        TimeElapsedColumn(),
        TextColumn("left"),
        TimeRemainingColumn(),
        console=console,
        transient=False,
    )


def _parse_variants(items: list[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for item in items:
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            raise pt.PlaytestError(f"--variant needs KEY=VALUE (e.g. --variant advanced_selling=yes), got '{item}'")
        out[key.strip()] = value.strip()
    return out


def check_jobs(jobs: int, backend: Backend, address: str | None) -> None:
    if address and backend is not Backend.dask:
        raise pt.PlaytestError("--address is only used with --backend dask")


def play_stored(
    store: pt.Store,
    config: pt.Config,
    seed: int,
    games: int,
    resume: bool,
    jobs: int,
    backend: Backend,
    address: str | None,
    progress: Progress,
    name: str,
    fewer: str = "Fewer: --games N.",
) -> pt.RunResult:
    """Play (or resume) the run of ``config`` into ``store`` with a progress bar, having said how long it
    will take when that is long (``fewer``: how to ask for less); each game's cost is kept for next time."""
    task_box: dict[str, Any] = {}
    spent = [0.0, 0]  # the games' seconds and their number, for this machine's table of costs

    def on_start(run_id: int, stored: int, to_play: int) -> None:
        what = f"{name}run #{run_id}"
        if stored:
            what += f" (resuming, {stored} stored)"
        estimate = costs.estimate_games(config.rules, config.agents, to_play, jobs)
        costs.say_estimate(progress.console, estimate, "game", fewer)
        task_box["task"] = progress.add_task(what, total=games, completed=stored)

    def on_game(record: dict[str, Any]) -> None:
        spent[0] += float(record.get("seconds") or 0.0)
        spent[1] += 1
        progress.advance(task_box["task"])

    try:
        return pt.execute(
            store,
            config,
            seed,
            games,
            resume=resume,
            backend=backend.value,
            processes=jobs,
            address=address,
            on_start=on_start,
            on_game=on_game,
        )
    finally:
        costs.remember(costs.games_key(config.rules.split(":")[0], config.agents), spent[0], int(spent[1]))


# ---------------------------------------------------------------------------
# Tables
# ---------------------------------------------------------------------------


def format_pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _rate_cell(r: dict[str, Any]) -> str:
    return f"{format_pct(r['rate'])} [{format_pct(r['ci'][0])}, {format_pct(r['ci'][1])}]"


def format_p(p: float) -> str:
    return "<0.0001" if p < 1e-4 else f"{p:.4f}"


def _tag(summaries: list[dict[str, Any]], i: int) -> str:
    return "AB"[i] if len(summaries) > 1 else ""


def repeats_note(summaries: list[dict[str, Any]]) -> Text | None:
    """A plain warning when some games repeat others: the intervals assume independent games."""
    lines = [
        f"{s['label']}: only {s['distinct_games']} of {s['games']} games are distinct. The intervals assume "
        "independent games, so they are too narrow; vary the agents (--noise X) or use more seeds."
        for s in summaries
        if s.get("distinct_games", s["games"]) < s["games"]
    ]
    return Text("\n".join(lines), style="warning") if lines else None


def summary_table(summaries: list[dict[str, Any]]) -> Table:
    """Win rates by seat and agent, ties, and the first seat's advantage."""
    table = Table(title="Wins (95% Wilson intervals; seat 1 starts)", title_justify="left")
    table.add_column("", overflow="fold")
    for i, s in enumerate(summaries):
        tag = _tag(summaries, i)
        table.add_column(Text(f"{tag}: {s['label']}" if tag else s["label"]), overflow="fold")
    table.add_row("games", *[str(s["games"]) for s in summaries])
    table.add_row(
        "distinct games",
        *[
            Text(str(s.get("distinct_games", s["games"])))
            if s.get("distinct_games", s["games"]) >= s["games"]
            else Text(f"{s['distinct_games']}: repeats make the intervals too narrow", style="warning")
            for s in summaries
        ],
    )
    players = max(s["players"] for s in summaries)
    for seat in range(players):
        table.add_row(
            f"seat {seat + 1} wins", *[_rate_cell(s["seats"][seat]) if seat < s["players"] else "–" for s in summaries]
        )
    table.add_row("ties", *[_rate_cell(s["ties"]) for s in summaries])
    table.add_row(
        "seat 1, share of decisive games",
        *[
            Text(
                f"{format_pct(s['first_seat']['share_of_decisive'])} [{format_pct(s['first_seat']['ci'][0])}, "
                f"{format_pct(s['first_seat']['ci'][1])}] (fair: {format_pct(s['first_seat']['expected'])}), "
                f"p={format_p(s['first_seat']['p_value'])}" + (" *" if s["first_seat"]["significant"] else "")
            )
            for s in summaries
        ],
    )
    for i, s in enumerate(summaries):
        for a in s["agents"]:
            cells: list[Any] = ["" for _ in summaries]
            cells[i] = _rate_cell(a)
            table.add_row(Text(f"{a['agent']} wins"), *cells)
    # the star's meaning on a line of its own, so that a narrow table never parts "*" from its words
    table.caption = "seat 1 share: exact binomial test against a fair share of the decisive games\n* significant at 5%"
    return table


NUMBERS = (
    ("final wealth", "wealth", 1),
    ("winner's wealth", "winner_wealth", 1),
    ("winning margin", "margin", 1),
    ("length (actions)", "actions", 1),
    ("length (seconds)", "seconds", 3),
    ("lead changes", "lead_changes", 2),
)


def numbers_table(summaries: list[dict[str, Any]]) -> Table:
    table = Table(title="Numbers per game (final wealth: every player)", title_justify="left")
    table.add_column("")
    for col in ("mean", "median", "sd", "min–max"):
        table.add_column(col, justify="right")
    for label, key, digits in NUMBERS:
        for i, s in enumerate(summaries):
            d = s[key]
            tag = _tag(summaries, i)
            name = f"{label} {tag}".rstrip()
            if not d["n"]:
                table.add_row(name, "–", "–", "–", "–")
                continue
            f = f"{{:.{digits}f}}"
            table.add_row(
                name,
                f.format(d["mean"]),
                f.format(d["median"]),
                f.format(d["stdev"]),
                f"{f.format(d['min'])}–{f.format(d['max'])}",
            )
        if len(summaries) > 1:
            table.add_section()
    return table


def wealth_distribution_table(summaries: list[dict[str, Any]], bins: int = 8) -> Table:
    samples = [s["wealth_values"] for s in summaries if s["wealth_values"]]
    lo, hi = (min(min(v) for v in samples), max(max(v) for v in samples)) if samples else (0, 1)
    table = Table(title="Final wealth distribution (share of player-games)", title_justify="left")
    table.add_column("wealth", justify="right")
    hists = []
    for i, s in enumerate(summaries):
        tag = _tag(summaries, i)
        table.add_column(f"{tag} share".strip(), justify="right")
        table.add_column("", min_width=12)
        hists.append(stats.histogram(s["wealth_values"], bins=bins, lo=lo, hi=hi + 1e-9))
    edges = hists[0]["edges"] if hists and hists[0]["edges"] else [0.0] * (bins + 1)
    for b in range(bins):
        row: list[Any] = [f"{edges[b]:.0f}–{edges[b + 1]:.0f}"]
        for s, h in zip(summaries, hists, strict=False):
            share = h["counts"][b] / max(1, len(s["wealth_values"])) if h["counts"] else 0.0
            row += [format_pct(share), "█" * round(share * 24)]
        table.add_row(*row)
    return table


def buildings_table(summaries: list[dict[str, Any]], limit: int = 15) -> Table:
    table = Table(title=f"Buildings (top {limit} by share of games built or bought)", title_justify="left")
    table.add_column("building", overflow="fold")
    for i, _s in enumerate(summaries):
        tag = _tag(summaries, i)
        table.add_column(f"{tag} built".strip(), justify="right")
        table.add_column(f"{tag} uses/game".strip(), justify="right")
        table.add_column(f"{tag} owner won".strip(), justify="right")
    for key in pt.building_keys(summaries)[:limit]:
        row: list[Any] = [Text(pt.building_label(key, summaries))]
        for s in summaries:
            e = pt.building_entry(s, key)
            if e is None:
                row += ["–", "–", "–"]
                continue
            g = max(1, s["games"])
            row += [
                format_pct(e["built_games"] / g),
                f"{e['uses'] / g:.2f}",
                format_pct(e["winner_owned"] / e["owned_games"]) if e["owned_games"] else "–",
            ]
        table.add_row(*row)
    table.caption = "built: share of games built or bought; owner won: share of games its final owner won"
    return table


def tallies_table(summaries: list[dict[str, Any]]) -> Table | None:
    """Per agent, the game's per-seat tallies (the base game's loans taken): how many a game, in how many of
    the games, and in how many of those it did not win (None when no summary has any)."""
    if not any(s.get("tallies") for s in summaries):
        return None
    table = Table(title="Counted per seat (taken over the game), by agent")
    table.title_justify = "left"
    table.add_column("", overflow="fold")
    for col in ("per game", "games with any", "of those not won"):
        table.add_column(col, justify="right")
    for i, s in enumerate(summaries):
        for name, rows in s.get("tallies", {}).items():
            for row in rows:
                label = f"{name}: {row['agent']} {_tag(summaries, i)}".rstrip()
                table.add_row(
                    Text(label),
                    f"{row['per_game']:.2f}",
                    f"{row['games']} ({format_pct(row['share_of_games'])})",
                    str(row["lost_games"]),
                )
    return table


def measures_table(summaries: list[dict[str, Any]]) -> Table:
    """The designer's measures (:mod:`core.lab.measures`) per game: mean with its 95% interval, median, quartiles."""
    table = Table(title="Designer's measures per game, by the agents' evaluations (95% t-interval of the mean)")
    table.title_justify = "left"
    table.add_column("", overflow="fold")
    for col in ("mean [95% CI]", "median", "q1–q3"):
        table.add_column(col, justify="right")
    for key, label in pt.MEASURE_NAMES.items():
        for i, s in enumerate(summaries):
            m = s["measures"]
            name = f"{label} {_tag(summaries, i)}".rstrip()
            d = m[key]
            if not d["n"]:
                table.add_row(Text(name), "–", "–", "–")
                continue
            pct = key == "decisiveness"

            def f(x: float, pct: bool = pct) -> str:
                return format_pct(x) if pct else f"{x:.2f}"

            ci = d["ci95"]
            table.add_row(
                Text(name),
                f(d["mean"]) + (f" [{f(ci[0])}, {f(ci[1])}]" if ci else ""),
                f(d["median"]),
                f"{f(d['q1'])}–{f(d['q3'])}",
            )
        if len(summaries) > 1:
            table.add_section()
    notes = [
        f"{s['label']}: measured on {s['measures']['measured']} of {s['games']} games "
        f"({s['games'] - s['measures']['traced']} stored without a trace, ties excluded)"
        for s in summaries
        if s["measures"]["measured"] < s["games"]
    ]
    clear = ", ".join(sorted({f"{s['measures']['clear_lead']:g}" for s in summaries}))
    table.caption = Text(  # plain text: a label such as "inland [ai:easy]" is not markup
        f"decisiveness: share of the game after the eventual winner is clearly ahead (lead above every lead the "
        f"others ever had and above {clear} francs); drama: francs the winner was behind; lead changes: of the "
        "leader by evaluation. See lehavre playtest --help." + ("\n" + "\n".join(notes) if notes else "")
    )
    return table


def lead_curve_table(summaries: list[dict[str, Any]]) -> Table:
    """The eventual winner's evaluation lead over the course of the game: median and quartiles per tenth."""
    table = Table(title="Eventual winner's evaluation lead (francs) by tenth of the game", title_justify="left")
    table.add_column("part", justify="right")
    for i, _s in enumerate(summaries):
        tag = _tag(summaries, i)
        table.add_column(f"{tag} median".strip(), justify="right")
        table.add_column(f"{tag} q1–q3".strip(), justify="right")
    for p in range(10):
        row: list[Any] = [f"{10 * p}–{10 * (p + 1)}%"]
        for s in summaries:
            c = s["measures"]["curve"][p]
            if not c["n"]:
                row += ["–", "–"]
                continue
            row += [f"{c['median']:+.1f}", f"{c['q1']:+.1f} – {c['q3']:+.1f}"]
        table.add_row(*row)
    return table


_SHORT_TEST = {"two-proportion z-test": "z", "Welch t-test": "t", "Mann-Whitney U test": "U"}


def tests_table(tests: list[dict[str, Any]], limit_buildings: int = 8) -> Table:
    """The differences B − A: each test's raw p and its p adjusted by Holm over the family; the flag is on the adjusted."""
    table = Table(
        title=f"Differences B − A (*: significant at 5% after Holm's correction over the {len(tests)} tests)",
        title_justify="left",
    )
    table.add_column("what", overflow="fold")
    for col in ("A", "B", "B − A", "test", "p", "Holm p"):
        table.add_column(col, justify="right")
    shown_buildings = 0
    hidden = 0
    for t in tests:
        is_building = t["what"].endswith(": built")
        if is_building and (not t["significant"] or shown_buildings >= limit_buildings):
            hidden += 1
            continue
        shown_buildings += is_building
        rate = t["measure"] == "rate"

        def fmt(x: Any) -> str:
            if x is None or (isinstance(x, float) and math.isnan(x)):
                return "–"
            return format_pct(x) if rate else f"{x:.2f}"

        diff = (
            "–"
            if isinstance(t["diff"], float) and math.isnan(t["diff"])
            else (f"{100 * t['diff']:+.1f}pt" if rate else f"{t['diff']:+.2f}")
        )
        table.add_row(
            Text(_test_name(t)),
            fmt(t["a"]),
            fmt(t["b"]),
            diff,
            _SHORT_TEST.get(t["test"], t["test"]),
            format_p(t["p_value"]),
            format_p(t["p_adjusted"]) + (" *" if t["significant"] else "  "),
            style="bold" if t["significant"] else None,
        )
    table.caption = (
        "z: two-proportion z-test; t: Welch's t-test of means; U: Mann-Whitney U test; p: each test alone; "
        "Holm p: adjusted by Holm's step-down correction over all the tests, which keeps the chance of any false "
        "flag at 5%; *: Holm p below 5%"
    ) + (f"; {hidden} building rows without a significant difference not shown" if hidden else "")
    return table


def _test_name(t: dict[str, Any]) -> str:
    """A test's row name: what differs, and for numbers which measure of it (mean or median)."""
    return str(t["what"]) + ("" if t["measure"] == "rate" else f", {t['measure']}")


def significance_line(tests: list[dict[str, Any]]) -> str:
    """Which differences are significant after Holm's correction, and which only on their raw p."""
    sig = [_test_name(t) for t in tests if t["significant"]]
    raw_only = [_test_name(t) for t in tests if t["significant_raw"] and not t["significant"]]
    family = f"Holm's correction for the {len(tests)} tests"
    if sig:
        text = f"Statistically significant at 5% after {family} ({len(sig)} tests; p in the table): " + "; ".join(sig)
    else:
        text = f"No difference is statistically significant at 5% after {family}"
    if raw_only:
        text += (
            f". Below 5% on the raw p only, not after the correction ({len(raw_only)} tests; if nothing differed, "
            f"about {len(tests) / 20:.1f} of {len(tests)} would be): " + "; ".join(raw_only)
        )
    return text + "."


def _json_summary(s: dict[str, Any]) -> dict[str, Any]:
    out = {k: v for k, v in s.items() if not k.endswith("_values") and k != "wealth_game_mean"}
    out["measures"] = {k: v for k, v in s["measures"].items() if not k.endswith("_values")}
    out["seats"] = [{"seat": x["seat"], "wins": x["count"], "rate": x["rate"], "ci95": x["ci"]} for x in s["seats"]]
    out["ties"] = s["ties"]["count"]
    out["tie_rate"] = s["ties"]["rate"]
    out["tie_ci95"] = s["ties"]["ci"]
    out["agents"] = [
        {
            "agent": a["agent"],
            "spec": a["spec"],
            "wins": a["count"],
            "games": a["n"],
            "rate": a["rate"],
            "ci95": a["ci"],
        }
        for a in s["agents"]
    ]
    return out


def _json_results(records: Iterable[dict[str, Any]], clear_lead: float) -> Iterator[dict[str, Any]]:
    """Every game's result, its evaluation trace (one entry per decision; None if stored without), measures
    and the game's per-seat tallies (when it declares any), one game at a time (``records`` by game index, as the store gives them)."""
    keys = (
        "index",
        "seed",
        "seats",
        "winners",
        "wealth",
        "main_actions",
        "steps",
        "lead_changes",
        "seconds",
        "actions",
    )
    for r in records:
        yield {
            **{k: r[k] for k in keys},
            "trace": r.get("trace"),
            "measures": game_measures(r.get("trace"), r["winners"], clear_lead),
            **({"tallies": r["tallies"]} if "tallies" in r else {}),
        }


def write_json(
    path: Path,
    fields: dict[str, Any],
    stream: tuple[str, Iterable[Any]] | None = None,
    tail: dict[str, Any] | None = None,
) -> Path:
    """Write one JSON object: ``fields``, then ``stream`` (a key and its list, written item by item, one a
    line, so a run of any size is never held whole), then ``tail``.  Written beside and moved into place,
    so a file that is there is whole; a file that cannot be written is an error saying so."""
    target = path.expanduser()
    partial = target.with_name(target.name + ".part")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        with partial.open("w", encoding="utf-8") as f:
            f.write("{\n" + ",\n".join(f" {json.dumps(k)}: {json.dumps(v)}" for k, v in fields.items()))
            if stream is not None:
                f.write(f",\n {json.dumps(stream[0])}: [")
                for i, item in enumerate(stream[1]):
                    f.write(("," if i else "") + "\n  " + json.dumps(item))
                f.write("\n ]")
            f.writelines(f",\n {json.dumps(k)}: {json.dumps(v)}" for k, v in (tail or {}).items())
            f.write("\n}\n")
        partial.replace(target)
    except OSError as exc:
        raise pt.PlaytestError(f"cannot write '{path}': {exc}") from None
    return target


class StdoutClosed(Exception):
    """The reader of standard output closed it (``| head``)."""


def _stdout_closed(out: Console) -> None:
    """What a closed standard output does to ``out``: it stops printing, and nothing more reaches the pipe."""
    out.quiet = True
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())  # not even Python's flush at exit
    os.close(devnull)


@contextmanager
def tables_to(out: Console, err: Console, written: Sequence[Path]) -> Iterator[None]:
    """Print to standard output; if the reader closes it early (``| head``), stop printing and say on
    standard error what was kept (the files in ``written`` were finished before): not an error."""

    def closed() -> None:
        _stdout_closed(out)
        raise StdoutClosed

    out.on_broken_pipe = closed  # type: ignore[method-assign]  # Rich's way: it would exit with 1, silently
    try:
        yield
        out.file.flush()
    except (StdoutClosed, BrokenPipeError):
        _stdout_closed(out)
        kept = "; ".join(f"written: {p}" for p in written)
        err.print(
            "Standard output was closed before every table was printed" + (f" ({kept})." if kept else "."),
            style="warning",
            markup=False,
        )


@contextmanager
def clean_exit() -> Iterator[None]:
    """A person's mistake exits with its message and code 2; Ctrl-C keeps every finished game (code 130)."""
    try:
        yield
    except GameError as exc:
        error(str(exc))
        raise typer.Exit(2) from None
    except KeyboardInterrupt:
        error("interrupted; every finished game is stored (continue with --resume)")
        raise typer.Exit(EXIT_INTERRUPTED) from None


def command_line() -> str:
    return "lehavre " + " ".join(shlex.quote(a) for a in sys.argv[1:])


def _interrupted_note(console: Console, results: list[pt.RunResult]) -> None:
    for r in results:
        console.print(
            f"Interrupted: run #{r.run_id} has {r.stored} of {r.games} games stored. "
            "Run the same command with --resume to play the rest.",
            style="italic",
            markup=False,
        )


# ---------------------------------------------------------------------------
# Commands
# ---------------------------------------------------------------------------


PLAYTEST_HELP = """Play many games between agents and summarise who wins and why.

Game i seats the agent list rotated by i. Every game is stored as it finishes; Ctrl-C stops cleanly and
--resume continues.
"""


RulesArg = Annotated[
    str, typer.Argument(metavar="RULES", help="The rule set: inland (the Inland Port) or base (Le Havre).")
]
GamesOpt = Annotated[int, games_option("Number of games.")]
AgentsOpt = Annotated[
    str,
    typer.Option(
        "--agents",
        metavar="A,B[,...]",
        help="One agent per seat: random, greedy, ai, ai:easy|normal|hard, ai:normal@nodes=500.",
    ),
]
SeedOpt = Annotated[int, seed_option("Seed of the run (game i's seed derives from it and i).")]
PlayersOpt = Annotated[
    int | None, typer.Option("--players", metavar="N", help="Number of players (default: one per agent).")
]
ShortOpt = Annotated[bool, typer.Option("--short", help="Play the short game (base game).")]
BuildingsOpt = Annotated[Path | None, buildings_option("Play with this building data.")]
VariantOpt = Annotated[
    list[str] | None,
    typer.Option("--variant", metavar="KEY=VALUE", help="A variant flag of the rule set (repeatable)."),
]
JsonOpt = Annotated[Path | None, json_file_option("Write the summary and every game's result as JSON.")]
ReportOpt = Annotated[Path | None, report_option("Write a self-contained HTML report with charts.")]
ResumeOpt = Annotated[bool, resume_option("Continue the stored run of the same configuration and seed.")]
LabelOpt = Annotated[
    str, typer.Option("--label", metavar="TEXT", help="This configuration's name in tables and reports.")
]
ReviewLevelOpt = Annotated[
    str | None,
    typer.Option(
        "--review-level",
        metavar="LEVEL",
        help="Also report each agent's mean francs lost against ai:LEVEL (slow).",
    ),
]


@app.command("playtest", help=PLAYTEST_HELP, epilog=MEASURES_HELP)
def playtest(
    rules: RulesArg,
    games: GamesOpt = 100,
    agents: AgentsOpt = "random,greedy",
    noise: NoiseOption = None,
    seed: SeedOpt = 0,
    players: PlayersOpt = None,
    short: ShortOpt = False,
    buildings: BuildingsOpt = None,
    variant: VariantOpt = None,
    jobs: JobsOption = 1,
    backend: BackendOption = Backend.local,
    address: AddressOption = None,
    json_path: JsonOpt = None,
    db: DbOption = None,
    report: ReportOpt = None,
    resume: ResumeOpt = False,
    label: LabelOpt = "",
    clear_lead: ClearLeadOption = CLEAR_LEAD,
    review_level: ReviewLevelOpt = None,
) -> None:
    out = output_console()
    err = make_console(stderr=True)
    with clean_exit():
        check_jobs(jobs, backend, address)
        rules_name = rules if ":" in rules else rules.strip().lower()
        pt.load_ruleset(rules_name)  # an unknown name is refused, naming the known ones
        if review_level:
            check_review_level(rules_name, review_level)
        config = pt.make_config(
            rules_name,
            agents.split(","),
            players=players,
            short=short or None,
            buildings=buildings,
            variants=_parse_variants(variant or []),
            label=label,
            noise=noise,
        )
        store, db_path = open_store(db, err)
        with store:
            with progress_bar(err) as progress:
                result = play_stored(store, config, seed, games, resume, jobs, backend, address, progress, "")
            summary = pt.summarize_run(store, result.run_id, config, games, clear_lead)
            lost = _francs_lost(store, config, result, review_level, jobs, err)
            written = _write_playtest_files(store, (json_path, report), (db_path, seed), summary, result, lost)
        with tables_to(out, err, written):
            _show_playtest(out, summary, result, lost, review_level)
            out.print(f"Run #{result.run_id}: {result.stored} games stored in {db_path}", style="dim", markup=False)
            if report is not None and result.stored:
                out.print(f"Report written to {report}", style="dim", markup=False)
        if result.interrupted:
            _interrupted_note(err, [result])
            raise typer.Exit(EXIT_INTERRUPTED)


def _francs_lost(
    store: pt.Store, config: pt.Config, result: pt.RunResult, review_level: str | None, jobs: int, err: Console
) -> dict[str, dict[str, float]] | None:
    """Each agent's francs lost against ai:``review_level`` over the run's games (None when not asked)."""
    if not review_level or not result.stored:
        return None
    records = store.games(result.run_id, limit=result.games)  # reviewing is slow: runs that ask for it are small
    return playtest_francs_lost(config.rules, config.options, records, review_level, jobs, err)


def _write_playtest_files(
    store: pt.Store,
    paths: tuple[Path | None, Path | None],
    where: tuple[str, int],
    summary: dict[str, Any],
    result: pt.RunResult,
    lost: dict[str, dict[str, float]] | None,
) -> list[Path]:
    """Write ``--json`` (game by game from the store) and ``--report`` (``paths``) before any table is
    printed, so they are written whatever becomes of standard output; returns the files written."""
    json_path, report = paths
    db_path, seed = where
    written: list[Path] = []
    if json_path is not None:
        head = {"run_id": result.run_id, "db": db_path, "config": result.config.to_dict(), "seed": seed}
        fields = {**head, **_run_state(result), "summary": _json_summary(summary)}
        tail = {"francs_lost": lost} if lost is not None else {}
        games = _json_results(store.iter_games(result.run_id, limit=result.games), summary["measures"]["clear_lead"])
        written.append(write_json(json_path, fields, ("results", games), tail))
    if report is not None and result.stored:
        rp.write_report(report, rp.render([summary], title=f"Playtest: {summary['label']}", commands=[command_line()]))
        written.append(report)
    return written


def _show_playtest(
    out: Console,
    summary: dict[str, Any],
    result: pt.RunResult,
    lost: dict[str, dict[str, float]] | None,
    review_level: str | None,
) -> None:
    """Print the run's tables (and the francs lost, when asked)."""
    if result.stored:
        out.print(summary_table([summary]))
        note = repeats_note([summary])
        if note is not None:
            out.print(note)
        out.print(numbers_table([summary]))
        out.print(measures_table([summary]))
        out.print(lead_curve_table([summary]))
        out.print(wealth_distribution_table([summary]))
        out.print(buildings_table([summary]))
        tallies = tallies_table([summary])
        if tallies is not None:
            out.print(tallies)
    if lost is not None and review_level:
        out.print(francs_lost_table(lost, review_level))


def _run_state(result: pt.RunResult) -> dict[str, Any]:
    """The playtest JSON's account of the run: games asked for, stored, complete, interrupted."""
    return {
        "games": result.games,
        "stored": result.stored,
        "complete": result.complete,
        "interrupted": result.interrupted,
    }


#: plain ``compare``: an answer in minutes on two cores (ai:normal in both games, 100 games a configuration,
#: takes hours; :data:`BIG_STUDY` asks for it)
COMPARE_GAMES = 20
COMPARE_AGENT = "ai:easy"
BIG_STUDY = "--agents ai --games 100"


def _default_agent() -> str:
    return COMPARE_AGENT if "ai" in agent_kinds() else "greedy"


COMPARE_HELP = f"""Compare two configurations, with significance tests.

Win rates by seat and agent, wealth, margins, game length, lead changes and buildings, each difference tested.

Default: the Inland Port against the two-player full base game, {COMPARE_AGENT} in both seats, {COMPARE_GAMES} games
a configuration: minutes on two cores. The big study, hours: {BIG_STUDY} (--agents changes the agents of
configurations that name none). A run longer than a minute says how long it expects before it starts.

{pt.SPEC_HELP}

Stored runs can be used instead of playing: --a-run ID / --b-run ID (see --list-runs), or --from-db to reuse
(and complete) the latest stored run of the same configuration and seed.
"""


def _with_noise(config: pt.Config, noise: float) -> pt.Config:
    """``config`` with ``--noise`` for its ai agents; an agent with its own ``~X`` is refused."""
    for agent in config.agents:
        make_agent(agent, 0, pt.load_ruleset(config.rules), noise=noise)
    return dataclasses.replace(config, noise=noise)


CompareGamesOpt = Annotated[int, games_option("Games per configuration.")]
CompareSeedOpt = Annotated[int, seed_option("Seed of both runs (game i has the same seed in both).")]
ConfigAOpt = Annotated[
    str | None, typer.Option("--a", metavar="SPEC", help="Configuration A, e.g. 'inland:agents=ai,ai'.")
]
ConfigBOpt = Annotated[
    str | None, typer.Option("--b", metavar="SPEC", help="Configuration B, e.g. 'base:players=2;agents=ai,ai'.")
]
RunAOpt = Annotated[
    int | None, typer.Option("--a-run", metavar="ID", help="Use stored run ID as A instead of playing.")
]
RunBOpt = Annotated[
    int | None, typer.Option("--b-run", metavar="ID", help="Use stored run ID as B instead of playing.")
]
FromDbOpt = Annotated[
    bool,
    typer.Option(
        "--from-db",
        "--resume",
        help="Reuse the stored run of each configuration and seed; play only missing games.",
    ),
]
CompareJsonOpt = Annotated[Path | None, json_file_option("Write both summaries and the tests to this JSON file.")]
CompareAgentsOpt = Annotated[
    str | None,
    typer.Option(
        "--agents",
        metavar="A[,B]",
        help=f"Agents for configurations that name none (default: {COMPARE_AGENT} in every seat).",
    ),
]
ListRunsOpt = Annotated[bool, typer.Option("--list-runs", help="List the stored runs and exit.")]

#: one side of a comparison: its name (A or B), its --a/--b spec, its stored run, its default spec
Side = tuple[str, str | None, int | None, str]


@app.command("compare", help=COMPARE_HELP, epilog=MEASURES_HELP)
def compare(
    games: CompareGamesOpt = COMPARE_GAMES,
    seed: CompareSeedOpt = 0,
    jobs: JobsOption = 1,
    report: ReportOpt = None,
    a: ConfigAOpt = None,
    b: ConfigBOpt = None,
    a_run: RunAOpt = None,
    b_run: RunBOpt = None,
    from_db: FromDbOpt = False,
    db: DbOption = None,
    json_path: CompareJsonOpt = None,
    backend: BackendOption = Backend.local,
    address: AddressOption = None,
    agents: CompareAgentsOpt = None,
    noise: NoiseOption = None,
    list_runs: ListRunsOpt = False,
    clear_lead: ClearLeadOption = CLEAR_LEAD,
) -> None:
    out = output_console()
    err = make_console(stderr=True)
    with clean_exit():
        if list_runs:
            _list_runs(out, db)
            return
        check_jobs(jobs, backend, address)
        sides: list[Side] = [("A", a, a_run, "inland"), ("B", b, b_run, "base:players=2")]
        configs = _compare_configs(sides, agents, noise)
        store, db_path = open_store(db, err)
        with store:
            with progress_bar(err) as progress:
                plan = (seed, games, from_db, jobs)
                results = _play_sides(store, sides, configs, plan, backend, address, progress, err)
            if any(r.interrupted for r in results):
                _interrupted_note(err, [r for r in results if not r.complete])
                raise typer.Exit(EXIT_INTERRUPTED)
            summaries = _compare_summaries(store, sides, results, clear_lead)
        tests = pt.compare(summaries[0], summaries[1])
        written = _write_compare_files(json_path, report, results, summaries, tests)
        with tables_to(out, err, written):
            _show_comparison(out, summaries, tests)
            out.print(
                f"Runs #{results[0].run_id} (A) and #{results[1].run_id} (B) are stored in {db_path}",
                style="dim",
                markup=False,
            )
            if report is not None:
                out.print(f"Report written to {report}", style="dim", markup=False)


def _write_compare_files(
    json_path: Path | None,
    report: Path | None,
    results: list[pt.RunResult],
    summaries: list[dict[str, Any]],
    tests: list[dict[str, Any]],
) -> list[Path]:
    """Write ``--json`` and ``--report`` before any table is printed; returns the files written."""
    written: list[Path] = []
    if json_path is not None:
        sides = {
            side: {"run_id": r.run_id, "summary": _json_summary(s)}
            for side, r, s in zip("ab", results, summaries, strict=True)
        }
        written.append(write_json(json_path, {**sides, "tests": tests}))
    if report is not None:
        title = f"Compare: {summaries[0]['label']} vs {summaries[1]['label']}"
        rp.write_report(report, rp.render(summaries, tests, title=title, commands=[command_line()]))
        written.append(report)
    return written


def _list_runs(out: Console, db: Path | None) -> None:
    """Print the table of stored runs (--list-runs)."""
    listed = db or default_db_path()
    with pt.Store(listed) as store:
        out.print(f"Stored runs in {listed}", soft_wrap=True, markup=False)
        table = Table()
        for col in ("id", "created", "configuration", "agents", "seed", "games stored"):
            table.add_column(col)
        for info in store.runs():
            table.add_row(
                str(info.id),
                info.created.replace("T", " ")[:16],
                info.config.describe(),
                ",".join(info.config.agents),
                str(info.seed),
                f"{info.stored}/{info.games}",
            )
        out.print(table)


def _compare_configs(sides: list[Side], agents: str | None, noise: float | None) -> list[pt.Config | None]:
    """Each side's configuration to play (None for a side given a stored run)."""
    strongest = [a.strip() for a in agents.split(",") if a.strip()] if agents else [_default_agent()]
    if len(strongest) == 1:
        strongest *= 2
    configs: list[pt.Config | None] = []
    for name, spec, run_id, default in sides:
        if run_id is not None:
            configs.append(None)
            continue
        try:
            configs.append(pt.parse_spec(spec or default, default_agents=strongest))
        except pt.PlaytestError as exc:
            if spec is None and default.startswith("base"):
                raise pt.PlaytestError(
                    f"the default comparison needs the base game, which is not available yet ({exc}). "
                    "Give both configurations instead, e.g. --a 'inland:agents=greedy,greedy' --b 'inland:agents=random,greedy'"
                ) from None
            raise pt.PlaytestError(f"configuration {name}: {exc}") from None
    if noise is not None:
        configs = [None if c is None else _with_noise(c, noise) for c in configs]
    return configs


def _play_sides(
    store: pt.Store,
    sides: list[Side],
    configs: list[pt.Config | None],
    plan: tuple[int, int, bool, int],
    backend: Backend,
    address: str | None,
    progress: Progress,
    err: Console,
) -> list[pt.RunResult]:
    """Load or play each side's run (``plan``: seed, games, reuse stored games, jobs); stops at an interruption."""
    seed, games, from_db, jobs = plan
    results: list[pt.RunResult] = []
    for (name, _spec, run_id, _d), config in zip(sides, configs, strict=False):
        if run_id is not None:  # a stored run (its side has no configuration to play)
            loaded = pt.load_run(store, run_id)
            if not loaded.complete:
                err.print(
                    f"Note: stored run #{run_id} has only {loaded.stored} of {loaded.games} games "
                    "(continue it with the playtest command and --resume)",
                    style="italic",
                    markup=False,
                )
            results.append(loaded)
            continue
        assert config is not None  # every side without a stored run was given one above
        fewer = f"Fewer: --games N; the big study: {BIG_STUDY}."
        r = play_stored(store, config, seed, games, from_db, jobs, backend, address, progress, f"{name}: ", fewer)
        results.append(r)
        if r.interrupted:
            break
    return results


def _compare_summaries(
    store: pt.Store, sides: list[Side], results: list[pt.RunResult], clear_lead: float
) -> list[dict[str, Any]]:
    """Both runs' summaries (read from ``store``), labelled apart by run number when their labels are the same."""
    summaries = []
    for (name, _s, _r, _d), r in zip(sides, results, strict=False):
        if not r.stored:
            raise pt.PlaytestError(f"configuration {name} (run #{r.run_id}) has no finished games to compare")
        summaries.append(pt.summarize_run(store, r.run_id, r.config, r.games, clear_lead))
    if summaries[0]["label"] == summaries[1]["label"]:
        summaries[0]["label"] += f" (run #{results[0].run_id})"
        summaries[1]["label"] += f" (run #{results[1].run_id})"
    return summaries


def _show_comparison(out: Console, summaries: list[dict[str, Any]], tests: list[dict[str, Any]]) -> None:
    """Print the comparison's tables and which differences are significant."""
    out.print(summary_table(summaries))
    note = repeats_note(summaries)
    if note is not None:
        out.print(note)
    out.print(numbers_table(summaries))
    out.print(measures_table(summaries))
    out.print(lead_curve_table(summaries))
    out.print(tests_table(tests))
    out.print(significance_line(tests), markup=False)
    out.print(wealth_distribution_table(summaries))
    out.print(buildings_table(summaries))
