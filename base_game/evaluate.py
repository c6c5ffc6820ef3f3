"""Heuristic evaluation of a base-game position for the search (core/search.py).

``evaluate(state, player)`` is the sum of :func:`evaluation_terms`.  Every
term is computed for each seat in francs and reported as a *margin*: the
player's part minus the best other player's (by their whole score; alone, in
the solo game, the player's part itself).  Once the game is over every term
but ``wealth`` is zero, so the evaluation is the true wealth margin
(seeds/000, "Game end and winner": francs, building and ship values, bonuses,
minus 7 per loan).

Terms (per seat):

``wealth``
    The wealth if the game ended now (``state.wealth_breakdown``): francs,
    buildings' values, ships' values, the bonuses of Bank / Town Hall / Dock /
    Storehouse, and -7 francs per loan (so a loan taken costs 3 francs net at
    once: 4 francs in, 7 out).
``goods``
    What the goods held will still turn into.  Each non-food good is worth
    ``GOOD_WORTH`` francs (about its shipping value, seeds/000 "Shipping
    Line", and what buildings pay for it) times ``GOODS_SHARE`` (turning a
    good into francs or a building costs actions) times ``phase`` =
    min(1, own turns left / ``CONVERT_TURNS``): goods are worth nothing at
    the end (seeds/000 "Game end and winner"), so they must be used in time.
``food``
    Food in hand against the food still due.  ``due now`` is this round's
    feeding (round card minus the food the player's ships supply; during the
    feeding itself, what is still unpaid) and ``due later`` the same for each
    later round with the ships owned now.  Food goods (fish 1, smoked fish 2,
    bread 2, meat 3, seeds/000 Setup 4 "Goods and food tokens") count at
    their food value up to the whole need and at ``SURPLUS_FOOD`` per point (times ``phase``) beyond it;
    the term is food value held minus each round's due times its weight: ``FUTURE_FOOD`` (food can still be fetched cheaply)
    rising linearly to 1 over the last ``FOOD_WEIGHT_TURNS`` turns before that
    feeding, so that nothing jumps when a round ends (a search line that
    crosses the feeding is not favoured over one that stops before it).
    So a ship is worth its value plus at least ``FUTURE_FOOD`` times
    the food it saves in every round left (ships' timing: the earlier, the
    more it saves), and eating is never forgotten at the horizon.
``loan risk``
    If food goods plus francs do not cover ``due now`` (seeds/000, "Feeding
    phase": each franc counts as 1 food), the player will have to borrow
    (seeds/000, "Loan cards"): minus ``LOAN_EXTRA`` per franc short (a loan
    brings 4 francs and costs 7, plus the aversion below) and ``LOAN_FIXED``
    once no own turn is left before the feeding.  The same check for this
    round and the next together, allowing ``FOOD_PER_TURN`` per own turn
    until then, weighs ``NEXT_ROUND_SHARE``.
``loans``
    Interest still to pay (minus ``INTEREST_PER_ROUND`` per loan and round
    left: interest is due when an interest supply tile comes up, seeds/000
    "Supply Action") and ``LOAN_AVERSION`` per loan: borrowing is avoided
    beyond its cost in francs, and repaying (5 francs for 7) is welcome.
``energy``
    Part of ``goods`` kept apart for the explanations: wood, charcoal, coal
    and coke are also energy for ships and upgrades.
``buildings``
    Income of owned buildings with an action: using one's own costs no
    entry fee, and others pay theirs to the owner.  ``BUILDING_SHARE`` of the
    building's value (``WHARF_SHARE`` for the wharves, which build ships)
    while at least ``USE_TURNS`` own turns are left, fading to 0 at the end.
``ship fund``
    Francs saved toward a ship: ``SHIP_FUND_SHARE`` more per franc, up to the
    price of the best ship one can buy now or after this round (seeds/000
    "Buying"; "Ships are very important!") if its value plus ``FUTURE_FOOD``
    times the food it saves in the rounds left exceeds its price.  Buying
    takes several turns of saving, beyond the search's horizon.
``tempo``
    The player to move, before its main action, is a turn ahead: ``TEMPO``
    francs (so positions at the horizon compare fairly whoever moves next).

Weights
-------
Each term is multiplied by its weight, read from ``data/eval_weights.json``
(:data:`WEIGHTS`, with their provenance; :mod:`core.lab.tuning` fits them from
self-play): ``goods`` and ``energy`` are ``GOODS_SHARE`` (one weight each),
``ship fund`` is ``SHIP_FUND_SHARE`` and ``tempo`` is ``TEMPO``; the others
multiply the term as described.  :func:`features` are the terms with every
weight 1, so the evaluation is ``sum(WEIGHTS[t] * features[t])``.
"""

