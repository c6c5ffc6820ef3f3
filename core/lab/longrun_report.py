"""The long measurements' tables and reports, made from the committed store alone.

:func:`write_reports` writes ``report.md`` (every table, each under the question it answers and the
command that regenerates it) and ``seats.html`` (the seat curve with its intervals) beside the plan.
Seats are counted from 1 for people (seat 1 starts); the store keeps 0-based indices.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from core.lab import rebalance, seat_report, stats
from core.lab.longrun import (
    Plan,
    RaceVerdict,
    RunPlan,
    decisive_share,
    match_counts,
    race_verdict,
    read_run,
    run_options,
)
from core.lab.perturb import fit, joint_test, movable
from core.lab.playtest.config import Config, load_ruleset, new_game
from core.lab.playtest.game import replayed_lead_changes
from core.lab.playtest.summary import SeatTallies, summarize
from core.lab.playtest.summary import compare as compare_tests
from core.lab.report import render as render_playtest
from core.lab.report import write_report
from core.lab.skill import SeatLevel, trend_test
from core.protocol import TunableField

#: the command that regenerates every table (printed beside each)
COMMAND = "python benchmarks/longrun.py report"
#: the two games' comparison page, beside the report
COMPARE_PAGE = "compare.html"

#: how the seat curve's games are played (the HTML page's first note)
SEAT_NOTE = (
    "Each level plays itself (the same level in both seats, noise on), each on seeds of its own; every set-up is "
    "played twice, the two agents swapping seats."
)

#: why the trend test's assumption holds here (the seat page prints it under each curve)
INDEPENDENT_NOTE = (
    "each level is played on seeds of its own, so the levels are independent samples, as the trend test assumes"
)

#: a rule set's skill levels, weakest first (the seat curve's order)
LEVEL_ORDER = ("ai:easy", "ai:normal", "ai:hard")


def pct(x: float | None) -> str:
    return "–" if x is None else f"{100 * x:.1f}%"


def interval(k: int, n: int) -> str:
    if n == 0:
        return "–"
    lo, hi = stats.wilson_interval(k, n)
    return f"{pct(k / n)} [{pct(lo)}, {pct(hi)}]"


def table(header: Sequence[str], rows: Iterable[Sequence[Any]]) -> list[str]:
    """A Markdown table."""
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(" ---: " for _ in header) + "|"]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return lines


#: each run's stored games, read once for all the tables (run name -> games)
Held = Mapping[str, Sequence[dict[str, Any]]]


def _runs(plan: Plan, group: str) -> list[RunPlan]:
    return [r for r in plan.runs if r.group == group]


# ---------------------------------------------------------------------------
# The seat curve
# ---------------------------------------------------------------------------


def seat_level(run: RunPlan, games: Sequence[dict[str, Any]]) -> SeatLevel:
    """The first seat's (seat index 0, the starting player's) sole wins, the others' and the ties."""
    first = sum(1 for g in games if g["winners"] == [0])
    ties = sum(1 for g in games if len(g["winners"]) != 1)
    return SeatLevel(run.label or run.name, 0, len(games), first, len(games) - first - ties, ties)


def seat_curves(plan: Plan, held: Held, root: Path) -> list[dict[str, Any]]:
    """One curve per rule set on the data its seat curve plays, then one per data file confirmed at the same
    levels (the confirmation runs: the seat curve of a candidate, on seeds of its own): its levels weakest first,
    each level's share, and the trend test."""
    curves = []
    for rules in dict.fromkeys(r.rules for r in _runs(plan, "seat curve")):
        runs = [r for r in _runs(plan, "seat curve") if r.rules == rules]
        title = f"{load_ruleset(rules).title}, {rebalance.data_name(rules, runs[0].reference, root)}"
        curves.append(_curve(rules, title, runs, held))
    for data, runs in confirmation_runs(plan).items():
        if data and any(held[r.name] for r in runs):
            changed = rebalance.data_changes(runs[0].rules, data, root, runs[0].reference)
            title = f"{load_ruleset(runs[0].rules).title}, {', '.join(changed) or data}"
            curves.append(_curve(runs[0].rules, title, runs, held))
    return curves


def _curve(rules: str, title: str, runs: Sequence[RunPlan], held: Held) -> dict[str, Any]:
    def rank(run: RunPlan) -> int:
        return LEVEL_ORDER.index(run.label) if run.label in LEVEL_ORDER else len(LEVEL_ORDER)

    levels = [seat_level(run, held[run.name]) for run in sorted(runs, key=rank)]
    return {
        "rules": rules,
        "title": title,
        "noise": None,
        "target_zone": list(rebalance.TARGETS["ai:normal"]),
        "level_zones": {level: list(zone) for level, zone in rebalance.TARGETS.items()},
        "levels": [lv.to_dict() for lv in levels],
        "trend": trend_test(levels),
        "paired": INDEPENDENT_NOTE,
    }


def seat_lines(plan: Plan, curves: Sequence[dict[str, Any]]) -> list[str]:
    lines = ["## The first seat's share by level of play", ""]
    for run in _runs(plan, "seat curve"):
        lines.append(f"- {run.label}: {run.question} ({run.games} games asked).")
    lines.append("")
    for curve in curves:
        rows = []
        for lv in curve["levels"]:
            p = lv["test"]["p_value"]
            rows.append(
                [
                    lv["level"],
                    lv["games"],
                    lv["ties"],
                    f"{lv['first_wins']} of {lv['decisive']}",
                    interval(lv["first_wins"], lv["decisive"]),
                    seat_report.zone_text(seat_report.zone_of(curve, lv["level"])),
                    f"{p:.3g}",
                ]
            )
        header = ["level", "games", "ties", "seat 1 won", "seat 1's share of decisive games [95% CI]"]
        header += ["target", "p (50%)"]
        lines += [f"**{curve['title']}**", "", *table(header, rows), ""]
        trend = curve["trend"]
        if trend["test"] is not None:
            lines.append(
                f"Trend across levels: {100 * trend['change']:+.1f} points from the weakest level to the strongest "
                f"(Cochran-Armitage, p={trend['test']['p_value']:.3g})."
            )
            lines.append("")
    return lines


