"""Heuristic evaluation of an Inland Port position for the search (core/search.py).

``evaluate(state, player)`` is the sum of :func:`evaluation_terms`, each term
a margin (the player's part minus the opponent's), in francs.  At the end of
the game every term but ``wealth`` is zero, so the evaluation equals the true
wealth margin (seeds/004, "End of the game": building values plus francs).

Terms (each computed for both seats, reported as player minus opponent):

``wealth``
    The true wealth if the game ended now: francs plus built buildings'
    values, with factories and the Dock at their current worth
    (``state.wealth()``).
``goods``
    What the warehouse will still turn into: every good is worth
    ``GOOD_VALUE`` francs (the reconstructed buildings pay about 2 francs of
    value per good of cost, and the money buildings about 1.25, so 1 leaves a
    profit for building), scaled by ``phase`` = min(1, own actions left /
    ``CONVERT_ACTIONS``) because goods need actions to be converted.  Goods a
    factory of one's own already counts at 1 each are not counted again (only
    the part above 1, if any).
``wheel``
    What one's usable buildings on the wheel will yield: for every own
    building with a function, ``WHEEL_SHARE`` of the best yield of using it
    in the sector it will be in next round (sector value S of seeds/004's
    "Use"; yield = goods gained at ``GOOD_VALUE`` each plus francs, best over
    the building's choices, for the owner's warehouse), times ``phase``.
``forced sale``
    Minus the value lost when a building ages into sector "!" before the game
    ends and is sold for half its value (seeds/004, "End of the round"),
    weighted by how likely it is to be left unused that long
    (``SALE_RISK`` by current sector).
``position``
    Where the counters stand, beyond their amounts (several cells hold the
    same amount; seeds/004, "The meaning of the symbols"): a counter on the
    grid's right edge gains nothing from a "right" building, one on the top
    row nothing from "up".  ``EDGE_COST`` francs per blocked direction and
    counter, times ``phase``.
``tempo``
    For the player to move only: ``TEMPO_SHARE`` of the best gain one main
    action can make now -- the best yield of using any usable building (an
    opponent's costs 1 franc, paid to the opponent) or of building one (value
    minus goods spent).  Seen from the other seat it is what the opponent can
    take next.

The yields of a building's effect are computed by the effect functions of
``inland_port.effects`` (no rule is re-implemented here) and cached.

Weights
-------
Each term is multiplied by its weight, read from ``data/eval_weights.json``
(:data:`WEIGHTS`, with their provenance; :mod:`core.lab.tuning` fits them from
self-play): ``wheel`` is ``WHEEL_SHARE``, ``position`` ``EDGE_COST`` and
``tempo`` ``TEMPO_SHARE``; the others multiply the term as described.
:func:`features` are the terms with every weight 1, so the evaluation is
``sum(WEIGHTS[t] * features[t])``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from operator import itemgetter
from typing import Final, final

from core.evalcache import WeightedSum, registered, remember
from core.weights import load_weights
from inland_port import effects
from inland_port.buildings import DEFAULT_PATH, Catalog, Params, eval_count
from inland_port.state import (
    ACTIONS_PER_ROUND,
    BONUS_SECTOR,
    NO_OWNER,
    SALE_SECTOR,
    SECTOR_VALUES,
    InlandAction,
    InlandState,
    PositionKey,
    wealth_with,
)
from inland_port.warehouse import Warehouse

#: francs one good is worth while it can still be turned into buildings
GOOD_VALUE: Final = 1.0
#: own actions needed to convert a full warehouse; fewer left scale goods down
CONVERT_ACTIONS: Final = 4.0
#: the evaluation's terms, in order
TERMS: Final = ("wealth", "goods", "wheel", "forced sale", "position", "tempo")
#: the file the weights are read from
# (beside the building file: a compiled module's ``__file__`` names the compiled library, not this file)
WEIGHTS_PATH: Final = DEFAULT_PATH.resolve().parent / "eval_weights.json"
#: each term's weight (see "Weights" above)
WEIGHTS: Final[dict[str, float]] = dict(load_weights(WEIGHTS_PATH, TERMS).weights)
#: francs a counter loses by standing on the right edge or the top row
EDGE_COST: Final = WEIGHTS["position"]
#: share of a wheel building's next yield counted as already owned
WHEEL_SHARE: Final = WEIGHTS["wheel"]
#: share of the best immediate gain counted for the player to move
TEMPO_SHARE: Final = WEIGHTS["tempo"]
#: chance, by current sector (0, 2, 3, 4, 4+1), that a building is left
#: unused until it is sold in sector "!"
SALE_RISK: Final = (0.05, 0.1, 0.2, 0.35, 0.6)

#: (catalog digest, building, sector, cells, purse) -> best yield; for a building whose effect is not an
#: exchange (catalog digest, building, sector, the cells its effect reads: :func:`_yield_reads`)
_YIELD_CACHE: Final[dict[tuple[object, ...], float]] = registered({})
_CACHE_LIMIT: Final = 100_000


def actions_left(state: InlandState, player: int) -> int:
    """Main actions ``player`` still takes in the game (REFERENCE.md: 3,3,3,5,...;
    the starting player of a round takes one more, and it alternates)."""
    if state.is_terminal():
        return 0
    r = state.round
    left = state.actions_left
    first = state.turn
    if state.acted:  # the mover's action is taken; the rest of the round starts with the other
        left -= 1
        first = 1 - first
    # in the current round the seats alternate, starting with the one to move
    mine = (left + 1) // 2 if first == player else left // 2
    return mine + _LATER_ACTIONS[r][player]


#: per round and seat, the seat's main actions in the rounds after it (the starting player of a round
#: takes one more, and it alternates: seat 0 starts the even rounds)
_LATER_ACTIONS: Final = tuple(
    tuple(
        sum((n + 1) // 2 if rr % 2 == seat else n // 2 for rr, n in enumerate(ACTIONS_PER_ROUND) if rr > r)
        for seat in (0, 1)
    )
    for r in range(len(ACTIONS_PER_ROUND))
)


def _worth(amount: tuple[int, ...], cells: tuple[int, ...], francs: int) -> float:
    return GOOD_VALUE * (amount[cells[0]] + amount[cells[1]] + amount[cells[2]] + amount[cells[3]]) + francs


def use_yield(state: InlandState, player: int, i: int, sector: int) -> float:
    """Best gain (francs, goods at GOOD_VALUE) of ``player`` using building ``i``
    as if it stood in ``sector`` (1..4), with ``player``'s warehouse and purse."""
    cells = state.cells[player]
    purse = state.francs[player] + (1 if sector == BONUS_SECTOR else 0)
    if purse > 8:
        purse = 8
    digest = state.catalog.digest
    reads = _YIELD_READS.get(digest)
    if reads is None:
        reads = _YIELD_READS[digest] = _yield_reads(state.catalog)
    read, pay = reads[i]
    key: tuple[object, ...]
    if read is None:
        key = (digest, i, sector, cells, purse)
    elif pay < 0:
        key = (digest, i, sector, read(cells))
    else:  # an exchange paid in francs looks at no more than S payments' worth of the purse
        need = pay * (SECTOR_VALUES[sector] or 0)
        key = (digest, i, sector, read(cells), purse if purse < need else need)
    hit = _YIELD_CACHE.get(key)
    if hit is not None:
        return hit
    return remember(_YIELD_CACHE, key, _compute_yield(state.catalog, i, sector, cells, purse), _CACHE_LIMIT)


