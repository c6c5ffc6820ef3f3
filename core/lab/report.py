"""A self-contained HTML report of one or two playtest summaries.

Everything is inline: CSS in a ``<style>`` element and every chart an
``<svg>`` drawn here, so the file opens in any browser with no network and no
scripts.  Charts (each a ``<figure class="chart">`` with a stable id):

* ``chart-wealth``: distribution of final wealth (every player of every game),
* ``chart-seats``: win rate by seat with 95 % Wilson intervals (and ties),
* ``chart-agents``: win rate by agent with 95 % Wilson intervals,
* ``chart-length``: distribution of game length in actions,
* ``chart-buildings``: building popularity (share of games in which each
  building was built or bought, and uses per game),
* ``chart-lead``: the eventual winner's evaluation lead over the course of the
  game (median and quartiles per tenth, :mod:`core.lab.measures`).
"""

from __future__ import annotations

import html
import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from core.lab import stats
from core.lab.measures import DEFINITIONS
from core.lab.playtest.summary import MEASURE_NAMES, building_entry, building_keys, building_label
from core.protocol import GameError

COLOURS = ("#2a6fb0", "#e07b24", "#3a9a4a", "#b03a6f")
CHART_IDS = ("chart-wealth", "chart-seats", "chart-agents", "chart-length", "chart-buildings", "chart-lead")

CSS = """
body { font-family: system-ui, -apple-system, 'Segoe UI', sans-serif; margin: 2em auto; max-width: 1100px; color: #222; padding: 0 1em; }
h1 { font-size: 1.6em; } h2 { margin-top: 2em; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; margin: 1em 0; font-size: 0.92em; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: right; }
th:first-child, td:first-child { text-align: left; }
thead th { background: #f0f0f0; }
tr.sig td { background: #fff4d6; font-weight: 600; }
figure.chart { margin: 1.5em 0; } figcaption { font-size: 0.9em; color: #555; }
.legend span { display: inline-block; margin-right: 1.5em; } .swatch { display: inline-block; width: 0.9em; height: 0.9em; margin-right: 0.3em; vertical-align: -0.1em; }
svg text { font-family: system-ui, sans-serif; font-size: 11px; fill: #333; }
.note { color: #555; font-size: 0.92em; }
"""


def escape(x: Any) -> str:
    return html.escape(str(x), quote=True)


def _fmt(x: Any, digits: int = 1) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "–"
    if isinstance(x, float):
        return f"{x:.{digits}f}"
    return str(x)


def _pct(x: float | None) -> str:
    return "–" if x is None else f"{100 * x:.1f}%"


def _p(p: float) -> str:
    return "< 0.0001" if p < 1e-4 else f"{p:.4f}"


def _p_rel(p: float) -> str:
    """``= 0.0123`` or ``< 0.0001``, to follow a "p"."""
    return "< 0.0001" if p < 1e-4 else f"= {p:.4f}"


# ---------------------------------------------------------------------------
# SVG charts
# ---------------------------------------------------------------------------


def nice_max(v: float) -> float:
    if v <= 0:
        return 1.0
    exp: float = 10 ** math.floor(math.log10(v))  # an int for v >= 1, as before
    for m in (1, 2, 2.5, 5, 10):
        if v <= m * exp:
            return m * exp
    return 10 * exp


