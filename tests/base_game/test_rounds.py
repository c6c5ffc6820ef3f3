"""Setup, the turn, the end of a round, the final stage, options and the protocol.

Sources: seeds/000_3a1c2d85c0e157da.txt sections named in each test;
REFERENCE.md rulings [dec]; seeds/002 "Reguły dla zaawansowanych graczy".
"""

from __future__ import annotations

import random

import pytest

from base_game import RULESET, BaseState, GameOptions, SetupError
from base_game.evaluate import evaluate, evaluation_terms
from base_game.frames import Debt
from core.protocol import ActionError, parse_action
from tests.base_game.helpers import K, clear, end_turn, goods, have, legal, new, own, play
from tests.base_game.test_standard_buildings import add_ship


def to_end_of_round(s):
    """Play 'take' actions until the round's debts come up."""
    r = s.round_index
    while s.round_index == r and s.stack[-1].kind in ("main", "after"):
        if s.stack[-1].kind == "after":
            s.apply_action("end")
        else:
            s.apply_action(next(a for a in s.legal_actions() if str(a).startswith("take")))


# ------------------------------------------------------------------- setup
@pytest.mark.parametrize(
    "players,short,rounds",
    [
        (1, False, 7),
        (2, False, 14),
        (3, False, 18),
        (4, False, 20),
        (5, False, 20),
        (1, True, 4),
        (2, True, 8),
        (3, True, 12),
        (4, True, 12),
        (5, True, 15),
    ],
)
def test_round_count_and_piles(players, short, rounds):
    """Setup table of rounds; 12. Building proposals: three equal piles sorted by sort order;
    10. the starting buildings in the town; 8. six special buildings face down (full game only)."""
    s = new(players=players, short=short, seed=3)
    assert len(s.rounds) == rounds
    sizes = {len(p) for p in s.proposal_piles}
    assert len(sizes) == 1
    for pile in s.proposal_piles:
        assert [K.SORT_KEY[b] for b in pile] == sorted(K.SORT_KEY[b] for b in pile)
    for name in ("Building Firm 1", "Building Firm 2", "Construction Firm"):
        assert name in s.town_buildings
    assert len(s.special_pile) == (0 if short else 6)


def test_full_game_start():
    """7. Starting money: 5 francs and 1 coal; 6. offers 2 francs, 2 fish, 2 wood, 1 clay."""
    s = new(players=4, seed=1)
    assert s.francs[1:] == [5, 5, 5] and all(have(s, p, "coal") == 1 for p in range(4))


def test_short_game_start_and_ships():
    """Setup changes for the shortened version: offers 3/3/3/2/1/1/1 (before the first supply), goods
    per player; solo: a 2-value wooden ship and another on the pile; 2 players: one each."""
    s = new(players=2, short=True, supply_tiles=[1, 2, 3, 4, 5, 6, 7])
    # tile 1 (wood, fish) already supplied for the first turn
    assert s.offer_spaces == [3, 4, 4, 2, 1, 1, 1]
    for p in range(2):
        assert s.player_goods(p) == {"fish": 2, "wood": 2, "clay": 2, "iron": 2, "cattle": 1, "coal": 2, "hides": 2}
        assert s.player_ships(p) == [("wooden", 2)]
    solo = new(players=1, short=True)
    assert solo.player_ships(0) == [("wooden", 2)]
    assert [solo.ship_cards[x] for x in solo.ship_piles["wooden"]] == [("wooden", 2)]


def test_standard_buildings_in_play():
    """11. Sorting the standard buildings: 3 players full -- the Dock is removed, the Sawmill stays."""
    s = new(players=3)
    in_piles = {K.NAME[b] for p in s.proposal_piles for b in p}
    assert "Sawmill" in in_piles and "Dock" not in in_piles


def test_explicit_setup_errors_are_clear():
    with pytest.raises(SetupError, match="seven tiles"):
        new(players=2, supply_tiles=[1, 2, 3])
    with pytest.raises(SetupError, match="unknown building"):
        new(players=2, special_pile=["Nope"])
    with pytest.raises(Exception):
        GameOptions(players=6)


