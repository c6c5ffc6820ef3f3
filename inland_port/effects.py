"""The Inland Port's building functions: six small effect functions.

Every building's data names one effect and its numbers (``params``); this
module is the one registry that turns (effect, params, sector value, choice)
into a new warehouse and purse.  Counts in ``params`` are expressions in the
sector value S (see ``buildings.eval_count``).

For each effect two functions: ``choices`` lists the distinct choices a
player has (deduplicated by outcome, so two choices that leave the same
warehouse and purse are offered once, the first in a fixed order), and
``run`` carries one out.  A choice is a tuple; its text form is made by
``choice_text``.

Rulings carried here (REFERENCE.md [dec], visible in one place):
* A food cost is paid from fish and/or grain in any split, each counter
  without change (``core.payment``); the distinct minimal ways are offered.
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

from collections.abc import Callable
from functools import lru_cache
from itertools import combinations, combinations_with_replacement
from typing import Any

from core.payment import cheapest_payment, payment_options
from inland_port.buildings import GOODS, eval_count
from inland_port.warehouse import can_step, move, payable_amounts, step

Goods = tuple[int, int, int, int]  # fish, grain, wood, clay
Outcome = tuple[Goods, int]  # goods after, francs after
Choice = tuple[Any, ...]

GI = {g: i for i, g in enumerate(GOODS)}


def _moved(goods: Goods, good: str, direction: str, times: int, rows: int) -> Goods:
    i = GI[good]
    g = list(goods)
    g[i] = move(g[i], direction, times, rows)
    return tuple(g)  # type: ignore[return-value]


def food_payments(goods: Goods, cost: int) -> list[tuple[tuple[str, int], ...]]:
    """Distinct minimal ways to pay ``cost`` food from fish and grain."""
    return list(_food_payments(goods[0], goods[1], cost))


@lru_cache(maxsize=None)
def _food_payments(fish: int, grain: int, cost: int) -> tuple[tuple[tuple[str, int], ...], ...]:
    ways = payment_options({"fish": payable_amounts(fish), "grain": payable_amounts(grain)}, cost)
    return tuple(tuple((g, w[g]) for g in ("fish", "grain") if w.get(g)) for w in ways)


@lru_cache(maxsize=None)
def least_payment(amount: int, cost: int) -> int | None:
    """What one counter at ``amount`` pays, least wastefully, for ``cost`` (None: cannot)."""
    way = cheapest_payment({"x": payable_amounts(amount)}, cost)
    return None if way is None else way.get("x", 0)


def pay_goods(goods: Goods, payment: tuple[tuple[str, int], ...]) -> Goods:
    g = list(goods)
    for name, amount in payment:
        i = GI[name]
        if amount not in payable_amounts(g[i]):
            raise ValueError(f"{name} at {g[i]} cannot pay exactly {amount}")
        g[i] -= amount
    return tuple(g)  # type: ignore[return-value]


def payment_text(payment: tuple[tuple[str, int], ...]) -> str:
    return " + ".join(f"{g} {n}" for g, n in payment) if payment else "nothing"


# -- steps: fixed moves and francs --------------------------------------------


def _steps_run(p: dict, goods: Goods, francs: int, s: int, choice: Choice, rows: int) -> Outcome:
    for good, direction, count in p.get("steps", []):
        goods = _moved(goods, good, direction, eval_count(count, s), rows)
    return goods, francs + eval_count(p.get("francs", 0), s)


def _steps_choices(p: dict, goods: Goods, francs: int, s: int, rows: int) -> list[Choice]:
    return [()]


# -- choose_one: one good of a list, S steps --------------------------------------


def _choose_run(p: dict, goods: Goods, francs: int, s: int, choice: Choice, rows: int) -> Outcome:
    (good,) = choice
    return _moved(goods, good, p["direction"], eval_count(p["times"], s), rows), francs


def _choose_choices(p: dict, goods: Goods, francs: int, s: int, rows: int) -> list[Choice]:
    return [(g,) for g in p["goods"]]


# -- distribute: T single steps spread over any counters ----------------------------


def _distribute_run(p: dict, goods: Goods, francs: int, s: int, choice: Choice, rows: int) -> Outcome:
    if len(choice) != eval_count(p["times"], s):
        raise ValueError("wrong number of moves")
    for good in GOODS:
        n = choice.count(good)
        if n:
            goods = _moved(goods, good, p["direction"], n, rows)
    return goods, francs


def _distribute_choices(p: dict, goods: Goods, francs: int, s: int, rows: int) -> list[Choice]:
    return list(combinations_with_replacement(GOODS, eval_count(p["times"], s)))


# -- different: one step each for several different counters -------------------------


def _different_run(p: dict, goods: Goods, francs: int, s: int, choice: Choice, rows: int) -> Outcome:
    per = p.get("francs_per_move", 0)
    for good in choice:
        before = goods[GI[good]]
        goods = _moved(goods, good, p["direction"], 1, rows)
        if goods[GI[good]] != before:
            francs += per
    return goods, francs


def _different_choices(p: dict, goods: Goods, francs: int, s: int, rows: int) -> list[Choice]:
    k = min(eval_count(p["times"], s), len(GOODS))
    if p.get("optional"):
        movable = [g for g in GOODS if can_step(goods[GI[g]], p["direction"], rows)]
        return [c for n in range(min(k, len(movable)), -1, -1) for c in combinations(movable, n)]
    return list(combinations(GOODS, k))


# -- trade: up to S paid exchanges ----------------------------------------------------


def _trade_applications(p: dict, goods: Goods, francs: int, rows: int, fixed_good: str | None) -> list[Any]:
    """The ways to make one more exchange from here (each an application token)."""
    if francs < p.get("pay_francs", 0):
        return []
    gain = p.get("gain_step")
    if gain and not can_step(goods[GI[gain[0]]], gain[1], rows):
        return []
    if "pay_step_goods" in p:
        goods_ok = [fixed_good] if fixed_good else p["pay_step_goods"]
        return [g for g in goods_ok if can_step(goods[GI[g]], p.get("pay_step", "down"), rows)]
    if p.get("pay_food"):
        return food_payments(goods, p["pay_food"])
    return [()]


def _trade_apply_one(p: dict, goods: Goods, francs: int, app: Any, rows: int) -> Outcome:
    francs -= p.get("pay_francs", 0)
    if "pay_step_goods" in p:
        goods = _moved(goods, app, p.get("pay_step", "down"), 1, rows)
    elif p.get("pay_food"):
        goods = pay_goods(goods, app)
    gain = p.get("gain_step")
    if gain:
        goods = _moved(goods, gain[0], gain[1], 1, rows)
    return goods, francs + p.get("gain_francs", 0)


def _trade_run(p: dict, goods: Goods, francs: int, s: int, choice: Choice, rows: int) -> Outcome:
    if len(choice) > s:
        raise ValueError("too many exchanges")
    fixed = None
    for app in choice:
        options = _trade_applications(p, goods, francs, rows, fixed)
        if app not in options:
            raise ValueError("exchange not possible")
        if p.get("same_good"):
            fixed = app
        goods, francs = _trade_apply_one(p, goods, francs, app, rows)
    return goods, francs


def _trade_choices(p: dict, goods: Goods, francs: int, s: int, rows: int) -> list[Choice]:
    out: list[Choice] = [()]
    frontier: list[tuple[Choice, Goods, int, str | None]] = [((), goods, francs, None)]
    for _ in range(s):
        nxt = []
        for choice, g, f, fixed in frontier:
            for app in _trade_applications(p, g, f, rows, fixed):
                g2, f2 = _trade_apply_one(p, g, f, app, rows)
                c2 = choice + (app,)
                out.append(c2)
                nxt.append((c2, g2, f2, app if p.get("same_good") else None))
        frontier = nxt
    return out


# -- none: lock buildings -------------------------------------------------------------


def _none_run(p: dict, goods: Goods, francs: int, s: int, choice: Choice, rows: int) -> Outcome:
    raise ValueError("a building without a function cannot be used")


def _none_choices(p: dict, goods: Goods, francs: int, s: int, rows: int) -> list[Choice]:
    return []


RunFn = Callable[[dict, Goods, int, int, Choice, int], Outcome]
ChoicesFn = Callable[[dict, Goods, int, int, int], list[Choice]]

#: the one registry: effect name -> (choices, run)
REGISTRY: dict[str, tuple[ChoicesFn, RunFn]] = {
    "steps": (_steps_choices, _steps_run),
    "choose_one": (_choose_choices, _choose_run),
    "distribute": (_distribute_choices, _distribute_run),
    "different": (_different_choices, _different_run),
    "trade": (_trade_choices, _trade_run),
    "none": (_none_choices, _none_run),
}


def run_effect(effect: str, p: dict, goods: Goods, francs: int, s: int, choice: Choice, rows: int) -> Outcome:
    return REGISTRY[effect][1](p, goods, francs, s, choice, rows)


def effect_choices(effect: str, p: dict, goods: Goods, francs: int, s: int, rows: int) -> list[tuple[Choice, Outcome]]:
    """Distinct (choice, outcome) pairs, one per distinct outcome, in a fixed order."""
    choices_fn, run_fn = REGISTRY[effect]
    seen: set[Outcome] = set()
    out = []
    for c in choices_fn(p, goods, francs, s, rows):
        o = run_fn(p, goods, francs, s, c, rows)
        if o not in seen:
            seen.add(o)
            out.append((c, o))
    return out


def choice_text(effect: str, p: dict, choice: Choice) -> str:
    """The canonical text of a choice (after ``use <Building>: ``), '' if none."""
    if effect == "steps":
        return ""
    if effect == "choose_one":
        return choice[0]
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
            return "; ".join(payment_text(app) for app in choice)
        return f"x{len(choice)}"
    return ""