def grouped_bars(
    categories: Sequence[str],
    series: Sequence[tuple[str, Sequence[float], Sequence[tuple[float, float]] | None]],
    *,
    y_max: float | None = None,
    percent: bool = False,
    y_label: str = "",
    x_label: str = "",
    width: int = 760,
    height: int = 300,
    title: str = "",
    bar_colours: Sequence[str] | None = None,
) -> str:
    """Vertical grouped bars; each series may carry (low, high) error bars; ``x_label``/``y_label`` title the axes.

    ``bar_colours`` colours a single series bar by bar (one colour per category).
    """
    rotate = len(categories) > 8
    left, right, top, bottom = 56, 12, 24, (84 if rotate else 36) + (18 if x_label else 0)
    height += bottom - 36
    plot_w, plot_h = width - left - right, height - top - bottom
    top_value = max(
        [v for _, vals, _ in series for v in vals] + [hi for _, _, cis in series if cis for _, hi in cis] + [0.0]
    )
    y_max = y_max if y_max is not None else nice_max(top_value)
    frame = _Frame(left, top, plot_h, y_max, percent)
    n_cat = max(1, len(categories))
    group_w = plot_w / n_cat
    bar_w = group_w * 0.8 / max(1, len(series))
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" role="img" aria-label="{escape(title)}">'
    ]
    parts.append(f"<title>{escape(title)}</title>")
    parts += _value_axis(frame, width - right, y_label)
    for c, cat in enumerate(categories):
        gx = left + c * group_w + group_w * 0.1
        for s, (name, vals, cis) in enumerate(series):
            v = vals[c] if c < len(vals) else 0.0
            colour = bar_colours[c] if bar_colours else COLOURS[s % len(COLOURS)]
            parts += _bar(frame, gx + s * bar_w, bar_w, v, f"{name} – {cat}", colour, cis[c] if cis else None)
        parts.append(_category_label(cat, left + c * group_w + group_w / 2, top + plot_h + 16, rotate))
    if x_label:
        parts.append(
            f'<text class="axis-title" x="{left + plot_w / 2:.1f}" y="{height - 6}" text-anchor="middle">{escape(x_label)}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)


@dataclass(frozen=True)
class _Frame:
    """Where a vertical bar chart's plot sits: its left edge, top, height, the top value and the value format."""

    left: float
    top: float
    plot_h: float
    y_max: float
    percent: bool

    def y(self, v: float) -> float:
        """The height on the page of value ``v`` (values above ``y_max`` at the top)."""
        return self.top + self.plot_h - self.plot_h * min(v, self.y_max) / self.y_max


def _value_axis(frame: _Frame, x_end: float, y_label: str) -> list[str]:
    """The value axis of a vertical bar chart: six grid lines with their values, the two axes, the axis title."""
    left, top, plot_h = frame.left, frame.top, frame.plot_h
    parts = []
    for i in range(6):
        v = frame.y_max * i / 5
        y = top + plot_h - plot_h * i / 5
        label = f"{100 * v:.0f}%" if frame.percent else _fmt(v if v != int(v) else int(v))
        parts.append(f'<line x1="{left}" y1="{y:.1f}" x2="{x_end}" y2="{y:.1f}" stroke="#e3e3e3"/>')
        parts.append(f'<text x="{left - 6}" y="{y + 4:.1f}" text-anchor="end">{escape(label)}</text>')
    parts.append(f'<line x1="{left}" y1="{top}" x2="{left}" y2="{top + plot_h}" stroke="#888"/>')
    parts.append(f'<line x1="{left}" y1="{top + plot_h}" x2="{x_end}" y2="{top + plot_h}" stroke="#888"/>')
    if y_label:
        parts.append(
            f'<text transform="translate(14 {top + plot_h / 2}) rotate(-90)" text-anchor="middle">{escape(y_label)}</text>'
        )
    return parts


def _bar(
    frame: _Frame, x: float, bar_w: float, v: float, what: str, colour: str, ci: tuple[float, float] | None
) -> list[str]:
    """One bar of value ``v`` at ``x`` with its tooltip, and its error bar when it has an interval ``ci``."""
    h = frame.plot_h * min(v, frame.y_max) / frame.y_max if frame.y_max else 0
    y = frame.top + frame.plot_h - h
    tip = f"{what}: " + (f"{100 * v:.1f}%" if frame.percent else _fmt(float(v)))
    if ci:
        lo, hi = ci
        tip += f" (95% CI {100 * lo:.1f}–{100 * hi:.1f}%)" if frame.percent else f" ({_fmt(lo)}–{_fmt(hi)})"
    parts = [
        f'<rect class="bar" x="{x:.1f}" y="{y:.1f}" width="{max(bar_w - 2, 1):.1f}" height="{h:.1f}" '
        f'fill="{colour}"><title>{escape(tip)}</title></rect>'
    ]
    if ci:
        lo, hi = ci
        cx = x + (bar_w - 2) / 2
        y_lo, y_hi = frame.y(lo), frame.y(hi)
        parts.append(
            f'<g class="errorbar" stroke="#111"><line x1="{cx:.1f}" y1="{y_lo:.1f}" x2="{cx:.1f}" y2="{y_hi:.1f}"/>'
            f'<line x1="{cx - 4:.1f}" y1="{y_lo:.1f}" x2="{cx + 4:.1f}" y2="{y_lo:.1f}"/>'
            f'<line x1="{cx - 4:.1f}" y1="{y_hi:.1f}" x2="{cx + 4:.1f}" y2="{y_hi:.1f}"/></g>'
        )
    return parts


def _category_label(cat: str, anchor_x: float, label_y: float, rotate: bool) -> str:
    """A category's name under its group of bars (slanted when there are many)."""
    if rotate:
        return f'<text transform="translate({anchor_x:.1f} {label_y - 4}) rotate(-35)" text-anchor="end">{escape(cat)}</text>'
    return f'<text x="{anchor_x:.1f}" y="{label_y}" text-anchor="middle">{escape(cat)}</text>'


def horizontal_bars(
    categories: Sequence[str],
    series: Sequence[tuple[str, Sequence[float]]],
    *,
    percent: bool = True,
    width: int = 760,
    row_h: int = 16,
    title: str = "",
    x_label: str = "",
) -> str:
    """Horizontal grouped bars (one row per category), for long name lists; ``x_label`` titles the value axis."""
    left, right, top = 190, 60, 10
    plot_w = width - left - right
    group_h = row_h * max(1, len(series)) + 6
    extra = 18 if x_label else 0
    height = top + group_h * len(categories) + 24 + extra
    x_max = nice_max(max([v for _, vals in series for v in vals] + [0.0]))
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" role="img" aria-label="{escape(title)}">'
    ]
    parts.append(f"<title>{escape(title)}</title>")
    for i in range(5):
        v = x_max * i / 4
        x = left + plot_w * i / 4
        parts.append(f'<line x1="{x:.1f}" y1="{top}" x2="{x:.1f}" y2="{height - 20 - extra}" stroke="#e3e3e3"/>')
        parts.append(
            f'<text x="{x:.1f}" y="{height - 6 - extra}" text-anchor="middle">{escape(f"{100 * v:.0f}%" if percent else _fmt(v))}</text>'
        )
    for c, cat in enumerate(categories):
        gy = top + c * group_h
        parts.append(f'<text x="{left - 6}" y="{gy + group_h / 2 + 3:.1f}" text-anchor="end">{escape(cat)}</text>')
        for s, (name, vals) in enumerate(series):
            v = vals[c]
            w = plot_w * min(v, x_max) / x_max if x_max else 0
            y = gy + s * row_h
            text = f"{100 * v:.0f}%" if percent else _fmt(float(v))
            parts.append(
                f'<rect class="bar" x="{left}" y="{y:.1f}" width="{w:.1f}" height="{row_h - 3}" fill="{COLOURS[s % len(COLOURS)]}">'
                f"<title>{escape(f'{name} – {cat}: {text}')}</title></rect>"
            )
            parts.append(f'<text x="{left + w + 4:.1f}" y="{y + row_h - 6:.1f}">{escape(text)}</text>')
    if x_label:
        parts.append(
            f'<text class="axis-title" x="{left + plot_w / 2:.1f}" y="{height - 6}" text-anchor="middle">{escape(x_label)}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)


def _histogram_chart(summaries: Sequence[dict[str, Any]], key: str, title: str, counted: str, x_label: str) -> str:
    values: list[Sequence[float]] = [s[key] for s in summaries]  # the summaries' samples, not copied
    if not any(values):
        return "<p class='note'>no games</p>"
    lo, hi = min(min(vs) for vs in values if vs), max(max(vs) for vs in values if vs)
    bins = max(1, min(14, math.ceil(hi - lo) + 1))
    span = max(hi - lo, 1)
    step = max(1, math.ceil(span / bins))
    lo = math.floor(lo)
    edges_hi = lo + step * bins
    cats = [f"{lo + i * step}–{lo + (i + 1) * step - 1}" if step > 1 else f"{lo + i}" for i in range(bins)]
    series = []
    for s, vs in zip(summaries, values, strict=False):
        h = stats.histogram(vs, bins=bins, lo=lo, hi=edges_hi)
        n = max(1, len(vs))
        series.append((s["label"], [c / n for c in h["counts"]], None))
    return grouped_bars(cats, series, percent=True, y_label=f"share of {counted}", x_label=x_label, title=title)


# ---------------------------------------------------------------------------
# Tables and the page
# ---------------------------------------------------------------------------


def _legend(summaries: Sequence[dict[str, Any]]) -> str:
    items = "".join(
        f'<span><i class="swatch" style="background:{COLOURS[i % len(COLOURS)]}"></i>{"AB"[i] if len(summaries) > 1 else ""} {escape(s["label"])}</span>'
        for i, s in enumerate(summaries)
    )
    return f'<p class="legend">{items}</p>'


def _figure(chart_id: str, caption: str, svg: str, summaries: Sequence[dict[str, Any]]) -> str:
    return f'<figure class="chart" id="{chart_id}">{_legend(summaries)}{svg}<figcaption>{escape(caption)}</figcaption></figure>'


def _summary_table(summaries: Sequence[dict[str, Any]]) -> str:
    head = "".join(
        f"<th>{'AB'[i] + ': ' if len(summaries) > 1 else ''}{escape(s['label'])}</th>" for i, s in enumerate(summaries)
    )
    rows: list[tuple[str, list[str]]] = [("games", [str(s["games"]) for s in summaries])]
    rows += _seat_rows(summaries)
    rows += _number_rows(summaries)
    rows += _measure_rows(summaries)
    body = "".join(
        f"<tr><td>{escape(label)}</td>{''.join(f'<td>{escape(v)}</td>' for v in vals)}</tr>" for label, vals in rows
    )
    return f'<table id="summary"><thead><tr><th>measure</th>{head}</tr></thead><tbody>{body}</tbody></table>'


def _seat_rows(summaries: Sequence[dict[str, Any]]) -> list[tuple[str, list[str]]]:
    """Wins by seat, ties, and the first seat's share of the decisive games, with their intervals."""
    rows: list[tuple[str, list[str]]] = []
    players = max(s["players"] for s in summaries)
    for seat in range(players):
        rows.append(
            (
                f"seat {seat + 1} wins" + (" (starting player)" if seat == 0 else ""),
                [
                    (
                        f"{_pct(s['seats'][seat]['rate'])} [{_pct(s['seats'][seat]['ci'][0])}, {_pct(s['seats'][seat]['ci'][1])}]"
                        if seat < s["players"]
                        else "–"
                    )
                    for s in summaries
                ],
            )
        )
    rows.append(
        (
            "ties",
            [f"{_pct(s['ties']['rate'])} [{_pct(s['ties']['ci'][0])}, {_pct(s['ties']['ci'][1])}]" for s in summaries],
        )
    )
    rows.append(
        (
            "first seat's share of decisive games (exact binomial test)",
            [
                f"{_pct(s['first_seat']['share_of_decisive'])} [{_pct(s['first_seat']['ci'][0])}, "
                f"{_pct(s['first_seat']['ci'][1])}] vs {_pct(s['first_seat']['expected'])}, "
                f"p {_p_rel(s['first_seat']['p_value'])}"
                for s in summaries
            ],
        )
    )
    return rows


def _number_rows(summaries: Sequence[dict[str, Any]]) -> list[tuple[str, list[str]]]:
    """Wealth, margin, length and lead changes: mean / median / sd / range."""
    rows: list[tuple[str, list[str]]] = []
    for name, key in (
        ("final wealth", "wealth"),
        ("winner's wealth", "winner_wealth"),
        ("winning margin", "margin"),
        ("game length (actions)", "actions"),
        ("game length (seconds)", "seconds"),
        ("lead changes", "lead_changes"),
    ):
        digits = 3 if key == "seconds" else 1
        rows.append(
            (
                f"{name}: mean / median / sd / range",
                [
                    f"{_fmt(s[key]['mean'], digits)} / {_fmt(s[key]['median'], digits)} / {_fmt(s[key]['stdev'], digits)} / "
                    f"{_fmt(s[key]['min'], digits)}–{_fmt(s[key]['max'], digits)}"
                    for s in summaries
                ],
            )
        )
    return rows


def _measure_rows(summaries: Sequence[dict[str, Any]]) -> list[tuple[str, list[str]]]:
    """The designer's measures: mean [95% t-interval] / median, on the games that have them."""
    rows: list[tuple[str, list[str]]] = []
    for key, name in MEASURE_NAMES.items():
        cells = []
        for s in summaries:
            d = s["measures"][key]
            if not d["n"]:
                cells.append("– (no traced decisive games)")
                continue
            f = _pct if key == "decisiveness" else (lambda x: _fmt(x, 2))
            ci = d["ci95"]
            cells.append(f"{f(d['mean'])}" + (f" [{f(ci[0])}, {f(ci[1])}]" if ci else "") + f" / {f(d['median'])}")
        rows.append((f"{name}: mean [95% CI] / median", cells))
    rows.append(
        (
            "games measured (traced, one winner)",
            [f"{s['measures']['measured']} of {s['games']}" for s in summaries],
        )
    )
    return rows


def lead_curve_chart(summaries: Sequence[dict[str, Any]], width: int = 760, height: int = 300) -> str:
    """The eventual winner's evaluation lead by tenth of the game: median line and quartile band per summary."""
    curves = [s["measures"]["curve"] for s in summaries]
    values = [v for c in curves for p in c for v in (p["q1"], p["q3"]) if v is not None]
    if not values:
        return "<p class='note'>no traced games with a single winner</p>"
    lo, hi = float(min(0.0, *values)), float(max(0.0, *values))
    step = nice_max((hi - lo) / 5 or 1.0)
    lo, hi = step * math.floor(lo / step), step * math.ceil(hi / step)
    ticks = [lo + step * i for i in range(round((hi - lo) / step) + 1)]
    left, right, top, bottom = 56, 12, 24, 54
    pw, ph = width - left - right, height - top - bottom

    def x(part: int) -> float:
        return left + pw * (part + 0.5) / 10

    def y(v: float) -> float:
        return top + ph * (hi - v) / (hi - lo)

    title = "Eventual winner's evaluation lead over the game"
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
        f'role="img" aria-label="{escape(title)}"><title>{escape(title)}</title>'
    ]
    for v in ticks:
        parts.append(f'<line x1="{left}" y1="{y(v):.1f}" x2="{width - right}" y2="{y(v):.1f}" stroke="#e3e3e3"/>')
        parts.append(f'<text x="{left - 6}" y="{y(v) + 4:.1f}" text-anchor="end">{_fmt(v, 0)}</text>')
    parts.append(f'<line x1="{left}" y1="{y(0):.1f}" x2="{width - right}" y2="{y(0):.1f}" stroke="#888"/>')
    for part in range(10):
        parts.append(
            f'<text x="{x(part):.1f}" y="{top + ph + 16}" text-anchor="middle">{10 * part}–{10 * part + 10}%</text>'
        )
    parts.append(
        f'<text x="{left + pw / 2:.1f}" y="{height - 8}" text-anchor="middle">part of the game (by decisions)</text>'
        f'<text transform="translate(14 {top + ph / 2}) rotate(-90)" text-anchor="middle">winner\'s lead (francs)</text>'
    )
    for i, curve in enumerate(curves):
        colour = COLOURS[i % len(COLOURS)]
        pts = [p for p in curve if p["median"] is not None]
        band = [f"{x(p['part']):.1f},{y(p['q3']):.1f}" for p in pts] + [
            f"{x(p['part']):.1f},{y(p['q1']):.1f}" for p in reversed(pts)
        ]
        parts.append(f'<polygon points="{" ".join(band)}" fill="{colour}" fill-opacity="0.18" stroke="none"/>')
        line = " ".join(f"{x(p['part']):.1f},{y(p['median']):.1f}" for p in pts)
        parts.append(f'<polyline points="{line}" fill="none" stroke="{colour}" stroke-width="2"/>')
        for p in pts:
            tip = f"{summaries[i]['label']}, {10 * p['part']}–{10 * p['part'] + 10}%: median {p['median']:+.1f}"
            parts.append(
                f'<circle cx="{x(p["part"]):.1f}" cy="{y(p["median"]):.1f}" r="3" fill="{colour}">'
                f"<title>{escape(tip)} (quartiles {p['q1']:+.1f} to {p['q3']:+.1f})</title></circle>"
            )
    parts.append("</svg>")
    return "".join(parts)


