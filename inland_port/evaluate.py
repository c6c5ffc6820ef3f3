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
from itertools import compress
from operator import itemgetter
from pathlib import Path

from core.evalcache import WeightedSum, registered, remember
from core.weights import load_weights
from inland_port import effects
from inland_port.buildings import Catalog, Params, eval_count
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
GOOD_VALUE = 1.0
#: own actions needed to convert a full warehouse; fewer left scale goods down
CONVERT_ACTIONS = 4.0
#: the evaluation's terms, in order
TERMS = ("wealth", "goods", "wheel", "forced sale", "position", "tempo")
#: the file the weights are read from
WEIGHTS_PATH = Path(__file__).resolve().parent / "data" / "eval_weights.json"
#: each term's weight (see "Weights" above)
WEIGHTS: dict[str, float] = dict(load_weights(WEIGHTS_PATH, TERMS).weights)
#: francs a counter loses by standing on the right edge or the top row
EDGE_COST = WEIGHTS["position"]
#: share of a wheel building's next yield counted as already owned
WHEEL_SHARE = WEIGHTS["wheel"]
#: share of the best immediate gain counted for the player to move
TEMPO_SHARE = WEIGHTS["tempo"]
#: chance, by current sector (0, 2, 3, 4, 4+1), that a building is left
#: unused until it is sold in sector "!"
SALE_RISK = (0.05, 0.1, 0.2, 0.35, 0.6)

#: (catalog digest, building, sector, cells, purse) -> best yield; for a building whose effect is not an
#: exchange (catalog digest, building, sector, the cells its effect reads: :func:`_yield_reads`)
_YIELD_CACHE: dict[tuple[object, ...], float] = registered({})
_CACHE_LIMIT = 100_000


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
    for rr in range(r + 1, len(ACTIONS_PER_ROUND)):
        n = ACTIONS_PER_ROUND[rr]
        mine += (n + 1) // 2 if rr % 2 == player else n // 2
    return mine


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
_YIELD_READS: dict[str, tuple[YieldReads, ...]] = {}


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


#: per building (``_catalog_tables``): locked, sale loss, factory good index or -1,
#: cost (wood, clay, food, francs), build gain at printed cost, round index
BuildingInfo = tuple[bool, int, int, tuple[int, int, int, int], float, int]

#: catalog digest -> (the catalog, its buildings' info, each cell's blocked directions (right, up))
_CATALOG_INFO: dict[str, tuple[Catalog, tuple[BuildingInfo, ...], tuple[int, ...]]] = {}