def test_random_setup_has_no_black_market_on_top():
    """Black Market: reshuffle if it lies on top of a pile after setup."""
    for seed in range(40):
        s = new(players=3, seed=seed)
        assert all(p[0] != K.BLACK_MARKET for p in s.proposal_piles if p)


# -------------------------------------------------------------------- turn
def test_buy_sell_and_discs_go_home():
    """Buying/selling: half value; discs on a sold building go home; not bought back the same turn."""
    s = new(players=2)
    clear(s, 0)
    own(s, 0, "Fishery")
    s.discs[1] = K.bid("Fishery")
    play(s, "sell Fishery")
    assert s.francs[0] == 5 and s.discs[1] == -1 and s.owner[K.bid("Fishery")] == -1
    goods(s, 0, francs=10)
    assert "buy Fishery" not in legal(s)


def test_buy_ship_only_top_and_not_luxury_liner():
    """Buying ships: only the top card of each pile; Luxury liners cannot be bought."""
    s = new(players=2)
    clear(s, 0)
    add_ship(s, "wooden", 2)
    add_ship(s, "wooden", 4)
    add_ship(s, "luxury_liner", 38)
    goods(s, 0, francs=100)
    assert "buy luxury liner" not in legal(s)
    play(s, "buy wooden ship")
    assert s.player_ships(0) == [("wooden", 4)] and s.francs[0] == 86


def test_repay_loan():
    """Loan cards: repaying costs 5 francs, at any time during one's turn."""
    s = new(players=2)
    s.loans[0] = 1
    goods(s, 0, francs=5)
    play(s, "repay")
    assert s.loans[0] == 0 and s.francs[0] == 0


def test_occupied_building_cannot_be_entered():
    """Main action B: move the disc to an unoccupied building."""
    s = new(players=2)
    s.owner[K.bid("Fishery")] = -2
    s.proposal_piles = [[K.bid("Fishery")], [], []]
    for b in ("Building Firm 1", "Construction Firm"):
        s.owner[K.bid(b)] = -1
    s.discs[1] = K.bid("Building Firm 1")
    assert "enter Building Firm 1" not in legal(s)


def test_interest_tile():
    """Supply action: on the Interest tile every player with a loan pays exactly 1 franc."""
    s = new(players=2, supply_tiles=[2, 1, 3, 4, 5, 6, 7])
    s.loans[0], s.loans[1] = 3, 1
    goods(s, 0, francs=5)
    goods(s, 1, francs=0)
    own(s, 1, "Fishery")
    play(s, "take francs")
    end_turn(s)
    # player 1's turn on the Interest tile: player 1 cannot pay -> sell or borrow
    assert s.stack[-1].key()[:2] == ("debt", 1)
    assert set(legal(s)) == {"sell Fishery", "borrow"}
    play(s, "borrow")
    assert s.loans[1] == 2 and s.francs[1] == 3
    # player 0 (3 loans, 8 francs) may repay a loan before paying (seeds/000, Loan Cards)
    assert s.stack[-1].key()[:2] == ("debt", 0) and legal(s) == ["pay 1 franc", "repay"]
    play(s, "pay 1 franc")
    assert s.francs[0] == 5 + 3 - 1 and s.loans[0] == 3
    assert s.stack[-1].key() == ("main", 1)


def test_expensive_loans_option():
    """seeds/002 advanced rules: with 2 players, 1 more franc of interest with at least 2 loans."""
    s2 = RULESET.new_game(0, GameOptions(players=2, supply_tiles=[2, 1, 3, 4, 5, 6, 7], expensive_loans=True))
    s2.loans[1] = 2
    goods(s2, 1, francs=10)
    play(s2, "take francs")
    end_turn(s2)
    assert s2.stack[-1].key() == ("debt", 1, "francs", 2)
    play(s2, "pay 2 francs")
    assert s2.francs[1] == 8


