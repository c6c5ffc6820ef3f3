"""The worked first round of the rulebook, replayed exactly.

Source: seeds/000_3a1c2d85c0e157da.txt, "A SAMPLE FIRST ROUND" (Buildings
Overview), and the same round in seeds/002_3c0cdbda85184086.txt (Spis
budynków, "Przykładowa runda").  David = Red (seat 0, starting player),
Fraser = Green (seat 1), Dale = Blue (seat 2); three players, full game.

The example's supply tiles in board order are, by supply_tiles.csv number:
2 (iron+franc), 1 (wood+fish, Interest), 3 (fish+grain), 4 (wood+cattle),
5 (wood+franc), 6 (fish+clay), 7 (wood+clay).  The proposal piles are chosen
so that the Marketplace and the Joinery are on top, as the example needs.
"""

from __future__ import annotations

from base_game.cards import OFFER_LABEL
from tests.base_game.helpers import K, end_turn, have, legal, new, play

RED, GREEN, BLUE = 0, 1, 2

PILES = [
    [
        "Marketplace",
        "Bakehouse",
        "Smokehouse",
        "Wharf 1",
        "Local Court",
        "Grocery Market",
        "Steel Mill",
        "Town Hall",
        "Church",
    ],
    ["Joinery", "Hardware Store", "Abattoir", "Black Market", "Colliery", "Tannery", "Cokery", "Bank", "Charcoal Kiln"],
    [
        "Sawmill",
        "Fishery",
        "Clay Mound",
        "Brickworks",
        "Wharf 2",
        "Shipping Line",
        "Business Office",
        "Ironworks",
        "Bridge over the Seine",
    ],
]


def offers(s) -> dict[str, int]:
    return {OFFER_LABEL[i]: n for i, n in enumerate(s.offer_spaces) if n}


def example_game():
    return new(
        players=3,
        supply_tiles=[2, 1, 3, 4, 5, 6, 7],
        proposal_piles=PILES,
        special_pile=["Zoo", "Tavern", "Farm", "Kiln", "Bakery", "Smelter"],
    )


def test_setup_matches_points_6_and_7():
    """seeds/000 Setup 6 and 7: 2 francs, 2 fish, 2 wood, 1 clay on offer; 5 francs and 1 coal each."""
    s = example_game()
    assert offers(s) == {"francs": 3, "fish": 2, "wood": 2, "clay": 1, "iron": 1}  # after Red's supply
    assert s.francs == [5, 5, 5]
    assert all(have(s, p, "coal") == 1 for p in range(3))
    assert s.current_player() == RED


def test_sample_first_round_replays_exactly():
    s = example_game()
    # 1. Red: tile shows iron and francs; takes the 3 francs (8 in all); could buy the Marketplace
    assert offers(s) == {"francs": 3, "fish": 2, "wood": 2, "clay": 1, "iron": 1}
    play(s, "take francs")
    assert s.francs[RED] == 8
    assert "buy Marketplace" in legal(s)
    end_turn(s)
    # 2. Green: wood and fish; takes 3 wood
    assert s.current_player() == GREEN
    assert offers(s) == {"fish": 3, "wood": 3, "clay": 1, "iron": 1}
    play(s, "take wood")
    end_turn(s)
    assert have(s, GREEN, "wood") == 3
    # 3. Blue: fish and grain; takes 4 fish
    assert offers(s) == {"fish": 4, "clay": 1, "iron": 1, "grain": 1}
    play(s, "take fish")
    end_turn(s)
    assert have(s, BLUE, "fish") == 4
    # 4. Red: wood and cattle -> 1 wood, 1 clay, 1 iron, 1 grain, 1 cattle on offer
    assert offers(s) == {"wood": 1, "clay": 1, "iron": 1, "grain": 1, "cattle": 1}
    play(s, "buy Marketplace")
    assert s.francs[RED] == 2 and s.owner[K.bid("Marketplace")] == RED
    play(s, "enter Marketplace")  # his own building: no entry fee
    assert s.francs[RED] == 2
    play(s, "pick grain", "pick coal")  # two different standard goods from the supply
    assert set(legal(s)) == {"keep order", "swap order"}  # the peek at the special pile
    play(s, "keep order")
    assert s.peek_cards(RED) == ["Zoo", "Tavern"]
    end_turn(s)
    assert have(s, RED, "coal") == 2 and have(s, RED, "grain") == 1
    # 5. Green: wood and 1 franc; Building Firm (no fee), returns 3 wood, builds the Joinery
    assert offers(s) == {"francs": 1, "wood": 2, "clay": 1, "iron": 1, "grain": 1, "cattle": 1}
    play(s, "enter Building Firm 1", "build Joinery")
    end_turn(s)
    assert s.owner[K.bid("Joinery")] == GREEN and have(s, GREEN, "wood") == 0 and s.francs[GREEN] == 5
    # 6. Blue: fish and clay -> 1 franc, 1 fish, 2 wood, 2 clay, 1 iron, 1 grain, 1 cattle; takes 2 wood
    assert offers(s) == {"francs": 1, "fish": 1, "wood": 2, "clay": 2, "iron": 1, "grain": 1, "cattle": 1}
    play(s, "take wood")
    end_turn(s)
    # 7. Red: wood and clay -> 3 clay and 1 of each other good; takes the 3 clay
    assert offers(s) == {"francs": 1, "fish": 1, "wood": 1, "clay": 3, "iron": 1, "grain": 1, "cattle": 1}
    play(s, "take clay")
    end_turn(s)
    assert have(s, RED, "clay") == 3
    # End of round: 2 food each, no harvest (Red keeps 1 grain).  Green, Blue, Red pay in turn order.
    assert s.current_player() == GREEN
    play(s, "pay 2 francs")
    assert s.current_player() == BLUE
    assert "pay 2 fish" in legal(s)
    play(s, "pay 2 fish")
    assert s.current_player() == RED
    play(s, "pay 2 francs")
    assert have(s, RED, "grain") == 1  # no harvest in round 1 of the 3-player game
    assert s.francs == [0, 3, 5] and have(s, BLUE, "fish") == 2
    # the Round card turns into the first ship: a wooden ship of value 2
    assert [s.ship_cards[x] for x in s.ship_piles["wooden"]] == [("wooden", 2)]
    assert s.round_number == 2
    # 8. Green begins round 2 on the first supply tile again: iron and 1 franc
    assert s.current_player() == GREEN
    assert offers(s) == {"francs": 2, "fish": 1, "wood": 1, "iron": 2, "grain": 1, "cattle": 1}
    assert s.tiles_revealed == 7 and s.supply_tiles == [2, 1, 3, 4, 5, 6, 7]
