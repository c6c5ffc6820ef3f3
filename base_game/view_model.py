"""Le Havre as one seat may see it (the rulebook, "Setup", "Course of play", "End of a round"): the
round card, the seven supply tiles (face down: no goods shown) with the players' ships on them, the
seven Offer spaces, the town's buildings and the face-up special buildings with the persons on them,
the three Building Proposals piles (fanned: every card shows its bottom line), the ship piles, how
many special buildings lie face down (and the ones this seat saw at the Marketplace), and each
player's francs, loans, goods, food and energy, ships, buildings and the food owed this round.

Hidden information never enters it: not the order of the face-down supply tiles, not the face-down
special buildings (only their number, and to the seat that looked at them, the top ones).  The
server makes the view from the seat's own replay of the game (:func:`base_game.view.seat_setup`),
so even what it computes cannot tell more.  The terminal's screens read the facts they share with
it from here.
"""

from __future__ import annotations

from typing import Literal

from base_game import cards as K
from base_game.cards import GOOD_LABEL, NG, OFFER_LABEL
from base_game.frames import Debt, FinishRound, Pay, Sub, Use
from base_game.state import TOWN, BaseState
from core.view_model import ViewModel


class BaseBuilding(ViewModel):
    """A building card: name, kind (standard or special), type, value, price (None: not for sale),
    entry fee (food and francs; ``usable`` False: it has no action), the persons (seats) in it, and
    whether the player to move can enter it now."""

    name: str
    special: bool
    type: str
    value: int
    price: int | None
    materials: dict[str, int]
    entry_food: int
    entry_francs: int
    usable: bool
    persons: list[int]
    enterable: bool = False


class BaseSupplyTile(ViewModel):
    """A supply tile in board order: its goods once turned face up (``None`` while face down), the
    interest mark, and the players' ships on it."""

    first: str | None
    second: str | None
    interest: bool
    ships: list[int]


class BaseShipPile(ViewModel):
    """A ship pile: the ships' values, top first (the top is the one to buy or build), the price to
    buy one (None: it cannot be bought), and the food one provides per round."""

    type: str
    label: str
    values: list[int]
    price: int | None
    feeds: int


class BaseRound(ViewModel):
    """The round card in play: when its round ends -- harvest, the food owed, what the town builds --
    and the ship that then joins the piles."""

    number: int
    rounds: int
    harvest: bool
    food: int
    town_builds: Literal["standard", "special", "none"]
    ship_type: str
    ship_value: int


class BasePlayer(ViewModel):
    """One player's side."""

    seat: int
    francs: int
    loans: int
    #: every good the player holds (none of a good: left out), by the rulebook's names
    goods: dict[str, int]
    food: int
    energy: int
    #: the player's ships (type, value)
    ships: list[tuple[str, int]]
    #: the food the ships provide this round (at most the round's), and what is still owed (None: fed)
    ship_food: int
    food_owed: int | None
    buildings: list[BaseBuilding]
    #: the building the player's person stands in (None: at home)
    person_at: str | None
    hammers: int
    fishermen: int
    wealth: int


class BaseSpecials(ViewModel):
    """The face-down special buildings: how many, and the top ones this seat knows (``looking``: it
    looks at the top two at the Marketplace right now)."""

    face_down: int
    known: list[str]
    looking: bool


class BaseBoard(ViewModel):
    """The whole position (see the module)."""

    game: Literal["base"] = "base"
    over: bool
    short: bool
    players: int
    final_stage: bool
    round: BaseRound | None
    turn_in_round: int
    started_by: int
    to_move: int | None
    #: what the player to move decides now, in words
    decision: str
    offer: dict[str, int]
    supply_tiles: list[BaseSupplyTile]
    town: list[BaseBuilding]
    proposal_piles: list[list[BaseBuilding]]
    ship_piles: list[BaseShipPile]
    specials: BaseSpecials | None
    sides: list[BasePlayer]


def plural(n: int | None, word: str) -> str:
    """``3 francs``, ``1 franc``; a number the data does not give (a building that cannot be bought) reads ``no price``."""
    if n is None:
        return "no price"
    return f"{n} {word}" + ("" if n == 1 else "s")