# ---------------------------------------------------------------------------
# Buildings: how often built, and how often their owner won
# ---------------------------------------------------------------------------


def building_rows(games: Sequence[dict[str, Any]]) -> list[list[Any]]:
    """Per building: the games it was built in, and its owner's wins among them, the most built first."""
    counts = rebalance.building_counts(games)
    n = len(games)
    rows = []
    for name in sorted(counts, key=lambda b: (-counts[b][0], b)):  # a fixed order (sets iterate by hash)
        built, won = counts[name]
        rows.append([name, f"{built} ({pct(built / n)})", interval(won, built)])
    return rows


def building_lines(plan: Plan, held: Held) -> list[str]:
    lines = ["## Buildings at each level", ""]
    for run in _runs(plan, "seat curve"):
        games = held[run.name]
        if not games:
            continue
        lines += [f"**{run.label}** ({len(games)} games)", ""]
        lines += table(["building", "built in", "its owner won [95% CI]"], building_rows(games))
        lines.append("")
    return lines


# ---------------------------------------------------------------------------
# Matches and skill steps: the first agent of the run against the second
# ---------------------------------------------------------------------------


def agent_tallies(agents: int, games: Sequence[dict[str, Any]], agent: int) -> dict[str, str]:
    """Per tally the game declares (the base game's loans taken), in ``games`` of ``agents`` agents: a game
    for ``agent`` and for the others, and the games ``agent`` did not win among those it took any in and among
    those it took none in (what the tally cost it: the two rates side by side)."""
    counts = SeatTallies(agents)
    for g in games:
        counts.add(g)
    not_won = sum(1 for g in games if g["seat_agents"].index(agent) not in g["winners"])
    out = {}
    for name, rows in counts.summary([str(i) for i in range(agents)]).items():
        mine = rows[agent]
        others = sum(r["total"] for i, r in enumerate(rows) if i != agent) / max(1, len(games))
        without = f"{not_won - mine['lost_games']} of {len(games) - mine['games']}"
        out[name] = f"{mine['per_game']:.2f} / {others:.2f} ({mine['lost_games']} of {mine['games']}; {without})"
    return out


def games_of(run: RunPlan, games: Sequence[dict[str, Any]]) -> str:
    """ "12 of 20" ("20 of 40, played on: undecided after 20" once a match is extended; "(40 if undecided)"
    before it is decided whether it will be)."""
    asked = run.asked(games)
    said = f"{len(games)} of {asked}"
    if run.extend is None:
        return said
    if asked > run.games:
        return f"{said} (played on: undecided after {run.games})"
    if len(games) < run.games:
        return f"{said} ({run.extend.to} if undecided)"
    return said


def match_lines(plan: Plan, held: Held, group: str, title: str, agent: int) -> list[str]:
    runs = _runs(plan, group)
    if not runs:
        return []
    rows = []
    tallies = [agent_tallies(len(run.agents), held[run.name], agent) for run in runs]
    names = sorted({name for t in tallies for name in t})
    for run, counted in zip(runs, tallies, strict=True):
        games = held[run.name]
        w, t, losses = match_counts(games, agent)
        rows.append(
            [run.label or run.name, games_of(run, games), f"{w}-{t}-{losses}", interval(w, w + losses)]
            + [counted.get(name, "–") for name in names]
            + [load_said(games)]
        )
    header = ["match", "games", "W-T-L", "share of decisive games [95% CI]"]
    header += [
        f"{name} a game: W-T-L's agent / other (its games not won: of those with any; without)" for name in names
    ]
    header += ["load, 1 min (median, range)"]
    lines = [f"## {title}", ""]
    lines += [f"- {run.label}: {run.question}." for run in runs]
    return [*lines, "", *table(header, rows), ""]


def depth_lines(plan: Plan, held: Held) -> list[str]:
    """Which game rewards search more: the larger budget's share of decisive games at the step both games play
    (the same two agents), the two games' shares compared by the two-proportion z test."""
    steps: dict[tuple[str, ...], dict[str, RunPlan]] = defaultdict(dict)
    for run in _runs(plan, "skill depth"):
        steps[run.agents][run.rules] = run
    lines = []
    for agents, by_rules in steps.items():
        if len(by_rules) != 2:
            continue
        (ra, a), (rb, b) = sorted(by_rules.items())
        (wa, _, la), (wb, _, lb) = (match_counts(held[r.name], 1) for r in (a, b))
        ta, tb = (load_ruleset(r).title for r in (ra, rb))
        step = f"{agents[0]} -> {agents[1]}"
        if not (wa + la and wb + lb):
            lines.append(
                f"Which game rewards search more: not known yet (the step both play, {step}, has "
                f"{len(held[a.name])} {ta} and {len(held[b.name])} {tb} games)."
            )
            continue
        test = stats.two_proportion_z_test(wa, wa + la, wb, wb + lb)
        said = (
            f"At the step both games play ({step}), the larger budget won {pct(wa / (wa + la))} of {wa + la} decisive "
            f"{ta} games and {pct(wb / (wb + lb))} of {wb + lb} decisive {tb} games (two-proportion z test, "
            f"p={test.p_value:.2g}): "
        )
        if test.p_value < 0.05:
            more = ta if wa / (wa + la) > wb / (wb + lb) else tb
            lines.append(said + f"{more} rewards search more.")
        else:
            lines.append(said + "the data cannot tell which game rewards search more.")
    return [*lines, ""] if lines else []