from __future__ import annotations

from collections.abc import Mapping
from operator import methodcaller, mul
from typing import TYPE_CHECKING, Final

from base_game import cards as K
from base_game.actions import BaseAction
from base_game.data import DATA_DIR
from base_game.effects import EFFECTS
from base_game.frames import Debt, FinishRound, Pay, Sub, Turn
from base_game.payments import PAY_LIMIT
from core.evalcache import WeightedSum
from core.weights import load_weights

if TYPE_CHECKING:
    from base_game.data import RoundCard
    from base_game.state import BaseState

#: francs a good is worth while there is time to use it (index by good)
GOOD_WORTH: Final = [0.0] * K.NG
for _g, _v in (
    (K.FISH, 1.0),
    (K.SMOKED_FISH, 2.0),
    (K.WOOD, 1.0),
    (K.CHARCOAL, 1.5),
    (K.CLAY, 1.0),
    (K.BRICK, 2.0),
    (K.IRON, 2.0),
    (K.STEEL, 7.0),
    (K.GRAIN, 1.0),
    (K.BREAD, 2.0),
    (K.CATTLE, 1.5),
    (K.MEAT, 2.5),
    (K.HIDES, 1.5),
    (K.LEATHER, 3.5),
    (K.COAL, 2.0),
    (K.COKE, 4.0),
):
    GOOD_WORTH[_g] = _v
FOOD_GOODS: Final = tuple(g for g, _ in K.FOOD_SOURCES)
ENERGY_GOODS: Final = frozenset(g for g, _ in K.ENERGY_SOURCES)
OTHER_GOODS: Final = tuple(g for g in range(K.NG) if g not in FOOD_GOODS)
TERMS: Final = ("wealth", "goods", "energy", "food", "loan risk", "loans", "buildings", "ship fund", "tempo")
#: the file the weights are read from
# beside the data files (a compiled module's ``__file__`` names the compiled library, not this file)
WEIGHTS_PATH: Final = DATA_DIR.resolve() / "eval_weights.json"
#: each term's weight (see "Weights" above)
WEIGHTS: Final[dict[str, float]] = dict(load_weights(WEIGHTS_PATH, TERMS).weights)
#: share of GOOD_WORTH counted (converting goods takes actions)
GOODS_SHARE: Final = WEIGHTS["goods"]
#: own turns needed to use up a stock of goods; fewer left scale goods down
CONVERT_TURNS: Final = 4.0
#: weight of the food due in later rounds (food can still be fetched cheaply)
FUTURE_FOOD: Final = 0.6
#: turns (of all players) over which a later feeding's weight rises from
#: FUTURE_FOOD to 1, so the evaluation does not jump when a round ends
FOOD_WEIGHT_TURNS: Final = 14.0
#: value per food point held beyond the whole need (times phase)
SURPLUS_FOOD: Final = 0.5
#: food one own turn can still fetch before the round ends (conservative)
FOOD_PER_TURN: Final = 2.0
#: cost per franc that a loan must cover, beyond the franc itself: a loan
#: brings 4 francs and costs 7 (3 per 4 francs) plus ``LOAN_AVERSION``
LOAN_EXTRA: Final = 1.5
#: cost of being forced to borrow at all
LOAN_FIXED: Final = 5.0
#: extra cost per loan held, beyond its 7 francs: loans are avoided (issue 5
#: asks for an AI that feeds its workers, not one that borrows to play on)
LOAN_AVERSION: Final = 2.0
#: weight of the next round's loan risk
NEXT_ROUND_SHARE: Final = 0.5
#: interest per loan and round left
INTEREST_PER_ROUND: Final = 0.5
#: share of an action building's value counted as its future income
BUILDING_SHARE: Final = 0.25
#: the same for the wharves, which build ships (food for every round left)
WHARF_SHARE: Final = 0.6
#: own turns left under which building income fades
USE_TURNS: Final = 12.0
#: extra worth of a franc saved toward a ship that would pay for itself
SHIP_FUND_SHARE: Final = WEIGHTS["ship fund"]
#: worth of being the player about to take a main action
TEMPO: Final = WEIGHTS["tempo"]


