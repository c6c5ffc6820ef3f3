"""Le Havre: The Inland Port -- the state and its rules (seeds/004).

Seats: seat 0 takes the A-F board and starts round A; who sits in seat 0 is
the random starting player, drawn by whoever seats the players (the CLI's
``--seat random``, the playtest's seat rotation).  Setup needs no other
randomness, so the seed only records the game.

A turn (seeds/004, "Main phase" and "Sell": "Anytime during his turn, a
player may sell his own buildings in addition to his action") is one or more
decisions by the same player: any number of ``sell <Building>``, exactly one
main action (``build ...`` or ``use ...``), then any number of ``sell
<Building>`` and ``end``.  A player who owns nothing after the main action
ends the turn without deciding.  ``pass`` is legal only when no main action
is possible [dec].

The warehouse: each counter stands on a cell of the grid (``self.cells``;
``self.goods`` gives the amounts), see ``inland_port.warehouse``.

Action texts (canonical; ``core.protocol.parse_action`` also takes unique
prefixes, any case):
  ``build Farm: wood to 3+1``             where each paying counter goes (cell ``row+column``)
  ``build Grocery Store: fish to 0+2``    a food cost: fish and/or grain
  ``use Wood Company``                    a building without choices
  ``use Hardware Store: clay``            one good of a choice
  ``use Marketplace: fish, wood x3``      moves spread over counters
  ``use Masons' Guild: fish, grain``      different counters
  ``use Restaurant: fish to 0+3; grain to 0+0``  one payment per exchange (``x0``: none)
  ``use Weekly Market: fish x2``, ``use Fish Market: x3``
  ``sell Farm``, ``end`` (after the main action), ``pass``
"""

from __future__ import annotations

from typing import Any, ClassVar, Final, final

from core.evalcache import registered
from core.protocol import TERMINAL, GameState, normalize_text
from inland_port import effects
from inland_port.buildings import GOODS, LETTERS, Catalog, InlandBuilding, default_catalog
from inland_port.warehouse import Warehouse

#: actions per round A-L, both players together (REFERENCE.md, Facts [pub])
ACTIONS_PER_ROUND: Final = (3, 3, 3, 5, 5, 5, 7, 7, 7, 9, 9, 9)
#: the rounds A-L
ROUNDS: Final = len(LETTERS)
#: sector index -> value; index 4 is "4+1", index 5 is "!" (seeds/004, "Each game board is divided into 6 sectors")
SECTOR_VALUES: Final = (0, 2, 3, 4, 4, None)
SECTOR_LABELS: Final = ("0", "2", "3", "4", "4+1", "!")
BONUS_SECTOR: Final = 4
SALE_SECTOR: Final = 5
#: starting purse (seeds/004, "Game setup"); the start cells are data (the grid)
START_FRANCS: Final = 3

NO_OWNER: Final = -1

#: a position's identity (``InlandState.key``): round, actions left, turn, acted, both purses, both
#: seats' cells, owners and sectors
PositionKey = tuple[int, int, int, bool, int, int, effects.Cells, effects.Cells, tuple[int, ...], tuple[int, ...]]


def cell_changes(before: effects.Cells, after: effects.Cells, wh: Warehouse) -> list[str]:
    """Each counter that moved: ``wood 4 \u2192 7`` (``wood 3 \u2192 3 (0+3 to 3+0)`` when only its cell changed)."""
    out = []
    for g, a, z in zip(GOODS, before, after, strict=False):
        if a != z:
            x, y = wh.amount[a], wh.amount[z]
            out.append(f"{g} {x} \u2192 {y}" + (f" ({wh.text(a)} to {wh.text(z)})" if x == y else ""))
    return out