# ---------------------------------------------------------------------------
# The two games compared
# ---------------------------------------------------------------------------


#: the games each side of the two games' comparison counts: the first of each run (both seats of each set-up)
COMPARED_GAMES = 100


def compared_runs(plan: Plan) -> list[RunPlan]:
    """The runs the two games are compared by: the base game's mirror and the Inland Port's ai:easy seat curve."""
    return _runs(plan, "games compared") + [r for r in _runs(plan, "seat curve") if r.label == "ai:easy"]


def playtest_record(run: RunPlan, record: dict[str, Any], root: Path) -> dict[str, Any]:
    """A stored game as a playtest's summary reads it: its seconds, its seed, and its lead changes (replayed
    from its actions for a game stored without them)."""
    out = record | {"seconds": float(record["wall"]), "seed": record["setup_seed"]}
    if "lead_changes" not in record:
        state = new_game(run.rules, run_options(run, root), int(record["setup_seed"]))
        out["lead_changes"] = replayed_lead_changes(state, record["actions"])
    return out


#: one side of the two games' comparison: its run, the games it counts and their summary
Compared = tuple[RunPlan, list[dict[str, Any]], dict[str, Any]]


def compared_sides(plan: Plan, held: Held, root: Path) -> list[Compared]:
    """Each compared run's first :data:`COMPARED_GAMES` games and their summary
    (:func:`core.lab.playtest.summary.summarize`)."""
    out = []
    for run in compared_runs(plan):
        games = sorted(held[run.name], key=lambda g: int(g["index"]))[:COMPARED_GAMES]
        name = run.label if run.group == "games compared" and run.label else load_ruleset(run.rules).title
        config = Config(run.rules, run.agents, dict(run.options), name, run.noise)
        out.append((run, games, summarize(config, (playtest_record(run, g, root) for g in games))))
    return out


def compared_row(games: Sequence[dict[str, Any]], summary: dict[str, Any]) -> list[Any]:
    n = summary["games"]
    m = summary["measures"]

    def mean(key: str) -> str:
        value = m[key]["mean"]
        return "–" if value is None else f"{value:.2f}"

    ties = summary["ties"]["count"]
    return [
        summary["label"],
        n,
        interval(summary["seats"][0]["count"], summary["first_seat"]["decisive"]),
        f"{ties} ({pct(ties / n) if n else '–'})",
        f"{sum(g['decisions'] for g in games) / n:.0f}" if n else "–",
        mean("decisiveness"),
        mean("drama"),
        mean("lead_change_rate"),
    ]


def _comparable(sides: Sequence[Compared]) -> bool:
    """Two sides, each with games: the comparison's page and tests can be made."""
    return len(sides) == 2 and all(games for _, games, _ in sides)


def compared_lines(sides: Sequence[Compared]) -> list[str]:
    if not sides:
        return []
    rows = [compared_row(games, summary) for _, games, summary in sides]
    header = [
        "game (ai:easy mirror, noise 2)",
        "games",
        "seat 1's share of decisive games [95% CI]",
        "ties",
        "decisions",
        "decisiveness",
        "drama (francs)",
        "lead changes per decision",
    ]
    said = "; ".join(f"{r.label or r.name}: {len(g)} of the run {r.name}" for r, g, _ in sides)
    lines = ["## The two games side by side", "", f"Each side's first {COMPARED_GAMES} games ({said}).", ""]
    lines += [*table(header, rows), ""]
    if _comparable(sides):
        lines += [f"The whole comparison, with its tests (Holm-corrected over their family): `{COMPARE_PAGE}`.", ""]
    return lines


# ---------------------------------------------------------------------------
# Which numbers move the seat balance
# ---------------------------------------------------------------------------

#: how many numbers each perturbation table lists (the clearest effects first)
EFFECTS_SHOWN = 12


def perturbation_lines(plan: Plan, held: Held, root: Path) -> list[str]:
    runs = [(r, r.perturb) for r in plan.runs if r.perturb is not None]
    if not runs:
        return []
    lines = ["## Which numbers move the first seat's share", "", JOINT_NOTE, ""]
    for run, spec in runs:
        games = held[run.name]
        lines += [f"**{run.label or run.name}**: {run.question} ({len(games)} of {run.games} games).", ""]
        if len(games) < 2:
            continue
        base = run_options(run, root).get("buildings")
        fields = movable(load_ruleset(run.rules), base, spec)
        intercept, effects = fit(games, fields, spec.step)
        rows = [
            [e.key, e.value, f"{100 * e.effect:+.1f}", f"{100 * e.stderr:.1f}", f"{e.z:+.1f}", e.moved]
            for e in sorted(effects, key=lambda e: -abs(e.z))[:EFFECTS_SHOWN]
        ]
        lines.append(f"Seat 1's score (a tie counts half) at the unperturbed data, as fitted: {pct(intercept)}.")
        lines.append("")
        header = ["number", "today", "points per step up", "standard error", "z", "games it moved in"]
        lines += [*table(header, rows), "", *joint_lines(games, fields, spec.step, "Every number together"), ""]
    return lines + pooled_joint_lines(plan, held, root)


