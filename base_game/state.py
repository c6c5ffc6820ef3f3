"""The base game's state, turn and round machinery.

How a turn is modelled (DESIGN.md asks for one way per game)
-------------------------------------------------------------
**Sub-decisions are separate decisions by the same player before the turn
passes.**  The state keeps a *stack of frames*; the top frame says whose
decision it is and what it is about:

* ``main``: the turn's player, after the (automatic) supply action: ``take
  <offer>``, ``enter <building>`` (the main action), or an additional action:
  ``buy <building>``, ``buy <ship type>``, ``sell <building or ship>``,
  ``repay``.
* ``after``: after the main action: more additional actions, or ``end``.  (If
  nothing but ``end`` is possible the turn passes by itself.)
* ``pay``: how to pay food or energy (``pay 2 fish, 1 franc``); offered only
  when at least two ways are worth choosing (below), otherwise the one way
  is applied at once.  Food and energy never give change.
* ``sub``: a building's own choices, one small decision at a time: how many to
  upgrade (``upgrade 4``) or exchange (``exchange 2``), which building to build
  (``build Joinery``), which ship (``build iron ship``), the Marketplace's goods
  one by one in any order (``pick coal`` then ``pick grain``; the frame keeps
  the picks sorted, so both orders reach one position) and its peek (``keep
  order`` / ``swap order``), ...
* ``debt``: feeding or interest: ``pay ...``, ``repay`` (a loan, before paying:
  repaying the last loan cancels the interest), ``sell <card>`` or ``borrow``.
* ``final``: one final action each after the last round; then ``after_final``:
  selling and repaying are still allowed (seeds/000, Final Action), or ``end``.

The supply action has no choice and is carried out when the turn begins, so
additional actions are offered after it ([dec]: buying before the supply
action is never better, since the supply only adds goods).  All randomness is
drawn at setup.  Actions are typed values (:class:`base_game.actions.BaseAction`,
``str(action)`` is the canonical text) and frames are typed
(:mod:`base_game.frames`).

Rulings made visible here ([dec], also in REFERENCE.md):
* A building whose action cannot be carried out at all (nothing to upgrade,
  no building affordable, no loan at the Local Court, ...) is not offered
  for entering: "A player entering a building **must** carry out the
  building's action" (seeds/000, Main Action B).
* Materials are paid with the standard good first (clay before brick, iron
  before steel); the Luxury Yacht replaces the owner's lowest-valued iron ship.
* To keep branching moderate, the Shipping Line offers ``use K ships`` (the
  most valuable goods are shipped) beside ``use K ships and choose goods``
  (then ``ship N <good>`` per good, most valuable first); the Bridge over the
  Seine offers whole classes (``exchange upgraded goods`` / ``standard`` /
  ``all``) beside ``choose goods`` (then ``exchange N <good>`` per good).
* Every minimal way to pay is legal (:mod:`base_game.payments`): food in
  francs, all or part ("Players can pay all or part of their food
  requirement in Francs", Feeding phase; "Food can always be replaced 1:1
  with Francs", Entry Fee), least wasteful first.  The search looks at the
  first four only (``PAY_LIMIT``; :func:`base_game.evaluate.search_actions`).
  An entry fee of "N food or 1 Franc" with only one such way (the franc,
  or the food when the franc is not at hand) is paid at once, as before:
  every other way then pays at least that franc and more.
* Rounding to the player's disadvantage everywhere.
"""

from __future__ import annotations

import random
from collections.abc import Hashable
from typing import TYPE_CHECKING, Any, ClassVar, Final, final

from base_game import cards as K
from base_game.actions import (
    BORROW,
    BUY,
    BUY_SHIP,
    DONE,
    END,
    ENTER,
    PASS,
    REPAY,
    SELL,
    TAKE,
    UNIT,
    BaseAction,
    Way,
    as_action,
    ship_type_index,
)
from base_game.cards import CATTLE, ENERGY_SOURCES, FOOD_SOURCES, GRAIN, NB, OFFER_LABEL, OFFER_TO_GOOD
from base_game.effects import EFFECT_OF, EFFECTS, ship_goods, use_building
from base_game.frames import Debt, FinishRound, Frame, Pay, ShipGoods, Sub, Turn, TurnStage, Use
from base_game.payments import ALL, PAY_LIMIT, is_way, ways_to_pay
from core.protocol import ActionError, GameState

if TYPE_CHECKING:
    from base_game.data import RoundCard, ShipType, SupplyTile
    from base_game.setup import GameOptions

TOWN: Final = -1
NOWHERE: Final = -2  # in a proposal pile, face down, or out of the game
TREASURY: Final = -1
DESTROYED: Final = -2  # paid goods go back to the supply

#: buildings with an action, and buildings with a purchase price (hot loops)
ACTION_IDS: Final = tuple(b for b in range(NB) if K.EFFECT[b] != "none")
PRICED_IDS: Final = tuple(b for b in range(NB) if K.PRICE[b] is not None)
_AFTER: Final[dict[str, TurnStage]] = {
    "main": "after",
    "final": "after_final",
    "after": "after",
    "after_final": "after_final",
}