def _agents_table(summaries: Sequence[dict[str, Any]]) -> str:
    rows = []
    for i, s in enumerate(summaries):
        for a in s["agents"]:
            rows.append(
                f"<tr><td>{'AB'[i] + ': ' if len(summaries) > 1 else ''}{escape(a['agent'])}</td><td>{a['count']}</td><td>{a['n']}</td>"
                f"<td>{_pct(a['rate'])}</td><td>{_pct(a['ci'][0])} – {_pct(a['ci'][1])}</td></tr>"
            )
    return (
        '<table id="agents"><thead><tr><th>agent</th><th>wins</th><th>games</th><th>win rate</th><th>95% CI (Wilson)</th></tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table>"
    )


def _tallies_table(summaries: Sequence[dict[str, Any]]) -> list[str]:
    """The game's per-seat tallies by agent (the base game's loans taken); nothing when no summary has any."""
    rows = []
    for i, s in enumerate(summaries):
        for name, agents in s.get("tallies", {}).items():
            for a in agents:
                rows.append(
                    f"<tr><td>{'AB'[i] + ': ' if len(summaries) > 1 else ''}{escape(name)}: {escape(a['agent'])}</td>"
                    f"<td>{a['per_game']:.2f}</td><td>{a['games']} ({_pct(a['share_of_games'])})</td>"
                    f"<td>{a['lost_games']}</td></tr>"
                )
    if not rows:
        return []
    return [
        '<p class="note">Counted per seat over each game, by agent: how many a game, in how many games, and how many'
        " of those games the agent did not win.</p>",
        '<table id="tallies"><thead><tr><th>counted</th><th>per game</th><th>games with any</th>'
        f"<th>of those not won</th></tr></thead><tbody>{''.join(rows)}</tbody></table>",
    ]


