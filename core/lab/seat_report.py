"""The HTML report of the seat curve (:func:`core.lab.skill.run_seat_curve`): the first seat's share
of the decisive games at each skill level, drawn with its 95% intervals, the 50% line and the target zone.

Self-contained like the playtest report (:mod:`core.lab.report`, whose CSS and
escaping it reuses): inline CSS, one inline ``<svg>`` (``<figure id="chart-seat-curve">``),
no scripts, no network.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from core.lab.report import COLOURS, escape, page_head
from core.lab.skill import TARGET_ZONE

CHART_ID = "chart-seat-curve"


def _pct(x: float | None) -> str:
    return "–" if x is None else f"{100 * x:.1f}%"


def _p(p: float) -> str:
    return "< 0.0001" if p < 1e-4 else f"{p:.4f}"


def _p_is(p: float) -> str:
    """``p`` said in a sentence: "p<0.0001", or "p=0.0123"."""
    return "p<0.0001" if p < 1e-4 else f"p={p:.4f}"


def zone_of(curve: dict[str, Any], level: str) -> tuple[float, float]:
    """The target zone of ``level`` in ``curve``: its own (``level_zones``) if it has one, else the curve's."""
    lo, hi = curve.get("level_zones", {}).get(level, curve["target_zone"])
    return float(lo), float(hi)


def zone_text(zone: Sequence[float]) -> str:
    return f"{100 * zone[0]:.0f}–{100 * zone[1]:.0f}%"


def _zones(curves: Sequence[dict[str, Any]], levels: Sequence[str]) -> list[tuple[float, float]]:
    """Each level's target zone, as the first curve sets it (one zone for all when no curve is given)."""
    if not curves:
        return [TARGET_ZONE] * len(levels)
    return [zone_of(curves[0], level) for level in levels]


def _axes(parts: list[str], geo: dict[str, float], levels: Sequence[str], zones: Sequence[tuple[float, float]]) -> None:
    """Grid, target zones (one band across the plot, or one per level when the levels' zones differ), 50% line,
    axes and level names."""
    left, top, plot_w, plot_h = geo["left"], geo["top"], geo["plot_w"], geo["plot_h"]

    def y(v: float) -> float:
        return top + plot_h * (1 - v)

    step = plot_w / max(1, len(levels))
    one = len(set(zones)) <= 1
    spans = (
        [(left, plot_w, zones[0] if zones else TARGET_ZONE)]
        if one
        else [(left + step * i, step, zone) for i, zone in enumerate(zones)]
    )
    for x, w, (z_lo, z_hi) in spans:
        parts.append(
            f'<rect class="target-zone" x="{x:.1f}" y="{y(z_hi):.1f}" width="{w:.1f}" '
            f'height="{y(z_lo) - y(z_hi):.1f}" fill="#dff0d8"><title>target zone {zone_text((z_lo, z_hi))}</title></rect>'
        )
    for i in range(11):
        v = i / 10
        parts.append(f'<line x1="{left}" y1="{y(v):.1f}" x2="{left + plot_w}" y2="{y(v):.1f}" stroke="#e3e3e3"/>')
        parts.append(f'<text x="{left - 6}" y="{y(v) + 4:.1f}" text-anchor="end">{100 * v:.0f}%</text>')
    parts.append(
        f'<line class="even-line" x1="{left}" y1="{y(0.5):.1f}" x2="{left + plot_w}" y2="{y(0.5):.1f}" '
        'stroke="#555" stroke-dasharray="6 4"/>'
    )
    for x, _, zone in spans if one else ():  # per-level zones: the note names them, the plot stays clear
        parts.append(
            f'<text x="{x + 4:.1f}" y="{y(zone[1]) - 4:.1f}" text-anchor="start">target zone {zone_text(zone)}</text>'
        )
    parts.append(f'<line x1="{left}" y1="{top}" x2="{left}" y2="{top + plot_h}" stroke="#888"/>')
    parts.append(f'<line x1="{left}" y1="{top + plot_h}" x2="{left + plot_w}" y2="{top + plot_h}" stroke="#888"/>')
    for i, level in enumerate(levels):
        parts.append(
            f'<text x="{left + step * (i + 0.5):.1f}" y="{top + plot_h + 18}" text-anchor="middle">{escape(level)}</text>'
        )
    parts.append(
        f'<text transform="translate(14 {top + plot_h / 2}) rotate(-90)" text-anchor="middle">'
        "first seat's share of decisive games</text>"
    )
    parts.append(
        f'<text x="{left + plot_w / 2:.1f}" y="{geo["height"] - 6}" text-anchor="middle">skill level (both seats)</text>'
    )