#: what a building's yield reads: the part of the cells (None: all cells and the purse), and for an
#: exchange the francs paid per exchange (the purse up to S times that), else -1
YieldReads = tuple[Callable[[effects.Cells], object] | None, int]

#: catalog digest -> per building its :data:`YieldReads`
_YIELD_READS: Final[dict[str, tuple[YieldReads, ...]]] = {}


def _no_cells(cells: effects.Cells) -> object:
    return ()


def _all_cells(cells: effects.Cells) -> object:
    return cells


def _yield_reads(catalog: Catalog) -> tuple[YieldReads, ...]:
    """What :func:`_compute_yield` reads for each building: the cells of the counters its effect moves,
    and for an exchange paid in francs the purse up to what S exchanges cost (the gain of an outcome is
    a whole number of francs, the same whatever the other counters and the rest of the purse)."""
    out: list[YieldReads] = []
    for b in catalog.buildings:
        goods: list[str]
        p = b.params
        if GOOD_VALUE != 1.0:
            out.append((None, -1))
            continue
        if b.effect == "trade":
            goods = list(p.get("pay_step_goods", []))
            if p.get("pay_food"):
                goods += ["fish", "grain"]
            if p.get("gain_step"):
                goods.append(p["gain_step"][0])
            idx = sorted({effects.GI[g] for g in goods})
            out.append((itemgetter(*idx) if idx else _no_cells, int(p.get("pay_francs", 0))))
            continue
        if b.effect == "steps":
            goods = [g for g, _, _ in b.params.get("steps", [])]
        elif b.effect == "choose_one":
            goods = list(b.params["goods"])
        elif b.effect == "none":
            goods = []
        else:
            out.append((_all_cells, -1))
            continue
        idx = sorted({effects.GI[g] for g in goods})
        out.append((itemgetter(*idx) if idx else _no_cells, -1))
    return tuple(out)


