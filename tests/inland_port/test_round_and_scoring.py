"""End of round, forced sale, selling, using the opponent's buildings and the final scoring.

seeds/004_3575577254fe0f5a.txt: "End of the round", "Sell", "Use", "END OF THE GAME" and the lock buildings in the
building index; REFERENCE.md, Inland Port rulings (Dock, factories, half value rounded down).
"""

from core.protocol import ActionError, parse_action
from inland_port.state import SECTOR_LABELS

from tests.inland_port.helpers import play, position


def _finish_round(s):
    """Play main actions (never selling) until the round changes."""
    letter = s.round_letter
    while not s.is_terminal() and s.round_letter == letter:
        s.apply_action([a for a in s.legal_actions() if a.verb != "sell"][0])


def test_pointers_turn_and_buildings_age_one_sector():
    # seeds/004 "End of the round": both players turn their pointer one sector.
    s = position(buildings=[("Farm", 0, "0"), ("Kiln", 1, "2")], round_letter="A")
    s.actions_left = 1
    s.apply_action(parse_action(s, "build Wood Company"))
    i, j, k = (s.catalog.index[n] for n in ("Farm", "Kiln", "Wood Company"))
    assert (SECTOR_LABELS[s.sector[i]], SECTOR_LABELS[s.sector[j]], SECTOR_LABELS[s.sector[k]]) == ("2", "3", "2")
    assert s.round_letter == "B" and s.current_player() == 1


def test_forced_sale_at_the_exclamation_mark():
    # seeds/004 "End of the round": buildings in the "!" sector must be sold immediately for half their value.
    s = position(francs=0, buildings=[("Kiln", 0, "4+1"), ("Farm", 1, "4")], round_letter="C")
    s.actions_left = 1
    s.apply_action(parse_action(s, "use Kiln"))  # used: back to sector 0, not sold
    assert s.building_owners()["Kiln"] == 0
    s = position(francs=1, buildings=[("Kiln", 0, "4+1"), ("Farm", 1, "4")], round_letter="C", opp_francs=0)
    s.actions_left = 1
    s.apply_action(parse_action(s, "use Farm"))  # pays the opponent 1 franc; Kiln stays in 4+1
    assert "Kiln" not in s.building_owners()  # reached "!": sold
    assert s.francs[0] == 1 - 1 + 3  # Kiln's value 6 / 2
    assert s.francs[1] == 1 and s.building_owners()["Farm"] == 1
    assert any("must sell Kiln" in text for _, text in s.events)
    assert s.owner[s.catalog.index["Kiln"]] == -1  # back in the supply, can be built again


def test_final_forced_sale_after_round_l():
    # seeds/004 "END OF THE GAME": the pointer turns after round L, which may force a final sale.
    # Seat 0 holds nothing and cannot pay to use seat 1's Shipping Line, so its only main action is to pass.
    s = position(goods=(0, 0, 0, 0), francs=0, opp_francs=0,
                 buildings=[("Shipping Line", 1, "4+1"), ("Zoo", 0, "0")], round_letter="L")
    s.actions_left = 1
    play(s, "pass")
    assert s.is_terminal() and s.main_action_count == 1
    assert "Shipping Line" not in s.building_owners() and s.francs[1] == 7  # 14 / 2
    assert s.building_owners()["Zoo"] == 0  # lock buildings are never force-sold


def test_sell_for_half_value_rounded_down_and_build_again():
    # seeds/004 "Sell": anytime during his turn ... collects half the building's value; sold buildings may be built
    # again by both players.  REFERENCE.md: half the printed value, rounded down.
    s = position(francs=0, buildings=[("Kiln", 0, "3"), ("Fish Factory", 0, "0")])
    play(s, "sell Kiln")
    assert s.francs[0] == 3 and s.current_player() == 0  # selling does not end the turn
    play(s, "sell Fish Factory")
    assert s.francs[0] == 3  # printed value 0
    assert "build Kiln" in [str(a) for a in s.legal_actions()]


def test_using_the_opponents_building_needs_a_franc():
    # seeds/004 "Use": he must pay his opponent 1 Franc; REFERENCE.md: sell first if you must.
    s = position(francs=0, buildings=[("Shipping Line", 1, "3"), ("Farm", 0, "2")])
    assert "use Shipping Line" not in [str(a) for a in s.legal_actions()]
    try:
        parse_action(s, "use Shipping Line")
    except ActionError as exc:
        assert "1 franc" in str(exc)
    else:
        raise AssertionError("used the opponent's building without a franc")
    play(s, "sell Farm")
    play(s, "use Shipping Line")
    assert s.francs == [2 - 1 + 9, 3 + 1]


def test_factories_and_dock_at_the_end():
    # seeds/004 building index: each factory is worth 1 per unit of its good in the warehouse; the Dock 10 per
    # anchor building (REFERENCE.md ruling).  Wealth = building values + leftover Francs ("END OF THE GAME").
    s = position(goods=(7, 5, 11, 13), francs=4,
                 buildings=[("Fish Factory", 0, "0"), ("Wood Factory", 0, "0"), ("Dock", 0, "0"), ("Town Hall", 0, "0"),
                            ("Grain Silo", 1, "0"), ("Brick Factory", 1, "0")])
    b = s.wealth_breakdown(0)
    assert b == {"francs": 4, "Fish Factory": 7, "Wood Factory": 11, "Dock": 20, "Town Hall": 26}
    assert s.wealth()[0] == 4 + 7 + 11 + 20 + 26
    assert s.wealth_breakdown(1)["Grain Silo"] == 1 and s.wealth_breakdown(1)["Brick Factory"] == 3


def test_tie_gives_two_winners():
    # REFERENCE.md: a tie on wealth is a tie (the rulebook's rematch is offered, not forced).
    s = position()
    assert s.wealth() == [3, 3] and s.winners() == [0, 1] and s.returns() == [0.0, 0.0]


def test_building_enters_by_letter():
    # seeds/004 "Beginning of the round": all buildings with the current round letter enter the game.
    s = position(round_letter="A")
    assert "Farm" in s.why_illegal("build Farm") and "round B" in s.why_illegal("build Farm")
    _finish_round(s)
    assert any(a.building == "Farm" for a in s.legal_actions() if a.verb == "build") or s.francs[s.turn] >= 0
