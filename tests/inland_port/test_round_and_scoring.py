"""End of round, forced sale, selling, using the opponent's buildings and the final scoring.

seeds/004_3575577254fe0f5a.txt: "End of the round", "Sell", "Use", "END OF THE GAME" and the lock buildings in the
building index; REFERENCE.md, Inland Port rulings (Dock, factories, half value rounded down).
"""

from core.protocol import ActionError, parse_action
from inland_port.state import SECTOR_LABELS
from tests.inland_port.helpers import finish_turn, play, position


def _finish_round(s):
    """Play main actions and 'end' (never selling) until the round changes."""
    letter = s.round_letter
    while not s.is_terminal() and s.round_letter == letter:
        s.apply_action(next(a for a in s.legal_actions() if a.verb != "sell"))


def test_pointers_turn_and_buildings_age_one_sector():
    # seeds/004 "End of the round": after all actions of the round, both players turn their pointer one sector.
    # The last action's turn ends with 'end' (seeds/004 "Sell": the player may still sell after his action).
    s = position(buildings=[("Farm", 0, "0"), ("Kiln", 1, "2")], round_letter="A")
    s.actions_left = 1
    # Wood Company costs 1 clay (REFERENCE.md data): clay 0+3 moves one space left, to 0+2
    play(s, "build Wood Company: clay to 0+2")
    i, j, k = (s.catalog.index[n] for n in ("Farm", "Kiln", "Wood Company"))
    assert s.acted and s.round_letter == "A"  # the round ends only when the turn does
    assert (SECTOR_LABELS[s.sector[i]], SECTOR_LABELS[s.sector[j]], SECTOR_LABELS[s.sector[k]]) == ("0", "2", "0")
    finish_turn(s)
    assert (SECTOR_LABELS[s.sector[i]], SECTOR_LABELS[s.sector[j]], SECTOR_LABELS[s.sector[k]]) == ("2", "3", "2")
    assert s.round_letter == "B" and s.current_player() == 1


def test_forced_sale_at_the_exclamation_mark():
    # seeds/004 "End of the round": buildings in the "!" sector must be sold immediately for half their value.
    s = position(francs=0, buildings=[("Kiln", 0, "4+1"), ("Farm", 1, "4")], round_letter="C")
    s.actions_left = 1
    play(s, "use Kiln")  # used: back to sector 0, not sold
    finish_turn(s)
    assert s.building_owners()["Kiln"] == 0 and SECTOR_LABELS[s.sector[s.catalog.index["Kiln"]]] == "2"
    s = position(francs=1, buildings=[("Kiln", 0, "4+1"), ("Farm", 1, "4")], round_letter="C", opp_francs=0)
    s.actions_left = 1
    play(s, "use Farm")  # pays the opponent 1 franc; Kiln stays in 4+1
    assert s.building_owners()["Kiln"] == 0  # the turn is not over: the owner could still sell it himself
    finish_turn(s)
    assert "Kiln" not in s.building_owners()  # reached "!": sold
    assert s.francs[0] == 1 - 1 + 3  # Kiln's value 6 / 2
    assert s.francs[1] == 1 and s.building_owners()["Farm"] == 1
    assert any("must sell Kiln" in text for _, text in s.events)
    assert s.owner[s.catalog.index["Kiln"]] == -1  # back in the supply, can be built again


def test_final_forced_sale_after_round_l():
    # seeds/004 "END OF THE GAME": the pointer turns after round L, which may force a final sale.
    # Seat 0 holds nothing and cannot pay to use seat 1's Shipping Line, so its only main action is to pass.
    s = position(
        goods=("0+0",) * 4,
        francs=0,
        opp_francs=0,
        buildings=[("Shipping Line", 1, "4+1"), ("Zoo", 0, "0")],
        round_letter="L",
    )
    s.actions_left = 1
    assert [str(a) for a in s.legal_actions()] == ["pass", "sell Zoo"]
    play(s, "pass")
    assert not s.is_terminal() and [str(a) for a in s.legal_actions()] == ["end", "sell Zoo"]
    finish_turn(s)
    assert s.is_terminal() and s.main_action_count == 1
    assert "Shipping Line" not in s.building_owners() and s.francs[1] == 7  # 14 / 2
    assert s.building_owners()["Zoo"] == 0  # lock buildings are never force-sold