def _tests_table(tests: Sequence[dict[str, Any]]) -> str:
    rows = []
    for t in tests:
        rate = t["measure"] == "rate"
        a = _pct(t["a"]) if rate else _fmt(t["a"], 2)
        b = _pct(t["b"]) if rate else _fmt(t["b"], 2)
        d = (f"{100 * t['diff']:+.1f} pts" if rate else f"{t['diff']:+.2f}") if not math.isnan(t["diff"]) else "–"
        verdict = "significant" if t["significant"] else "not significant"
        rows.append(
            f'<tr class="{"sig" if t["significant"] else ""}"><td>{escape(t["what"])}</td><td>{escape(t["measure"])}</td>'
            f"<td>{a}</td><td>{b}</td><td>{d}</td><td>{escape(t['test'])}</td><td>{t['statistic']:.3f}</td>"
            f"<td>{_p(t['p_value'])}</td><td>{_p(t['p_adjusted'])}</td><td>{verdict}</td></tr>"
        )
    return (
        '<table id="tests"><thead><tr><th>what</th><th>measure</th><th>A</th><th>B</th><th>B − A</th><th>test</th>'
        "<th>statistic</th><th>p</th><th>p (Holm)</th><th>at 5% (Holm)</th></tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table>"
    )


def _buildings(
    summaries: Sequence[dict[str, Any]], limit: int = 1000
) -> tuple[list[str], list[tuple[str, list[float]]], str]:
    keys = building_keys(summaries)[:limit]
    names = [building_label(k, summaries) for k in keys]

    def built(s: dict[str, Any], key: tuple[str, str]) -> float:
        e = building_entry(s, key)
        return 0.0 if e is None else e["built_games"] / max(1, s["games"])

    series = [(s["label"], [built(s, k) for k in keys]) for s in summaries]
    rows = []
    for key, name in zip(keys, names, strict=True):
        cells = []
        for s in summaries:
            e = building_entry(s, key)
            g = max(1, s["games"])
            if e is None:
                cells.append("<td>–</td><td>–</td><td>–</td>")
                continue
            won = f"{_pct(e['winner_owned'] / e['owned_games'])}" if e["owned_games"] else "–"
            cells.append(f"<td>{_pct(e['built_games'] / g)}</td><td>{e['uses'] / g:.2f}</td><td>{won}</td>")
        rows.append(f"<tr><td>{escape(name)}</td>{''.join(cells)}</tr>")
    sub = "".join("<th>built</th><th>uses/game</th><th>owner won</th>" for _ in summaries)
    top = "".join(
        f'<th colspan="3">{"AB"[i] + ": " if len(summaries) > 1 else ""}{escape(s["label"])}</th>'
        for i, s in enumerate(summaries)
    )
    table = (
        f'<table id="buildings"><thead><tr><th></th>{top}</tr><tr><th>building</th>{sub}</tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table>"
    )
    return names, series, table