def _compute_yield(catalog: Catalog, i: int, sector: int, cells: effects.Cells, purse: int) -> float:
    """:func:`use_yield` without its cache (``purse`` already with the franc of 4+1 and capped)."""
    b = catalog.buildings[i]
    s = SECTOR_VALUES[sector] or 0
    wh = catalog.warehouse
    amount = wh.amount
    if b.effect != "trade" and GOOD_VALUE == 1.0:
        # every outcome's gain is a whole number of francs: the best one, computed counter by counter, is
        # exactly the float the loop below finds
        best = float(_best_gain(b.effect, b.params, cells, s, wh))
    else:
        base = _worth(amount, cells, purse)
        best = 0.0
        for _, (c2, d) in effects.effect_outcomes(b.effect, b.params, cells, purse, s, wh, catalog.params_keys[i]):
            best = max(best, _worth(amount, c2, purse + d) - base)
    if sector == BONUS_SECTOR:
        best += 1.0  # the franc of sector 4+1 (seeds/004, "Shipping Line": 1 more)
    return best


def _best_gain(effect: str, p: Params, cells: effects.Cells, s: int, wh: Warehouse) -> int:
    """The best gain (goods moved up at 1 franc each, plus francs; at least 0) of an effect that is not an
    exchange, over all its choices (:mod:`inland_port.effects`), each counter's moves looked at once."""
    amount = wh.amount
    if effect == "steps":
        c2, d = effects.run_effect(effect, p, cells, 0, s, (), wh)
        gain = amount[c2[0]] + amount[c2[1]] + amount[c2[2]] + amount[c2[3]] + d
        return max(0, gain - amount[cells[0]] - amount[cells[1]] - amount[cells[2]] - amount[cells[3]])
    if effect == "choose_one":
        times = eval_count(p["times"], s)
        direction: str = p["direction"]
        best = 0
        for g in p["goods"]:
            c = cells[effects.GI[g]]
            best = max(best, amount[wh.move(c, direction, times)] - amount[c])
        return best
    if effect == "distribute":
        return _distribute_gain(p, cells, s, wh)
    if effect == "different":
        return _different_gain(p, cells, s, wh)
    return 0  # no function