def test_sell_for_half_value_rounded_down_and_build_again():
    # seeds/004 "Sell": anytime during his turn ... collects half the building's value; sold buildings may be built
    # again by both players.  REFERENCE.md: half the printed value, rounded down.
    s = position(francs=0, buildings=[("Kiln", 0, "3"), ("Fish Factory", 0, "0")])
    play(s, "sell Kiln")
    assert s.francs[0] == 3 and s.current_player() == 0 and not s.acted  # selling does not end the turn
    play(s, "sell Fish Factory")
    assert s.francs[0] == 3  # printed value 0
    # Kiln costs 2 wood + 2 clay (the reconstructed data, first balance check): wood 0+2 -> 0+0, clay 0+3 -> 0+1
    assert "build Kiln: wood to 0+0, clay to 0+1" in [str(a) for a in s.legal_actions()]


def test_sell_right_after_using_ones_own_building_in_the_same_turn():
    # seeds/004 "Sell": "Anytime during his turn, a player may sell his own buildings in addition to his
    # action"; REFERENCE.md: before or after the action, in the same turn (selling right after using one's own
    # building keeps the opponent from using it next).
    s = position(buildings=[("Farm", 0, "2"), ("Shipping Line", 0, "3")])
    play(s, "use Shipping Line")  # 9 francs
    assert s.acted and s.current_player() == 0 and s.francs[0] == 12
    # after the action: only sales and 'end'; no second main action
    assert [str(a) for a in s.legal_actions()] == ["end", "sell Farm", "sell Shipping Line"]
    assert "main action" in s.why_illegal("build Farm") and "main action" in s.why_illegal("use Farm")
    play(s, "sell Shipping Line")  # value 14 -> 7
    assert s.francs[0] == 19 and s.acted and s.current_player() == 0 and s.actions_left == 9
    assert s.owner[s.catalog.index["Shipping Line"]] == -1  # the opponent cannot use it now
    play(s, "sell Farm")  # value 4 -> 2; now seat 0 owns nothing: the turn ends by itself
    assert s.francs[0] == 21 and not s.acted and s.current_player() == 1 and s.actions_left == 8


def test_end_only_after_the_main_action():
    # seeds/004 "Main phase": the player must build or use; REFERENCE.md rulings: sales come before or after.
    s = position(buildings=[("Farm", 0, "2")])
    assert "end" not in [str(a) for a in s.legal_actions()]
    assert "main action" in s.why_illegal("end")
    play(s, "sell Farm")
    assert not s.acted and s.current_player() == 0 and "end" not in [str(a) for a in s.legal_actions()]


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
    # seat 0 owns nothing after its action, so its turn ends by itself (no 'end' to decide)
    assert not s.acted and s.current_player() == 1


def test_factories_and_dock_at_the_end():
    # seeds/004 building index: each factory is worth 1 per unit of its good in the warehouse; the Dock 10 per
    # anchor building (REFERENCE.md ruling).  Wealth = building values + leftover Francs ("END OF THE GAME").
    # amounts are row value + column value (seeds/004): fish 6+1 = 7, grain 3+2 = 5, wood 6+5 = 11, clay 9+4 = 13
    s = position(
        goods=("6+1", "3+2", "6+5", "9+4"),
        francs=4,
        buildings=[
            ("Fish Factory", 0, "0"),
            ("Wood Factory", 0, "0"),
            ("Dock", 0, "0"),
            ("Town Hall", 0, "0"),
            ("Grain Silo", 1, "0"),
            ("Brick Factory", 1, "0"),
        ],
    )
    b = s.wealth_breakdown(0)
    assert b == {"francs": 4, "Fish Factory": 7, "Wood Factory": 11, "Dock": 20, "Town Hall": 26}
    assert s.wealth()[0] == 4 + 7 + 11 + 20 + 26
    # seat 1 has the start cells: grain 0+1 = 1, clay 0+3 = 3
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
    assert s.round_letter == "B" and s.catalog.index["Farm"] in s.on_offer()
    assert "round B" not in (s.why_illegal("build Farm") or "")
