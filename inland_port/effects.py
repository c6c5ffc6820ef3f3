"""The Inland Port's building functions: six small effect functions.

Every building's data names one effect and its numbers (``params``); this
module is the one registry that turns (effect, params, sector value, choice)
into a new warehouse and purse.  Counts in ``params`` are expressions in the
sector value S (see ``buildings.eval_count``).

For each effect two functions: ``choices`` lists the distinct choices a
player has (deduplicated by outcome, so two choices that leave every counter
on the same cell and the same purse are offered once, the first in a fixed
order; two that leave a counter on different cells holding the same amount
are two choices, since where it stands decides its later moves), and
``run`` carries one out.  A choice is a tuple; its text form is made by
``choice_text``.

Counters are cells of the warehouse grid (``inland_port.warehouse``); every
move goes step by step and ends at the grid's edge.

Rulings carried here (visible in one place):
* A cost of one good moves its counter to a cell with the least
  overpayment; each such cell is a way to pay.  A food cost is paid from
  fish and/or grain in any split, each counter without change: every split
  of the cost into a fish share and a grain share, each share paid with the
  least overpayment its counter allows (so fish alone may overpay to keep
  grain where it is), a part that pays for nothing left out; and for each
  split every destination cell that pays exactly its part.
* In a repeated exchange (Wood Trader, Restaurant, Fish Market, Weekly
  Market) the player chooses how many times, 0 up to S; an exchange whose
  gain cannot be made (a counter at the grid's edge) is not offered, since it
  would be paid for nothing.
* Business Office: the player picks up to S different counters that can step
  down-left (5 francs per movement made); Masons' Guild and Guild Hall move
  exactly S different counters (all four in sector 4), steps off the grid lost.
* Farm: net S-1 steps up-right (the rulebook's "apply both against each other").
"""

from __future__ import annotations

import json
from collections.abc import Callable
from itertools import combinations, combinations_with_replacement, product
from typing import Any, Final

from core.evalcache import registered
from inland_port.buildings import GOODS, Params, eval_count
from inland_port.warehouse import Warehouse

Cells = tuple[int, int, int, int]  # the cells of fish, grain, wood, clay
Outcome = tuple[Cells, int]  # cells after, francs after
Choice = tuple[Any, ...]
#: a payment: (good, destination cell) for every counter that moves
Payment = tuple[tuple[str, int], ...]

GI: Final[dict[str, int]] = {g: i for i, g in enumerate(GOODS)}


def _moved(cells: Cells, good: str, direction: str, times: int, wh: Warehouse) -> Cells:
    i = GI[good]
    return cells[:i] + (wh.move(cells[i], direction, times),) + cells[i + 1 :]  # type: ignore[return-value]


def food_splits(fish_cell: int, grain_cell: int, cost: int, wh: Warehouse) -> list[tuple[int, int]]:
    """The amounts (fish, grain) a food cost can be paid with: for every split of ``cost`` into a fish
    share and a grain share, each counter pays its share with the least overpayment it allows.

    A part that is not needed (the other counter alone already covers the
    cost) is left out; least total overpayment first, then more from fish.
    """
    out: set[tuple[int, int]] = set()
    for share in range(cost + 1):
        fish = wh.least_payment(fish_cell, share)
        grain = wh.least_payment(grain_cell, cost - share)
        if fish is None or grain is None:
            continue
        if (fish and grain >= cost) or (grain and fish >= cost):
            continue  # one counter pays for nothing
        out.add((fish, grain))
    return sorted(out, key=lambda fg: (fg[0] + fg[1], -fg[0]))


def food_payments(cells: Cells, cost: int, wh: Warehouse) -> list[Payment]:
    """The ways to pay ``cost`` food from fish and grain: every split of :func:`food_splits`, and for
    each split every destination cell of each counter that pays exactly its part."""
    key = (cells[0], cells[1], cost)
    cache = _FOOD_CACHE.setdefault(wh.key, {})
    hit = cache.get(key)
    if hit is None:
        out: list[Payment] = []
        for split in food_splits(cells[0], cells[1], cost, wh):
            paid = dict(zip(("fish", "grain"), split, strict=True))
            parts = [[(g, d) for d in wh.destinations(cells[GI[g]], paid[g])] for g in ("fish", "grain") if paid[g]]
            out.extend(tuple(combo) for combo in product(*parts))
        hit = cache[key] = out
    return hit


