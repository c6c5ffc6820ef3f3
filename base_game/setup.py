"""Setup for 1-5 players, full and short (seeds/000, Setup and Explanation of Components).

Random setup draws everything from the seed at once: the supply tiles' order,
the three proposal piles, the six face-down special buildings.  An explicit
setup (``GameOptions.supply_tiles`` / ``proposal_piles`` / ``special_pile`` /
``starting_player``) replaces any of those, so printed examples replay exactly.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from base_game import cards as K
from base_game import data
from base_game.state import NOWHERE, TOWN, BaseState
from core.protocol import GameError


class SetupError(GameError):
    """An explicit setup that does not fit the game; the message says why."""


class GameOptions(BaseModel):
    """Options of a base game.  The two "rules for advanced players" of
    seeds/002 (p. 12/15) are off by default."""

    model_config = ConfigDict(extra="forbid")

    players: int = Field(default=2, ge=1, le=5)
    short: bool = False
    #: seeds/002 advanced rule 1: sell buildings/ships outside your own turn only
    #: to cover a payment you cannot make, and only as many as needed
    advanced_selling: bool = False
    #: seeds/002 advanced rule 2 ("expensive loans"): with 2/3/4/5 players, one
    #: more franc of interest for a player holding at least 2/3/4/5 loans
    expensive_loans: bool = False
    #: explicit setup: supply tile numbers (supply_tiles.csv) in board order
    supply_tiles: list[int] | None = None
    #: explicit setup: three piles of standard building names (sorted by sort order here)
    proposal_piles: list[list[str]] | None = None
    #: explicit setup: the face-down special buildings, top first (full game: 6)
    special_pile: list[str] | None = None
    starting_player: int = Field(default=0, ge=0, le=4)


SOLO_REMOVED = ("Zoo", "Harbour Watch")


def _ids(names: list[str], what: str) -> list[int]:
    out = []
    for n in names:
        b = K.BY_NAME.get(n.strip().lower())
        if b is None:
            raise SetupError(f"{what}: unknown building '{n}'")
        out.append(b)
    return out


def _game_options(options: GameOptions | dict[str, Any] | None) -> GameOptions:
    """The options as given, checked (a dict is validated; ``None`` is the standard game)."""
    if options is None:
        return GameOptions()
    if isinstance(options, dict):
        try:
            return GameOptions(**options)
        except ValidationError as exc:
            probs = "; ".join(f"{'.'.join(str(x) for x in e['loc'])}: {e['msg']}" for e in exc.errors())
            raise SetupError(f"invalid base game options: {probs}") from None
    return options


def _ships(
    rounds: Sequence[Any], n: int, short: bool
) -> tuple[list[tuple[str, int]], dict[str, list[int]], list[list[int]]]:
    """Ship cards (one per round card, its reverse, plus the short game's starting ships), the piles, the players' ships."""
    ship_cards = [(r.ship_type, r.ship_value) for r in rounds]
    ship_piles: dict[str, list[int]] = {t: [] for t in K.SHIP_TYPES}
    ships: list[list[int]] = [[] for _ in range(n)]
    if short and n in (1, 2):  # seeds/000, setup changes for the shortened version
        for p in range(n):
            ship_cards.append(("wooden", 2))
            ships[p].append(len(ship_cards) - 1)
        if n == 1:
            ship_cards.append(("wooden", 2))
            ship_piles["wooden"].append(len(ship_cards) - 1)
    return ship_cards, ship_piles, ships


def _supply_tiles(options: GameOptions, tiles: list[int], rng: random.Random) -> list[int]:
    """The supply tiles face down: as the options give them, else shuffled."""
    if options.supply_tiles is not None:
        if sorted(options.supply_tiles) != tiles:
            raise SetupError(f"supply_tiles must be the seven tiles 1-7 in some order, got {options.supply_tiles}")
        return list(options.supply_tiles)
    rng.shuffle(tiles)
    return tiles


def _buildings(options: GameOptions, n: int, short: bool, rng: random.Random) -> tuple[list[int], list[list[int]]]:
    """Who owns each building at the start (the town's, else nobody) and the three proposal piles."""
    owner = [NOWHERE] * K.NB
    in_play = data.buildings_in_play(n, short)
    pool: list[int] = []
    for so, v in in_play.items():
        b = K.BY_SORT_ORDER[so]
        if v == "start":
            owner[b] = TOWN
        elif v == "yes":
            pool.append(b)
    if options.proposal_piles is not None:
        piles = [_ids(p, "proposal_piles") for p in options.proposal_piles]
        if len(piles) != 3 or sorted(b for pile in piles for b in pile) != sorted(pool):
            want = ", ".join(sorted(K.NAME[b] for b in pool))
            raise SetupError(f"proposal_piles must be three piles holding exactly these buildings: {want}")
        piles = [sorted(p, key=lambda b: K.SORT_KEY[b]) for p in piles]
    else:
        for _ in range(100):
            rng.shuffle(pool)
            size = len(pool) // 3
            piles = [sorted(pool[i * size : (i + 1) * size], key=lambda b: K.SORT_KEY[b]) for i in range(3)]
            # seeds/000 Black Market: reshuffle if it lies on top of a pile after setup
            if all(not p or p[0] != K.BLACK_MARKET for p in piles):
                break
    return owner, piles


def _special_pile(options: GameOptions, n: int, short: bool, rng: random.Random) -> tuple[list[int], list[int]]:
    """The special buildings in the game and the six drawn for the special pile (none in the short game)."""
    # seeds/002 Setup 9: in the solo game the Zoo and the Harbour Watch go back to the box
    specials = [b for b in K.SPECIAL_IDS if n > 1 or K.NAME[b] not in SOLO_REMOVED]
    if short:
        return specials, []
    if options.special_pile is not None:
        sp = _ids(options.special_pile, "special_pile")
        if any(b not in specials for b in sp) or len(set(sp)) != len(sp) or len(sp) != 6:
            raise SetupError(
                "special_pile must name six different special buildings"
                + (" (not the Zoo or the Harbour Watch in the solo game)" if n == 1 else "")
            )
        return specials, sp
    return specials, rng.sample(specials, 6)


def _offers_and_goods(n: int, short: bool) -> tuple[list[int], list[list[int]]]:
    """The offer spaces' goods per round and every player's starting goods."""
    goods = [[0] * K.NG for _ in range(n)]
    if short:
        offer_spaces = [3, 3, 3, 2, 1, 1, 1]
        start = {"fish": 2, "wood": 2, "clay": 2, "iron": 2, "cattle": 1, "coal": 2, "hides": 2}
    else:
        offer_spaces = [2, 2, 2, 1, 0, 0, 0]
        start = {"coal": 1}
    for p in range(n):
        for g, k in start.items():
            goods[p][K.GI[g]] = k
    return offer_spaces, goods


def new_game(seed: int, options: GameOptions | dict[str, Any] | None = None) -> BaseState:
    options = _game_options(options)
    rng = random.Random(seed)
    n, short = options.players, options.short
    if options.starting_player >= n:
        raise SetupError(f"starting_player must be 0..{n - 1} for {n} players")
    rounds = data.round_cards(n, short)
    ship_types = data.ship_types()
    tile_data = {t.tile: t for t in data.supply_tiles()}
    ship_cards, ship_piles, ships = _ships(rounds, n, short)
    # the random draws in this order: supply tiles, proposal piles, special buildings
    tiles = _supply_tiles(options, sorted(tile_data), rng)
    owner, piles = _buildings(options, n, short, rng)
    specials, special_pile = _special_pile(options, n, short, rng)
    offer_spaces, goods = _offers_and_goods(n, short)
    francs = [5] * n
    start_francs = sum(francs) + offer_spaces[0]
    s = BaseState()
    s.options = options
    s.num_players = n
    s.short = short
    s.seed = seed
    s.rounds = tuple(rounds)
    s.ship_types = ship_types
    s.tile_data = tile_data
    s.ship_cards = tuple(ship_cards)
    s.round_ship = tuple(range(len(rounds)))
    s.special_pool = tuple(specials)
    s.start_francs = start_francs
    s.starting_player = options.starting_player
    s.offer_spaces = offer_spaces
    s.supply_tiles = tiles
    s.proposal_piles = piles
    s.special_pile = special_pile
    s.owner = owner
    s.ship_piles = ship_piles
    s.francs = francs
    s.goods = goods
    s.ships = ships
    _start(s, n, options.starting_player)
    s.settle()
    return s


def _start(s: BaseState, n: int, first: int) -> None:
    """The parts of a new game's position that no draw decides: nobody has moved, borrowed or peeked yet."""
    s.history = []
    s.tiles_revealed = 0
    s.discs = [-1] * n
    s.modernised = [False, False]
    s.ship_markers = [-1] * n
    s.loans = [0] * n
    s.peek_known = [()] * n
    s.stack = []
    s.sold_this_turn = set()
    s.round_index = 0
    s.turn_in_round = 0
    s.turn_player = first
    s.started = False
    s.final_stage = False
    s.over = False
    s.main_actions = 0
    s.treasury_flow = 0
    s.loans_taken = 0
