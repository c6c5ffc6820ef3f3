"""What a person reads of a review: the players' accuracy, an evaluation graph that fits 80
columns with the mistakes marked, the turning points and the labelled decisions with the better line."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console, Group, RenderableType
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table
from rich.text import Text

from cli import costs
from cli.console import SEAT_STYLES
from cli.explain import labelled_pv
from core.lab import review as rv
from core.lab.playtest import load_ruleset
from core.lab.review import Decision, GameReview
from core.protocol import GameState
from core.records import RecordError, data_dir, find_save, load_record

#: the mark under the graph for each label, and its style
MARKS = {"inaccuracy": ("·", "yellow"), "mistake": ("?", "dark_orange"), "blunder": ("x", "bold red")}
_RANKS = {"inaccuracy": 1, "mistake": 2, "blunder": 3}


def better_line(d: Decision, positions: Sequence[GameState], tag: Callable[[int], str], length: int = 6) -> str:
    """The better move and its expected line, each move with its player ('P1: build Farm  ->  P2: end')."""
    moves = labelled_pv(positions[d.index], list(d.pv[:length]), tag) if d.index < len(positions) else list(d.pv)
    return "  ->  ".join(moves) + (" ..." if len(d.pv) > length else "")


#: what the players table's columns mean, in one line under it
COLUMNS_MEANING = (
    "searched: the player's decisions the reference searched (one sensible move: not searched); "
    "mean lost: francs lost per searched decision against its best; accuracy: 100% for none lost, "
    "75% for 1 franc a decision, 56% for 2."
)


def players_table(review: GameReview) -> Table:
    table = Table(title="Francs lost against ai:" + review.level, title_justify="left", pad_edge=False)
    for col, just in (("player", "left"), ("searched", "right"), ("mean lost", "right"), ("accuracy", "right")):
        table.add_column(col, justify=just)  # type: ignore[arg-type]
    table.add_column("inacc./mist./blund.", justify="right")
    for row in review.summary():
        mean = "–" if row["mean_francs_lost"] is None else f"{row['mean_francs_lost']:.2f}"
        acc = "–" if row["accuracy"] is None else f"{row['accuracy']:.0f}%"
        table.add_row(
            Text(f"P{row['seat'] + 1} {row['player']}", style=SEAT_STYLES[row["seat"] % len(SEAT_STYLES)]),
            str(row["searched"]),
            mean,
            acc,
            f"{row['inaccuracy']}/{row['mistake']}/{row['blunder']}",
        )
    return table


def graph(review: GameReview, width: int = 80, rows: int = 3) -> RenderableType:
    """The evaluation of the whole game as bars around a zero line, ``rows`` lines up and down.

    With two players a bar up is the first seat ahead, down the second; each
    column is one or more decisions (the last one's value); under the bars, the
    worst label among a column's decisions.
    """
    values = review.curve()
    if not values:
        return Text("No decisions to show.", style="muted")
    n = len(values)
    cols = min(n, max(10, width - 8))
    buckets = [list(range(c * n // cols, (c + 1) * n // cols)) for c in range(cols)]
    span = max([abs(v) for v in values] + [1.0])
    lines: list[Text] = []
    for r in [*range(rows, 0, -1), 0, *range(-1, -rows - 1, -1)]:  # r > 0 above the zero line, r < 0 below
        label = {rows: f"+{span:.0f}", 0: "0", -rows: f"-{span:.0f}"}.get(r, "")
        line = Text(f"{label:>6} ", style="muted")
        if r == 0:
            line.append("─" * len(buckets), style="muted")
        for b in buckets if r != 0 else []:
            line.append(_cell(values[b[-1]], r, rows, span), style=_bar_style(values[b[-1]]))
        lines.append(line)
    marks = Text(" " * 7)
    for b in buckets:
        labels = [review.label(review.decisions[i]) for i in b]
        worst = max(labels, key=lambda x: _RANKS.get(x or "", 0))
        mark, style = MARKS.get(worst or "", (" ", ""))
        marks.append(mark, style=style)
    lines.append(marks)
    step = f"~{n / cols:.1f} a column" if cols < n else "one a column"
    who = (
        f"up: P1 ({review.players[0]}) ahead, down: P2 ({review.players[1]})"
        if review.num_players == 2
        else "the mover's view"
    )
    lines.append(Text(f"       decisions 1-{n}, {step}", style="muted"))
    lines.append(Text(f"       {who}", style="muted"))
    lines.append(Text("       marks: · inaccuracy  ? mistake  x blunder", style="muted"))
    return Group(*lines)


def _bar_style(v: float) -> str:
    return SEAT_STYLES[0] if v >= 0 else SEAT_STYLES[1]


def _cell(v: float, r: int, rows: int, span: float) -> str:
    """One character of a bar: row ``r`` counts from the zero line, up (r > 0) or down (r < 0)."""
    height = abs(v) / span * rows  # in rows
    if (v >= 0) != (r > 0):
        return " "
    filled = height - (abs(r) - 1)
    if filled >= 0.75:
        return "█"
    if filled >= 0.25:
        return "▄" if r > 0 else "▀"
    return " "


def decisions_table(
    review: GameReview,
    decisions: Sequence[Decision],
    positions: Sequence[GameState],
    tag: Callable[[int], str],
    title: str,
) -> Table:
    """Decisions with what they lost, their label and the better move with its line (and, under it,
    why that line is better, in a few words)."""
    table = Table(title=title, title_justify="left", pad_edge=False, show_lines=True)
    table.add_column("#", justify="right")
    table.add_column("played", ratio=2)
    table.add_column("lost", justify="right")
    table.add_column("better, and the expected line", ratio=3)
    for d in decisions:
        label = review.label(d) or ""
        _mark, style = MARKS.get(label, ("", ""))
        who = Text(f"{tag(d.seat)}: ", style=SEAT_STYLES[d.seat % len(SEAT_STYLES)])
        better = Text(better_line(d, positions, tag))
        why = rv.explain_better(positions[d.index], d) if d.index < len(positions) else ""
        if why:
            better.append(f"\nwhy: {why}", style="muted")
        table.add_row(str(d.index + 1), who + Text(d.played), Text(f"{d.lost:.1f}\n{label}", style=style), better)
    return table


def turning_points(review: GameReview, positions: Sequence[GameState], tag: Callable[[int], str]) -> RenderableType:
    points = review.turning_points()
    if not points:
        return Text("No decision lost anything against the reference: no turning points.", style="muted")
    return decisions_table(review, points, positions, tag, "The three biggest turning points")


def worst_of_the_others(review: GameReview) -> list[Decision]:
    """Each player's worst decision, for the players with none among the turning points (so that
    every player sees their own worst move on the summary)."""
    shown = {d.seat for d in review.turning_points()}
    out = []
    for seat in range(review.num_players):
        mine = [d for d in review.decisions if d.seat == seat and d.lost > 0 and seat not in shown]
        if mine:
            out.append(max(mine, key=lambda d: (d.lost, -d.index)))
    return out


def plural(n: int, word: str) -> str:
    """'1 blunder', '2 blunders', '1 inaccuracy', '3 inaccuracies'."""
    if n == 1:
        return f"1 {word}"
    return f"{n} {word[:-1]}ies" if word.endswith("y") else f"{n} {word}s"


def labelled_count(review: GameReview) -> str:
    """'12 labelled decisions (3 blunders, 4 mistakes, 5 inaccuracies)'."""
    labelled = review.labelled()
    counts = {name: sum(1 for d in labelled if review.label(d) == name) for name in reversed(rv.LABELS)}
    parts = ", ".join(plural(n, name) for name, n in counts.items() if n)
    return f"{plural(len(labelled), 'labelled decision')}" + (f" ({parts})" if parts else "")


def review_screen(
    review: GameReview,
    positions: Sequence[GameState],
    tag: Callable[[int], str],
    width: int,
    show_all: bool = True,
    more: str = "",
) -> Group:
    """The players, the graph and the turning points; then every labelled decision (``show_all``),
    or only each other player's worst decision and how to see the rest (``more``: the command)."""
    labelled = review.labelled()
    parts: list[RenderableType] = [
        players_table(review),
        Text(COLUMNS_MEANING, style="muted"),
        Text(
            f"Reference ai:{review.level} ({review.budget}); labels from {review.thresholds.describe()}.",
            style="muted",
        ),
        Text(""),
        graph(review, width),
        Text(""),
        turning_points(review, positions, tag),
    ]
    if not labelled:
        parts.append(Text("No decision lost enough to be labelled.", style="muted"))
    elif show_all:
        parts.append(decisions_table(review, labelled, positions, tag, f"Labelled decisions ({len(labelled)})"))
    else:
        others = worst_of_the_others(review)
        if others:
            parts.append(decisions_table(review, others, positions, tag, "The other players' worst decisions"))
        parts.append(Text(f"{labelled_count(review)}; every one with its better line: {more}", style="bold"))
    return Group(*parts)