JOINT_NOTE = (
    "Under each table, *every number together*: the least-squares fit's R² and the F test that no number moves the "
    "first seat's score (approximate, as a score is 0, 1/2 or 1); a p well above 5% says that the numbers' moves, all "
    "together, explain the games no better than chance would."
)


def joint_lines(games: Sequence[dict[str, Any]], fields: Sequence[TunableField], step: int, what: str) -> list[str]:
    test = joint_test(games, fields, step)
    return [] if test is None else [f"{what}: {test.describe()}."]


def pooled_joint_lines(plan: Plan, held: Held, root: Path) -> list[str]:
    """The joint test of every perturbed run of a level (and step) together, where there are two or more."""
    groups: dict[tuple[str, str, int], list[RunPlan]] = defaultdict(list)
    for run in plan.runs:
        if run.perturb is not None:
            groups[(run.rules, rebalance.run_level(run), run.perturb.step)].append(run)
    lines = []
    for (_, level, step), grouped in groups.items():
        runs = [r for r in grouped if held[r.name]]
        if len(runs) < 2:
            continue
        games = [g for r in runs for g in held[r.name]]
        fields = rebalance.run_fields(runs[0], root)
        what = f"All {len(games)} perturbed games at {level} together ({' + '.join(r.name for r in runs)})"
        lines += [*joint_lines(games, fields, step, what), ""]
    return lines


def write_reports(plan: Plan, store: Path, out: Path, root: Path) -> list[Path]:
    """Write ``report.md`` and ``seats.html`` into ``out`` from the store alone (data file paths in the
    plan are relative to ``root``); the paths written."""
    held = {run.name: read_run(store, run) for run in plan.runs}  # each file read once
    curves = seat_curves(plan, held, root)
    compared = compared_sides(plan, held, root)
    lines = [
        "# The long measurements",
        "",
        f"Every table below is made from the committed store by `{COMMAND}`; the games are played by",
        "`python benchmarks/longrun.py play` (one process, node budgets, no time cap: the machine's load changes",
        "how long a game takes, never the game). Seat 1 is the starting player. Intervals are 95% Wilson intervals.",
        "",
        *seat_lines(plan, curves),
        *match_lines(plan, held, "match", "The AI against its peers", 0),
        *match_lines(plan, held, "skill depth", "Skill depth: the larger budget against the smaller", 1),
        *depth_lines(plan, held),
        *compared_lines(compared),
        *perturbation_lines(plan, held, root),
        *rebalance_lines(plan, held, root),
        *building_lines(plan, held),
        *cost_lines(plan, held),
    ]
    out.mkdir(parents=True, exist_ok=True)
    # the pages say what they are made from, not when: the same store makes the same pages
    made = f"from the store's {sum(len(games) for games in held.values()):,} games"
    report = out / "report.md"
    report.write_text("\n".join(lines) + "\n", encoding="utf-8")
    html = write_report(out / "seats.html", seat_report.render(curves, [COMMAND], note=SEAT_NOTE, made=made))
    written = [report, html]
    if _comparable(compared):
        a, b = (summary for _, _, summary in compared)
        title = f"The two games compared: {a['label']} vs {b['label']}"
        page = render_playtest([a, b], compare_tests(a, b), title=title, commands=[COMMAND], made=made)
        written.append(write_report(out / COMPARE_PAGE, page))
    return written


def cost_lines(plan: Plan, held: Held) -> list[str]:
    """What each run's games cost: CPU and wall seconds a game, and the machine's load while they were played
    (the games themselves do not depend on it: node budgets)."""
    rows = []
    for run in plan.runs:
        games = held[run.name]
        if not games:
            continue
        cpu = stats.describe([float(g["cpu"]) for g in games if "cpu" in g])
        wall = stats.describe([float(g["wall"]) for g in games])
        rows.append([run.name, len(games), _median(cpu), _median(wall), load_said(games)])
    if not rows:
        return []
    header = ["run", "games", "CPU s a game (median)", "wall s a game (median)", "load, 1 min (median, range)"]
    note = (
        "The machine's load is the 1-minute load average at each game's end, recorded since the store began "
        "keeping it (a run played before shows –); a 2-core machine shared with other work."
    )
    return ["## What the games cost", "", note, "", *table(header, rows), ""]


def load_said(games: Sequence[dict[str, Any]]) -> str:
    """The machine's 1-minute load average at the end of ``games``: "2.02 (1.95-3.01), 40 games" (median,
    range and how many games recorded it), or "–" where none did."""
    loads = [float(g["load"]) for g in games if "load" in g]
    if not loads:
        return "–"
    load = stats.describe(loads)
    return f"{load['median']:.2f} ({load['min']:.2f}-{load['max']:.2f}), {len(loads)} games"


def _median(described: dict[str, float | None]) -> str:
    value = described["median"]
    return "–" if value is None else f"{value:.1f}"


# ---------------------------------------------------------------------------
# The rebalance: candidates from the fits, and their confirmation
# ---------------------------------------------------------------------------