#: per building: ``BUILDING_SHARE`` (``WHARF_SHARE`` for the wharves) of its value if it has an action, else None
_INCOME: Final[tuple[float | None, ...]] = tuple(
    K.VALUE[b] * (WHARF_SHARE if b in K.WHARVES else BUILDING_SHARE) if K.EFFECT[b] != "none" else None
    for b in range(K.NB)
)


def _ship_fund(s: BaseState, p: int, francs: int, later: list[int]) -> float:
    """The francs (up to the price; ``SHIP_FUND_SHARE`` each) toward the best ship to
    buy (seeds/000 "Buying": ships in the piles, plus the one this round's
    card will add) whose value and saved food exceed its price."""
    if francs <= 0 or not later:
        return 0.0
    types = {t for t in ("wooden", "iron", "steel") if s.ship_piles[t]}
    if s.round_index < len(s.round_ship):
        types.add(s.ship_cards[s.round_ship[s.round_index]][0])
    n1 = s.num_players - 1
    best_price = 0
    best_gain = 0.0
    for t in types:
        st = s.ship_types[t]
        if st.buy_price is None:
            continue
        food = st.food[n1]
        saved = 0
        for due in later:  # min(due, ship's food) per round (a native loop when compiled)
            saved += due if due < food else food
        gain = FUTURE_FOOD * saved + 4 - st.buy_price
        if gain > best_gain:
            best_gain, best_price = gain, st.buy_price
    if not best_price:
        return 0.0
    return float(min(francs, best_price))


def _turn_counts(s: BaseState, p: int) -> tuple[float, int]:
    """(own turns left in the game incl. the final action, own turns left before this round's feeding)."""
    n = s.num_players
    if s.over:
        return 0.0, 0
    if s.final_stage:
        mine = 1 if any(fr.kind == "final" and fr.player == p for fr in s.stack) else 0
        return float(mine), 0
    left_in_round = max(0, 7 - s.turn_in_round)
    in_round = 0
    for k in range(1, left_in_round + 1):
        if (s.turn_player + k) % n == p:
            in_round += 1
    if s.turn_player == p and any(fr.kind == "main" and fr.player == p for fr in s.stack):
        in_round += 1
    later_rounds = len(s.rounds) - s.round_index - 1
    total = in_round + later_rounds * 7.0 / n + 1.0  # + the final action
    return total, in_round


def _feeding(s: BaseState, p: int) -> tuple[int, int, list[int], list[float]]:
    """(food due now, francs due now (interest pending), food due in each later
    round, the weights of this round's food and of each later round's)."""
    if s.over or s.final_stage:
        return 0, 0, [], [1.0]
    ship_food = s.ship_food(p)
    rounds = s.rounds
    stack = s.stack
    francs_due = 0
    feeding = False
    due_food = 0
    for fr in stack:
        if isinstance(fr, FinishRound):
            feeding = True
        elif isinstance(fr, Debt) and fr.player == p:
            if fr.owed == "food":
                due_food += fr.amount
            else:
                francs_due += fr.amount
    if not feeding:
        due_food = max(0, rounds[s.round_index].food - ship_food)
    later, weights = _later_feedings(rounds, s.round_index, ship_food, feeding, max(0, 7 - s.turn_in_round))
    return due_food, francs_due, later, weights


#: id of a game's round cards -> (the cards, (round, ship food, feeding now, turns to this feeding) ->
#: :func:`_later_feedings`); the cards are kept and compared, so an id reused by another game misses
_LATER: Final[
    dict[int, tuple[tuple[RoundCard, ...], dict[tuple[int, int, bool, int], tuple[list[int], list[float]]]]]
] = {}