def _distribute_gain(p: Params, cells: effects.Cells, s: int, wh: Warehouse) -> int:
    """Best of T single steps spread over the counters (``distribute``)."""
    amount = wh.amount
    direction: str = p["direction"]
    times = eval_count(p["times"], s)
    # best[k]: the best gain of k steps over the counters seen so far
    best: list[int] | None = None
    for c in cells:
        gains = [amount[wh.move(c, direction, n)] - amount[c] for n in range(times + 1)]
        if best is None:
            best = gains
        else:
            prev = best
            best = [max(prev[k - n] + gains[n] for n in range(k + 1)) for k in range(times + 1)]
    assert best is not None
    return max(0, best[times])


def _different_gain(p: Params, cells: effects.Cells, s: int, wh: Warehouse) -> int:
    """Best of one step for each of several different counters (``different``)."""
    amount = wh.amount
    direction: str = p["direction"]
    k = min(eval_count(p["times"], s), len(cells))
    per: int = p.get("francs_per_move", 0)
    gains = []
    for c in cells:
        nxt = wh.step(c, direction)
        if nxt != c:
            gains.append(amount[nxt] - amount[c] + per)
        elif not p.get("optional"):
            gains.append(0)  # a counter that cannot step is still one of the k (nothing happens)
    gains.sort(reverse=True)
    if p.get("optional"):  # up to k of the counters that can step
        best = total = 0
        for g in gains[:k]:
            total += g
            best = max(best, total)
        return best
    return max(0, sum(gains[:k]))