REBALANCE_NOTE = (
    "Each search (a pair of perturbed runs, one at ai:easy and one at ai:normal, on seeds of its own) predicts, for "
    f"every change of 1 to {rebalance.MOST} numbers, each moved one or two of the runs' steps either way, the first "
    "seat's share of decisive games at both levels: linear, from that level's fit (today's data plus each moved "
    "number's effect times its steps, turned into a share of decisive games with the run's tie rate), ± the "
    "prediction's standard error (the fitted intercept's and the moved effects' errors, taken as independent). "
    f"Only numbers whose effect has |z| >= {rebalance.MIN_Z:g} at some level are moved, so that a candidate does not "
    "chase noise. A candidate qualifies when both predictions lie in their target bands ("
    + ", ".join(f"{level} {100 * lo:.0f}-{100 * hi:.0f}%" for level, (lo, hi) in rebalance.TARGETS.items())
    + ") with a standard error of at most half the band's width (a less precise fit cannot tell the band from "
    "outside it); qualifying candidates are ranked by fewest changed numbers, then by the worst level's distance from 50% "
    "plus its standard error (smaller first); when none qualifies, the closest to the bands is shown first. "
    "`python benchmarks/longrun.py propose` writes each search's best qualifying candidate as a data file and prints "
    "the runs that confirm it, on seeds no search used. With two searches or more, the *pooled* search fits every "
    "search's games at each level together, in units of the smallest step (the fit is linear in each number's "
    "change, so a wider step's game is a row with a larger change), and adds every game played on known data with "
    "the same agents: the seat curve's (rows at today's data: they pin today's share) and the races' and "
    "confirmations' (rows at their candidate's changes: a raced number's effect is then what its games showed, "
    "not only what the perturbations suggested). These are the most precise fits; the searches alone say whether "
    "they agree. "
    f"A building built in fewer than {100 * rebalance.BUILT_AT_LEAST:.0f}% of today's {rebalance.FLOOR_LEVEL} games "
    "(the seat curve's) cannot meet its target whatever the seats do, so every candidate also lowers its largest cost "
    "that may move by one of the search's steps; the search's perturbed games say how often it was built at each "
    "value of that cost."
)


def predicted(p: rebalance.Prediction) -> str:
    return f"{pct(p.share)} ± {100 * p.stderr:.1f}"


def proposal_lines(proposals: Sequence[rebalance.Proposal]) -> list[str]:
    """Each search's fits at today's data and its best candidates."""
    lines: list[str] = []
    for prop in proposals:
        held = "; ".join(lv.held() for lv in prop.levels)
        if prop.waiting:
            lines += [f"**Search {prop.search}**: nothing proposed yet: {prop.waiting}.", ""]
            continue
        today = rebalance.Candidate((), tuple(rebalance.predict(lv, ()) for lv in prop.levels))
        levels = [lv.level for lv in prop.levels]
        chance = rebalance.expected_by_chance(len(prop.fields), len(prop.levels), prop.min_z)
        lines += [
            f"**Search {prop.search}** ({held}): {len(prop.clear)} of {len(prop.fields)} numbers clear enough to move "
            f"(numbers without any effect would give {chance:.1f} by chance). "
            "Today's data, as fitted: " + ", ".join(f"{p.level} {predicted(p)}" for p in today.predictions) + ".",
            "",
        ]
        lines += [f"- {floor.describe()}." for floor in prop.floors] + ([""] if prop.floors else [])
        rows = [
            [i, c.describe(), *(predicted(p) for p in c.predictions), "yes" if c.qualifies else "no"]
            for i, c in enumerate(prop.candidates, 1)
        ]
        lines += [*table(["rank", "numbers changed", *(f"{lv} predicted" for lv in levels), "qualifies"], rows), ""]
        if prop.race:
            lines += [f"Raced if none qualifies: {'; '.join(c.describe() for c in prop.race)}.", ""]
        best = prop.best
        if best is None:
            lines += ["No number is clear enough to move: nothing to propose.", ""]
        elif not best.qualifies:
            vague = [f"{p.level} ± {100 * p.stderr:.1f}" for p in best.predictions if not p.precise]
            why = f" (too imprecise to tell: {', '.join(vague)})" if vague else ""
            lines += [
                f"No change of up to {prop.most} clear numbers is predicted to put both levels in their bands "
                f"with a standard error of at most half the band's width; the closest: {best.describe()}{why}.",
                "",
            ]
    return lines


def agreement_lines(proposals: Sequence[rebalance.Proposal]) -> list[str]:
    """Whether the searches agree: each best candidate predicted by the other searches' fits."""
    fitted = [p for p in proposals if p.best is not None]
    if len(fitted) < 2:
        return []
    lines = ["Do the searches agree? Each search's best candidate, predicted by the other searches' fits:", ""]
    for prop in fitted:
        assert prop.best is not None
        for other in fitted:
            seen = rebalance.cross_check(prop.best, other) if other is not prop else None
            if seen is not None:
                said = ", ".join(f"{p.level} {predicted(p)}" for p in seen.predictions)
                verdict = "qualifies" if seen.qualifies else "does not qualify"
                lines.append(
                    f"- search {prop.search}'s best ({prop.best.describe()}), on search {other.search}'s fits: {said}: {verdict}."
                )
    same = {tuple(sorted(p.best.changes.items())) for p in fitted if p.best is not None}
    lines += [
        "",
        "The searches' best candidates are " + ("the same change." if len(same) == 1 else "different changes."),
        "",
    ]
    return lines


def building_check(games: Sequence[dict[str, Any]], names: Iterable[str]) -> tuple[list[str], list[str]]:
    """The buildings (of ``names``) built in fewer than :data:`~core.lab.rebalance.BUILT_AT_LEAST` of ``games``,
    and those whose owner won more than :data:`~core.lab.rebalance.OWNER_WINS_AT_MOST` of the games they were built
    in (each with its share)."""
    counts = rebalance.building_counts(games)
    rare = [f"{b} {pct(share)}" for b, share in rare_buildings(games, names).items()]
    strong = [
        f"{b} {pct(w / k)} of {k}" for b, (k, w) in sorted(counts.items()) if k and w / k > rebalance.OWNER_WINS_AT_MOST
    ]
    return rare, strong