def _later_feedings(
    rounds: tuple[RoundCard, ...], round_index: int, ship_food: int, feeding: bool, first: int
) -> tuple[list[int], list[float]]:
    """(food due in each later round, the weights of this round's food and of each later round's), shared:
    read only.  ``first``: turns left before this round's feeding."""
    entry = _LATER.get(id(rounds))
    if entry is None or entry[0] is not rounds:
        if len(_LATER) > 64:
            _LATER.clear()
        entry = _LATER[id(rounds)] = (rounds, {})
    key = (round_index, ship_food, feeding, first)
    hit = entry[1].get(key)
    if hit is None:
        later = [max(0, rounds[r].food - ship_food) for r in range(round_index + 1, len(rounds))]
        # turns until each later feeding; the weight rises smoothly to 1 as it nears
        weights = [max(FUTURE_FOOD, 1.0 - (1.0 - FUTURE_FOOD) * (0 if feeding else first) / FOOD_WEIGHT_TURNS)]
        for k in range(len(later)):
            t = first + 7 * (k + 1)
            weights.append(max(FUTURE_FOOD, 1.0 - (1.0 - FUTURE_FOOD) * t / FOOD_WEIGHT_TURNS))
        hit = entry[1][key] = (later, weights)
    return hit


#: one seat's terms, in :data:`TERMS`' order
SeatTerms = tuple[float, float, float, float, float, float, float, float, float]


def player_terms(s: BaseState, p: int, term_weights: Mapping[str, float] = WEIGHTS) -> dict[str, float]:
    """The terms for one seat (see the module docstring), with ``term_weights``."""
    return dict(zip(TERMS, _player_terms(s, p, term_weights), strict=True))


