"""The worked examples and setup of seeds/004_3575577254fe0f5a.txt, one test each."""

from core.protocol import parse_action
from inland_port import RULESET
from inland_port.state import ACTIONS_PER_ROUND
from tests.inland_port.helpers import play, position, texts, uses


def test_starting_warehouse_and_francs():
    # seeds/004 "GAME SETUP": 4 Fish, 3 Clay, 2 Wood, 1 Grain and 3 Francs each;
    # REFERENCE.md, warehouse grid [rec], places them on the bottom row: fish +4, clay +3, wood +2, grain +1.
    s = RULESET.new_game(0)
    for p in (0, 1):
        fish, grain, wood, clay = s.goods[p]
        assert (fish, grain, wood, clay) == (4, 1, 2, 3)
        assert texts(s, p) == ("0+4", "0+1", "0+2", "0+3")
        wh = s.catalog.warehouse
        assert [wh.row_col(c) for c in s.cells[p]] == [
            (0, 4),
            (0, 1),
            (0, 2),
            (0, 3),
        ]  # (row, column) from the bottom left
        assert s.francs[p] == 3
    assert s.round_letter == "A" and s.current_player() == 0
    # seeds/004 "Beginning of the round": the A buildings are in play
    assert sorted(s.catalog.buildings[i].name for i in s.on_offer()) == sorted(
        ["Wood Company", "Farmland", "Clay Mound", "Grocery Store", "Hardware Store"]
    )


def test_round_a_and_b_action_counts_and_starting_player():
    # seeds/004 "GAME PLAY", Example: Emma starts; round A has three actions (Emma, Max, Emma);
    # in round B Max is the starting player: he carries out two actions, Emma one.
    # Each turn is one main action (build or use), then -- since the player owns a building -- 'end'
    # (seeds/004 "Sell": sales may come after the action, within the turn).
    s = RULESET.new_game(0)
    emma, max_ = 0, 1
    for letter, order in (("A", [emma, max_, emma]), ("B", [max_, emma, max_])):
        seen, decisions = [], []
        while s.round_letter == letter:
            a = s.legal_actions()[0]
            decisions.append((s.current_player(), a.verb))
            if a.verb in ("build", "use", "pass"):
                seen.append(s.current_player())
            s.apply_action(a)
        assert seen == order
        # every main action is followed by the same player's 'end' before the other player acts
        mains = [i for i, (_, v) in enumerate(decisions) if v != "end"]
        assert all(decisions[i + 1] == (decisions[i][0], "end") for i in mains), decisions
    # REFERENCE.md Facts: 3/3/3/5/5/5/7/7/7/9/9/9 actions, 72 in all
    assert ACTIONS_PER_ROUND == (3, 3, 3, 5, 5, 5, 7, 7, 7, 9, 9, 9) and sum(ACTIONS_PER_ROUND) == 72


def test_wood_company_in_sector_3():
    # seeds/004 "The meaning of the symbols", Example: Emma uses the Wood Company in sector 3 and may move
    # the Wood counter three spaces to the right: from the starting wood cell 0+2 to 0+5, exactly three.
    s = position(buildings=[("Wood Company", 0, "3")])
    assert texts(s)[2] == "0+2"
    play(s, "use Wood Company")
    assert texts(s) == ("0+4", "0+1", "0+5", "0+3") and s.goods[0][2] == 5
    i = s.catalog.index["Wood Company"]
    assert s.sector[i] == 0  # seeds/004 "Use": the used building moves to sector 0
    # the counter now stands on the +5 column: "A goods counter stops at the last space of a row"
    # (seeds/004 "Important"); used again from there (in sector 4) it stays where it is
    s = position(goods=("0+4", "0+1", "0+5", "0+3"), buildings=[("Wood Company", 0, "4")])
    play(s, "use Wood Company")
    assert texts(s)[2] == "0+5"