def payment_summary(b: InlandBuilding, before: effects.Cells, payment: effects.Payment, wh: Warehouse) -> str:
    """What building ``b`` costs with ``payment``: ``wood 7 \u2192 4 (overpays 1), 2 francs``."""
    parts = []
    for name, cost in (("wood", b.cost.wood), ("clay", b.cost.clay)):
        if cost:
            parts.append(effects.payment_moves(before, tuple(x for x in payment if x[0] == name), cost, wh))
    if b.cost.food:
        parts.append(
            effects.payment_moves(before, tuple(x for x in payment if x[0] in ("fish", "grain")), b.cost.food, wh)
        )
    if b.cost.francs:
        parts.append(f"{b.cost.francs} franc{'s' if b.cost.francs != 1 else ''}")
    return ", ".join(parts) or "nothing"


#: a ``use`` made by ``legal_actions``: the (cells, purse, sector value, building's effect and parameters) it
#: was made for and the cells and purse it leaves (so applying it needs no effect run)
UseOutcome = tuple[effects.Cells, int, int, object, effects.Cells, int]


@final
class InlandAction:
    """One decision.  ``verb`` is build, use, sell or pass; ``choice`` the how.

    Immutable by convention (the actions are made once and shared); its identity is (verb, building,
    choice), hashed once.  ``text`` is its canonical text and ``outcome`` (a ``use`` made by
    ``legal_actions``) what it does, neither part of its identity.  (A plain class: mypyc compiles it
    into a native one, :mod:`core.compiled`.)"""

    __slots__ = ("_hash", "building", "choice", "outcome", "text", "verb")

    def __init__(
        self,
        verb: str,
        building: str = "",
        choice: tuple[Any, ...] = (),
        text: str = "",
        outcome: UseOutcome | None = None,
    ) -> None:
        self.verb: Final = verb
        self.building: Final = building
        self.choice: Final = choice
        self.text: Final = text
        self.outcome: Final = outcome
        self._hash: Final = hash((verb, building, choice))

    def __str__(self) -> str:
        return self.text or (f"{self.verb} {self.building}".strip())

    def __reduce__(self) -> tuple[type[InlandAction], tuple[str, str, tuple[Any, ...], str, UseOutcome | None]]:
        # copied and pickled through its constructor (a compiled class is made only so)
        return InlandAction, (self.verb, self.building, self.choice, self.text, self.outcome)

    def __repr__(self) -> str:
        return (
            f"InlandAction(verb={self.verb!r}, building={self.building!r}, choice={self.choice!r}, text={self.text!r})"
        )

    def __eq__(self, other: object) -> bool:
        # verb, building and choice compared, first by identity: the actions are made once
        if self is other:
            return True
        if not isinstance(other, InlandAction):
            return NotImplemented
        return (
            self._hash == other._hash
            and self.verb == other.verb
            and self.building == other.building
            and self.choice == other.choice
        )

    def __hash__(self) -> int:
        return self._hash


#: after the main action: the turn is over (no more sales)
END: Final = InlandAction("end", text="end")

#: The actions depend only on the catalog and a few values, and are immutable, so they are made once:
#: (catalog digest, building, cells, francs enough) -> its builds; (..., cells, purse, sector value) -> its uses
_BUILD_CACHE: Final[dict[tuple[str, int, effects.Cells, bool], tuple[InlandAction, ...]]] = registered({})
_USE_CACHE: Final[dict[tuple[str, int, effects.Cells, int, int], tuple[InlandAction, ...]]] = registered({})
_SELL_CACHE: Final[dict[str, tuple[InlandAction, ...]]] = {}
_ACTION_CACHE_LIMIT: Final = 50_000


def _sell_actions(catalog: Catalog) -> tuple[InlandAction, ...]:
    """``sell <Building>`` for every building of ``catalog``, by index."""
    hit = _SELL_CACHE.get(catalog.digest)
    if hit is None:
        hit = _SELL_CACHE[catalog.digest] = tuple(
            InlandAction("sell", b.name, text=f"sell {b.name}") for b in catalog.buildings
        )
    return hit