@final
class _Tables:
    """What the evaluation reads of a catalog, per building and per warehouse cell, in lists (made once)."""

    def __init__(self, catalog: Catalog) -> None:
        bs = catalog.buildings
        self.catalog: Final = catalog
        #: per building: a lock building (no function)
        self.locked: Final = [b.locked for b in bs]
        #: per building: its sale price (half its value, rounded down) and the value a sale loses
        self.price: Final = [b.value // 2 for b in bs]
        self.loss: Final = [b.value - b.value // 2 for b in bs]
        #: per building: the good a factory counts (its index), or -1
        self.factory: Final = [
            effects.GI[b.scoring.per_good] if b.scoring is not None and b.scoring.per_good else -1 for b in bs
        ]
        #: per building: its printed cost
        self.wood: Final = [b.cost.wood for b in bs]
        self.clay: Final = [b.cost.clay for b in bs]
        self.food: Final = [b.cost.food for b in bs]
        self.francs: Final = [b.cost.francs for b in bs]
        #: per building: value minus goods spent at the printed cost
        self.gain: Final = [
            b.value - GOOD_VALUE * (b.cost.wood + b.cost.clay + b.cost.food) - b.cost.francs for b in bs
        ]
        #: per building: the round it enters the game
        self.round_index: Final = [b.round_index for b in bs]
        wh = catalog.warehouse
        #: per cell: its amount, and how many of "right" and "up" it cannot step
        self.amount: Final = list(wh.amount)
        self.edges: Final = [int(not wh.can_step(c, "right")) + int(not wh.can_step(c, "up")) for c in range(wh.cells)]


#: catalog digest -> its :class:`_Tables`
_CATALOG_INFO: Final[dict[str, _Tables]] = {}


def _catalog_tables(catalog: Catalog) -> _Tables:
    """The :class:`_Tables` of ``catalog``."""
    info = _CATALOG_INFO.get(catalog.digest)
    if info is None:
        info = _CATALOG_INFO[catalog.digest] = _Tables(catalog)
    return info


#: (catalog digest, cells, purse up to 8) -> :func:`use_yield` of every building in every sector
#: (index ``5 * building + sector``), filled in as asked: one seat's yields all share the key
_YIELD_ROWS: Final[dict[tuple[str, effects.Cells, int], list[float | None]]] = registered({})
_ROWS_LIMIT: Final = 20_000


def _yield_row(state: InlandState, player: int) -> list[float | None]:
    """The row of :data:`_YIELD_ROWS` for ``player``'s warehouse and purse (use_yield caps the purse at 8)."""
    francs = state.francs[player]
    key = (state.catalog.digest, state.cells[player], francs if francs < 8 else 8)
    row = _YIELD_ROWS.get(key)
    if row is None:
        if len(_YIELD_ROWS) > _ROWS_LIMIT:
            _YIELD_ROWS.clear()
        row = _YIELD_ROWS[key] = [None] * (5 * len(state.catalog))
    return row


def _row_yield(row: list[float | None], state: InlandState, player: int, i: int, sector: int) -> float:
    """``use_yield(state, player, i, sector)`` through ``player``'s row."""
    y = row[5 * i + sector]
    if y is None:
        y = row[5 * i + sector] = use_yield(state, player, i, sector)
    return y


def _build_gain(state: InlandState, player: int, t: _Tables) -> float:
    """Best value-minus-cost of one build now (seeds/004, "Build").

    A quick bound: the cost is taken as exactly what is printed (paying
    without change may cost a little more) and affordability is checked on
    the amounts held."""
    amount = t.amount
    fc, gc, wc, cc_ = state.cells[player]
    wood, clay = amount[wc], amount[cc_]
    food = amount[fc] + amount[gc]
    francs = state.francs[player]
    best = 0.0
    rnd = state.round
    owner = state.owner
    gains = t.gain
    for i in range(len(owner)):
        if owner[i] != NO_OWNER:
            continue  # only the buildings not built
        gain = gains[i]
        if (
            t.round_index[i] > rnd
            or gain <= best
            or t.wood[i] > wood
            or t.clay[i] > clay
            or t.food[i] > food
            or t.francs[i] > francs
        ):
            continue
        best = gain
    return best


def _tempo(state: InlandState, player: int, t: _Tables) -> float:
    """Best gain of one main action for ``player`` now (seeds/004, "Main phase")."""
    best = 0.0
    can_pay = state.francs[player] >= 1
    sector = state.sector
    row = _yield_row(state, player)
    owner = state.owner
    locked = t.locked
    for i in range(len(owner)):
        if sector[i] == 0:
            continue  # only the buildings that can be used (not in sector 0)
        o = owner[i]
        if o == NO_OWNER or locked[i]:
            continue
        sec = sector[i]
        y = row[5 * i + sec]
        if y is None:
            y = _row_yield(row, state, player, i, sec)
        if o != player:
            if can_pay:
                y -= 2.0
                if y > best:
                    best = y
        elif y > best:
            best = y
    return max(best, _build_gain(state, player, t))


#: one seat's non-wealth terms, in :data:`TERMS`' order (goods, wheel, forced sale, position, tempo)
SeatTerms = tuple[float, float, float, float, float]

_NO_TERMS: Final[SeatTerms] = (0.0, 0.0, 0.0, 0.0, 0.0)


def player_terms(state: InlandState, player: int, weights: Mapping[str, float] = WEIGHTS) -> dict[str, float]:
    """The non-wealth terms for one seat (see the module docstring), with ``weights``."""
    return dict(zip(TERMS[1:], _player_terms(state, player, weights), strict=True))


def _player_terms(state: InlandState, player: int, weights: Mapping[str, float]) -> SeatTerms:
    """:func:`player_terms` as a tuple."""
    if state.is_terminal():
        return _NO_TERMS
    own = _own_terms(state, player, weights, actions_left(state, player))
    next_main = state.turn if not state.acted else 1 - state.turn
    tempo = _tempo_term(state, player, weights) if next_main == player else 0.0
    return own[0], own[1], own[2], own[3], tempo


def _tempo_term(state: InlandState, player: int, weights: Mapping[str, float]) -> float:
    """The ``tempo`` term of the seat that takes the next main action."""
    return weights["tempo"] * _tempo(state, player, _catalog_tables(state.catalog))


def _own_terms(
    state: InlandState, player: int, weights: Mapping[str, float], left: int
) -> tuple[float, float, float, float]:
    """The ``goods``, ``wheel``, ``forced sale`` and ``position`` terms of a game not over: they read only
    the seat's own buildings, cells and purse, the round and ``left`` = ``actions_left(state, player)``."""
    t = _catalog_tables(state.catalog)
    phase = min(1.0, left / CONVERT_ACTIONS)
    rounds_left = len(ACTIONS_PER_ROUND) - state.round  # round ends still to come
    factories = 0  # a bit per good a factory of the seat counts
    w_wheel = weights["wheel"]
    wheel = 0.0
    sale = 0.0
    sector = state.sector
    row = _yield_row(state, player)
    owner = state.owner
    for i in range(len(owner)):
        if owner[i] != player:
            continue  # only the seat's buildings
        per = t.factory[i]
        if per >= 0:
            factories |= 1 << per
        if t.locked[i]:
            continue
        sec = sector[i]
        if phase > 0:
            nxt = sec + 1 if sec < BONUS_SECTOR else BONUS_SECTOR
            y = row[5 * i + nxt]
            if y is None:
                y = _row_yield(row, state, player, i, nxt)
            wheel += w_wheel * phase * y
        if SALE_SECTOR - sec <= rounds_left:
            sale -= SALE_RISK[sec] * t.loss[i]
    g_term = 0.0
    amount = t.amount
    edge_table = t.edges
    edges = 0
    good_phase = GOOD_VALUE * phase
    for gi, cell in enumerate(state.cells[player]):
        counted = 1.0 if factories >> gi & 1 else 0.0
        g_term += max(0.0, good_phase - counted) * amount[cell]
        edges += edge_table[cell]
    return (
        weights["goods"] * g_term,
        wheel,
        weights["forced sale"] * sale,
        -weights["position"] * phase * edges,
    )


#: one seat's ``goods``, ``wheel``, ``forced sale`` and ``position`` terms (:func:`_own_terms`)
OwnTerms = tuple[float, float, float, float]


@final
class _SeatCaches:
    """The caches of one seat's terms for one set of weights and one catalog:

    ``own``: (seat, round, own main actions left (up to CONVERT_ACTIONS: only the phase reads them), the
    seat's cells and purse (up to 8, as the yields), its :func:`holdings`) -> :func:`_own_terms`: all they
    read, so the opponent's moves that leave these alone find them here;
    ``tempo``: (seat, round, the seat's cells and purse, both seats' holdings) -> :func:`_tempo_term`."""

    def __init__(self, wkey: tuple[float, ...], digest: str) -> None:
        self.wkey: Final = wkey
        self.digest: Final = digest
        self.own: dict[tuple[object, ...], OwnTerms] = {}
        self.tempo: dict[tuple[object, ...], float] = {}


#: (weights' values, catalog digest) -> their caches (at most :data:`_WEIGHT_SETS` sets of weights: the
#: tuner asks with many)
_SEAT_CACHES: Final[dict[tuple[tuple[float, ...], str], _SeatCaches]] = {}
_WEIGHT_SETS: Final = 16
#: the shipped weights' place in a cache key (other weights are keyed by their values)
_WEIGHTS_KEY: Final = tuple(WEIGHTS[t] for t in TERMS)
#: the caches used last (the search asks with one set of weights and one catalog)
_last = _SeatCaches(_WEIGHTS_KEY, "")

_CONVERT: Final = int(CONVERT_ACTIONS)
assert _CONVERT == CONVERT_ACTIONS


@final
class _EverySeatCache:
    """Every seat's caches (:data:`_SEAT_CACHES` and the last used), emptied together."""

    def clear(self) -> None:
        for caches in (*_SEAT_CACHES.values(), _last):
            caches.own.clear()
            caches.tempo.clear()
        _SEAT_CACHES.clear()


_EVERY_SEAT_CACHE: Final = registered(_EverySeatCache())


def _seat_caches(weights: Mapping[str, float], digest: str) -> _SeatCaches:
    """The caches for ``weights`` and the catalog ``digest``."""
    global _last
    wkey = _WEIGHTS_KEY if weights is WEIGHTS else tuple(weights[t] for t in TERMS)
    last = _last
    if (last.wkey is wkey or last.wkey == wkey) and last.digest == digest:
        return last
    hit = _SEAT_CACHES.get((wkey, digest))
    if hit is None:
        if len(_SEAT_CACHES) >= _WEIGHT_SETS:
            _EVERY_SEAT_CACHE.clear()
        hit = _SEAT_CACHES[(wkey, digest)] = _SeatCaches(wkey, digest)
    _last = hit
    return hit


def holdings(state: InlandState) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Each seat's buildings with their sectors, ``8 * building + sector`` in catalog order."""
    mine: list[int] = []
    theirs: list[int] = []
    owner = state.owner
    sector = state.sector
    for i in range(len(owner)):
        o = owner[i]
        if o == 0:
            mine.append(8 * i + sector[i])
        elif o == 1:
            theirs.append(8 * i + sector[i])
    return tuple(mine), tuple(theirs)


def _seat_terms(
    state: InlandState,
    player: int,
    weights: Mapping[str, float],
    caches: _SeatCaches,
    held: tuple[tuple[int, ...], tuple[int, ...]],
) -> SeatTerms:
    """:func:`_player_terms` of a game not over, through ``caches`` (``held``: :func:`holdings`)."""
    left = actions_left(state, player)
    cells = state.cells[player]
    francs = state.francs[player]
    key = (
        player,
        state.round,
        left if left < _CONVERT else _CONVERT,
        cells,
        francs if francs < 8 else 8,
        held[player],
    )
    own = caches.own.get(key)
    if own is None:
        own = remember(caches.own, key, _own_terms(state, player, weights, left), _CACHE_LIMIT)
    tempo = 0.0
    if (state.turn if not state.acted else 1 - state.turn) == player:
        # the next main action is the mover's, or, once it has acted, the opponent's
        # (the last action of a round is the starting player's, and the next round starts with the other)
        tkey = (player, state.round, cells, francs, held[0], held[1])
        t = caches.tempo.get(tkey)
        if t is None:
            t = remember(caches.tempo, tkey, _tempo_term(state, player, weights), _CACHE_LIMIT)
        tempo = t
    return own[0], own[1], own[2], own[3], tempo


def evaluation_terms(state: InlandState, player: int, weights: Mapping[str, float] = WEIGHTS) -> dict[str, float]:
    """Named terms, each the margin of ``player`` over the opponent, with ``weights``."""
    return dict(zip(TERMS, _margins(state, player, weights), strict=True))


def _margins(
    state: InlandState, player: int, weights: Mapping[str, float]
) -> tuple[float, float, float, float, float, float]:
    """:func:`evaluation_terms`' values, in :data:`TERMS`' order."""
    w = wealth_with(state, tuple(state.owner))
    other = 1 - player
    if state.is_terminal():
        mine = theirs = _NO_TERMS
    else:
        caches = _seat_caches(weights, state.catalog.digest)
        held = holdings(state)
        mine = _seat_terms(state, player, weights, caches, held)
        theirs = _seat_terms(state, other, weights, caches, held)
    return (
        weights["wealth"] * float(w[player] - w[other]),
        mine[0] - theirs[0],
        mine[1] - theirs[1],
        mine[2] - theirs[2],
        mine[3] - theirs[3],
        mine[4] - theirs[4],
    )


def _value(state: InlandState, player: int, weights: Mapping[str, float]) -> float:
    """The evaluation with ``weights``: the sum of :func:`evaluation_terms`."""
    return sum(_margins(state, player, weights))


def _position(state: InlandState) -> tuple[str, PositionKey]:
    """All the evaluation reads of a position: its key and the buildings in use."""
    return state.catalog.digest, state.key()


def search_actions(state: InlandState) -> list[InlandAction]:
    """The legal actions worth searching (a subset; never empty).

    Selling (seeds/004, "Sell") turns a building's value into half as many
    francs.  Before the main action it only pays when the francs are needed
    now: to build a building paid in francs that is out of reach, or to use
    an opponent's building without a franc in hand.  After the main action,
    selling a building instead of keeping it to the start of one's next turn
    changes something only if the opponent could use it in between (it has
    a function and stands, after the round ends if it ends now, in a sector
    from 2 to 4+1, the opponent can pay the franc, and the game goes on); of
    those, only the sales whose denial could pay are searched: the
    opponent's best gain from using the building, less the 2 francs the use
    moves between us, exceeds what the sale loses (value minus sale price).
    Within one turn sales come in catalog order (selling A then B and B then
    A lead to the same position).  Main actions are all kept.
    """
    legal = state.legal_actions()
    sells = [a for a in legal if a.verb == "sell"]
    if not sells:
        return legal
    main = [a for a in legal if a.verb != "sell"]
    if state.acted:
        return _after_main_action(state, main, sells)
    p = state.turn
    t = _catalog_tables(state.catalog)
    owner = state.owner
    francs = state.francs[p]
    reserve = francs
    for i in range(len(owner)):
        if owner[i] == p:
            reserve += t.price[i]
    need = False
    for i in state.on_offer():
        c = t.francs[i]
        if francs < c <= reserve:
            need = True
            break
    if not need and francs < 1:
        for i in range(len(owner)):
            o = owner[i]
            if o != NO_OWNER and o != p and not t.locked[i] and state.sector[i] > 0:
                need = True
                break
    if not need:
        return main or legal
    return (main + _in_catalog_order(state, sells)) or legal


def _after_main_action(state: InlandState, main: list[InlandAction], sells: list[InlandAction]) -> list[InlandAction]:
    """:func:`search_actions` once the mover has taken its main action: the sales whose denial could pay."""
    round_ends = state.actions_left == 1
    if round_ends and state.round == len(ACTIONS_PER_ROUND) - 1:
        return main
    cat = state.catalog
    t = _catalog_tables(cat)
    other = 1 - state.turn
    can_pay = state.francs[other] >= 1 or other in state.owner
    useful = []
    for a in sells:
        i = cat.index[a.building]
        after = state.sector[i] + (1 if round_ends else 0)
        if t.locked[i] or not 0 < after < SALE_SECTOR or not can_pay:
            continue
        # worth denying only if the opponent's use (less the franc paid to me) gains more than the sale loses
        if use_yield(state, other, i, after) - 2.0 > t.loss[i]:
            useful.append(a)
    return main + _in_catalog_order(state, useful)


def _in_catalog_order(state: InlandState, sells: list[InlandAction]) -> list[InlandAction]:
    """The sales after the building sold just before, in catalog order."""
    last = state.history[-1] if state.history else ""
    floor = -1
    if last.startswith("sell "):
        name = last[5:]
        if name in state.catalog.index and state.owner[state.catalog.index[name]] == NO_OWNER:
            floor = state.catalog.index[name]
    return [a for a in sells if state.catalog.index[a.building] > floor]


#: the Inland Port's one evaluator (its RULESET declares it; the search and the agents take it): the evaluation
#: (a weighted sum of :data:`TERMS`, cached by position), its terms, the actions worth searching, its tuning
EVALUATOR: Final = WeightedSum(
    TERMS, WEIGHTS, str(WEIGHTS_PATH), _value, evaluation_terms, _position, _CACHE_LIMIT
).evaluator(search_actions)
#: heuristic worth of a state for a seat (higher is better); the true wealth margin once the game is over.
#: Cached by position
evaluate = EVALUATOR.evaluate