_FOOD_CACHE: Final[dict[tuple[int, int], dict[tuple[int, int, int], list[Payment]]]] = registered({})


def good_payments(cells: Cells, good: str, cost: int, wh: Warehouse) -> list[Payment]:
    """The ways to pay ``cost`` of one good: each destination with the least overpayment."""
    cell = cells[GI[good]]
    paid = wh.least_payment(cell, cost)
    if paid is None:
        return []
    if paid == 0:
        return [()]
    return [((good, d),) for d in wh.destinations(cell, paid)]


def pay(cells: Cells, payment: Payment, wh: Warehouse) -> Cells:
    """Move the paying counters to their destinations (each must lie below-left of it)."""
    g = list(cells)
    for name, dest in payment:
        i = GI[name]
        r, c = wh.row_col(g[i])
        dr, dc = wh.row_col(dest)
        if dr > r or dc > c or dest == g[i]:
            raise ValueError(f"{name} at {wh.text(g[i])} cannot pay by moving to {wh.text(dest)}")
        g[i] = dest
    return tuple(g)  # type: ignore[return-value]


def payment_text(payment: Payment, wh: Warehouse) -> str:
    """The canonical text of a payment: where each counter goes, ``wood to 3+1``."""
    return ", ".join(f"{g} to {wh.text(d)}" for g, d in payment) if payment else "nothing"


def payment_moves(before: Cells, payment: Payment, cost: int, wh: Warehouse) -> str:
    """What a payment does, for people: ``wood 7 -> 4 (overpays 1)``."""
    if not payment:
        return "nothing"
    parts = [f"{g} {wh.amount[before[GI[g]]]} \u2192 {wh.amount[d]}" for g, d in payment]
    paid = sum(wh.amount[before[GI[g]]] - wh.amount[d] for g, d in payment)
    over = paid - cost
    return ", ".join(parts) + (f" (overpays {over})" if over > 0 else "")


# -- steps: fixed moves and francs --------------------------------------------


def _steps_run(p: Params, cells: Cells, francs: int, s: int, choice: Choice, wh: Warehouse) -> Outcome:
    for good, direction, count in p.get("steps", []):
        cells = _moved(cells, good, direction, eval_count(count, s), wh)
    return cells, francs + eval_count(p.get("francs", 0), s)


def _steps_choices(p: Params, cells: Cells, francs: int, s: int, wh: Warehouse) -> list[Choice]:
    return [()]


# -- choose_one: one good of a list, S steps --------------------------------------


def _choose_run(p: Params, cells: Cells, francs: int, s: int, choice: Choice, wh: Warehouse) -> Outcome:
    (good,) = choice
    return _moved(cells, good, p["direction"], eval_count(p["times"], s), wh), francs


def _choose_choices(p: Params, cells: Cells, francs: int, s: int, wh: Warehouse) -> list[Choice]:
    return [(g,) for g in p["goods"]]


# -- distribute: T single steps spread over any counters ----------------------------


def _distribute_run(p: Params, cells: Cells, francs: int, s: int, choice: Choice, wh: Warehouse) -> Outcome:
    if len(choice) != eval_count(p["times"], s):
        raise ValueError("wrong number of moves")
    for good in GOODS:
        n = choice.count(good)
        if n:
            cells = _moved(cells, good, p["direction"], n, wh)
    return cells, francs


def _distribute_choices(p: Params, cells: Cells, francs: int, s: int, wh: Warehouse) -> list[Choice]:
    return list(combinations_with_replacement(GOODS, eval_count(p["times"], s)))


def _distribute_outcomes(p: Params, cells: Cells, francs: int, s: int, wh: Warehouse) -> list[tuple[Choice, Outcome]]:
    """Every choice with its outcome (as :func:`_distribute_run`), each counter's moves made once."""
    direction = p["direction"]
    times = eval_count(p["times"], s)
    f, g, w, c = ([wh.move(cell, direction, n) for n in range(times + 1)] for cell in cells)
    return [
        (ch, ((f[ch.count("fish")], g[ch.count("grain")], w[ch.count("wood")], c[ch.count("clay")]), francs))
        for ch in combinations_with_replacement(GOODS, times)
    ]


# -- different: one step each for several different counters -------------------------