def _sell_event(p: int, b: InlandBuilding, price: int, forced: bool) -> tuple[int, str]:
    why = "must sell" if forced else "sells"
    return p, f"{why} {b.name} for {price} franc{'s' if price != 1 else ''}"


def _build_event(
    p: int, b: InlandBuilding, before: effects.Cells, payment: effects.Payment, wh: Warehouse
) -> tuple[int, str]:
    where = "beside the board (no function)" if b.locked else "into sector 0"
    return p, f"builds {b.name} {where}, paying {payment_summary(b, before, payment, wh)}"


def _use_event(
    p: int,
    b: InlandBuilding,
    label: str,
    choice: effects.Choice,
    before: effects.Cells,
    after: effects.Cells,
    gained: int,
    wh: Warehouse,
) -> tuple[int, str]:
    changes = cell_changes(before, after, wh)
    if gained:
        changes.append(f"{gained:+d} franc{'s' if abs(gained) != 1 else ''}")
    ct = effects.choice_text(b.effect, b.params, choice, wh)
    return p, f"uses {b.name} in sector {label}" + (f" ({ct})" if ct else "") + ": " + (
        ", ".join(changes) or "no change"
    )


#: (catalog digest, owners) -> each seat's printed values of its buildings without scoring, and the
#: (seat, building) of the owned buildings with scoring (their worth changes with the goods)
_WEALTH_CACHE: Final[dict[tuple[str, tuple[int, ...]], tuple[int, int, tuple[tuple[int, int], ...]]]] = registered({})


def wealth_with(state: InlandState, owners: tuple[int, ...]) -> list[int]:
    """``state.wealth()``, given ``tuple(state.owner)``."""
    key = (state.catalog.digest, owners)
    hit = _WEALTH_CACHE.get(key)
    if hit is None:
        values = [0, 0]
        scoring = []
        buildings = state.catalog.buildings
        for i, o in enumerate(owners):
            if o != NO_OWNER:
                if buildings[i].scoring is None:
                    values[o] += buildings[i].value
                else:
                    scoring.append((o, i))
        if len(_WEALTH_CACHE) > _ACTION_CACHE_LIMIT:
            _WEALTH_CACHE.clear()
        hit = _WEALTH_CACHE[key] = (values[0], values[1], tuple(scoring))
    francs = state.francs
    out = [francs[0] + hit[0], francs[1] + hit[1]]
    for o, i in hit[2]:
        out[o] += state.building_worth(o, i)
    return out