def built_shares(games: Sequence[dict[str, Any]], names: Iterable[str]) -> dict[str, float]:
    """Each building of ``names``: the share of ``games`` it was built in."""
    counts = rebalance.building_counts(games)
    n = max(1, len(games))
    return {b: counts.get(b, (0, 0))[0] / n for b in sorted(names)}


def rare_buildings(games: Sequence[dict[str, Any]], names: Iterable[str]) -> dict[str, float]:
    """The buildings (of ``names``) built in fewer than :data:`~core.lab.rebalance.BUILT_AT_LEAST` of ``games``:
    name -> the share of the games they were built in."""
    return under_floor(built_shares(games, names))


def under_floor(built: dict[str, float]) -> dict[str, float]:
    """Of ``built`` (building -> the share of games it was built in), those under the floor."""
    return {b: share for b, share in built.items() if share < rebalance.BUILT_AT_LEAST}


#: the two levels whose shares the gap compares (the stronger first)
GAP_LEVELS = ("ai:normal", "ai:easy")


def gap_limits() -> tuple[float, float]:
    """The gaps (the stronger level's share less the weaker's) at which both levels can lie in their bands."""
    (n_lo, n_hi), (e_lo, e_hi) = (rebalance.TARGETS[level] for level in GAP_LEVELS)
    return n_lo - e_hi, n_hi - e_lo


def level_games(plan: Plan, held: Held) -> dict[tuple[str, str], dict[str, list[dict[str, Any]]]]:
    """The games played on known data at each level of :data:`GAP_LEVELS`, by rule set and data file ("" for
    today's): the seat curve's, the races' and the confirmations' (each on seeds of its own, so independent
    samples)."""
    out: dict[tuple[str, str], dict[str, list[dict[str, Any]]]] = defaultdict(lambda: defaultdict(list))
    for run in plan.runs:
        if run.label in GAP_LEVELS and run.perturb is None and run.group in rebalance.KNOWN_GROUPS:
            out[run.rules, str(run.options.get("buildings") or "")][run.label] += held[run.name]
    return out


GAP_NOTE = (
    "Both levels can lie in their bands only when the first seat's share at {strong} exceeds its share at {weak} by "
    "{lo:+.0f} to {hi:+.0f} points (the bands' edges). The gap below, for today's data and each data file played at "
    "both levels (every game so far, races and confirmations alike), says whether a change of the numbers narrows "
    "it: if none does, no change of these numbers can even both levels, whatever it does to either alone. Intervals: "
    "Newcombe's, for the difference of two independent shares."
)


def gap_lines(plan: Plan, held: Held, root: Path) -> list[str]:
    """The gap between the levels' shares, per data file played at both, against the gap the bands allow."""
    strong, weak = GAP_LEVELS
    lo, hi = gap_limits()
    rows, outside, inside, pairs = [], 0, 0, []
    for (rules, data), by_level in level_games(plan, held).items():
        (fs, ds), (fw, dw) = (decisive_share(by_level[level]) for level in GAP_LEVELS)
        if not ds or not dw:
            continue
        pairs.append((fs, ds, fw, dw))
        g_lo, g_hi = stats.difference_interval(fs, ds, fw, dw)
        outside += g_lo > hi or g_hi < lo
        inside += lo <= g_lo and g_hi <= hi
        reference = plan.data.get(rules)
        changed = rebalance.data_changes(rules, data or None, root, reference) if data else []
        gap = fs / ds - fw / dw
        rows.append(
            [
                ", ".join(changed) or f"none: {rebalance.data_name(rules, reference, root)}",
                f"{pct(fw / dw)} of {dw}",
                f"{pct(fs / ds)} of {ds}",
                f"{100 * gap:+.1f} [{100 * g_lo:+.1f}, {100 * g_hi:+.1f}]",
                "inside" if lo <= gap <= hi else "outside",
            ]
        )
    if not rows:
        return []
    header = ["numbers changed", f"{weak} share", f"{strong} share", "gap, points [95% CI]", "allowed gap"]
    note = GAP_NOTE.format(strong=strong, weak=weak, lo=100 * lo, hi=100 * hi)
    said = (
        f"Of {len(rows)} data files played at both levels, the gap's whole interval lies outside {100 * lo:+.0f} to "
        f"{100 * hi:+.0f} for {outside}, inside for {inside}; for {len(rows) - outside - inside} the games cannot "
        "place it yet."
    )
    return ["**The gap between the levels**", "", note, "", *table(header, rows), "", said, *pooled_gap(pairs), ""]


def pooled_gap(pairs: Sequence[tuple[int, int, int, int]]) -> list[str]:
    """The gap pooled over every data file (a fixed-effect meta-analysis) and whether the files share one gap."""
    pooled = stats.pooled_difference(pairs)
    if pooled is None or pooled.df < 1:
        return []
    lo, hi = gap_limits()
    if pooled.low > hi or pooled.high < lo:
        verdict = (
            f"its interval lies wholly outside {100 * lo:+.0f} to {100 * hi:+.0f}: if the data files share one gap, "
            "no change of the numbers tried so far evens both levels"
        )
    else:
        verdict = f"its interval reaches into {100 * lo:+.0f} to {100 * hi:+.0f}"
    share = "no sign that they differ" if pooled.p_value >= stats.ALPHA else "they differ"
    return [
        "",
        f"Pooled over the {pooled.df + 1} data files (inverse-variance weights, Agresti-Caffo variances): "
        f"{100 * pooled.estimate:+.1f} points [{100 * pooled.low:+.1f}, {100 * pooled.high:+.1f}]; {verdict}. "
        f"Do the data files share one gap? Cochran's Q = {pooled.q:.2f} on {pooled.df} "
        f"degree{'s' if pooled.df > 1 else ''} of freedom, "
        f"p = {pooled.p_value:.3g}: {share}.",
    ]