def made_now() -> str:
    """When a page is made, as its note says it: ``2026-11-28 01:23 UTC``."""
    return datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")


def page_head(title: str, commands: Sequence[str], made: str | None = None) -> list[str]:
    """The start of a report page: its head with the style sheet, the title, when it was made (``made``, or now)
    and the commands that made it."""
    made = made or made_now()
    return [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{escape(title)}</title><style>{CSS}</style></head><body>",
        f"<h1>{escape(title)}</h1>",
        f'<p class="note">Made {made}. ' + " ".join(f"<code>{escape(c)}</code>" for c in commands) + "</p>",
    ]


def render(
    summaries: Sequence[dict[str, Any]],
    tests: Sequence[dict[str, Any]] | None = None,
    title: str = "Playtest report",
    commands: Sequence[str] = (),
    made: str | None = None,
) -> str:
    """The whole HTML page for one summary, or two summaries and their tests (``made``: what its note says of
    when it was made; None: now)."""
    summaries = list(summaries)
    names, bseries, btable = _buildings(summaries)
    parts = [
        *page_head(title, commands, made),
        "<h2>Summary</h2>",
        '<p class="note">Rates are shares of all games with 95% Wilson score intervals in brackets; a win is a sole win '
        "(a tie counts for nobody). Seat 1 is the starting player.</p>",
        _summary_table(summaries),
    ]
    if tests:
        parts += _differences(tests)
    parts += ["<h2>Charts</h2>", *_charts(summaries, names, bseries)]
    parts += [
        "<h2>Measures</h2>",
        _measures_section(summaries),
        "<h2>Agents</h2>",
        _agents_table(summaries),
        *_tallies_table(summaries),
        "<h2>Buildings</h2>",
        '<p class="note">built: share of games in which it was built or bought; uses/game: mean number of times it was used per game; '
        "owner won: share of the games in which someone owned it at the end where its owner won.</p>",
        btable,
        "</body></html>",
    ]
    return "\n".join(parts)