class InlandState(GameState[InlandAction]):
    ruleset: ClassVar[str] = "inland"
    num_players = 2

    __slots__ = (
        "_events",
        "_legal",
        "acted",
        "actions_left",
        "catalog",
        "cells",
        "francs",
        "history",
        "main_actions",
        "owner",
        "round",
        "sector",
        "seed",
        "turn",
    )
    catalog: Catalog
    seed: int
    #: 0..11 = A..L; 12 = over
    round: int
    actions_left: int
    turn: int
    francs: list[int]
    #: each seat's counters: the cells of fish, grain, wood, clay
    cells: list[tuple[int, int, int, int]]
    owner: list[int]
    sector: list[int]
    history: list[str]
    #: what the last action did: (seat, text), or (a function making it, its arguments) until read
    _events: list[tuple[Any, Any]]
    main_actions: int
    #: the seat to move has taken its main action and may sell or end the turn
    acted: bool
    _legal: list[InlandAction] | None

    def __init__(
        self, catalog: Catalog | None = None, seed: int = 0, *, copy_of: InlandState | None = None, history: bool = True
    ) -> None:
        """A game set up with ``catalog`` (default: the built-in buildings); with ``copy_of``, a copy of that
        state (:meth:`clone`: a compiled class is made fastest by its own constructor)."""
        if copy_of is not None:
            self.catalog = copy_of.catalog
            self.seed = copy_of.seed
            self.round = copy_of.round
            self.actions_left = copy_of.actions_left
            self.turn = copy_of.turn
            self.francs = copy_of.francs[:]
            self.cells = copy_of.cells[:]
            self.owner = copy_of.owner[:]
            self.sector = copy_of.sector[:]
            self.history = copy_of.history[:] if history else copy_of.history[-1:]
            self._events = []
            self.main_actions = copy_of.main_actions
            self.acted = copy_of.acted
            self._legal = copy_of._legal
            return
        self.catalog = catalog or default_catalog()
        self.seed = seed
        self.round = 0
        self.actions_left = ACTIONS_PER_ROUND[0]
        self.turn = 0
        self.francs = [START_FRANCS, START_FRANCS]
        self.cells = [self.catalog.start_cells, self.catalog.start_cells]
        n = len(self.catalog)
        self.owner = [NO_OWNER] * n
        self.sector = [0] * n
        self.history = []
        self._events = []
        self.main_actions = 0
        self.acted = False
        self._legal = None

    @property
    def events(self) -> list[tuple[int, str]]:
        """What the last action did: (seat, text), seat -1 for the game itself (the texts are made when read:
        the search never reads them)."""
        ev = self._events
        for k, (a, b) in enumerate(ev):
            if callable(a):
                ev[k] = a(*b)
        return ev

    @events.setter
    def events(self, value: list[tuple[int, str]]) -> None:
        self._events = list(value)

    # -- protocol: bookkeeping ------------------------------------------------
    def clone(self, history: bool = True) -> InlandState:
        """A copy; ``history=False``: without the game's action list but its last action (the search's
        order of sales reads it)."""
        return InlandState(copy_of=self, history=history)

    def copy_for_search(self) -> InlandState:
        return self.clone(history=False)

    def key(self) -> PositionKey:
        return (
            self.round,
            self.actions_left,
            self.turn,
            self.acted,
            self.francs[0],
            self.francs[1],
            self.cells[0],
            self.cells[1],
            tuple(self.owner),
            tuple(self.sector),
        )

    @property
    def main_action_count(self) -> int:
        return self.main_actions

    @property
    def data_digest(self) -> str:
        return self.catalog.digest

    def is_terminal(self) -> bool:
        return self.round >= ROUNDS

    def current_player(self) -> int:
        return TERMINAL if self.is_terminal() else self.turn

    @property
    def round_letter(self) -> str:
        return LETTERS[min(self.round, 11)]

    @property
    def starting_player(self) -> int:
        """Round A: seat 0; the starting player alternates every round."""
        return self.round % 2

    @property
    def warehouse(self) -> Warehouse:
        """The grid's tables (``inland_port.warehouse.Warehouse``)."""
        return self.catalog.warehouse

    @property
    def goods(self) -> list[tuple[int, int, int, int]]:
        """Each seat's amounts of fish, grain, wood, clay (row value + column value of each cell)."""
        amount = self.catalog.warehouse.amount
        return [tuple(amount[c] for c in cells) for cells in self.cells]  # type: ignore[misc]

    # -- queries for renderers and rules ---------------------------------------
    def building(self, name: str) -> InlandBuilding:
        return self.catalog.buildings[self.catalog.index[name]]

    def in_play(self, i: int) -> bool:
        return self.catalog.round_of[i] <= self.round

    def on_offer(self) -> list[int]:
        """Buildings in play and not built (seeds/004, "Build")."""
        owner, r = self.owner, self.round
        return [i for i, ri in enumerate(self.catalog.round_of) if ri <= r and owner[i] == NO_OWNER]

    def owned(self, player: int) -> list[int]:
        return [i for i in range(len(self.catalog)) if self.owner[i] == player]

    def wheel(self, player: int) -> list[list[int]]:
        """Sector index (0..4) -> the player's buildings in it; lock buildings lie beside the board."""
        w: list[list[int]] = [[] for _ in range(5)]
        for i in self.owned(player):
            if not self.catalog.buildings[i].locked:
                w[self.sector[i]].append(i)
        return w

    def beside_board(self, player: int) -> list[int]:
        return [i for i in self.owned(player) if self.catalog.buildings[i].locked]

    def sector_value(self, i: int) -> int:
        return SECTOR_VALUES[self.sector[i]] or 0

    # -- legal actions ------------------------------------------------------------
    def legal_actions(self) -> list[InlandAction]:
        if self._legal is None:
            self._legal = self._generate()
        return self._legal

    def _generate(self) -> list[InlandAction]:
        if self.is_terminal():
            return []
        p = self.turn
        owner = self.owner
        sell_all = _sell_actions(self.catalog)
        sells = [sell_all[i] for i in range(len(owner)) if owner[i] == p]
        if self.acted:
            return [END] + sells
        main: list[InlandAction] = []
        for i in self.on_offer():
            main.extend(self._build_actions(p, i))
        locked = self.catalog.locked
        sector = self.sector
        can_pay = self.francs[p] >= 1
        for i in range(len(owner)):
            o = owner[i]
            if o == NO_OWNER or locked[i] or sector[i] == 0:
                continue
            if o != p and not can_pay:
                continue
            main.extend(self._use_actions(p, i))
        if not main:
            main = [InlandAction("pass", text="pass")]
        return main + sells

    def _build_payments(self, p: int, b: InlandBuilding) -> list[effects.Payment]:
        """Ways to pay for ``b`` (seeds/004 "Building costs" and "There is no change"):
        each paying counter to a cell with the least overpayment; food from fish and/or grain."""
        cost = b.cost
        if cost.francs > self.francs[p]:
            return []
        cells, wh = self.cells[p], self.catalog.warehouse
        ways: list[effects.Payment] = [()]
        for name, amount in (("wood", cost.wood), ("clay", cost.clay)):
            if amount:
                options = effects.good_payments(cells, name, amount, wh)
                if not options:
                    return []
                ways = [w + o for w in ways for o in options]
        if cost.food:
            food = effects.food_payments(cells, cost.food, wh)
            ways = [w + f for w in ways for f in food]
        return ways

    def _build_actions(self, p: int, i: int) -> tuple[InlandAction, ...]:
        b = self.catalog.buildings[i]
        cells = self.cells[p]
        key = (self.catalog.digest, i, cells, b.cost.francs <= self.francs[p])
        hit = _BUILD_CACHE.get(key)
        if hit is None:
            wh = self.catalog.warehouse
            hit = tuple(
                InlandAction(
                    "build", b.name, pay, f"build {b.name}" + (f": {effects.payment_text(pay, wh)}" if pay else "")
                )
                for pay in self._build_payments(p, b)
            )
            if len(_BUILD_CACHE) > _ACTION_CACHE_LIMIT:
                _BUILD_CACHE.clear()
            _BUILD_CACHE[key] = hit
        return hit

    def _user_purse(self, p: int, i: int) -> int:
        """Francs the user holds while carrying out the effect."""
        francs = self.francs[p] - (1 if self.owner[i] != p else 0)
        return francs + (1 if self.sector[i] == BONUS_SECTOR else 0)

    def _use_actions(self, p: int, i: int) -> tuple[InlandAction, ...]:
        s = self.sector_value(i)
        cells = self.cells[p]
        purse = self._user_purse(p, i)
        key = (self.catalog.digest, i, cells, purse, s)
        hit = _USE_CACHE.get(key)
        if hit is None:
            b = self.catalog.buildings[i]
            wh = self.catalog.warehouse
            pkey = self.catalog.params_keys[i]
            out = []
            for choice, (after, left) in effects.effect_choices(b.effect, b.params, cells, purse, s, wh, pkey):
                ct = effects.choice_text(b.effect, b.params, choice, wh)
                text = f"use {b.name}" + (f": {ct}" if ct else "")
                out.append(InlandAction("use", b.name, choice, text, (cells, purse, s, pkey, after, left)))
            hit = tuple(out)
            if len(_USE_CACHE) > _ACTION_CACHE_LIMIT:
                _USE_CACHE.clear()
            _USE_CACHE[key] = hit
        return hit

    def why_illegal(self, text: str) -> str | None:
        """A specific reason why typed text is not legal, when one can be given."""
        t = normalize_text(text)
        verb, _, rest = t.partition(" ")
        name = rest.split(":")[0].strip()
        if verb not in ("build", "use", "sell", "pass", "end"):
            return f"'{verb}' is not an action (actions: build, use, sell, pass, end)."
        if verb == "end":
            return "You end your turn after your main action (build, use or pass); take it first."
        if self.acted and verb in ("build", "use", "pass"):
            return "You have taken your main action this turn: sell a building or 'end' your turn."
        if verb == "pass":
            return "You may pass only when you can neither build nor use anything."
        b = self.catalog.find(name)
        if b is None:
            return f"There is no building called '{name}'." if name else f"'{verb}' needs a building name."
        i = self.catalog.index[b.name]
        p = self.turn
        if verb == "sell" and self.owner[i] != p:
            return f"You can only sell your own buildings; you do not own {b.name}."
        if verb == "build":
            if not self.in_play(i):
                return f"{b.name} enters the game in round {b.letter}; it is round {self.round_letter}."
            if self.owner[i] != NO_OWNER:
                return f"{b.name} is already built."
            if not self._build_payments(p, b):
                return f"You cannot pay for {b.name} ({b.cost}) without change from what you hold."
            if ":" in t:
                why = self._why_not_paid(p, i, t.partition(":")[2].strip())
                if why is not None:
                    return why
        if verb == "use":
            if self.owner[i] == NO_OWNER:
                return f"{b.name} has not been built."
            if b.locked:
                return f"{b.name} has no function (lock); it only counts at the end."
            if self.sector[i] == 0:
                return f"{b.name} is in sector 0, where a building can never be used."
            if self.owner[i] != p and self.francs[p] < 1:
                return f"Using your opponent's {b.name} costs 1 franc; you have none (sell a building first)."
            opts = [str(a) for a in self.legal_actions() if a.verb == "use" and a.building == b.name]
            if opts:
                return (
                    f"That is not a way to use {b.name}. Ways: "
                    + "; ".join(f"'{o}'" for o in opts[:6])
                    + (" ..." if len(opts) > 6 else "")
                )
        return None

    def _why_not_paid(self, p: int, i: int, how: str) -> str | None:
        """Why ``how`` (typed after 'build NAME:') is not a way to pay for building ``i`` (seeds/004,
        "There are three ways to pay costs", "There is no change"): a move a counter cannot make, a
        good the cost does not ask for, too little (it lacks), or more than a legal way (it overpays);
        then the legal ways."""
        b = self.catalog.buildings[i]
        legal = " Ways to pay now: " + "; ".join(f"'{a}'" for a in self._build_actions(p, i)) + "."
        wh, cells = self.catalog.warehouse, self.cells[p]
        paid = {"wood": 0, "clay": 0, "food": 0}
        for part in how.split(","):
            good, to, cell = part.strip().partition(" to ")
            try:
                dest = wh.parse(cell.strip()) if to and good in GOODS else -1
            except ValueError as exc:
                return f"{exc}." + legal
            if dest < 0:
                return f"'{part.strip()}' is not a counter's move: say where it goes, like 'fish to 0+2'." + legal
            at = cells[effects.GI[good]]
            (r, c), (dr, dc) = wh.row_col(at), wh.row_col(dest)
            if dr > r or dc > c or dest == at:
                return (
                    f"Your {good} counter at {wh.text(at)} cannot pay by moving to {wh.text(dest)}: a counter "
                    "pays by moving left (1), down (3) or down-left (4)." + legal
                )
            kind = "food" if good in ("fish", "grain") else good
            paid[kind] += wh.amount[at] - wh.amount[dest]
        cost = {"wood": b.cost.wood, "clay": b.cost.clay, "food": b.cost.food}
        for kind, n in paid.items():
            if n and not cost[kind]:
                return f"{b.name} costs {b.cost}: {kind} does not pay for it." + legal
            if n < cost[kind]:
                return f"That pays {n} {kind} of the {cost[kind]} {b.name} costs: it lacks {cost[kind] - n}." + legal
        over = sum(paid.values()) - sum(cost.values())
        if over <= 0:
            return None  # the payment is a legal way: what is wrong lies elsewhere (the name as typed, say)
        return f"That pays {over} more than {b.name} costs ({b.cost}): it overpays, and a legal way pays less." + legal

    # -- applying -------------------------------------------------------------------
    def apply_action(self, action: InlandAction) -> None:
        p = self.turn
        self._events = []
        self._legal = None
        self.history.append(str(action))
        verb = action.verb
        if verb == "sell":
            self._sell(p, self.catalog.index[action.building], forced=False)
            if self.acted and p not in self.owner:
                self._end_of_turn()
            return
        if verb == "end":
            if not self.acted:
                raise ValueError("'end' comes after the main action")
            self._end_of_turn()
            return
        if self.acted:
            raise ValueError(f"{action} after the main action: only sell or end")
        if verb == "build":
            self._build(p, self.catalog.index[action.building], action.choice)
        elif verb == "use":
            self._use(p, self.catalog.index[action.building], action.choice, action.outcome)
        elif verb == "pass":
            self._events.append((p, "cannot build or use anything and passes"))
        else:
            raise ValueError(f"unknown action {action!r}")
        self.main_actions += 1
        if p in self.owner:
            self.acted = True  # the turn goes on: sell, or end it
        else:
            self._end_of_turn()

    def _sell(self, p: int, i: int, forced: bool) -> None:
        """Sell for half the printed value, rounded down (seeds/004 "Sell"; REFERENCE.md)."""
        b = self.catalog.buildings[i]
        if self.owner[i] != p:
            raise ValueError(f"seat {p} does not own {b.name}")
        price = b.value // 2
        self.francs[p] += price
        self.owner[i] = NO_OWNER
        self.sector[i] = 0
        self._events.append((_sell_event, (p, b, price, forced)))

    def _build(self, p: int, i: int, payment: effects.Payment) -> None:
        b = self.catalog.buildings[i]
        wh = self.catalog.warehouse
        before = self.cells[p]
        self.cells[p] = effects.pay(before, payment, wh)
        self.francs[p] -= b.cost.francs
        if self.francs[p] < 0:
            raise ValueError("cannot afford")
        self.owner[i] = p
        self.sector[i] = 0
        self._events.append((_build_event, (p, b, before, payment, wh)))

    def _use(
        self,
        p: int,
        i: int,
        choice: effects.Choice,
        known: tuple[effects.Cells, int, int, Any, effects.Cells, int] | None = None,
    ) -> None:
        """seeds/004 "Use": effect x sector value, +1 franc in 4+1, then the building goes to sector 0."""
        b = self.catalog.buildings[i]
        owner = self.owner[i]
        label = SECTOR_LABELS[self.sector[i]]
        if owner != p:
            self.francs[p] -= 1
            self.francs[owner] += 1
            self._events.append((p, f"pays the opponent 1 franc to use their {b.name}"))
        purse = self.francs[p] + (1 if self.sector[i] == BONUS_SECTOR else 0)
        wh = self.catalog.warehouse
        before_cells, before_francs = self.cells[p], self.francs[p]
        s = self.sector_value(i)
        if (
            known is not None
            and known[0] == before_cells
            and known[1] == purse
            and known[2] == s
            and known[3] == self.catalog.params_keys[i]
        ):
            cells, francs = known[4], known[5]  # what effect_choices found running this choice
        else:
            cells, francs = effects.run_effect(b.effect, b.params, before_cells, purse, s, choice, wh)
        self.cells[p] = cells
        self.francs[p] = francs
        self.sector[i] = 0
        self._events.append((_use_event, (p, b, label, choice, before_cells, cells, francs - before_francs, wh)))

    def _end_of_turn(self) -> None:
        """The turn is over (seeds/004, "Main phase"): the next action, or the end of the round."""
        self.acted = False
        self.actions_left -= 1
        if self.actions_left > 0:
            self.turn = 1 - self.turn
            return
        self._end_of_round()

    def _end_of_round(self) -> None:
        """seeds/004 "End of the round": pointers turn; buildings reaching '!' are sold."""
        letter = self.round_letter
        for i, o in enumerate(self.owner):
            if o != NO_OWNER and not self.catalog.buildings[i].locked:
                self.sector[i] += 1
                if self.sector[i] == SALE_SECTOR:
                    self._sell(o, i, forced=True)
        self._events.append((-1, f"end of round {letter}: both pointers turn"))
        self.round += 1
        if self.round < ROUNDS:
            self.actions_left = ACTIONS_PER_ROUND[self.round]
            self.turn = self.starting_player
            new = [self.catalog.buildings[i].name for i in self.catalog.by_round[self.round]]
            if new:
                self._events.append((-1, f"round {self.round_letter}: {', '.join(new)} enter the game"))
        else:
            self.actions_left = 0
            self._events.append((-1, "the game is over"))

    # -- scoring ---------------------------------------------------------------------
    def building_worth(self, player: int, i: int) -> int:
        """End value of an owned building: printed value, factories and Dock computed."""
        b = self.catalog.buildings[i]
        worth = b.value
        if b.scoring is not None:
            if b.scoring.per_good:
                worth += self.catalog.warehouse.amount[self.cells[player][effects.GI[b.scoring.per_good]]]
            if b.scoring.per_anchor:
                anchors = sum(1 for j in self.catalog.anchors if self.owner[j] == player)
                worth += b.scoring.per_anchor * anchors
        return worth

    def wealth_breakdown(self, player: int) -> dict[str, int]:
        """seeds/004 "End of the game": building values plus leftover francs."""
        out = {"francs": self.francs[player]}
        for i in self.owned(player):
            out[self.catalog.buildings[i].name] = self.building_worth(player, i)
        return out

    def wealth(self) -> list[int]:
        """Each seat's :meth:`wealth_breakdown` summed (without building the breakdowns: the search asks often)."""
        return wealth_with(self, tuple(self.owner))

    def action_building(self, action: Any) -> tuple[str, str] | None:
        if action.verb in ("build", "use"):
            return action.verb, action.building
        return None

    def building_owners(self) -> dict[str, int]:
        return {self.catalog.buildings[i].name: o for i, o in enumerate(self.owner) if o != NO_OWNER}

    def describe_action(self, action: Any) -> str:
        return str(action)

    def check_invariants(self) -> None:
        """Fail loudly if a rule invariant is broken (used by the tests)."""
        n = self.catalog.warehouse.cells
        for p in (0, 1):
            assert self.francs[p] >= 0, f"seat {p} has negative francs"
            for g, c in zip(GOODS, self.cells[p], strict=False):
                assert 0 <= c < n, f"seat {p}'s {g} counter left the grid (cell {c})"
        assert not (self.acted and self.is_terminal())
        for i, o in enumerate(self.owner):
            if o == NO_OWNER:
                assert self.sector[i] == 0
            else:
                assert 0 <= self.sector[i] < SALE_SECTOR