def _series(
    parts: list[str], geo: dict[str, float], curve: dict[str, Any], colour: str, offset: float, label_y: list[float]
) -> None:
    """One rule set's points (share per level), their interval bars and the line joining them; each point's label
    at the height ``label_y`` gives its level (:func:`_label_heights`)."""
    left, top, plot_w, plot_h = geo["left"], geo["top"], geo["plot_w"], geo["plot_h"]
    step = plot_w / max(1, geo["levels"])
    points = []
    for i, lv in enumerate(curve["levels"]):
        if lv["share"] is None:
            continue
        x = left + step * (i + 0.5) + offset
        lo, hi = lv["ci95"]
        yv, ylo, yhi = (top + plot_h * (1 - v) for v in (lv["share"], lo, hi))
        points.append(f"{x:.1f},{yv:.1f}")
        tip = (
            f"{curve.get('title') or curve['rules']} – {lv['level']}: first seat won {lv['first_wins']} of {lv['decisive']} decisive games, "
            f"{_pct(lv['share'])} (95% CI {_pct(lo)}–{_pct(hi)}); {lv['ties']} ties in {lv['games']} games"
        )
        parts.append(
            f'<g class="errorbar" stroke="{colour}" stroke-width="1.5"><line x1="{x:.1f}" y1="{ylo:.1f}" x2="{x:.1f}" '
            f'y2="{yhi:.1f}"/><line x1="{x - 5:.1f}" y1="{ylo:.1f}" x2="{x + 5:.1f}" y2="{ylo:.1f}"/>'
            f'<line x1="{x - 5:.1f}" y1="{yhi:.1f}" x2="{x + 5:.1f}" y2="{yhi:.1f}"/></g>'
        )
        parts.append(
            f'<circle class="point" cx="{x:.1f}" cy="{yv:.1f}" r="5" fill="{colour}"><title>{escape(tip)}</title></circle>'
        )
        parts.append(
            f'<text x="{x + 8:.1f}" y="{label_y[i]:.1f}" fill="{colour}">{_pct(lv["share"])} (n={lv["decisive"]})</text>'
        )
    if len(points) > 1:
        parts.append(f'<polyline points="{" ".join(points)}" fill="none" stroke="{colour}" stroke-width="1.5"/>')


def seat_curve_chart(curves: Sequence[dict[str, Any]], width: int = 760, height: int = 340) -> str:
    """The share of decisive games the first seat won, per level, with 95% interval bars, a 50% line and the target zone."""
    levels = _levels(curves)
    left, right, top, bottom = 56.0, 12.0, 16.0, 48.0
    geo = {
        "left": left,
        "top": top,
        "plot_w": width - left - right,
        "plot_h": height - top - bottom,
        "width": float(width),
        "height": float(height),
        "levels": float(len(levels)),
    }
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
        'role="img" aria-label="Seat balance by skill"><title>Seat balance by skill</title>'
    ]
    _axes(parts, geo, levels, _zones(curves, levels))
    aligned = []
    for curve in curves:
        index = {lv["level"]: lv for lv in curve["levels"]}
        aligned.append(dict(curve, levels=[index.get(name, _empty(name)) for name in levels]))
    heights = _label_heights(aligned, geo)
    for k, curve in enumerate(aligned):
        _series(parts, geo, curve, COLOURS[k % len(COLOURS)], 10.0 * (k - (len(curves) - 1) / 2), heights[k])
    parts.append("</svg>")
    return "".join(parts)


#: the least distance between two labels at one level (pixels: a line of the chart's text)
LABEL_GAP = 12.0


def _label_heights(curves: Sequence[dict[str, Any]], geo: dict[str, float]) -> list[list[float]]:
    """Each curve's label height at each level: just above its point, moved apart (the lower ones down) where
    two curves' points at a level are closer than a line of text."""
    top, plot_h = geo["top"], geo["plot_h"]
    heights = [[0.0] * int(geo["levels"]) for _ in curves]
    for i in range(int(geo["levels"])):
        wanted = sorted(
            (top + plot_h * (1 - c["levels"][i]["share"]) - 6, k)
            for k, c in enumerate(curves)
            if c["levels"][i]["share"] is not None
        )
        last = -math.inf
        for y, k in wanted:
            heights[k][i] = last = max(y, last + LABEL_GAP)
    return heights