def _differences(tests: Sequence[dict[str, Any]]) -> list[str]:
    """The section on two summaries' differences: which are significant, how they were tested, the tests' table."""
    sig = [t for t in tests if t["significant"]]
    raw_only = [t for t in tests if t["significant_raw"] and not t["significant"]]
    family = f"after Holm's correction for the {len(tests)} tests"
    parts = ["<h2>Differences (B − A)</h2>"]
    if sig:
        parts.append(
            f"<p>Statistically significant at the 5% level {family}: {len(sig)} of them, "
            + "; ".join(
                f"<b>{escape(t['what'])}</b> ({escape(t['test'])}, p {_p_rel(t['p_value'])}, "
                f"Holm p {_p_rel(t['p_adjusted'])})"
                for t in sig
            )
            + ".</p>"
        )
    else:
        parts.append(f"<p>No difference is statistically significant at the 5% level {family}.</p>")
    if raw_only:
        parts.append(
            f"<p>Below 5% on the raw p only, not after the correction ({len(raw_only)} tests): "
            + "; ".join(
                f"{escape(t['what'])} (p {_p_rel(t['p_value'])}, Holm p {_p_rel(t['p_adjusted'])})" for t in raw_only
            )
            + ".</p>"
        )
    parts.append(
        '<p class="note">Rates: two-proportion z-test (pooled). Numbers: Welch t-test (means) and Mann-Whitney U '
        "(distributions, normal approximation). Wealth is tested on each game's mean final wealth, one value per game. "
        "Many tests are run at once, so each raw p (a test alone) is adjusted by Holm's step-down correction over all "
        f"{len(tests)} tests, and a difference is called significant only on its adjusted p: the chance that any of the "
        "flags is a false alarm stays at most 5%.</p>"
    )
    parts.append(_tests_table(tests))
    return parts