def _catalog_tables(catalog: Catalog) -> tuple[tuple[BuildingInfo, ...], tuple[int, ...]]:
    """Per building its :data:`BuildingInfo`; per warehouse cell how many of "right" and "up" it cannot step."""
    info = _CATALOG_INFO.get(catalog.digest)
    if info is None:
        rows: list[BuildingInfo] = []
        for b in catalog.buildings:
            c = b.cost
            per = effects.GI[b.scoring.per_good] if b.scoring is not None and b.scoring.per_good else -1
            gain = b.value - GOOD_VALUE * (c.wood + c.clay + c.food) - c.francs
            rows.append(
                (b.locked, b.value - b.value // 2, per, (c.wood, c.clay, c.food, c.francs), gain, b.round_index)
            )
        wh = catalog.warehouse
        edges = tuple((not wh.can_step(cell, "right")) + (not wh.can_step(cell, "up")) for cell in range(wh.cells))
        info = _CATALOG_INFO[catalog.digest] = (catalog, tuple(rows), edges)
    return info[1], info[2]


#: (catalog digest, cells, purse up to 8) -> :func:`use_yield` of every building in every sector
#: (index ``5 * building + sector``), filled in as asked: one seat's yields all share the key
_YIELD_ROWS: dict[tuple[str, effects.Cells, int], list[float | None]] = registered({})
_ROWS_LIMIT = 20_000


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


def _build_gain(state: InlandState, player: int, info: tuple[BuildingInfo, ...]) -> float:
    """Best value-minus-cost of one build now (seeds/004, "Build").

    A quick bound: the cost is taken as exactly what is printed (paying
    without change may cost a little more) and affordability is checked on
    the amounts held."""
    amount = state.catalog.warehouse.amount
    fc, gc, wc, cc_ = state.cells[player]
    wood, clay = amount[wc], amount[cc_]
    food = amount[fc] + amount[gc]
    francs = state.francs[player]
    best = 0.0
    rnd = state.round
    for i in compress(range(len(info)), map(NO_OWNER.__eq__, state.owner)):  # the buildings not built
        _, _, _, (cw, cc, cf, cfr), gain, ri = info[i]
        if ri > rnd or gain <= best or cw > wood or cc > clay or cf > food or cfr > francs:
            continue
        best = gain
    return best


def _tempo(state: InlandState, player: int, info: tuple[BuildingInfo, ...]) -> float:
    """Best gain of one main action for ``player`` now (seeds/004, "Main phase")."""
    best = 0.0
    can_pay = state.francs[player] >= 1
    sector = state.sector
    row = _yield_row(state, player)
    owner = state.owner
    for i in compress(range(len(info)), sector):  # the buildings that can be used (not in sector 0)
        o = owner[i]
        if o == NO_OWNER or info[i][0]:
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
    return max(best, _build_gain(state, player, info))


#: one seat's non-wealth terms, in :data:`TERMS`' order (goods, wheel, forced sale, position, tempo)
SeatTerms = tuple[float, float, float, float, float]

_NO_TERMS: SeatTerms = (0.0, 0.0, 0.0, 0.0, 0.0)


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
    info, _ = _catalog_tables(state.catalog)
    return weights["tempo"] * _tempo(state, player, info)


def _own_terms(
    state: InlandState, player: int, weights: Mapping[str, float], left: int
) -> tuple[float, float, float, float]:
    """The ``goods``, ``wheel``, ``forced sale`` and ``position`` terms of a game not over: they read only
    the seat's own buildings, cells and purse, the round and ``left`` = ``actions_left(state, player)``."""
    info, edge_table = _catalog_tables(state.catalog)
    phase = min(1.0, left / CONVERT_ACTIONS)
    rounds_left = len(ACTIONS_PER_ROUND) - state.round  # round ends still to come
    factories: set[int] = set()
    w_wheel = weights["wheel"]
    wheel = 0.0
    sale = 0.0
    sector = state.sector
    row = _yield_row(state, player)
    for i in compress(range(len(info)), map(player.__eq__, state.owner)):  # the seat's buildings
        locked, loss, per, _, _, _ = info[i]
        if per >= 0:
            factories.add(per)
        if locked:
            continue
        sec = sector[i]
        if phase > 0:
            nxt = sec + 1 if sec < BONUS_SECTOR else BONUS_SECTOR
            y = row[5 * i + nxt]
            if y is None:
                y = _row_yield(row, state, player, i, nxt)
            wheel += w_wheel * phase * y
        if SALE_SECTOR - sec <= rounds_left:
            sale -= SALE_RISK[sec] * loss
    g_term = 0.0
    amount = state.catalog.warehouse.amount
    edges = 0
    good_phase = GOOD_VALUE * phase
    for gi, cell in enumerate(state.cells[player]):
        counted = 1.0 if gi in factories else 0.0
        g_term += max(0.0, good_phase - counted) * amount[cell]
        edges += edge_table[cell]
    return (
        weights["goods"] * g_term,
        wheel,
        weights["forced sale"] * sale,
        -weights["position"] * phase * edges,
    )


#: (weights, catalog digest, seat, round, own main actions left (up to CONVERT_ACTIONS: only the phase reads
#: them), the seat's cells and purse (up to 8, as the yields), its buildings and their sectors) ->
#: :func:`_own_terms`: all they read, so the opponent's moves that leave these alone find them here
_OWN_CACHE: dict[tuple[object, ...], tuple[float, float, float, float]] = registered({})
#: (weights, catalog digest, seat, round, the seat's cells and purse, owners, sectors) -> :func:`_tempo_term`
_TEMPO_CACHE: dict[tuple[object, ...], float] = registered({})

#: the shipped weights' place in a cache key (other weights are keyed by their values)
_WEIGHTS_KEY = tuple(WEIGHTS[t] for t in TERMS)

_CONVERT = int(CONVERT_ACTIONS)
assert _CONVERT == CONVERT_ACTIONS


def _seat_terms(
    state: InlandState,
    player: int,
    weights: Mapping[str, float],
    owners: tuple[int, ...],
    sectors: tuple[int, ...],
) -> SeatTerms:
    """:func:`_player_terms` of a game not over, through :data:`_OWN_CACHE` and :data:`_TEMPO_CACHE`
    (``owners``, ``sectors``: the state's, as tuples)."""
    wkey = _WEIGHTS_KEY if weights is WEIGHTS else tuple(weights[t] for t in TERMS)
    digest = state.catalog.digest
    left = actions_left(state, player)
    cells = state.cells[player]
    francs = state.francs[player]
    mine = tuple(map(player.__eq__, owners))
    key = (
        wkey,
        digest,
        player,
        state.round,
        left if left < _CONVERT else _CONVERT,
        cells,
        francs if francs < 8 else 8,
        tuple(compress(range(len(owners)), mine)),
        tuple(compress(sectors, mine)),
    )
    own = _OWN_CACHE.get(key)
    if own is None:
        own = remember(_OWN_CACHE, key, _own_terms(state, player, weights, left), _CACHE_LIMIT)
    tempo = 0.0
    if (state.turn if not state.acted else 1 - state.turn) == player:
        # the next main action is the mover's, or, once it has acted, the opponent's
        # (the last action of a round is the starting player's, and the next round starts with the other)
        tkey = (wkey, digest, player, state.round, cells, francs, owners, sectors)
        t = _TEMPO_CACHE.get(tkey)
        if t is None:
            t = remember(_TEMPO_CACHE, tkey, _tempo_term(state, player, weights), _CACHE_LIMIT)
        tempo = t
    return own[0], own[1], own[2], own[3], tempo


def evaluation_terms(state: InlandState, player: int, weights: Mapping[str, float] = WEIGHTS) -> dict[str, float]:
    """Named terms, each the margin of ``player`` over the opponent, with ``weights``."""
    return dict(zip(TERMS, _margins(state, player, weights, tuple(state.owner), tuple(state.sector)), strict=True))


def _margins(
    state: InlandState,
    player: int,
    weights: Mapping[str, float],
    owners: tuple[int, ...],
    sectors: tuple[int, ...],
) -> tuple[float, float, float, float, float, float]:
    """:func:`evaluation_terms`' values, in :data:`TERMS`' order."""
    w = wealth_with(state, owners)
    other = 1 - player
    if state.is_terminal():
        mine = theirs = _NO_TERMS
    else:
        mine = _seat_terms(state, player, weights, owners, sectors)
        theirs = _seat_terms(state, other, weights, owners, sectors)
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
    return sum(_margins(state, player, weights, tuple(state.owner), tuple(state.sector)))


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
    p = state.turn
    cat = state.catalog
    if state.acted:
        round_ends = state.actions_left == 1
        if round_ends and state.round == len(ACTIONS_PER_ROUND) - 1:
            return main
        other = 1 - p
        can_pay = state.francs[other] >= 1 or any(o == other for o in state.owner)
        useful = []
        for a in sells:
            i = cat.index[a.building]
            b = cat.buildings[i]
            after = state.sector[i] + (1 if round_ends else 0)
            if b.locked or not 0 < after < SALE_SECTOR or not can_pay:
                continue
            # worth denying only if the opponent's use (less the franc paid to me) gains more than the sale loses
            if use_yield(state, other, i, after) - 2.0 > b.value - b.value // 2:
                useful.append(a)
        return main + _in_catalog_order(state, useful)
    francs = state.francs[p]
    reserve = francs + sum(cat.buildings[i].value // 2 for i, o in enumerate(state.owner) if o == p)
    need = False
    for i in state.on_offer():
        c = cat.buildings[i].cost.francs
        if francs < c <= reserve:
            need = True
            break
    if not need and francs < 1:
        need = any(
            o not in (NO_OWNER, p) and not cat.buildings[i].locked and state.sector[i] > 0
            for i, o in enumerate(state.owner)
        )
    if not need:
        return main or legal
    return (main + _in_catalog_order(state, sells)) or legal


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
EVALUATOR = WeightedSum(TERMS, WEIGHTS, str(WEIGHTS_PATH), _value, evaluation_terms, _position, _CACHE_LIMIT).evaluator(
    search_actions
)
#: heuristic worth of a state for a seat (higher is better); the true wealth margin once the game is over.
#: Cached by position
evaluate = EVALUATOR.evaluate