def test_max_uses_emmas_business_office_in_4_plus_1():
    # seeds/004 Example: Max uses Emma's Business Office in sector 4+1: pays Emma 1 Franc, moves his four
    # goods counters diagonally down-left and collects 4 x 5 = 20 Francs plus 1 bonus Franc for the sector.
    # Max's four counters each stand on 3+1 (4) and step down-left to 0+0.
    emma, max_ = 0, 1
    s = position(goods=("3+1",) * 4, francs=3, turn=max_, opp_francs=3, buildings=[("Business Office", emma, "4+1")])
    play(s, "use Business Office: fish, grain, wood, clay")
    assert texts(s, max_) == ("0+0",) * 4 and s.goods[max_] == (0, 0, 0, 0)
    assert s.francs[max_] == 3 - 1 + 20 + 1
    assert s.francs[emma] == 3 + 1
    i = s.catalog.index["Business Office"]
    assert s.owner[i] == emma and s.sector[i] == 0  # back to sector 0 on its owner's board
    # Max owns no building, so his turn ends after the action by itself (nothing to sell): Emma's turn
    assert not s.acted and s.current_player() == emma


def test_paying_two_wood_from_seven_overpays():
    # seeds/004 "There is no change": on the 6 in the second column (cell 6+1, 7 wood) paying 2 wood means
    # moving down (3), since the counter cannot move left twice.  Farm costs 2 wood (reconstructed data).
    # From 6+1 the counter can reach 6+0 (pays 1), 3+1 (3), 3+0 (4), 0+1 (6), 0+0 (7): the least payment
    # covering 2 is 3, and only 3+1 holds 4.
    s = position(goods=("0+4", "0+1", "6+1", "0+3"), buildings=[], round_letter="B")
    assert s.goods[0][2] == 7
    assert s.catalog.buildings[s.catalog.index["Farm"]].cost.wood == 2
    assert [str(a) for a in s.legal_actions() if a.verb == "build" and a.building == "Farm"] == [
        "build Farm: wood to 3+1"
    ]
    play(s, "build Farm: wood to 3+1")
    assert texts(s)[2] == "3+1" and s.goods[0][2] == 4  # 7 - 3: overpaid by 1
    assert any("wood 7 \u2192 4 (overpays 1)" in text for _, text in s.events)


def test_two_destinations_with_the_same_amount_are_two_choices():
    # seeds/004 "There are three ways to pay costs" and "There is no change"; REFERENCE.md Rulings: two
    # destinations holding the same amount are two choices (where the counter stands decides its later moves).
    # Sawmill costs 3 clay (REFERENCE.md data).  Clay on 3+3 (6) pays exactly 3 by moving down to 0+3 or
    # three spaces left to 3+0; both hold 3.
    s = position(goods=("0+4", "0+1", "0+2", "3+3"), round_letter="D")
    assert s.catalog.buildings[s.catalog.index["Sawmill"]].cost.clay == 3
    ways = sorted(str(a) for a in s.legal_actions() if a.verb == "build" and a.building == "Sawmill")
    assert ways == ["build Sawmill: clay to 0+3", "build Sawmill: clay to 3+0"]
    for way, cell in (("build Sawmill: clay to 0+3", "0+3"), ("build Sawmill: clay to 3+0", "3+0")):
        s2 = s.clone()
        play(s2, way)
        assert texts(s2)[3] == cell and s2.goods[0][3] == 3


def test_sector_zero_never_usable():
    # seeds/004 "Use": buildings in sector 0 may not be used under any condition.
    s = position(buildings=[("Shipping Line", 0, "0"), ("Grocery Store", 1, "0")])
    assert uses(s, "Shipping Line") == [] and uses(s, "Grocery Store") == []
    assert "sector 0" in s.why_illegal("use Shipping Line")


def test_cannot_build_without_the_goods():
    # seeds/004 "The buildings": if a player does not have the required goods or Francs, he may not build.
    s = position(goods=("0+0",) * 4, francs=0, round_letter="G")
    assert not [a for a in s.legal_actions() if a.verb == "build"]
    assert s.legal_actions()[0].verb == "pass"
    try:
        parse_action(s, "build Shipping Line")
    except Exception as exc:
        assert "without change" in str(exc) or "cannot pay" in str(exc).lower()
    else:
        raise AssertionError("an unaffordable building was accepted")