# ---------------------------------------------------------------------------
# Finding, making and showing a review
# ---------------------------------------------------------------------------


@dataclass
class Reviewed:
    """A game to review: where it came from, its source, its players and final wealth."""

    title: str
    source: rv.GameSource
    players: list[str]
    final_wealth: list[int] | None


def reviews_dir() -> Path:
    """Where reviews are kept: ``reviews/`` in the data directory, one file per game digest."""
    return data_dir() / "reviews"


def from_save(name: str) -> Reviewed:
    path = find_save(name)
    record = load_record(path)
    if not record.actions:
        raise RecordError(f"{path}: the game has no actions yet; there is nothing to review")
    source = rv.GameSource(record.ruleset, record.options, record.seed, tuple(record.actions), record.data_digest)
    players = [record.seat_label(p) for p in range(len(record.players) or 2)]
    return Reviewed(f"Review of {path.name}", source, players, record.final_wealth)


def ranges(xs: Sequence[int]) -> str:
    return f"{xs[0]}-{xs[-1]}" if xs else "none"


def tagger(players: Sequence[str]) -> Callable[[int], str]:
    """A player's short name in lines of moves (``P1``, ``P2``, ...)."""
    return lambda seat: f"P{seat + 1}"


def run_review(
    game: Reviewed,
    level: str | None,
    jobs: int,
    thresholds: rv.Thresholds,
    console: Console,
    again: bool = False,
) -> rv.GameReview:
    """The stored review at this level if there is one (unless ``again``), else a new one (stored)."""
    lv = rv.reference_level(game.source.spec, level)
    stored = None if again else rv.load_review(game.source.key(), reviews_dir(), thresholds)
    if stored is not None and stored.level == lv.name:
        return stored
    progress = Progress(
        TextColumn("Reviewing"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("decisions"),
        TimeElapsedColumn(),
        TextColumn("left"),
        TimeRemainingColumn(),
        console=console,
        transient=True,
    )
    key, directory = game.source.key(), reviews_dir()
    decisions, started = len(game.source.actions), time.monotonic()
    costs.say_estimate(
        console,
        costs.estimate_review(game.source.spec.name, lv.name, decisions, jobs),
        "decision",
        "Sooner: more processes (--jobs N) or a weaker reference (--level normal or easy).",
    )
    with progress:
        task = progress.add_task("review", total=decisions)

        def tick(done: int, total: int) -> None:
            progress.update(task, completed=done, total=total)

        try:
            review = rv.review_game(
                game.source,
                game.players,
                lv.name,
                jobs=jobs,
                thresholds=thresholds,
                final_wealth=game.final_wealth,
                progress=tick,
                known=rv.load_partial(key, lv, directory),
            )
        except rv.ReviewInterrupted as stopped:
            rv.keep_partial(key, lv, stopped.decisions, directory)  # a rerun continues from them
            raise
    costs.remember(costs.review_key(game.source.spec.name, lv.name), (time.monotonic() - started) * jobs, decisions)
    try:
        rv.save_review(review, directory)
        rv.forget_partial(key, directory)
    except OSError as exc:
        console.print(Text(f"Warning: the review could not be kept ({exc}); it is shown anyway.", style="warning"))
    return review


def show_review(
    game: Reviewed,
    review: rv.GameReview,
    positions: Sequence[GameState],
    console: Console,
    show_all: bool = True,
    more: str = "",
) -> None:
    """The review on screen: the summary, and every labelled decision with ``show_all`` (otherwise
    a line naming ``more``, the command that shows them)."""
    console.print(Text(game.title, style="bold"))
    console.print(review_screen(review, positions, tagger(game.players), console.width, show_all, more))


# ---------------------------------------------------------------------------
# In the replay: each position's evaluation, and what each action lost where a review exists
# ---------------------------------------------------------------------------


def stored_review(source: rv.GameSource) -> GameReview | None:
    """The review kept for this game, if one was made."""
    return rv.load_review(source.key(), reviews_dir())


def evaluation_line(
    review: GameReview | None, evaluate: Callable[[GameState, int], float], state: GameState, pos: int, who: str
) -> Text | None:
    """The evaluation of the position before action ``pos + 1``, for the player to move."""
    if state.is_terminal():
        return None
    d = review.decisions[pos] if review is not None and pos < len(review.decisions) else None
    if d is not None and not d.forced:
        return Text(f"Evaluation {d.value:+.1f} for {who} (review, ai:{review.level if review else ''})", style="muted")
    return Text(f"Evaluation {evaluate(state, state.current_player()):+.1f} for {who} (static)", style="muted")


def lost_line(review: GameReview | None, k: int) -> Text | None:
    """What action ``k`` (1-based) lost against the review's reference, and the better move."""
    if review is None or k - 1 >= len(review.decisions):
        return None
    d = review.decisions[k - 1]
    if d.forced:
        return Text("  (the only sensible move)", style="muted")
    label = review.label(d)
    _mark, style = MARKS.get(label or "", ("", "muted"))
    if d.lost <= 0:
        return Text("  lost nothing against the review's reference", style="muted")
    text = Text(f"  lost {d.lost:.1f} francs" + (f" ({label})" if label else ""), style=style)
    text.append(f"; better: {d.best}", style="muted")
    return text


# ---------------------------------------------------------------------------
# Playtests: each agent's mean francs lost against a reference (opt-in)
# ---------------------------------------------------------------------------


def playtest_francs_lost(
    rules: str, options: dict[str, object], games: Sequence[dict[str, object]], level: str, jobs: int, console: Console
) -> dict[str, dict[str, float]]:
    """Every decision of ``games`` reviewed against ai:``level``, with a progress bar; per agent."""
    with Progress(
        TextColumn(f"Reviewing against ai:{level}"), BarColumn(), MofNCompleteColumn(), TextColumn("games"),
        TimeElapsedColumn(), console=console, transient=True,
    ) as progress:  # fmt: skip
        task = progress.add_task("review", total=len(games))
        return rv.francs_lost_by_agent(
            rules, dict(options), games, level, jobs=jobs, progress=lambda d, t: progress.update(task, completed=d)
        )


def check_review_level(rules: str, level: str) -> None:
    """An unknown reference level is refused (:class:`core.lab.review.ReviewError`) before any game is played."""
    rv.reference_level(load_ruleset(rules), level)


def francs_lost_table(by_agent: dict[str, dict[str, float]], level: str) -> Table:
    table = Table(title=f"Mean francs lost per decision against ai:{level}", title_justify="left")
    table.add_column("agent")
    table.add_column("decisions searched", justify="right")
    table.add_column("mean francs lost", justify="right")
    table.add_column("accuracy", justify="right")
    for agent, row in by_agent.items():
        table.add_row(agent, f"{row['decisions']:.0f}", f"{row['mean']:.2f}", f"{rv.accuracy(row['mean']):.0f}%")
    return table