@final
class BaseState(GameState[BaseAction]):
    """A position of Le Havre (base game).  See the module docstring.

    Every attribute is declared here (a native class when compiled) and copied by :func:`_copy`; a new
    state is empty (``BaseState()``): the values are set by :func:`base_game.setup.new_game`."""

    ruleset: ClassVar[str] = "base"
    # slotted (in pure Python more than 30 attributes would leave the fast shared-key instance dict)
    __slots__ = (
        "discs",
        "final_stage",
        "francs",
        "goods",
        "history",
        "loans",
        "loans_taken",
        "main_actions",
        "modernised",
        "num_players",
        "offer_spaces",
        "options",
        "over",
        "owner",
        "peek_known",
        "proposal_piles",
        "round_index",
        "round_ship",
        "rounds",
        "seed",
        "ship_cards",
        "ship_markers",
        "ship_piles",
        "ship_types",
        "ships",
        "short",
        "sold_this_turn",
        "special_pile",
        "special_pool",
        "stack",
        "start_francs",
        "started",
        "starting_player",
        "supply_tiles",
        "tile_data",
        "tiles_revealed",
        "treasury_flow",
        "turn_in_round",
        "turn_player",
    )

    # -- set up once, never changed during the game (shared by clones)
    options: GameOptions
    num_players: int
    short: bool
    seed: int
    rounds: tuple[RoundCard, ...]
    ship_types: dict[str, ShipType]
    tile_data: dict[int, SupplyTile]
    #: every ship card of the game as (type, value); ships are ids into this tuple
    ship_cards: tuple[tuple[str, int], ...]
    #: the ship card on the back of each round card
    round_ship: tuple[int, ...]
    #: the special buildings in this game (the solo game leaves two out)
    special_pool: tuple[int, ...]
    start_francs: int
    starting_player: int
    # -- the board
    history: list[str]
    offer_spaces: list[int]
    supply_tiles: list[int]
    tiles_revealed: int
    proposal_piles: list[list[int]]
    special_pile: list[int]
    #: owner of each building: a seat, TOWN or NOWHERE
    owner: list[int]
    #: the building each player's person disc stands on, -1 at home
    discs: list[int]
    ship_piles: dict[str, list[int]]
    #: the two Wharves: modernised yet (their first non-wooden ship)
    modernised: list[bool]
    #: the supply tile each player's ship marker stands on, -1 before it moved
    ship_markers: list[int]
    # -- the players
    francs: list[int]
    goods: list[list[int]]
    loans: list[int]
    ships: list[list[int]]
    #: the special buildings each player saw on top of the face-down pile (Marketplace)
    peek_known: list[tuple[int, ...]]
    # -- the turn
    stack: list[Frame]
    sold_this_turn: set[int]
    round_index: int
    turn_in_round: int
    turn_player: int
    started: bool
    final_stage: bool
    over: bool
    # -- statistics
    main_actions: int
    treasury_flow: int
    loans_taken: int

    _UNITS: ClassVar[dict[int | str, int]] = UNIT

    def clone(self, history: bool = True) -> BaseState:
        """A copy; ``history=False``: without the game's action list (nothing the search reads)."""
        return _copy(self, self.history.copy() if history else [])

    def copy_for_search(self) -> BaseState:
        return _copy(self, [])

    # ------------------------------------------------------- derived views
    @property
    def round_number(self) -> int:
        return min(self.round_index + 1, len(self.rounds))

    @property
    def current_round_card(self) -> RoundCard:
        return self.rounds[min(self.round_index, len(self.rounds) - 1)]

    @property
    def town_buildings(self) -> list[str]:
        return [K.NAME[b] for b in range(NB) if self.owner[b] == TOWN and not K.IS_SPECIAL[b]]

    @property
    def ship_pile_tops(self) -> dict[str, tuple[str, int] | None]:
        """The top (available) ship card of each ship pile."""
        return {t: (self.ship_cards[p[-1]] if p else None) for t, p in self.ship_piles.items()}

    @property
    def revealed_supply_tiles(self) -> list[tuple[str, str, bool] | None]:
        """Board order; ``None`` for a tile still face down."""
        out = []
        for i, t in enumerate(self.supply_tiles):
            d = self.tile_data[t]
            out.append((d.first, d.second, d.interest) if i < self.tiles_revealed else None)
        return out

    @property
    def decision(self) -> str:
        """What the current decision is about: main, after, pay, debt, sub, final, ..."""
        return "over" if self.over else self.stack[-1].kind

    def player_goods(self, p: int) -> dict[str, int]:
        return {K.GOODS[g]: n for g, n in enumerate(self.goods[p]) if n}

    def player_ships(self, p: int) -> list[tuple[str, int]]:
        return [self.ship_cards[s] for s in self.ships[p]]

    def owned(self, p: int) -> list[int]:
        owner = self.owner
        if p not in owner:
            return []
        # a comprehension over range(NB): a native loop when compiled, and in pure Python about twice as fast
        # as ``compress(range(NB), map(p.__eq__, owner))`` (one comparison, no method call, per building)
        return [b for b in range(NB) if owner[b] == p]

    def peek_cards(self, p: int) -> list[str]:
        """The special buildings player ``p`` knows on top of the face-down pile."""
        return [K.NAME[b] for b in self.peek_known[p]]

    def hammers(self, p: int) -> int:
        return sum(K.HAMMERS[b] for b in self.owned(p))

    def fishermen(self, p: int) -> int:
        return sum(K.FISHERMEN[b] for b in self.owned(p))

    def count_type(self, p: int, t: str) -> int:
        return sum(1 for b in self.owned(p) if K.BTYPE[b] == t)

    def food_value(self, p: int) -> int:
        g = self.goods[p]
        total = 0
        for good, value in FOOD_SOURCES:  # a loop: native when compiled, and faster than map/mul in pure Python
            total += g[good] * value
        return total

    def energy_value(self, p: int) -> int:
        g = self.goods[p]
        total = 0
        for good, value in ENERGY_SOURCES:
            total += g[good] * value
        return total

    def energy_cost(self, p: int, raw: int) -> int:
        """Energy actually paid in a main action (Wind Farm: 3 less, never below 0)."""
        if raw > 0 and self.owner[K.WIND_FARM] == p:
            return max(0, raw - 3)
        return raw

    def ship_food(self, p: int) -> int:
        st = self.ship_types
        return sum(st[self.ship_cards[s][0]].food[self.num_players - 1] for s in self.ships[p])

    def food_due(self, p: int) -> int:
        return max(0, self.current_round_card.food - self.ship_food(p))

    # ------------------------------------------------------ protocol basics
    def current_player(self) -> int:
        if self.over:
            return -1
        return self.stack[-1].player

    def is_terminal(self) -> bool:
        return self.over

    @property
    def main_action_count(self) -> int:
        return self.main_actions

    # ------------------------------------------------------------- money
    def gain_francs(self, p: int, n: int) -> None:
        """Francs from the treasury (the only way francs are created)."""
        self.francs[p] += n
        self.treasury_flow += n

    def pay_francs(self, p: int, n: int, to: int = TREASURY) -> None:
        self.francs[p] -= n
        if to >= 0:
            self.francs[to] += n
        else:
            self.treasury_flow -= n

    # ------------------------------------------------------------ payments
    def _food_sources(self, p: int, with_francs: bool = True) -> list[tuple[int | str, int, int]]:
        g = self.goods[p]
        sources: list[tuple[int | str, int, int]] = [(good, v, g[good]) for good, v in FOOD_SOURCES]
        if with_francs:
            sources.append(("franc", 1, self.francs[p]))
        return sources

    def _energy_sources(self, p: int) -> list[tuple[int | str, int, int]]:
        g = self.goods[p]
        return [(good, v, g[good]) for good, v in ENERGY_SOURCES]

    def _food_ways(self, p: int, amount: int, with_francs: bool = True, limit: int = PAY_LIMIT) -> list[Way]:
        """The minimal ways to pay ``amount`` food, least wasteful first (the first ``limit``)."""
        return [tuple(w.items()) for w in ways_to_pay(self._food_sources(p, with_francs), amount, limit)]

    def _energy_ways(self, p: int, amount: int, limit: int = PAY_LIMIT) -> list[Way]:
        return [tuple(w.items()) for w in ways_to_pay(self._energy_sources(p), amount, limit)]

    def pay_ways(self, fr: Pay) -> list[Way]:
        """Every legal way to make the payment ``fr``: its searched ``ways`` first, then the others
        least wasteful first."""
        out = list(fr.ways)
        p, amount = fr.player, fr.amount
        more: list[Way] = []
        if fr.owed == "energy":
            more = self._energy_ways(p, amount, ALL)
        elif fr.owed == "food":
            if fr.alt_francs and self.francs[p] >= fr.alt_francs:
                more.append((("franc", fr.alt_francs),))
            more += self._food_ways(p, amount, limit=ALL)
        seen = set(out)
        for w in more:
            if w not in seen:
                seen.add(w)
                out.append(w)
        return out

    def is_pay_way(self, fr: Pay, way: Way) -> bool:
        """Whether ``way`` is one of :meth:`pay_ways` (without listing them)."""
        if way in fr.ways:
            return True
        p = fr.player
        if fr.owed == "energy":
            return is_way(self._energy_sources(p), fr.amount, way)
        if fr.owed != "food":
            return False
        if fr.alt_francs and way == (("franc", fr.alt_francs),):
            return self.francs[p] >= fr.alt_francs
        return is_way(self._food_sources(p), fr.amount, way)

    def _pay_way(self, p: int, way: Way, to: int) -> None:
        g = self.goods[p]
        for k, amount in way:
            if isinstance(k, str):  # "franc"
                self.pay_francs(p, amount, to)
            else:
                n = amount // UNIT[k]
                g[k] -= n
                if to >= 0:
                    self.goods[to][k] += n

    def push_pay(self, p: int, kind: str, amount: int, to: int = DESTROYED, alt_francs: int = 0) -> None:
        """Demand a payment of ``amount`` food/energy (or francs) from ``p``.

        Pushed on top of any continuation already on the stack.  With one way
        to pay it is paid at once; with several, ``p`` chooses.
        """
        if amount <= 0 and not alt_francs:
            return
        ways: list[Way]
        if kind == "energy":
            ways = self._energy_ways(p, amount)
        elif kind == "francs":
            ways = [(("franc", amount),)] if self.francs[p] >= amount else []
        else:  # food, maybe with a francs alternative
            ways = []
            if alt_francs and self.francs[p] >= alt_francs:
                ways.append((("franc", alt_francs),))
            if amount:
                for w in self._food_ways(p, amount, with_francs=not alt_francs):
                    if w not in ways:
                        ways.append(w)
        if not ways:
            raise AssertionError(f"player {p} cannot pay {amount} {kind}: engine offered an unaffordable action")
        if len(ways) == 1:
            self._pay_way(p, ways[0], to)
            return
        self.stack.append(Pay(p, to, tuple(ways), kind, amount, alt_francs))

    def can_pay_fee(self, p: int, b: int) -> bool:
        if self.owner[b] == p:
            return True
        food, fr = K.ENTRY_FOOD[b], K.ENTRY_FRANCS[b]
        if not food and not fr:
            return True
        if fr and self.francs[p] >= fr:
            return True
        return bool(food) and self.food_value(p) + self.francs[p] >= food

    def push_fee(self, p: int, b: int) -> None:
        o = self.owner[b]
        if o == p:
            return
        food, fr = K.ENTRY_FOOD[b], K.ENTRY_FRANCS[b]
        if not food and not fr:
            return
        to = o if o >= 0 else TREASURY
        if food:
            self.push_pay(p, "food", food, to, alt_francs=fr)
        else:
            self.push_pay(p, "francs", fr, to)

    # ------------------------------------------------------------ settle
    def settle(self) -> None:
        """Run automatic steps until a decision is needed or the game is over."""
        while True:
            if not self.stack:
                if self.over:
                    return
                self._next()
                continue
            fr = self.stack[-1]
            if isinstance(fr, Use):
                self.stack.pop()
                use_building(self, fr.player, fr.building)
                continue
            if isinstance(fr, FinishRound):
                self.stack.pop()
                self.finish_round()
                continue
            if isinstance(fr, ShipGoods):
                self.stack.pop()
                ship_goods(self, fr.player, fr.capacity)
                continue
            if isinstance(fr, Debt):
                opts = self.debt_options(fr, PAY_LIMIT)
                if (len(opts) == 1 and opts[0] != BORROW) or opts == [BORROW]:
                    self._apply_debt(fr, opts[0])
                    continue
                return
            if isinstance(fr, Turn) and fr.kind in ("after", "after_final") and not self._has_after_options(fr):
                self.stack.pop()
                continue
            if isinstance(fr, Sub) and not EFFECTS[fr.effect].options(self, fr):
                self.stack.pop()
                continue
            return

    def _next(self) -> None:
        if self.final_stage:
            self.over = True
            return
        if self.turn_in_round >= 7:
            self._end_round()
            return
        if self.started:
            self.turn_player = (self.turn_player + 1) % self.num_players
        self.started = True
        self._start_turn()

    def _start_turn(self) -> None:
        """The supply action (seeds/000, Supply Action)."""
        p = self.turn_player
        i = self.turn_in_round
        self.turn_in_round += 1
        self.sold_this_turn.clear()
        self.ship_markers[p] = i
        self.tiles_revealed = max(self.tiles_revealed, i + 1)
        tile = self.tile_data[self.supply_tiles[i]]
        for good in (tile.first, tile.second):
            j = K.OFFER_GOODS.index(good)
            self.offer_spaces[j] += 1
            if j == 0:
                self.treasury_flow += 1  # a franc from the treasury onto the offer space
        self.stack.append(Turn("main", p))
        if tile.interest:
            n = self.num_players
            due = []
            for k in range(n):
                q = (p + k) % n
                if self.loans[q]:
                    due.append(Debt(q, "francs", self.interest_due(q)))
            self.stack.extend(reversed(due))

    def interest_due(self, q: int) -> int:
        """Interest ``q`` pays when a ship reaches the Interest tile: 1 franc with
        any number of loans (seeds/000, Supply Action, "Interest"); with the
        expensive-loans option one more from 2/3/4/5 loans with 2/3/4/5 players
        (seeds/002, rules for advanced players); nothing without a loan."""
        if not self.loans[q]:
            return 0
        n = self.num_players
        if self.options.expensive_loans and n >= 2 and self.loans[q] >= n:
            return 2
        return 1

    def _end_round(self) -> None:
        """Harvest and feeding (seeds/000, End of a Round); the rest in finish_round."""
        card = self.current_round_card
        n = self.num_players
        if card.harvest:
            for q in range(n):
                g = self.goods[q]
                if g[GRAIN] >= 1:
                    g[GRAIN] += 1
                c = g[CATTLE]
                if self.owner[K.FEEDLOT] == q and 2 <= c <= 6:
                    g[CATTLE] += 2
                elif c >= 2:
                    g[CATTLE] += 1
        self.stack.append(FinishRound())
        first = (self.turn_player + 1) % n
        due = []
        for k in range(n):
            q = (first + k) % n
            amount = self.food_due(q)
            if amount > 0:
                due.append(Debt(q, "food", amount))
        self.stack.extend(reversed(due))

    def finish_round(self) -> None:
        card = self.current_round_card
        if card.town_builds == "standard":
            tops = [pile[0] for pile in self.proposal_piles if pile]
            if tops:
                b = min(tops, key=lambda x: K.SORT_KEY[x])
                self.remove_from_piles(b)
                self.owner[b] = TOWN
        elif card.town_builds == "special" and self.special_pile:
            b = self.special_pile.pop(0)
            self.owner[b] = TOWN
            self.peek_known = [k[1:] if k and k[0] == b else () for k in self.peek_known]
        sid = self.round_ship[self.round_index]
        self.ship_piles[self.ship_cards[sid][0]].append(sid)
        self.round_index += 1
        self.turn_in_round = 0
        if self.round_index >= len(self.rounds):
            self.final_stage = True
            n = self.num_players
            order = [(self.starting_player + k) % n for k in range(n)]
            self.stack.extend(Turn("final", q) for q in reversed(order))

    def remove_from_piles(self, b: int) -> None:
        for pile in self.proposal_piles:
            if pile and pile[0] == b:
                pile.pop(0)
                return
        for pile in self.proposal_piles:
            if b in pile:
                pile.remove(b)
                return

    # ------------------------------------------------------- legal actions
    def legal_actions(self) -> list[BaseAction]:
        if self.over:
            return []
        fr = self.stack[-1]
        if isinstance(fr, Turn):
            k = fr.kind
            p = fr.player
            if k == "main":
                return self._turn_options(p, main=True, final=False)
            if k == "after":
                return self._turn_options(p, main=False, final=False) + [END]
            if k == "final":
                return self._turn_options(p, main=True, final=True)
            return self._turn_options(p, main=False, final=True) + [END]
        if isinstance(fr, Pay):
            return [BaseAction("pay", way=w) for w in self.pay_ways(fr)]
        if isinstance(fr, Debt):
            return self.debt_options(fr)
        if isinstance(fr, Sub):
            return EFFECTS[fr.effect].options(self, fr) or [DONE]
        raise AssertionError(f"no decision on frame {fr}")

    def buyable_buildings(self, p: int) -> list[int]:
        out = []
        fr = self.francs[p]
        sold = self.sold_this_turn
        owner = self.owner
        for b in PRICED_IDS:
            if owner[b] == TOWN:
                pr = K.PRICE[b]
                if pr is not None and pr <= fr and b not in sold:
                    out.append(b)
        for pile in self.proposal_piles:
            if pile:
                b = pile[0]
                pr = K.PRICE[b]
                if pr is not None and pr <= fr and b not in out:
                    out.append(b)
        return out

    def buyable_ships(self, p: int) -> list[str]:
        out = []
        for t in ("wooden", "iron", "steel"):
            pile = self.ship_piles[t]
            price = self.ship_types[t].buy_price
            if pile and price is not None and price <= self.francs[p]:
                out.append(t)
        return out

    def can_enter(self, p: int, b: int, final: bool) -> bool:
        if self.owner[b] < TOWN or K.EFFECT[b] == "none":
            return False
        if final:
            if self.discs[p] == b:
                return False
        elif b in self.discs:
            return False
        return self.can_pay_fee(p, b) and EFFECT_OF[b].can_use(self, p, b)

    def _turn_options(self, p: int, main: bool, final: bool) -> list[BaseAction]:
        out: list[BaseAction] = []
        if main:
            out.extend(TAKE[i] for i in range(7) if self.offer_spaces[i])
            owner = self.owner
            for b in ACTION_IDS:
                if owner[b] >= TOWN and self.can_enter(p, b, final):
                    out.append(ENTER[b])
            if not out:
                out.append(PASS)  # no main action possible (only conceivable in the final stage)
        if not final:
            out.extend(BUY[b] for b in self.buyable_buildings(p))
            out.extend(BUY_SHIP[ship_type_index(t)] for t in self.buyable_ships(p))
        # selling and repaying: any time in one's turn, also after the final action
        # (seeds/000, Final Action: "Players may still repay loans and sell buildings and ships")
        out.extend(self._sell_options(p))
        if self.can_repay(p):
            out.append(REPAY)
        return out

    def _has_after_options(self, fr: Turn) -> bool:
        """Whether ``fr`` (an "after" decision) offers more than ``end``: :meth:`_turn_options` is
        not empty; asked cheapest part first (selling, then repaying, then buying)."""
        p = fr.player
        if p in self.owner or self.ships[p] or self.can_repay(p):
            return True
        return fr.kind == "after" and bool(self.buyable_buildings(p) or self.buyable_ships(p))

    def can_repay(self, p: int) -> bool:
        """A loan is repaid with 5 francs "at any time during the game (even
        immediately before interest is paid)" (seeds/000, Loan Cards)."""
        return self.loans[p] > 0 and self.francs[p] >= K.LOAN_REPAYMENT

    def _sell_options(self, p: int) -> list[BaseAction]:
        out = [SELL[b] for b in self.owned(p)]
        seen = set()
        for s in self.ships[p]:
            card = self.ship_cards[s]
            if card not in seen:
                seen.add(card)
                out.append(BaseAction("sell ship", ref=ship_type_index(card[0]), n=card[1]))
        return out

    def ship_name(self, s: int) -> str:
        t, v = self.ship_cards[s]
        return f"{K.SHIP_TYPE_LABEL[t]} {v}"

    def debt_options(self, fr: Debt, limit: int = ALL) -> list[BaseAction]:
        """The legal actions of a debt: its ways to pay (the first ``limit``), repaying, selling, borrowing."""
        p, amount = fr.player, fr.amount
        out: list[BaseAction]
        if fr.owed == "francs":
            can = self.francs[p] >= amount
            out = [BaseAction("pay", way=(("franc", amount),))] if can else []
        else:
            can = self.food_value(p) + self.francs[p] >= amount
            out = [BaseAction("pay", way=w) for w in self._food_ways(p, amount, limit=limit)] if can else []
        if self.can_repay(p):  # before the interest or the food is paid (seeds/000, Loan Cards)
            out.append(REPAY)
        if not can or not self.options.advanced_selling:
            out.extend(self._sell_options(p))
        if not can:
            out.append(BORROW)
        return out

    # ------------------------------------------------------- apply action
    def apply_action(self, action: BaseAction | str) -> None:
        """Apply a legal action (a canonical text is parsed first)."""
        a = as_action(action)
        fr = self.stack[-1]
        self.history.append(str(a))
        if isinstance(fr, Turn):
            self._apply_turn(fr, a)
        elif isinstance(fr, Pay):
            if a.verb != "pay" or not self.is_pay_way(fr, a.way):
                raise ActionError(f"'{a}' is not a way to pay here")
            self.stack.pop()
            self._pay_way(fr.player, a.way, fr.to)
        elif isinstance(fr, Debt):
            self._apply_debt(fr, a)
        elif isinstance(fr, Sub):
            if a.verb == "done" and not EFFECTS[fr.effect].options(self, fr):
                self.stack.pop()
            else:
                EFFECTS[fr.effect].apply(self, fr, a)
        self.settle()

    def _apply_turn(self, fr: Turn, a: BaseAction) -> None:
        p = fr.player
        verb = a.verb
        if verb == "take":
            i = a.ref
            n = self.offer_spaces[i]
            self.offer_spaces[i] = 0
            good = OFFER_TO_GOOD[i]
            if good is None:
                self.francs[p] += n
            else:
                self.goods[p][good] += n
            self.main_actions += 1
            self.stack[-1] = Turn(_AFTER[fr.kind], p)
        elif verb == "enter":
            self.main_actions += 1
            self.stack[-1] = Turn(_AFTER[fr.kind], p)
            self.enter(p, a.ref)
        elif verb == "buy ship":
            t = K.SHIP_TYPES[a.ref]
            price = self.ship_types[t].buy_price
            assert price is not None
            s = self.ship_piles[t].pop()
            self.pay_francs(p, price)
            self.ships[p].append(s)
        elif verb == "buy":
            b = a.ref
            price = K.PRICE[b]
            assert price is not None
            self.pay_francs(p, price)
            if self.owner[b] == NOWHERE:
                self.remove_from_piles(b)
            self.take_building(p, b)
        elif verb in ("sell", "sell ship"):
            self.sell(p, a)
        elif verb == "repay":
            self.repay(p)
        elif verb == "end":
            self.stack.pop()
        elif verb == "pass":
            self.main_actions += 1
            self.stack[-1] = Turn(_AFTER[fr.kind], p)
        else:
            raise ActionError(f"'{a}' is not an action of a turn")

    def enter(self, p: int, b: int) -> None:
        """Move ``p``'s disc to ``b``, pay the entry fee, then carry out its action."""
        self.discs[p] = b
        self.stack.append(Use(p, b))
        self.push_fee(p, b)

    def take_building(self, p: int, b: int) -> None:
        """``p`` becomes the owner of ``b``; person discs on it go home."""
        self.owner[b] = p
        self.send_home(b)

    def send_home(self, b: int) -> None:
        for q in range(self.num_players):
            if self.discs[q] == b:
                self.discs[q] = -1

    def sell(self, p: int, a: BaseAction) -> None:
        """Sell a building or a ship for half its value (seeds/000, Selling)."""
        if a.verb == "sell":
            b = a.ref
            if self.owner[b] != p:
                raise ActionError(f"you do not own {K.NAME[b]}, so you cannot sell it")
            self.gain_francs(p, K.sale_price(K.VALUE[b]))
            self.owner[b] = TOWN
            self.send_home(b)
            self.sold_this_turn.add(b)
            return
        card = (K.SHIP_TYPES[a.ref], a.n)
        for s in self.ships[p]:
            if self.ship_cards[s] == card:
                self.ships[p].remove(s)
                self.gain_francs(p, K.sale_price(card[1]))
                self.ship_piles[card[0]].append(s)
                return
        raise ActionError(f"you own no '{str(a)[5:]}' to sell")

    def repay(self, p: int) -> None:
        """Pay 5 francs back to the treasury and return one loan card (seeds/000, Loan Cards)."""
        if not self.can_repay(p):
            raise ActionError("you can repay a loan only with a loan and at least 5 francs")
        self.pay_francs(p, K.LOAN_REPAYMENT)
        self.loans[p] -= 1

    def _apply_debt(self, fr: Debt, a: BaseAction) -> None:
        p, amount = fr.player, fr.amount
        verb = a.verb
        if verb in ("sell", "sell ship"):
            self.sell(p, a)
            return
        if verb == "repay":
            self.repay(p)
            if fr.owed == "francs":  # interest: owed only while a loan is held, and by the loans held
                due = self.interest_due(p)
                self.stack[-1] = Debt(p, "francs", due)
                if not due:
                    self.stack.pop()
            return
        if verb == "borrow":
            self.stack.pop()
            have = self.francs[p] + (self.food_value(p) if fr.owed == "food" else 0)
            deficit = amount - have
            loans = -(-deficit // K.LOAN_FRANCS)
            if fr.owed == "food":
                for good, _v in FOOD_SOURCES:
                    self.goods[p][good] = 0
            self.pay_francs(p, self.francs[p])
            self.loans[p] += loans
            self.gain_francs(p, K.LOAN_FRANCS * loans - deficit)
            self.loans_taken += loans
            return
        if verb != "pay":
            raise ActionError(f"'{a}' does not pay a debt")
        if fr.owed == "francs":
            if a.way != (("franc", amount),):
                raise ActionError(f"'{a}' is not a way to pay here")
            self.stack.pop()
            self.pay_francs(p, amount)
            return
        if a.way not in self._food_ways(p, amount) and not is_way(self._food_sources(p), amount, a.way):
            raise ActionError(f"'{a}' is not a way to pay here")
        self.stack.pop()
        self._pay_way(p, a.way, DESTROYED)

    # ------------------------------------------------------------- scoring
    def wealth_breakdown(self, player: int) -> dict[str, int]:
        buildings, bonus, ships = self._building_wealth(player, self.owned(player))
        return {
            "buildings": buildings,
            "bonus": bonus,
            "ships": ships,
            "francs": self.francs[player],
            "loans": -7 * self.loans[player],
        }

    def wealth(self) -> list[int]:
        """Each seat's :meth:`wealth_breakdown` summed (without building the breakdowns: the search asks)."""
        return [self.wealth_total(p, self.owned(p)) for p in range(self.num_players)]

    def wealth_total(self, player: int, own: list[int]) -> int:
        """``sum(wealth_breakdown(player).values())``, given ``own = owned(player)`` (the evaluation's)."""
        buildings, bonus, ships = self._building_wealth(player, own)
        return buildings + bonus + ships + self.francs[player] - 7 * self.loans[player]

    def _building_wealth(self, player: int, own: list[int]) -> tuple[int, int, int]:
        """The buildings', bonuses' and ships' parts of :meth:`wealth_breakdown` (``own``: the buildings)."""
        value = K.VALUE
        buildings = sum([value[b] for b in own if b != K.LUXURY_YACHT])
        cards = self.ship_cards
        ships = sum([cards[s][1] for s in self.ships[player]])
        if K.LUXURY_YACHT in own:
            ships += value[K.LUXURY_YACHT]
        bonus = 0
        types: list[str] = []
        for b in own:
            bon = _BONUS[b]
            if not bon:
                continue
            if not types:
                types = [K.BTYPE[b] for b in own]
            for t, v in bon.get("per_type", {}).items():
                bonus += v * types.count(t)
            if "per_ship" in bon:
                bonus += bon["per_ship"] * (len(self.ships[player]) + (K.LUXURY_YACHT in own))
            if "per_two_goods" in bon:
                bonus += sum(self.goods[player]) // 2
        return buildings, bonus, ships

    # ---------------------------------------------------------- bookkeeping
    def key(self) -> Hashable:
        # written with map and list comprehensions, not generators: the search asks for it at every node
        piles = self.ship_piles
        return (
            tuple(self.offer_spaces),
            tuple(self.supply_tiles),
            self.tiles_revealed,
            tuple(map(tuple, self.proposal_piles)),
            tuple(self.special_pile),
            tuple(self.owner),
            tuple(self.discs),
            tuple(self.francs),
            tuple(map(tuple, self.goods)),
            tuple(self.loans),
            tuple(map(tuple, self.ships)),
            tuple([tuple(piles[t]) for t in K.SHIP_TYPES]),
            tuple(self.modernised),
            tuple([fr.key() for fr in self.stack]),
            tuple(sorted(self.sold_this_turn)) if self.sold_this_turn else (),
            self.round_index,
            self.turn_in_round,
            self.turn_player,
            self.final_stage,
            self.over,
            tuple(self.peek_known),
        )

    def describe_action(self, action: BaseAction | str) -> str:
        """A sentence for the log, e.g. 'Player 2 takes 3 wood.'"""
        p = self.current_player()
        who = f"Player {p + 1}" if p >= 0 else "Nobody"
        a = as_action(action)
        verb, b = a.verb, a.ref
        if verb == "take":
            return f"{who} takes {self.offer_spaces[b]} {OFFER_LABEL[b]} from the offer."
        if verb == "enter":
            o = self.owner[b]
            whose = "the town's" if o == TOWN else ("own" if o == p else f"Player {o + 1}'s")
            return f"{who} enters {whose} {K.NAME[b]}."
        if verb == "buy":
            return f"{who} buys {K.NAME[b]} for {K.PRICE[b]} francs."
        if verb == "sell":
            return f"{who} sells {K.NAME[b]} for {K.sale_price(K.VALUE[b])} francs."
        if verb == "borrow":
            return f"{who} cannot pay and takes loans."
        if verb == "repay":
            return f"{who} repays a loan ({K.LOAN_REPAYMENT} francs)."
        if verb == "end":
            return f"{who} ends the turn."
        return f"{who}: {a}."

    def action_building(self, action: BaseAction | str) -> tuple[str, str] | None:
        a = as_action(action)
        if a.verb == "enter":
            return ("use", K.NAME[a.ref])
        if a.verb in ("buy", "build"):
            return (a.verb, K.NAME[a.ref])
        return None

    def player_tallies(self) -> dict[str, list[int]]:
        """Each seat's loans held: their rises over a game are the loans it took (seeds/000, Loan Cards)."""
        return {"loans": list(self.loans)}

    def building_owners(self) -> dict[str, int]:
        return {K.NAME[b]: o for b, o in enumerate(self.owner) if o >= 0}

    def determinize(self, player: int, rng: random.Random) -> BaseState:
        """Resample what ``player`` cannot see: face-down supply tiles and the
        special pile (its contents and order), keeping what ``player`` saw at
        the Marketplace on top."""
        s = self.clone()
        if not isinstance(rng, random.Random):
            rng = random.Random(rng)
        hidden = sorted(s.supply_tiles[s.tiles_revealed :])  # the true order must not leak
        rng.shuffle(hidden)
        s.supply_tiles[s.tiles_revealed :] = hidden
        if s.special_pile:
            known = list(self.peek_known[player])
            top = self.stack[-1] if self.stack else None
            if isinstance(top, Sub) and top.player == player and top.effect == "peek":
                known = self.special_pile[:2]  # looking at the top two right now
            pool = [b for b in self.special_pool if s.owner[b] == NOWHERE and b not in known]
            rest = rng.sample(pool, len(s.special_pile) - len(known))
            s.special_pile = known + rest
            s.peek_known = [k if q == player else () for q, k in enumerate(s.peek_known)]
        return s

    def why_illegal(self, text: str) -> str | None:
        verb, _, rest = text.strip().partition(" ")
        verb = verb.lower()
        b = K.BY_NAME.get(rest.strip().lower())
        if self.over:
            return "The game is over."
        top = self.stack[-1]
        k = top.kind
        p = self.current_player()
        if verb in ("buy", "take", "enter") and k not in ("main", "after", "final"):
            return f"'{text.strip()}' is not possible now: finish the current decision first."
        if verb == "pay" and isinstance(top, (Pay, Debt)):
            return self._why_not_paid(top, text)
        if verb == "enter" and b is not None:
            if self.owner[b] < TOWN:
                return f"{K.NAME[b]} has not been built yet."
            if K.EFFECT[b] == "none":
                return f"{K.NAME[b]} has no action (padlock)."
            if b in self.discs and not self.final_stage:
                return f"{K.NAME[b]} is occupied."
            if not self.can_pay_fee(p, b):
                return f"You cannot pay the entry fee of {K.NAME[b]}."
            return f"You cannot carry out the action of {K.NAME[b]} now."
        if verb == "repay" and not rest.strip():
            if not self.loans[p]:
                return "You have no loan to repay."
            if self.francs[p] < 5:
                return f"Repaying a loan costs 5 francs; you have {self.francs[p]}."
            return None
        if verb == "pick" and isinstance(top, Sub) and top.effect in ("marketplace", "town_square"):
            good = rest.strip().lower().replace("_", " ")
            picked = top.data[0]
            if K.LABEL_TO_GOOD.get(good) in picked:
                return f"You already picked {good}: the goods taken here must all be different."
            return None
        if verb == "buy" and b is not None:
            price = K.PRICE[b]
            if price is None:
                return f"{K.NAME[b]} cannot be bought."
            if price > self.francs[p]:
                return f"{K.NAME[b]} costs {price} francs; you have {self.francs[p]}."
            return f"{K.NAME[b]} is not for sale now (only town buildings and the tops of the proposal piles)."
        return None

    def _why_not_paid(self, fr: Pay | Debt, text: str) -> str | None:
        """Why typed ``pay ...`` is not a way to make the payment ``fr`` (seeds/000, "Entry Fee": food
        can always be replaced 1:1 with francs; "Change money, but no change for food or energy"): a
        good it cannot be paid with, more tokens than held, too little (it lacks), or more than a legal
        way (it overpays); then the legal ways."""
        try:
            way = as_action(text.strip()).way
        except ActionError:
            return None
        p, owed = fr.player, fr.owed
        pays = [a for a in self.legal_actions() if a.verb == "pay"]
        shown = "; ".join(f"'{a}'" for a in pays[:6]) + (f"; and {len(pays) - 6} more" if len(pays) > 6 else "")
        legal = f" Ways to pay now: {shown}." if pays else " You cannot pay it: sell something or borrow."
        sources = dict(FOOD_SOURCES if owed == "food" else ENERGY_SOURCES if owed == "energy" else ())
        total = 0
        for k, amount in way:
            label = K.GOOD_LABEL[k] if isinstance(k, int) else "francs"
            if (isinstance(k, int) and k not in sources) or (k == "franc" and owed == "energy"):
                return f"{label.capitalize()} cannot pay {owed}." + legal
            have = self.goods[p][k] if isinstance(k, int) else self.francs[p]
            if amount // UNIT[k] > have:
                return f"That pays {amount // UNIT[k]} {label}; you have {have}." + legal
            total += amount
        alt = fr.alt_francs if isinstance(fr, Pay) else 0
        if total < fr.amount and not (alt and way == (("franc", total),) and total >= alt):
            return f"That pays {total} {owed} of the {fr.amount} owed: it lacks {fr.amount - total}." + legal
        return (
            f"That pays {total} {owed} for {fr.amount}: it overpays (no change is given), and a legal way pays less."
            + legal
        )


def _copy(s: BaseState, history: list[str]) -> BaseState:
    """A copy of ``s`` with the action list ``history``: attribute by attribute, every attribute
    :class:`BaseState` declares (what never changes during a game is shared; lists are copied, lists
    of lists one level deeper: ``[*map(list_copy, ...)]`` copies them without a comprehension's frame)."""
    c = BaseState()
    c.options = s.options
    c.num_players = s.num_players
    c.short = s.short
    c.seed = s.seed
    c.rounds = s.rounds
    c.ship_types = s.ship_types
    c.tile_data = s.tile_data
    c.ship_cards = s.ship_cards
    c.round_ship = s.round_ship
    c.special_pool = s.special_pool
    c.start_francs = s.start_francs
    c.starting_player = s.starting_player
    c.history = history
    c.offer_spaces = s.offer_spaces.copy()
    c.supply_tiles = s.supply_tiles.copy()
    c.tiles_revealed = s.tiles_revealed
    c.proposal_piles = [*map(list_copy, s.proposal_piles)]
    c.special_pile = s.special_pile.copy()
    c.owner = s.owner.copy()
    c.discs = s.discs.copy()
    c.ship_piles = {k: v[:] for k, v in s.ship_piles.items()}
    c.modernised = s.modernised.copy()
    c.ship_markers = s.ship_markers.copy()
    c.francs = s.francs.copy()
    c.goods = [*map(list_copy, s.goods)]
    c.loans = s.loans.copy()
    c.ships = [*map(list_copy, s.ships)]
    c.peek_known = s.peek_known.copy()
    c.stack = s.stack.copy()
    c.sold_this_turn = set(s.sold_this_turn)
    c.round_index = s.round_index
    c.turn_in_round = s.turn_in_round
    c.turn_player = s.turn_player
    c.started = s.started
    c.final_stage = s.final_stage
    c.over = s.over
    c.main_actions = s.main_actions
    c.treasury_flow = s.treasury_flow
    c.loans_taken = s.loans_taken
    return c


list_copy = list.copy


#: each building's end-of-game bonus parameters, or None (``wealth_breakdown`` looks at every owned building)
_BONUS: Final[tuple[Any, ...]] = tuple(K.PARAMS[b].get("bonus") for b in range(NB))
