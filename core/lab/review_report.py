"""A self-contained HTML page of one game's review: the evaluation chart as inline SVG and the tables.

Like :mod:`core.lab.report` (whose style sheet and escaping it uses), everything
is inline, so the file opens in any browser with no network and no scripts.
``lines(d)`` gives a decision's better line as text (the caller labels each
move with its player, as ``why`` does).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from core.lab.report import CSS, escape, made_now, nice_max
from core.lab.review import ACCURACY_BASE, ACCURACY_SCALE, Decision, GameReview

#: the colour of each label's marker (and of the seats' lines in the table)
LABEL_COLOURS = {"inaccuracy": "#d4a017", "mistake": "#e07b24", "blunder": "#c0392b"}

_EXTRA_CSS = """
.swing td { background: #fdf0ee; } th.l, td.l { text-align: left; } .who { white-space: nowrap; } td.line { text-align: left; font-size: 0.88em; }
"""


def curve_svg(review: GameReview, width: int = 1000, height: int = 320) -> str:
    """The evaluation before every decision (seat 1's margin with two players), mistakes marked."""
    values = review.curve()
    left, right, top, bottom = 56, 16, 24, 40
    plot_w, plot_h = width - left - right, height - top - bottom
    span = nice_max(max([abs(v) for v in values] + [1.0]))
    n = max(1, len(values) - 1)

    def x(i: int) -> float:
        return left + plot_w * i / n

    def y(v: float) -> float:
        return top + plot_h / 2 - (plot_h / 2) * max(-span, min(span, v)) / span

    who = review.players[0] if review.num_players == 2 else "the player to move"
    title = f"Evaluation before each decision, for {who} (francs)"
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}"'
        f' role="img" aria-label="{escape(title)}"><title>{escape(title)}</title>'
    ]
    for k in (-1.0, -0.5, 0.0, 0.5, 1.0):
        yy = y(span * k)
        parts.append(f'<line x1="{left}" y1="{yy:.1f}" x2="{width - right}" y2="{yy:.1f}" stroke="#e3e3e3"/>')
        parts.append(f'<text x="{left - 6}" y="{yy + 4:.1f}" text-anchor="end">{span * k:+g}</text>')
    parts.append(f'<line x1="{left}" y1="{y(0):.1f}" x2="{width - right}" y2="{y(0):.1f}" stroke="#888"/>')
    points = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(values))
    parts.append(f'<polyline fill="none" stroke="#2a6fb0" stroke-width="1.8" points="{points}"/>')
    for d in review.labelled():
        label = review.label(d) or ""
        tip = f"action {d.index + 1}, {review.players[d.seat]}: {d.played} ({label}, {d.lost:.1f} francs lost)"
        parts.append(
            f'<circle cx="{x(d.index):.1f}" cy="{y(values[d.index]):.1f}" r="{3 + 2 * _rank(label)}" '
            f'fill="{LABEL_COLOURS[label]}" stroke="#fff"><title>{escape(tip)}</title></circle>'
        )
    for i in range(0, len(values), max(1, len(values) // 10)):
        parts.append(f'<text x="{x(i):.1f}" y="{top + plot_h + 16}" text-anchor="middle">{i + 1}</text>')
    parts.append(
        f'<text x="{left + plot_w / 2}" y="{height - 4}" text-anchor="middle">decision (action number)</text></svg>'
    )
    return "".join(parts)


def _caption(review: GameReview) -> str:
    if review.num_players == 2:
        a, b = review.players
        return (
            f"The reference's evaluation before each decision, in francs: above zero P1 ({a}) is ahead, below P2 ({b})."
        )
    return "The reference's evaluation before each decision, in francs, for the player to move."


def _rank(label: str) -> int:
    return {"inaccuracy": 0, "mistake": 1, "blunder": 2}.get(label, 0)


def _players_table(review: GameReview) -> str:
    rows = []
    for row in review.summary():
        acc = "–" if row["accuracy"] is None else f"{row['accuracy']:.1f}"
        mean = "–" if row["mean_francs_lost"] is None else f"{row['mean_francs_lost']:.2f}"
        rows.append(
            f"<tr><td>P{row['seat'] + 1} {escape(row['player'])}</td><td>{row['decisions']}</td><td>{row['searched']}</td>"
            f"<td>{mean}</td><td>{row['francs_lost']:.1f}</td><td>{acc}</td>"
            f"<td>{row['inaccuracy']}</td><td>{row['mistake']}</td><td>{row['blunder']}</td></tr>"
        )
    head = (
        "<tr><th>player</th><th>decisions</th><th>searched</th><th>mean francs lost</th><th>francs lost</th>"
        "<th>accuracy</th><th>inaccuracies</th><th>mistakes</th><th>blunders</th></tr>"
    )
    return f"<table><thead>{head}</thead><tbody>{''.join(rows)}</tbody></table>"


def _decisions_table(
    review: GameReview, decisions: Sequence[Decision], line: Callable[[Decision], str], css: str = ""
) -> str:
    rows = []
    for d in decisions:
        label = review.label(d) or ""
        colour = LABEL_COLOURS.get(label, "#555")
        rows.append(
            f'<tr class="{css}"><td>{d.index + 1}</td><td class="who l">P{d.seat + 1} {escape(review.players[d.seat])}</td>'
            f'<td class="line">{escape(d.played)}</td><td>{d.lost:.1f}</td>'
            f'<td style="color:{colour}">{escape(label)}</td><td class="line">{escape(line(d))}</td></tr>'
        )
    head = (
        '<tr><th>action</th><th class="l">player</th><th class="l">played</th><th>francs lost</th><th></th>'
        '<th class="l">better, and the expected line</th></tr>'
    )
    return f"<table><thead>{head}</thead><tbody>{''.join(rows)}</tbody></table>"


def render(review: GameReview, title: str, line: Callable[[Decision], str]) -> str:
    """The whole page."""
    made = made_now()
    labelled = review.labelled()
    legend = " ".join(
        f'<span><span class="swatch" style="background:{c}"></span>{name}</span>' for name, c in LABEL_COLOURS.items()
    )
    body = [
        f"<h1>{escape(title)}</h1>",
        f'<p class="note">Reference: ai:{escape(review.level)} ({escape(review.budget)}), the position as the mover saw it. '
        f"Francs lost = the best move's value minus the played move's, for the mover. "
        f"Labels from {escape(review.thresholds.describe())}. "
        f"Accuracy = 100 &times; {ACCURACY_BASE:g}<sup>mean francs lost / {ACCURACY_SCALE:g}</sup>. "
        f"Made {made} in {review.seconds:.0f} s.</p>",
        "<h2>Players</h2>",
        _players_table(review),
        "<h2>The game</h2>",
        f'<figure class="chart" id="chart-review">{curve_svg(review)}<figcaption>{escape(_caption(review))}'
        f'<div class="legend">{legend}</div></figcaption></figure>',
        "<h2>Turning points</h2>",
        _decisions_table(review, review.turning_points(), line, "swing") if review.turning_points() else "<p>None.</p>",
        f"<h2>Labelled decisions ({len(labelled)})</h2>",
        _decisions_table(review, labelled, line) if labelled else "<p>No decision lost enough to be labelled.</p>",
    ]
    return (
        f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>{escape(title)}</title>'
        f"<style>{CSS}{_EXTRA_CSS}</style></head><body>{''.join(body)}</body></html>\n"
    )