def _different_run(p: Params, cells: Cells, francs: int, s: int, choice: Choice, wh: Warehouse) -> Outcome:
    per = p.get("francs_per_move", 0)
    for good in choice:
        before = cells[GI[good]]
        cells = _moved(cells, good, p["direction"], 1, wh)
        if cells[GI[good]] != before:
            francs += per
    return cells, francs


def _different_choices(p: Params, cells: Cells, francs: int, s: int, wh: Warehouse) -> list[Choice]:
    k = min(eval_count(p["times"], s), len(GOODS))
    if p.get("optional"):
        movable = [g for g in GOODS if wh.can_step(cells[GI[g]], p["direction"])]
        return [c for n in range(min(k, len(movable)), -1, -1) for c in combinations(movable, n)]
    return list(combinations(GOODS, k))


# -- trade: up to S paid exchanges ----------------------------------------------------


def _trade_applications(p: Params, cells: Cells, francs: int, wh: Warehouse, fixed_good: str | None) -> list[Any]:
    """The ways to make one more exchange from here (each an application token)."""
    if francs < p.get("pay_francs", 0):
        return []
    gain = p.get("gain_step")
    if gain and not wh.can_step(cells[GI[gain[0]]], gain[1]):
        return []
    if "pay_step_goods" in p:
        goods_ok = [fixed_good] if fixed_good else p["pay_step_goods"]
        return [g for g in goods_ok if wh.can_step(cells[GI[g]], p.get("pay_step", "down"))]
    if p.get("pay_food"):
        return food_payments(cells, p["pay_food"], wh)
    return [()]


def _trade_apply_one(p: Params, cells: Cells, francs: int, app: Any, wh: Warehouse) -> Outcome:
    francs -= p.get("pay_francs", 0)
    if "pay_step_goods" in p:
        cells = _moved(cells, app, p.get("pay_step", "down"), 1, wh)
    elif p.get("pay_food"):
        cells = pay(cells, app, wh)
    gain = p.get("gain_step")
    if gain:
        cells = _moved(cells, gain[0], gain[1], 1, wh)
    return cells, francs + p.get("gain_francs", 0)


def _trade_run(p: Params, cells: Cells, francs: int, s: int, choice: Choice, wh: Warehouse) -> Outcome:
    if len(choice) > s:
        raise ValueError("too many exchanges")
    fixed = None
    for app in choice:
        options = _trade_applications(p, cells, francs, wh, fixed)
        if app not in options:
            raise ValueError("exchange not possible")
        if p.get("same_good"):
            fixed = app
        cells, francs = _trade_apply_one(p, cells, francs, app, wh)
    return cells, francs


def _trade_outcomes(p: Params, cells: Cells, francs: int, s: int, wh: Warehouse) -> list[tuple[Choice, Outcome]]:
    """Every choice with its outcome (as :func:`_trade_run`, which replays the exchanges one by one)."""
    out: list[tuple[Choice, Outcome]] = [((), (cells, francs))]
    frontier: list[tuple[Choice, Cells, int, str | None]] = [((), cells, francs, None)]
    for _ in range(s):
        nxt = []
        for choice, g, f, fixed in frontier:
            for app in _trade_applications(p, g, f, wh, fixed):
                g2, f2 = _trade_apply_one(p, g, f, app, wh)
                c2 = choice + (app,)
                out.append((c2, (g2, f2)))
                nxt.append((c2, g2, f2, app if p.get("same_good") else None))
        frontier = nxt
    return out


def _trade_choices(p: Params, cells: Cells, francs: int, s: int, wh: Warehouse) -> list[Choice]:
    return [c for c, _ in _trade_outcomes(p, cells, francs, s, wh)]


# -- none: lock buildings -------------------------------------------------------------


def _none_run(p: Params, cells: Cells, francs: int, s: int, choice: Choice, wh: Warehouse) -> Outcome:
    raise ValueError("a building without a function cannot be used")


def _none_choices(p: Params, cells: Cells, francs: int, s: int, wh: Warehouse) -> list[Choice]:
    return []


#: ``run(params, cells, francs, sector value, choice, warehouse)``: the cells and francs after
RunFn = Callable[[Params, Cells, int, int, Choice, Warehouse], Outcome]
#: ``choices(params, cells, francs, sector value, warehouse)``: every choice, in a fixed order
ChoicesFn = Callable[[Params, Cells, int, int, Warehouse], list[Choice]]

