"""The HTML report of a balancing search: what changed, and the targets before and after.

Self-contained like the playtest report (:mod:`core.lab.report`, whose styles and
SVG charts it reuses): the changed fields, the first seat's share and every
building's built and owner-win rates before and after with 95% Wilson
intervals (on the search's games and on each check's fresh games), and the
search's path.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

from core.lab import report as rp
from core.lab.balance.measures import Measures, Targets
from core.lab.balance.search import Result
from core.lab.report import escape

_STYLE = (
    rp.CSS
    + "td.miss { background: #fde2e2; font-weight: 600; } td.ok { background: #e4f5e4; }\nth[colspan] { text-align: center; }\n"
)


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _ci(rate: tuple[float, float, float] | None) -> str:
    return "–" if rate is None else f"{_pct(rate[0])} [{_pct(rate[1])}, {_pct(rate[2])}]"


def _first(m: Measures) -> str:
    lo, hi = m.first_ci()
    return f"{_pct(m.first_share)} [{_pct(lo)}, {_pct(hi)}] of {m.decisive}"


def _changes_table(result: Result) -> str:
    fields = {f.key: f for f in result.fields}
    rows = "".join(
        f"<tr><td>{escape(k)}</td><td>{fields[k].value}</td><td>{v}</td><td>{v - fields[k].value:+d}</td>"
        f"<td>{escape(fields[k].source)}</td></tr>"
        for k, v in result.best.changes
    )
    if not rows:
        return "<p>No field changed: no candidate came closer to the targets than the data as given.</p>"
    return (
        '<table id="changes"><thead><tr><th>field</th><th>before</th><th>after</th><th>change</th>'
        f"<th>source before</th></tr></thead><tbody>{rows}</tbody></table>"
    )


def _targets_table(rows: Sequence[tuple[str, Measures, Measures]], t: Targets) -> str:
    body = []
    for label, a, b in rows:
        cells = []
        for m in (a, b):
            ok = t.first_low <= m.first_share <= t.first_high
            rare = sum(1 for kind, _n, _o in m.misses if kind == "rarely built")
            strong = sum(1 for kind, _n, _o in m.misses if kind == "owner wins")
            cells.append(
                f'<td class="{"ok" if ok else "miss"}">{_first(m)}</td><td>{rare}</td><td>{strong}</td>'
                f'<td class="{"ok" if not m.penalty else "miss"}">{m.penalty:.3f}</td>'
            )
        body.append(f"<tr><td>{escape(label)} ({a.games} games each)</td>{''.join(cells)}</tr>")
    sub = "<th>first seat, share of decisive</th><th>rarely built</th><th>owner wins too often</th><th>distance</th>"
    return (
        '<table id="targets"><thead><tr><th></th><th colspan="4">before</th><th colspan="4">after</th></tr>'
        f"<tr><th>games</th>{sub}{sub}</tr></thead><tbody>{''.join(body)}</tbody></table>"
    )


def _buildings_table(a: Measures, b: Measures, t: Targets, table_id: str) -> str:
    rows = []
    for name in sorted(a.buildings):
        cells = []
        for m in (a, b):
            built, owner = m.built_rate(name), m.owner_rate(name)
            cells.append(f'<td class="{"miss" if built[0] < t.min_built else ""}">{_ci(built)}</td>')
            strong = any(kind == "owner wins" and n == name for kind, n, _o in m.misses)
            cells.append(f'<td class="{"miss" if strong else ""}">{_ci(owner)}</td>')
        rows.append(f"<tr><td>{escape(name)}</td>{''.join(cells)}</tr>")
    return (
        f'<table id="{table_id}"><thead><tr><th></th><th colspan="2">before</th><th colspan="2">after</th></tr>'
        "<tr><th>building</th><th>built</th><th>owner won</th><th>built</th><th>owner won</th></tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table>"
    )


def _path_table(result: Result) -> str:
    rows = [
        f"<tr><td>0</td><td>the data as given</td><td>–</td><td>{_first(result.base)}</td><td>{result.base.penalty:.3f}</td></tr>"
    ]
    rows += [
        f"<tr><td>{s.round}</td><td>{escape(s.move)}</td><td>{s.tried}</td><td>{_first(s.measures)}</td>"
        f"<td>{s.measures.penalty:.3f}</td></tr>"
        for s in result.steps
    ]
    return (
        '<table id="path"><thead><tr><th>round</th><th>move</th><th>candidates tried</th>'
        f"<th>first seat</th><th>distance</th></tr></thead><tbody>{''.join(rows)}</tbody></table>"
    )


def _first_chart(rows: Sequence[tuple[str, Measures, Measures]], t: Targets) -> str:
    series = [
        (when, [m.first_share for m in ms], [m.first_ci() for m in ms])
        for when, ms in (("before", [a for _l, a, _b in rows]), ("after", [b for _l, _a, b in rows]))
    ]
    svg = rp.grouped_bars(
        [label for label, _a, _b in rows],
        series,
        y_max=1.0,
        percent=True,
        y_label="first seat's share of decisive games",
        title="First seat before and after",
    )
    legend = "".join(
        f'<span><i class="swatch" style="background:{rp.COLOURS[i]}"></i>{w}</span>'
        for i, w in enumerate(("before", "after"))
    )
    return (
        f'<figure class="chart" id="chart-first-seat"><p class="legend">{legend}</p>{svg}<figcaption>The first '
        f"seat's share of the decisive games with 95% Wilson intervals; the target is "
        f"{_pct(t.first_low)}–{_pct(t.first_high)}.</figcaption></figure>"
    )


def render(result: Result, title: str, commands: Sequence[str] = (), out_file: str = "") -> str:
    s, t = result.settings, result.settings.targets
    rows = [("search games", result.base, result.best_measures)]
    rows += [(f"check: {agents}", a, b) for agents, _n, a, b in result.checks]
    made = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{escape(title)}</title><style>{_STYLE}</style></head><body>",
        f"<h1>{escape(title)}</h1>",
        f'<p class="note">Made {made} by run {escape(s.run_name())}. '
        + " ".join(f"<code>{escape(c)}</code>" for c in commands)
        + "</p>",
        f"<p>Targets: {escape(t.describe())}. Agents {escape(','.join(s.agents))}; every candidate played the same "
        f"games (seed {s.seed}, game i with its own seed and the seats rotated by i), up to {s.games} each; "
        f"{s.candidates} candidates a round; {result.used} of a budget of {s.budget} games used. "
        f"Stopped: {escape(result.stop)}."
        + (f" The balanced data is in <code>{escape(out_file)}</code>." if out_file else "")
        + "</p>",
        "<h2>Changed data</h2>",
        _changes_table(result),
        "<h2>Targets before and after</h2>",
        '<p class="note">The search games chose the data, so their "after" figures flatter it; a check plays '
        "fresh games that the search never saw. Distance: how far from every target, summed (0 meets them all).</p>",
        _targets_table(rows, t),
        _first_chart(rows, t),
    ]
    for i, (label, a, b) in enumerate(rows):
        parts += [
            f"<h2>Buildings: {escape(label)}</h2>",
            '<p class="note">built: share of games in which it was built or bought; owner won: share of the games '
            "someone owned it at the end that its owner won; 95% Wilson intervals; red: off target (the owner's "
            "rate is judged as (won + 1) / (owned + 2), so that a building owned in a few games is not judged on "
            "them alone).</p>",
            _buildings_table(a, b, t, f"buildings-{i}"),
        ]
    parts += ["<h2>The search</h2>", _path_table(result), "</body></html>"]
    return "\n".join(parts)