def test_feeding_ships_reduce_food_and_borrow():
    """Feeding: each ship reduces the food due (wooden: 5/4/3/2/1 by player count); a player short of
    food uses all food and money, then takes loans of 4 francs each (Loan cards)."""
    s = new(players=2, seed=5)
    clear(s, 0)
    clear(s, 1)
    add_ship(s, "wooden", 2, owner=0)
    assert s.current_round_card.food == 3 and s.food_due(0) == 0  # round 1 of 2 players: 3 food
    add_ship(s, "luxury_liner", 38, owner=1)
    assert s.food_due(1) == 3  # luxury liners give no food
    goods(s, 1, fish=1, francs=2)
    s.stack.append(Debt(1, "food", 7))
    assert legal(s) == ["borrow"] or "borrow" in legal(s)
    play(s, "borrow")  # 3 of 7 paid with all food and money; 4 missing -> 1 loan, 0 change
    assert s.loans[1] == 1 and s.francs[1] == 0 and have(s, 1, "fish") == 0
    s.stack.append(Debt(1, "food", 6))
    goods(s, 1, fish=0, francs=1)
    play(s, "borrow")  # 5 missing -> 2 loans (8 francs), 3 francs left
    assert s.loans[1] == 3 and s.francs[1] == 3


def test_advanced_selling_only_when_short():
    """seeds/002 advanced rule 1: outside your turn sell only to cover a payment you cannot make."""
    s = new(players=2, advanced_selling=True)
    own(s, 1, "Fishery")
    goods(s, 1, francs=20)
    s.stack.append(Debt(1, "food", 3))
    assert "sell Fishery" not in legal(s)
    s2 = new(players=2)
    own(s2, 1, "Fishery")
    goods(s2, 1, francs=20)
    s2.stack.append(Debt(1, "food", 3))
    assert "sell Fishery" in legal(s2)


def test_harvest_and_town_builds_and_ship_card():
    """End of round: harvest (1 grain with at least 1 grain, 1 cattle with at least 2); the town takes
    the lowest sort order from the proposals (standard) or turns up a special building; the round
    card becomes a ship."""
    s = new(players=2, seed=2)
    # 2 players full: round 2 harvests and the town builds a standard building
    goods(s, 0, grain=1, cattle=2, francs=50)
    goods(s, 1, grain=0, cattle=1, francs=50)
    to_end_of_round(s)
    while s.round_index == 0:
        play(s, legal(s)[0])
    assert s.round_index == 1
    g0, c0 = have(s, 0, "grain"), have(s, 0, "cattle")
    tops = sorted(K.SORT_KEY[p[0]] for p in s.proposal_piles if p)
    to_end_of_round(s)
    while s.round_index == 1:
        play(s, legal(s)[0])
    assert have(s, 0, "grain") >= g0 + 1 and have(s, 0, "cattle") >= c0 + 1
    town_std = [b for b in range(K.NB) if s.owner[b] == -1 and not K.IS_SPECIAL[b] and K.SORT_KEY[b] == tops[0]]
    assert town_std
    assert [s.ship_cards[x] for x in s.ship_piles["wooden"]] == [("wooden", 2), ("wooden", 2)]
    # round 3 turns up a special building
    top = s.special_pile[0]
    to_end_of_round(s)
    while s.round_index == 2:
        play(s, legal(s)[0])
    assert s.owner[top] == -1 and top not in s.special_pile


def test_final_stage_occupied_buildings_but_not_own():
    """Final action: one main action each, starting player first; occupied buildings may be entered,
    except the one your own disc is on; no buying, no supply."""
    s = new(players=2, short=True, seed=4)
    rng = random.Random(0)
    while not s.final_stage:
        acts = [a for a in s.legal_actions() if not str(a).startswith(("sell", "buy"))] or s.legal_actions()
        s.apply_action(rng.choice(acts))
    assert s.stack[-1].key() == ("final", 0)
    s.owner[K.bid("Fishery")] = -2
    s.proposal_piles = [[K.bid("Fishery")], [], []]
    for b in ("Building Firm 1", "Construction Firm"):
        s.owner[K.bid(b)] = -1
    s.discs[1] = K.bid("Building Firm 1")
    s.discs[0] = K.bid("Construction Firm")
    goods(s, 0, wood=9, clay=9, iron=9, francs=50)
    acts = legal(s)
    assert not any(str(a).startswith("buy") for a in acts)
    assert "enter Construction Firm" not in acts
    assert "enter Building Firm 1" in acts
    offers = list(s.offer_spaces)
    play(s, next(a for a in acts if str(a).startswith("take")))
    end_turn(s)
    assert s.current_player() == 1 and s.stack[-1].key() == ("final", 1)
    assert sum(s.offer_spaces) < sum(offers)  # no supply action in the final stage
    play(s, next(a for a in legal(s) if str(a).startswith("take") or str(a).startswith("enter")))
    while not s.is_terminal():
        play(s, "end")
    assert s.is_terminal() and s.current_player() == -1