# one piece: the search calls this at every leaf for every seat; its parts share locals and a call per part costs time
def _player_terms(s: BaseState, p: int, term_weights: Mapping[str, float]) -> SeatTerms:
    """:func:`player_terms`' values, in :data:`TERMS`' order."""
    own = s.owned(p)
    wealth = term_weights["wealth"] * float(s.wealth_total(p, own))
    if s.over:
        return (wealth, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
    g = s.goods[p]
    own_left, in_round = _turn_counts(s, p)
    phase = min(1.0, own_left / CONVERT_TURNS)
    share = term_weights["goods"] * phase
    energy_share = term_weights["energy"] * phase
    goods = 0.0
    energy = 0.0
    for gi in OTHER_GOODS:
        n = g[gi]
        if n:
            if gi in ENERGY_GOODS:
                energy += n * GOOD_WORTH[gi] * energy_share
            else:
                goods += n * GOOD_WORTH[gi] * share
    # food
    due_now, francs_due, later, weights = _feeding(s, p)
    need = due_now + sum(later)
    fv = s.food_value(p)
    covered = min(fv, need)
    food = (
        covered
        + (fv - covered) * SURPLUS_FOOD * phase
        - weights[0] * due_now
        - sum(map(mul, weights[1:], later))  # w * d per later round, summed in order
    )
    # loan risk: this round, then the next one
    francs = s.francs[p] - francs_due
    short = due_now - fv - francs
    risk = 0.0
    if short > 0:
        risk -= LOAN_EXTRA * short + (LOAN_FIXED if in_round == 0 else 0.0)
    if later and not s.final_stage:
        n = s.num_players
        short1 = due_now + later[0] - fv - francs - FOOD_PER_TURN * (in_round + 7.0 / n)
        if short1 > 0:
            risk -= NEXT_ROUND_SHARE * (LOAN_EXTRA * short1 + LOAN_FIXED)
    rounds_left = len(s.rounds) - s.round_index
    loans = -(INTEREST_PER_ROUND * rounds_left + LOAN_AVERSION) * s.loans[p] - francs_due
    # buildings' income
    fade = min(1.0, own_left / USE_TURNS)
    bld = 0.0
    if fade > 0:
        for b in own:
            income = _INCOME[b]
            if income is not None:
                bld += income
        bld *= fade
    fund = term_weights["ship fund"] * _ship_fund(s, p, francs, later)
    tempo = 0.0
    top = s.stack[-1] if s.stack else None
    if top is not None and top.player == p and top.kind in ("main", "final"):
        tempo = term_weights["tempo"]
    return (
        wealth,
        goods,
        energy,
        term_weights["food"] * food,
        term_weights["loan risk"] * risk,
        term_weights["loans"] * loans,
        term_weights["buildings"] * bld,
        fund,
        tempo,
    )


def evaluation_terms(s: BaseState, player: int, weights: Mapping[str, float] = WEIGHTS) -> dict[str, float]:
    """Named terms, each ``player``'s part minus that of the best other seat, with ``weights``."""
    mine = player_terms(s, player, weights)
    if s.num_players == 1:
        return dict(mine)
    best: dict[str, float] = {}
    best_total: float | None = None
    for q in range(s.num_players):
        if q == player:
            continue
        t = player_terms(s, q, weights)
        tot = sum(t.values())
        if best_total is None or tot > best_total:
            best, best_total = t, tot
    return {k: mine[k] - best[k] for k in TERMS}


def _value(s: BaseState, player: int, weights: Mapping[str, float]) -> float:
    """The evaluation with ``weights``: ``player``'s terms' sum minus the best other seat's (alone: its own)."""
    totals = [sum(_player_terms(s, q, weights)) for q in range(s.num_players)]
    mine = totals[player]
    others = [t for q, t in enumerate(totals) if q != player]
    return mine - max(others) if others else mine


SELL_VERBS: Final = ("sell", "sell ship")


def search_actions(s: BaseState) -> list[BaseAction]:
    """The legal actions worth searching (a subset; never empty).

    * Selling a building or ship (seeds/000, "Selling") turns its value into
      half as many francs: it is searched only when a payment cannot be made
      otherwise (a ``debt`` decision without enough food and francs), where it
      competes with borrowing.  When the debt can be paid, only the ways to
      pay are searched, and repaying a loan first (which can cancel interest).
    * Of the ways to pay (every minimal way is legal, see
      :mod:`base_game.payments`), the ``PAY_LIMIT`` least wasteful are
      searched: the ones further down pay more of the same kinds, or spend
      francs where food would do (francs are wealth; food is only food).
      They are not listed at all here, so a large stock costs nothing.
    * The Marketplace's and Town Square's picks are searched in one canonical
      order (each set of goods once; see ``PickDistinct.search_options``).
    * Everything else is kept.
    """
    if s.over:
        return []
    fr = s.stack[-1]
    if isinstance(fr, Pay):
        return [BaseAction("pay", way=w) for w in fr.ways]
    legal = s.debt_options(fr, PAY_LIMIT) if isinstance(fr, Debt) else s.legal_actions()
    if len(legal) <= 1:
        return legal
    if isinstance(fr, Debt):
        pays = [a for a in legal if a.verb in ("pay", "repay")]
        if any(a.verb == "pay" for a in pays):
            return pays
        keep = [a for a in legal if a.verb not in SELL_VERBS]
        # when short, selling may beat borrowing: keep sales of the cheapest card of each kind
        sells = [a for a in legal if a.verb in SELL_VERBS]
        return keep + sells[:4] if keep else legal
    if isinstance(fr, Turn):
        keep = [a for a in legal if a.verb not in SELL_VERBS]
        return keep or legal
    if isinstance(fr, Sub):
        return EFFECTS[fr.effect].search_options(s, fr) or legal
    return legal


#: the base game's one evaluator (its RULESET declares it; the search and the agents take it): the evaluation
#: (a weighted sum of :data:`TERMS`, cached by position), its terms, the actions worth searching, its tuning
EVALUATOR: Final = WeightedSum(
    TERMS, WEIGHTS, str(WEIGHTS_PATH), _value, evaluation_terms, methodcaller("key"), 50_000
).evaluator(search_actions)
#: heuristic worth of a state for a seat (higher is better); the true wealth margin once the game is over.
#: Cached by position
evaluate = EVALUATOR.evaluate