def decision_text(state: BaseState, shown: bool = True) -> str:
    """What the player to move decides now, in words (``shown``: to that player, who may see the
    special buildings it looks at)."""
    if state.is_terminal():
        return "the game is over"
    fr = state.stack[-1]
    k = fr.kind
    if k == "main":
        return "your turn: take the goods of an offer space or enter a building (first you may buy, sell or repay)"
    if k == "after":
        return "after your main action: buy, sell, repay, or end the turn"
    if k == "final":
        return "your final action: enter any building (even an occupied one) or take an offer"
    if k == "after_final":
        return "after your final action: sell, repay, or end"
    if isinstance(fr, Pay):
        below = next((f for f in reversed(state.stack[:-1]) if f.kind in ("do", "sub")), None)
        what = ""
        if isinstance(below, (Use, Sub)):
            what = f" for {K.NAME[below.building]}"
        return f"choose how to pay{what} (food and energy give no change)"
    if isinstance(fr, Debt):
        amount = fr.amount
        if fr.owed == "food":
            return (
                f"feeding: pay {amount} food (francs count as food); if you cannot, sell buildings or ships, "
                f"or borrow ({K.LOAN_FRANCS} francs per loan)"
            )
        return f"interest: pay {plural(amount, 'franc')}; if you cannot, sell something or borrow"
    if isinstance(fr, Sub):
        b = fr.building
        eff = fr.effect
        what = {
            "upgrade": "how many goods to upgrade",
            "exchange": "how many to exchange",
            "build": "which building to build",
            "wharf": "which ship to build",
            "marketplace": "pick the goods one at a time, in any order",
            "town_square": "pick the goods one at a time, in any order",
            "peek": "keep or swap the top two special buildings",
            "local_court": "which loans to return",
            "shipping_line": "how many ships to use",
            "ship_pick": "how many of each good to ship",
        }.get(eff, "choose")
        if eff == "peek" and shown:
            top = [in_list(x) for x in state.special_pile[:2]]
            what += f" (you see: {top[0]} on top, then {top[1]})" if len(top) == 2 else ""
        return f"using {K.NAME[b]}: {what}"
    return "choose"


def in_list(b: int) -> str:
    """Building ``b``'s name as an item of a list: quoted when it holds ' and ' ("Fishpond and Wood"),
    so that 'Fishery, "Fishpond and Wood"' reads as two buildings, not three."""
    name = K.NAME[b]
    return f'"{name}"' if " and " in name else name


def building_order(b: int) -> tuple[bool, int, str]:
    """How lists of buildings are sorted: standard before special, then the cards' order."""
    return K.IS_SPECIAL[b], K.SORT_KEY[b], K.NAME[b]


def round_started_by(state: BaseState) -> int:
    """The seat that took the first turn of the current round."""
    n = state.num_players
    if not state.started:
        return state.turn_player
    return (state.turn_player - max(0, state.turn_in_round - 1)) % n


def feeding_started(s: BaseState) -> bool:
    return any(isinstance(fr, FinishRound) for fr in s.stack)


def food_owed(s: BaseState, p: int) -> int | None:
    """The food ``p`` still owes this round; None once ``p`` has fed (the feeding under way, no debt left)."""
    if not feeding_started(s):
        return s.food_due(p)
    owed = [fr.amount for fr in s.stack if isinstance(fr, Debt) and fr.player == p and fr.owed == "food"]
    return owed[-1] if owed else None


def specials_seen(state: BaseState, viewer: int | None) -> tuple[bool, list[int]]:
    """Whether ``viewer`` looks at the top two face-down special buildings right now (at the
    Marketplace), and the ones it knows, top first."""
    if viewer is None or not 0 <= viewer < state.num_players or state.is_terminal():
        return False, []
    top = state.stack[-1]
    if isinstance(top, Sub) and top.player == viewer and top.effect == "peek":
        return True, list(state.special_pile[:2])
    return False, list(state.peek_known[viewer])


def enterable(state: BaseState) -> set[int]:
    """The buildings the player to move can enter now (at its main or final action)."""
    if state.is_terminal() or state.decision not in ("main", "final"):
        return set()
    return {a.ref for a in state.legal_actions() if a.verb == "enter"}