def confirmation_runs(plan: Plan) -> dict[str, list[RunPlan]]:
    """The runs that judge a data file against the targets: today's data (the seat curve) and each candidate."""
    out: dict[str, list[RunPlan]] = defaultdict(list)
    for run in plan.runs:
        if run.label in rebalance.TARGETS and run.group in ("seat curve", rebalance.CONFIRMATION):
            out[str(run.options.get("buildings") or "")].append(run)
    return dict(out)


def target_verdict(run: RunPlan, games: Sequence[dict[str, Any]]) -> tuple[list[Any], str, bool]:
    """A confirmation table row, its verdict line's part and whether the target is met."""
    lo, hi = rebalance.TARGETS[run.label]
    band = f"{100 * lo:.0f}-{100 * hi:.0f}%"
    first, decisive = decisive_share(games)
    met = decisive > 0 and lo <= first / decisive <= hi
    word = "met" if met else "not met" if decisive else "no games" if run.stopped else "no games yet"
    count = f"{len(games)} of {run.games}"
    row = [run.label, count, interval(first, decisive), band, word]
    if decisive:
        late = "" if len(games) >= run.games else f", stopped: {run.stopped}" if run.stopped else ", so far"
        figure = f" ({interval(first, decisive)}, {count} games{late})"
    else:
        figure = f" (stopped: {run.stopped})" if run.stopped else ""
    return row, f"{run.label} {band}: {word}{figure}", met


@dataclass(frozen=True)
class Judged:
    """One data file judged against every target: its confirmation runs (the seat curve's for today's data),
    the table's rows, a verdict per target, and whether every target is met on every run played to its end."""

    data: str
    #: the data as the report names it (the file, or the runs' reference when they name none)
    name: str
    runs: tuple[RunPlan, ...]
    changed: tuple[str, ...]
    rows: tuple[tuple[Any, ...], ...]
    said: tuple[str, ...]
    every: bool
    #: every target but the building floor is met on every run played to its end
    shares_and_owners: bool = False
    #: each building's share of its ai:normal games built in (none before they are played)
    built: dict[str, float] = field(default_factory=dict)
    #: its numbers are today's default data (an adopted candidate)
    default: bool = False

    @property
    def rare(self) -> dict[str, float]:
        """The buildings under the floor, with their shares."""
        return under_floor(self.built)

    def line(self) -> str:
        name = self.name
        if self.data:
            whole = "confirmed" if self.every else "not confirmed"
            whole += "; its numbers are the default data today (adopted)" if self.default else ""
        else:
            whole = "meets every target" if self.every else "does not meet every target"
        head = f"- **{name}** ({', '.join(self.changed) if self.changed else 'no number changed'}): {whole}. "
        return head + "; ".join(self.said) + "."


def judge(plan: Plan, held: Held, root: Path) -> list[Judged]:
    """Each data file with runs that judge it (:func:`confirmation_runs`), against every target."""
    out = []
    for data, runs in confirmation_runs(plan).items():
        name = data or rebalance.data_name(runs[0].rules, runs[0].reference, root)
        ordered = sorted(runs, key=lambda r: rebalance.CONFIRM_LEVELS.index(r.label))
        rows, said, met = [], [], []
        for run in ordered:
            row, verdict, ok = target_verdict(run, held[run.name])
            rows.append((name, *row))
            said.append(verdict)
            met.append(ok and len(held[run.name]) >= run.games)
        buildings = _building_verdicts(runs, held, root)
        played = all(met) and len(runs) == len(rebalance.CONFIRM_LEVELS)
        changed = tuple(rebalance.data_changes(runs[0].rules, data or None, root, runs[0].reference))
        out.append(
            Judged(
                data,
                name,
                tuple(ordered),
                changed,
                tuple(rows),
                (*said, *buildings.said),
                played and buildings.ok,
                played and buildings.owners_ok,
                buildings.built,
                bool(data) and rebalance.is_default(runs[0].rules, data, root),
            )
        )
    return out


def verdict_lines(plan: Plan, held: Held, root: Path) -> list[str]:
    """Each data file's confirmation: the targets' table, the building checks and a verdict per target."""
    judged = judge(plan, held, root)
    if not judged:
        return []
    lines = ["**Confirmation** (the first seat's share of decisive games on each data file, against the targets):", ""]
    header = ["data", "level", "games", "seat 1's share of decisive games [95% CI]", "target", "verdict"]
    rows = [list(row) for j in judged for row in j.rows]
    return [*lines, *table(header, rows), "", *(j.line() for j in judged), ""]


@dataclass(frozen=True)
class BuildingVerdict:
    """The building checks on a data file's ai:normal games: the sentences, each building's share of the games it
    was built in (none without games) and whether no owner wins too often."""

    said: tuple[str, ...]
    built: dict[str, float]
    owners_ok: bool

    @property
    def rare(self) -> dict[str, float]:
        """The buildings under the floor, with their shares."""
        return under_floor(self.built)

    @property
    def ok(self) -> bool:
        return bool(self.built) and not self.rare and self.owners_ok