# --------------------------------------------------------------- protocol
def test_parse_action_prefix_and_errors():
    s = new(players=3, supply_tiles=[2, 1, 3, 4, 5, 6, 7])
    assert str(parse_action(s, "take francs")) == "take francs"
    assert str(parse_action(s, "TAKE  Wood")) == "take wood"
    with pytest.raises(ActionError, match="Allowed now"):
        parse_action(s, "fly away")
    own(s, 1, "Fishery")
    with pytest.raises(ActionError):
        parse_action(s, "buy Fishery")


def test_every_action_text_round_trips():
    s = new(players=3, seed=9)
    rng = random.Random(3)
    for _ in range(300):
        if s.is_terminal():
            break
        acts = s.legal_actions()
        for a in acts:
            assert parse_action(s, str(a)) == a
        s.apply_action(rng.choice(acts))


def test_determinize_hides_tiles_and_special_pile_keeps_peek():
    """REFERENCE.md hidden information: face-down supply tiles and special pile; the Marketplace
    visitor knows the top two."""
    s = new(
        players=2,
        supply_tiles=[2, 1, 3, 4, 5, 6, 7],
        special_pile=["Zoo", "Tavern", "Farm", "Kiln", "Bakery", "Smelter"],
    )
    own(s, 0, "Marketplace")
    play(s, "enter Marketplace", "pick fish", "pick wood")
    # while deciding the order the visitor sees the top two
    assert [K.NAME[b] for b in s.determinize(0, random.Random(1)).special_pile[:2]] == ["Zoo", "Tavern"]
    play(s, "keep order")
    seen_tiles, seen_piles = set(), set()
    for seed in range(30):
        d = s.determinize(1, random.Random(seed))
        assert d.supply_tiles[:1] == [2]
        seen_tiles.add(tuple(d.supply_tiles))
        seen_piles.add(tuple(d.special_pile))
        d0 = s.determinize(0, random.Random(seed))
        assert [K.NAME[b] for b in d0.special_pile[:2]] == ["Zoo", "Tavern"]
        assert len(d.special_pile) == 6
    assert len(seen_tiles) > 1 and len(seen_piles) > 1
    assert s.special_pile == [K.bid(n) for n in ["Zoo", "Tavern", "Farm", "Kiln", "Bakery", "Smelter"]]


def test_clone_is_independent_and_key_hashable():
    s = new(players=2)
    c = s.clone()
    c.apply_action(c.legal_actions()[0])
    assert s.key() != c.key() and hash(s.key()) is not None
    assert s.history == [] and len(c.history) == 1


def test_clone_copies_every_attribute_and_shares_no_mutable_one():
    """The state declares its attributes once (slots in pure Python, a native class's attributes when
    compiled: descriptors of the class either way); a clone has each of them, equal to the original's,
    and every list, dict or set is its own copy (so the search's children never touch their parent);
    the search's copy starts with an empty action list."""
    attributes = [
        n
        for n, v in vars(BaseState).items()
        if type(v).__name__ in ("member_descriptor", "getset_descriptor") and not n.startswith("__")
    ]
    assert len(attributes) > 30 and {"goods", "stack", "history", "over"} <= set(attributes)
    s = new(players=2)
    for _ in range(12):
        s.apply_action(s.legal_actions()[-1])
    for c in (s.clone(), s.copy_for_search()):
        for name in attributes:
            mine, theirs = getattr(s, name), getattr(c, name)
            if name == "history" and c.history == []:
                assert len(s.history) == 12
                continue
            assert mine == theirs, name
            if isinstance(mine, (list, dict, set)) and name not in ("ship_types", "tile_data"):  # set-up data: shared
                assert mine is not theirs, name
        assert all(a is not b for a, b in zip(s.goods, c.goods, strict=True))
        assert all(a is not b for a, b in zip(s.ship_piles.values(), c.ship_piles.values(), strict=True))
    assert s.copy_for_search().history == [] and s.clone().history == s.history