def building(state: BaseState, b: int, can_enter: set[int]) -> BaseBuilding:
    return BaseBuilding(
        name=K.NAME[b],
        special=K.IS_SPECIAL[b],
        type=K.BTYPE[b],
        value=K.VALUE[b],
        price=K.PRICE[b],
        materials={GOOD_LABEL[g]: n for g, n in K.MATERIALS[b]},
        entry_food=K.ENTRY_FOOD[b],
        entry_francs=K.ENTRY_FRANCS[b],
        usable=K.EFFECT[b] != "none",
        persons=[q for q, d in enumerate(state.discs) if d == b],
        enterable=b in can_enter,
    )


def supply_tiles(state: BaseState) -> list[BaseSupplyTile]:
    out = []
    for i, r in enumerate(state.revealed_supply_tiles):
        ships = [q for q, m in enumerate(state.ship_markers) if m == i]
        if r is None:
            out.append(BaseSupplyTile(first=None, second=None, interest=False, ships=ships))
        else:
            out.append(BaseSupplyTile(first=r[0], second=r[1], interest=r[2], ships=ships))
    return out


def ship_piles(state: BaseState) -> list[BaseShipPile]:
    return [
        BaseShipPile(
            type=t,
            label=K.SHIP_TYPE_LABEL[t],
            values=[state.ship_cards[s][1] for s in reversed(state.ship_piles[t])],
            price=state.ship_types[t].buy_price,
            feeds=state.ship_types[t].food[state.num_players - 1],
        )
        for t in K.SHIP_TYPES
    ]


def player(state: BaseState, p: int, can_enter: set[int], wealth: list[int]) -> BasePlayer:
    disc = state.discs[p]
    playing = not state.is_terminal() and not state.final_stage
    card = state.current_round_card
    return BasePlayer(
        seat=p,
        francs=state.francs[p],
        loans=state.loans[p],
        goods={GOOD_LABEL[g]: state.goods[p][g] for g in range(NG) if state.goods[p][g]},
        food=state.food_value(p),
        energy=state.energy_value(p),
        ships=state.player_ships(p),
        ship_food=min(state.ship_food(p), card.food) if playing else 0,
        food_owed=food_owed(state, p) if playing else None,
        buildings=[building(state, b, can_enter) for b in sorted(state.owned(p), key=building_order)],
        person_at=K.NAME[disc] if disc >= 0 else None,
        hammers=state.hammers(p),
        fishermen=state.fishermen(p),
        wealth=wealth[p],
    )


def round_card(state: BaseState) -> BaseRound | None:
    """The round card in play (None in the final stage and after the game)."""
    if state.is_terminal() or state.final_stage:
        return None
    card = state.current_round_card
    return BaseRound(
        number=state.round_number,
        rounds=len(state.rounds),
        harvest=card.harvest,
        food=card.food,
        town_builds=card.town_builds,
        ship_type=card.ship_type,
        ship_value=card.ship_value,
    )


def specials(state: BaseState, viewer: int | None) -> BaseSpecials | None:
    if state.short:
        return None
    looking, known = specials_seen(state, viewer)
    return BaseSpecials(face_down=len(state.special_pile), known=[K.NAME[b] for b in known], looking=looking)


def base_view(state: BaseState, seat: int | None = None) -> BaseBoard:
    """The position as ``seat`` (None: a spectator) may see it (see the module)."""
    over = state.is_terminal()
    can_enter = enterable(state)
    wealth = state.wealth()
    town = sorted((b for b in range(K.NB) if state.owner[b] == TOWN), key=building_order)
    mover = None if over else state.current_player()
    return BaseBoard(
        over=over,
        short=state.short,
        players=state.num_players,
        final_stage=state.final_stage,
        round=round_card(state),
        turn_in_round=state.turn_in_round,
        started_by=round_started_by(state),
        to_move=mover,
        decision=decision_text(state, shown=mover == seat),
        offer=dict(zip(OFFER_LABEL, state.offer_spaces, strict=True)),
        supply_tiles=supply_tiles(state),
        town=[building(state, b, can_enter) for b in town],
        proposal_piles=[[building(state, b, can_enter) for b in pile] for pile in state.proposal_piles],
        ship_piles=ship_piles(state),
        specials=specials(state, seat),
        sides=[player(state, p, can_enter, wealth) for p in range(state.num_players)],
    )