def _levels(curves: Sequence[dict[str, Any]]) -> list[str]:
    """Every curve's levels, in the order they first appear (the chart's columns)."""
    levels: list[str] = []
    for c in curves:
        for lv in c["levels"]:
            if lv["level"] not in levels:
                levels.append(lv["level"])
    return levels


def _empty(level: str) -> dict[str, Any]:
    return {"level": level, "share": None}


def _table(curve: dict[str, Any]) -> str:
    rows = [
        "<table><thead><tr><th>level</th><th>games</th><th>decisive</th><th>first seat won</th><th>ties</th>"
        "<th>first seat's share [95% CI]</th><th>p (share = 50%)</th></tr></thead><tbody>"
    ]
    for lv in curve["levels"]:
        lo, hi = lv["ci95"]
        sig = ' class="sig"' if lv["test"]["significant"] else ""
        rows.append(
            f"<tr{sig}><td>{escape(lv['level'])}</td><td>{lv['games']}</td><td>{lv['decisive']}</td>"
            f"<td>{lv['first_wins']}</td><td>{lv['ties']}</td><td>{_pct(lv['share'])} [{_pct(lo)}, {_pct(hi)}]</td>"
            f"<td>{_p(lv['test']['p_value'])}</td></tr>"
        )
    rows.append("</tbody></table>")
    return "".join(rows)


def trend_sentence(curve: dict[str, Any]) -> str:
    """The trend across levels in words (plain text, also for the terminal)."""
    trend = curve["trend"]
    if trend["test"] is None:
        return "trend across levels: needs decisive games at two levels or more"
    verdict = "significant" if trend["test"]["significant"] else "not significant"
    return (
        f"trend across levels: the first seat's share changes by {100 * trend['change']:+.1f} points from the first "
        f"level to the last (Cochran-Armitage trend test, z={trend['test']['statistic']:+.2f}, "
        f"{_p_is(trend['test']['p_value'])}: {verdict} at the 5% level)"
    )


#: how ``lehavre skill --seats`` plays its levels (the page's first note, unless another is given)
MIRROR_NOTE = (
    "Each level plays itself (the same level in both seats, noise on); game i of every level starts from the same "
    "set-up."
)


def render(
    curves: Sequence[dict[str, Any]],
    commands: Sequence[str] = (),
    title: str = "Seat balance by skill",
    note: str = MIRROR_NOTE,
    made: str | None = None,
) -> str:
    """The whole page: the curve, then per rule set its table and trend (``note``: how the games were played;
    ``made``: what the page says of when it was made, None: now)."""
    legend = "".join(
        f'<span><span class="swatch" style="background:{COLOURS[k % len(COLOURS)]}"></span>{escape(c.get("title") or c["rules"])}</span>'
        for k, c in enumerate(curves)
    )
    levels = _levels(curves)
    zones = _zones(curves, levels)
    if len(set(zones)) > 1:
        band = (
            "the green bands each level's target zone ("
            + ", ".join(f"{level} {zone_text(zone)}" for level, zone in zip(levels, zones, strict=True))
            + ")"
        )
    else:
        band = f"the green band the target zone {zone_text(zones[0] if zones else TARGET_ZONE)}"
    parts = [
        *page_head(title, commands, made),
        f'<p class="note">{escape(note)} The first seat is the starting player; a decisive game has one winner '
        f"(ties count for nobody). Bars are 95% Wilson intervals; the dashed line is 50%, {escape(band)}.</p>",
        f'<figure class="chart" id="{CHART_ID}">{seat_curve_chart(curves)}'
        f'<figcaption><div class="legend">{legend}</div>The first seat\'s share of decisive games per level.'
        "</figcaption></figure>",
    ]
    for curve in curves:
        noise = f", noise {curve['noise']:g}" if curve.get("noise") else ""
        parts += [
            f"<h2>{escape(curve.get('title') or curve['rules'])}{escape(noise)}</h2>",
            _table(curve),
            f"<p>{escape(trend_sentence(curve))}.</p>",
            f'<p class="note">{escape(first_upper(curve["paired"]))}.</p>',
        ]
    parts.append(
        '<p class="note">p (share = 50%): exact binomial test of the first seat\'s wins among the decisive games; '
        "highlighted rows are significant at the 5% level.</p></body></html>"
    )
    return "\n".join(parts)


def first_upper(text: str) -> str:
    """``text`` with its first letter capitalised (a sentence's start)."""
    return text[:1].upper() + text[1:]