def _building_verdicts(runs: Sequence[RunPlan], held: Held, root: Path) -> BuildingVerdict:
    """The building checks on the ai:normal run of ``runs``."""
    normal = next((r for r in runs if r.label == "ai:normal"), None)
    if normal is None or not held[normal.name]:
        return BuildingVerdict(("buildings: no ai:normal games yet",), {}, False)
    game = load_ruleset(normal.rules)
    data = run_options(normal, root).get("buildings")
    names = {f.entity for f in game.tuning.fields(data)} if game.tuning is not None else set()
    rare, strong = building_check(held[normal.name], names)
    said = (
        f"every building built in at least {pct(rebalance.BUILT_AT_LEAST)} of ai:normal games: "
        + ("met" if not rare else "not met (" + ", ".join(rare) + ")"),
        f"no building whose owner won more than {pct(rebalance.OWNER_WINS_AT_MOST)} of its games: "
        + ("met" if not strong else "not met (" + ", ".join(strong) + ")"),
    )
    return BuildingVerdict(said, built_shares(held[normal.name], names), not strong)


def rebalance_lines(plan: Plan, held: Held, root: Path) -> list[str]:
    proposals = rebalance.propose(plan, held, root)
    if not proposals:
        return []
    lines = ["## The rebalance", "", REBALANCE_NOTE, ""]
    lines += proposal_lines(proposals) + agreement_lines(proposals) + race_lines(plan, held, root)
    lines += gap_lines(plan, held, root)
    if not any(r.group == rebalance.CONFIRMATION for r in plan.runs):
        lines += ["No confirmation run is in the plan yet (`python benchmarks/longrun.py propose` prints them).", ""]
    return lines + verdict_lines(plan, held, root)


RACE_NOTE = (
    "When no candidate qualifies because a fit is too imprecise at some level (the ai:normal fits, whose games cost "
    "ten times the ai:easy ones), the games decide instead: the candidates that the precise fits of the search with "
    "the most games (the pooled search, with two searches or more: every search's games at each level in one fit) put "
    f"in their bands ({rebalance.RACE_CANDIDATES}, each changing different numbers: fewest numbers first, then the "
    "closest to the bands) are played like the seat curve, at "
    + " then ".join(rebalance.RACE_LEVELS)
    + ", on seeds of their own. A race run stops as soon as the first seat's share is clearly outside the level's "
    "band: a look after every "
    + " and ".join(f"{n} games at {lv}" for lv, n in rebalance.RACE_EVERY.items())
    + ", each look's interval at the z that shares a 5% chance of wrongly putting a candidate out among all the run's "
    "looks (Bonferroni); a candidate out at ai:easy is not played at ai:normal. The candidate that survives every "
    "level, fewest numbers first, is then confirmed on seeds no search used; when every raced candidate has failed, "
    "the next round races the three best the fits, now with the races' games, put in band, none raced before. "
    "`python benchmarks/longrun.py propose "
    "--race` writes the candidates' data files and prints their race runs; `propose --race --given "
    "'Pier.cost.food=10,Dock.cost.francs=8'` does so for a candidate of one's own (a designer's, or a race's "
    "lesson), saying which rarely built building it leaves alone."
)


def race_state(
    run: RunPlan,
    verdict: RaceVerdict,
    verdicts: Mapping[str, RaceVerdict | None],
    labels: Mapping[str, str],
    held: Held,
) -> str:
    """Where one race run stands, in words (``labels``: each race run's level, by name)."""
    if verdict.out:
        return f"out after {verdict.games} games"
    if verdict.done:
        return "survived; share in band" if verdict.inside else "ended outside its band"
    before = [n for n in run.race.unless_out if (v := verdicts.get(n)) is not None and v.failed] if run.race else []
    if before and not held[run.name]:
        return "not played: failed at " + ", ".join(labels[n] for n in before)
    return "in the race" if held[run.name] else "not played yet"


def race_lines(plan: Plan, held: Held, root: Path) -> list[str]:
    """The races: each candidate's runs, where each stands, and which candidates are still in."""
    raced = [r for r in plan.runs if r.group == rebalance.RACE and r.race is not None]
    if not raced:
        return []
    verdicts = {run.name: race_verdict(run, held[run.name]) for run in raced}
    labels = {run.name: run.label for run in raced}
    rows = []
    for run in raced:
        verdict = verdicts[run.name]
        assert verdict is not None and run.race is not None
        lo, hi = run.race.band
        changed = ", ".join(rebalance.data_changes(run.rules, run.options.get("buildings"), root, run.reference))
        changed = changed or "–"
        share = (
            f"{pct(verdict.first / verdict.decisive)} [{pct(verdict.low)}, {pct(verdict.high)}]"
            if verdict.decisive
            else "–"
        )
        games = f"{len(held[run.name])} of {run.games}"
        state = race_state(run, verdict, verdicts, labels, held)
        rows.append([changed, run.label, games, share, f"{100 * lo:.0f}-{100 * hi:.0f}%", state])
    header = ["numbers changed", "level", "games", "seat 1's share of decisive games [race interval]", "band", "state"]
    survivors = rebalance.race_survivors(plan, held, root)
    said = (
        "Survived every level (the first is confirmed next): "
        + "; ".join(f"{s.entrant.described} ({s.data})" for s in survivors)
        + "."
        if survivors
        else "No candidate has survived every level yet."
    )
    return ["**The race**", "", RACE_NOTE, "", *table(header, rows), "", said, ""]