def _seat_series(
    summaries: Sequence[dict[str, Any]],
) -> tuple[list[str], list[tuple[str, Sequence[float], Sequence[tuple[float, float]] | None]]]:
    """The seat chart's categories (each seat, then ties) and one series of rates with intervals per summary."""
    players = max(s["players"] for s in summaries)
    seat_cats = [f"seat {i + 1}" for i in range(players)] + ["tie"]
    seat_series: list[tuple[str, Sequence[float], Sequence[tuple[float, float]] | None]] = []
    for s in summaries:
        vals = [s["seats"][i]["rate"] if i < s["players"] else 0.0 for i in range(players)] + [s["ties"]["rate"]]
        cis = [tuple(s["seats"][i]["ci"]) if i < s["players"] else (0.0, 0.0) for i in range(players)] + [
            tuple(s["ties"]["ci"])
        ]
        seat_series.append((s["label"], vals, cis))
    return seat_cats, seat_series


def _agent_series(
    summaries: Sequence[dict[str, Any]],
) -> tuple[list[str], list[tuple[str, Sequence[float], Sequence[tuple[float, float]] | None]], list[str]]:
    """The agent chart's categories (every agent of every summary), its one series of win rates, the bars' colours."""
    agent_cats: list[str] = []
    agent_vals: list[float] = []
    agent_cis: list[tuple[float, float]] = []
    agent_colours: list[str] = []
    for i, s in enumerate(summaries):
        for a in s["agents"]:
            agent_cats.append(("AB"[i] + ": " if len(summaries) > 1 else "") + a["agent"])
            agent_vals.append(a["rate"])
            agent_cis.append(tuple(a["ci"]))
            agent_colours.append(COLOURS[i % len(COLOURS)])
    return agent_cats, [("win rate", agent_vals, agent_cis)], agent_colours