def test_action_building_and_owners():
    s = new(players=2)
    assert s.action_building("enter Building Firm 1") == ("use", "Building Firm 1")
    assert s.action_building("build Joinery") == ("build", "Joinery")
    assert s.action_building("take wood") is None
    own(s, 1, "Fishery")
    assert s.building_owners() == {"Fishery": 1}
    assert RULESET.name == "base" and RULESET.title


def test_solo_game_without_zoo_and_harbour_watch():
    """seeds/002 Setup 9 (Karty budynków): in the solo game the Zoo and the Harbour Watch are removed."""
    for seed in range(30):
        s = new(players=1, seed=seed)
        assert not {K.bid("Zoo"), K.bid("Harbour Watch")} & set(s.special_pile)
        d = s.determinize(0, random.Random(seed))
        assert not {K.bid("Zoo"), K.bid("Harbour Watch")} & set(d.special_pile)
    with pytest.raises(SetupError, match="solo"):
        new(players=1, special_pile=["Zoo", "Tavern", "Farm", "Kiln", "Bakery", "Smelter"])


def test_why_illegal_messages():
    """Bad input gets a message saying what was wrong (PREAMBLE: GameError, never a traceback)."""
    s = new(players=2)
    s.owner[K.bid("Fishery")] = -2
    s.proposal_piles = [[K.bid("Fishery")], [], []]
    for b in ("Building Firm 1", "Construction Firm"):
        s.owner[K.bid(b)] = -1
    s.discs[1] = K.bid("Building Firm 1")
    with pytest.raises(ActionError, match="occupied"):
        parse_action(s, "enter Building Firm 1")
    with pytest.raises(ActionError, match="has not been built"):
        parse_action(s, "enter Bank")
    with pytest.raises(SetupError, match="players"):
        RULESET.new_game(0, {"players": 9})


def test_food_paid_without_change():
    """Rule clarifications: 'A player who pays ... food during the Feeding phase does not receive
    change if he overpays'; francs count as food 1:1 and give change (REFERENCE.md rulings)."""
    s = new(players=2)
    clear(s, 1)
    goods(s, 1, meat=1)
    s.stack.append(Debt(1, "food", 2))
    s.settle()  # a single way to pay: the meat, no change
    assert have(s, 1, "meat") == 0 and s.francs[1] == 0 and s.loans[1] == 0
    goods(s, 1, meat=1, fish=1, francs=1)
    s.stack.append(Debt(1, "food", 2))
    assert set(legal(s)) == {"pay 1 fish, 1 franc", "pay 1 meat"}
    play(s, "pay 1 fish, 1 franc")
    assert have(s, 1, "meat") == 1 and s.francs[1] == 0


def test_evaluate_counts_wealth_and_goods():
    # The evaluation is base_game/evaluate.py's (its terms are pinned in tests/base_game/test_ai.py); here: it is a
    # margin (zero-sum with two players), more francs and a good held (steel) raise it, and it includes wealth.
    s = new(players=2)
    clear(s, 0)
    clear(s, 1)
    goods(s, 0, francs=10, steel=1)
    goods(s, 1, francs=4)
    e = evaluate(s, 0)
    assert evaluate(s, 1) == -e
    terms = evaluation_terms(s, 0)
    assert terms["wealth"] == 10 - 4 and abs(sum(terms.values()) - e) < 1e-9
    richer = s.clone()
    goods(richer, 0, francs=11)
    assert evaluate(richer, 0) > e
    no_steel = s.clone()
    clear(no_steel, 0)
    goods(no_steel, 0, francs=10)
    assert evaluate(no_steel, 0) < e
    assert evaluate(s, 0) == e  # the clones did not touch the original