#: the one registry: effect name -> (choices, run)
REGISTRY: Final[dict[str, tuple[ChoicesFn, RunFn]]] = {
    "steps": (_steps_choices, _steps_run),
    "choose_one": (_choose_choices, _choose_run),
    "distribute": (_distribute_choices, _distribute_run),
    "different": (_different_choices, _different_run),
    "trade": (_trade_choices, _trade_run),
    "none": (_none_choices, _none_run),
}

#: ``outcomes(params, cells, francs, sector value, warehouse)``: every choice with its outcome, in the
#: choices' order, for effects where that is cheaper than running each choice
OutcomesFn = Callable[[Params, Cells, int, int, Warehouse], list[tuple[Choice, Outcome]]]
OUTCOMES: Final[dict[str, OutcomesFn]] = {"distribute": _distribute_outcomes, "trade": _trade_outcomes}


def run_effect(effect: str, p: Params, cells: Cells, francs: int, s: int, choice: Choice, wh: Warehouse) -> Outcome:
    return REGISTRY[effect][1](p, cells, francs, s, choice, wh)


_CHOICE_CACHE: Final[dict[tuple[Any, Cells, int, int, tuple[int, int]], list[tuple[Choice, tuple[Cells, int]]]]] = (
    registered({})
)
_CHOICE_CACHE_LIMIT: Final = 50_000


def effect_outcomes(
    effect: str, p: Params, cells: Cells, francs: int, s: int, wh: Warehouse, pkey: Any = None
) -> list[tuple[Choice, tuple[Cells, int]]]:
    """:func:`effect_choices` with each outcome's francs as the change from ``francs`` (shared, read only)."""
    need = p.get("pay_francs", 0) * s if effect == "trade" else 0
    fkey = francs if francs < need else need
    if pkey is None:
        pkey = (effect, json.dumps(p, sort_keys=True))
    key = (pkey, cells, fkey, s, wh.key)
    hit = _CHOICE_CACHE.get(key)
    if hit is None:
        choices_fn, run_fn = REGISTRY[effect]
        seen: set[Outcome] = set()
        hit = []
        outcomes = OUTCOMES.get(effect)
        if outcomes is not None:
            pairs = outcomes(p, cells, fkey, s, wh)
        else:
            pairs = [(c, run_fn(p, cells, fkey, s, c, wh)) for c in choices_fn(p, cells, fkey, s, wh)]
        for c, o in pairs:
            if o not in seen:
                seen.add(o)
                hit.append((c, (o[0], o[1] - fkey)))
        if len(_CHOICE_CACHE) > _CHOICE_CACHE_LIMIT:
            _CHOICE_CACHE.clear()
        _CHOICE_CACHE[key] = hit
    return hit


def effect_choices(
    effect: str, p: Params, cells: Cells, francs: int, s: int, wh: Warehouse, pkey: Any = None
) -> list[tuple[Choice, Outcome]]:
    """Distinct (choice, outcome) pairs, one per distinct outcome, in a fixed order.

    Cached by the building's parameters, the cells, the sector value and the
    francs that can matter (only an exchange paid in francs looks at the
    purse, and never at more than S payments): the search asks the same
    questions many times.  ``pkey`` is the effect and parameters as a
    hashable value (``Catalog.params_keys``); without it they are frozen here."""
    return [(c, (c2, francs + d)) for c, (c2, d) in effect_outcomes(effect, p, cells, francs, s, wh, pkey)]


def choice_text(effect: str, p: Params, choice: Choice, wh: Warehouse) -> str:
    """The canonical text of a choice (after ``use <Building>: ``), '' if none."""
    if effect == "steps":
        return ""
    if effect == "choose_one":
        good: str = choice[0]
        return good
    if effect == "distribute":
        parts = []
        for g in GOODS:
            n = choice.count(g)
            if n:
                parts.append(g if n == 1 else f"{g} x{n}")
        return ", ".join(parts)
    if effect == "different":
        return ", ".join(choice) if choice else "none"
    if effect == "trade":
        if not choice:
            return "x0"
        if "pay_step_goods" in p:
            return f"{choice[0]} x{len(choice)}"
        if p.get("pay_food"):
            return "; ".join(payment_text(app, wh) for app in choice)
        return f"x{len(choice)}"
    return ""