def _charts(summaries: Sequence[dict[str, Any]], names: list[str], bseries: list[tuple[str, list[float]]]) -> list[str]:
    """The six charts (:data:`CHART_IDS`), each a figure with its legend and caption."""
    return [
        _figure(
            "chart-wealth",
            "Distribution of final wealth: every player of every game (share of player-games per bin).",
            _histogram_chart(
                summaries,
                "wealth_values",
                "Final wealth distribution",
                "player-games",
                "final wealth of a player (francs)",
            ),
            summaries,
        ),
        *_win_charts(summaries),
        _figure(
            "chart-length",
            "Distribution of game length in actions (share of games per bin).",
            _histogram_chart(summaries, "actions_values", "Game length", "games", "game length (actions)"),
            summaries,
        ),
        _figure(
            "chart-buildings",
            "Building popularity: share of games in which the building was built or bought.",
            horizontal_bars(
                names, bseries, title="Building popularity", x_label="share of games in which it was built or bought"
            )
            if names
            else "<p class='note'>no buildings were built</p>",
            summaries,
        ),
        _figure(
            "chart-lead",
            "The eventual winner's lead by the agents' evaluations (francs; winner minus the best other player), "
            "per tenth of the game: median line, band from the first to the third quartile. A game decided early "
            "rises at once; a dramatic one starts below zero.",
            lead_curve_chart(summaries),
            summaries,
        ),
    ]


def _win_charts(summaries: Sequence[dict[str, Any]]) -> list[str]:
    """The win rates by seat and by agent, with their intervals."""
    seat_cats, seat_series = _seat_series(summaries)
    agent_cats, agent_series, agent_colours = _agent_series(summaries)
    return [
        _figure(
            "chart-seats",
            "Win rate by seat (seat 1 starts) and tie rate, with 95% Wilson intervals.",
            grouped_bars(
                seat_cats,
                seat_series,
                y_max=1.0,
                percent=True,
                y_label="share of games",
                x_label="seat (seat 1 starts)",
                title="Win rate by seat",
            ),
            summaries,
        ),
        _figure(
            "chart-agents",
            "Win rate by agent, with 95% Wilson intervals.",
            grouped_bars(
                agent_cats,
                agent_series,
                y_max=1.0,
                percent=True,
                y_label="share of games",
                x_label="agent",
                title="Win rate by agent",
                bar_colours=agent_colours,
            ),
            summaries,
        ),
    ]


def _measures_section(summaries: Sequence[dict[str, Any]]) -> str:
    """The measures' definitions and what they were measured on."""
    return (
        '<dl class="note">'
        + "".join(f"<dt>{escape(MEASURE_NAMES[k])}</dt><dd>{escape(v)}</dd>" for k, v in DEFINITIONS.items())
        + "<dt>lead curve</dt><dd>the eventual winner's mean lead in each tenth of a game; the chart shows the "
        "median and quartiles over the games</dd></dl>"
        + f"<p class='note'>Measured on the games with a trace and one winner; the clear-lead threshold is "
        f"{_fmt(summaries[0]['measures']['clear_lead'], 1)} francs. Evaluations are margins in francs: an ai "
        "agent's search score, any other agent's static evaluation, from each seat's view (winner minus the best "
        "other player).</p>"
    )


def write_report(path: str | Path, page: str) -> Path:
    """Write the HTML ``page`` (any report's ``render``) to ``path``, its folder made if need be; the path
    written, or :class:`GameError` naming the file and why it cannot be written."""
    p = Path(path).expanduser()
    try:
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(page, encoding="utf-8")
    except OSError as exc:
        raise GameError(f"cannot write the report to '{p}': {exc}") from None
    return p
