"""The worked examples and setup of seeds/004_3575577254fe0f5a.txt, one test each."""

from core.protocol import parse_action
from inland_port import RULESET
from inland_port.state import ACTIONS_PER_ROUND

from tests.inland_port.helpers import play, position, uses


def test_starting_warehouse_and_francs():
    # seeds/004 "GAME SETUP": 4 Fish, 3 Clay, 2 Wood, 1 Grain and 3 Francs each;
    # REFERENCE.md places them: fish row 3 +1, clay row 3 +0, wood row 0 +2, grain row 0 +1.
    s = RULESET.new_game(0)
    for p in (0, 1):
        fish, grain, wood, clay = s.goods[p]
        assert (fish, grain, wood, clay) == (4, 1, 2, 3)
        assert [divmod(a, 3) for a in (fish, clay, wood, grain)] == [(1, 1), (1, 0), (0, 2), (0, 1)]
        assert s.francs[p] == 3
    assert s.round_letter == "A" and s.current_player() == 0
    # seeds/004 "Beginning of the round": the A buildings are in play
    assert sorted(s.catalog.buildings[i].name for i in s.on_offer()) == sorted(
        ["Wood Company", "Farmland", "Clay Mound", "Grocery Store", "Hardware Store"]
    )


def test_round_a_and_b_action_counts_and_starting_player():
    # seeds/004 "GAME PLAY", Example: Emma starts; round A has three actions (Emma, Max, Emma);
    # in round B Max is the starting player: he carries out two actions, Emma one.
    s = RULESET.new_game(0)
    emma, max_ = 0, 1
    seen = []
    while s.round_letter == "A":
        seen.append(s.current_player())
        s.apply_action(s.legal_actions()[0])
    assert seen == [emma, max_, emma]
    seen = []
    while s.round_letter == "B":
        seen.append(s.current_player())
        s.apply_action(s.legal_actions()[0])
    assert seen == [max_, emma, max_]
    # REFERENCE.md Facts: 3/3/3/5/5/5/7/7/7/9/9/9 actions, 72 in all
    assert ACTIONS_PER_ROUND == (3, 3, 3, 5, 5, 5, 7, 7, 7, 9, 9, 9) and sum(ACTIONS_PER_ROUND) == 72


def test_wood_company_in_sector_3():
    # seeds/004 "The meaning of the symbols", Example: Emma uses the Wood Company in sector 3 and may move
    # the Wood counter three spaces to the right.  From the first column that is two steps and the edge
    # ("A goods counter stops at the last space of a row", seeds/004 "Important").
    s = position(goods=(4, 1, 9, 3), buildings=[("Wood Company", 0, "3")])
    play(s, "use Wood Company")
    assert s.goods[0][2] == 11  # row 9, third column
    i = s.catalog.index["Wood Company"]
    assert s.sector[i] == 0  # seeds/004 "Use": the used building moves to sector 0


def test_max_uses_emmas_business_office_in_4_plus_1():
    # seeds/004 Example: Max uses Emma's Business Office in sector 4+1: pays Emma 1 Franc, moves his four
    # goods counters diagonally down-left and collects 4 x 5 = 20 Francs plus 1 bonus Franc for the sector.
    emma, max_ = 0, 1
    s = position(goods=(4, 4, 4, 4), francs=3, turn=max_, opp_francs=3,
                 buildings=[("Business Office", emma, "4+1")])
    play(s, "use Business Office: fish, grain, wood, clay")
    assert s.goods[max_] == (0, 0, 0, 0)
    assert s.francs[max_] == 3 - 1 + 20 + 1
    assert s.francs[emma] == 3 + 1
    i = s.catalog.index["Business Office"]
    assert s.owner[i] == emma and s.sector[i] == 0  # back to sector 0 on its owner's board


def test_paying_two_wood_from_seven_overpays():
    # seeds/004 "There is no change": on the 6 in the second column (7 wood) paying 2 wood means moving
    # down (3), since the counter cannot move left twice.  Farm costs 2 wood (reconstructed data).
    s = position(goods=(4, 1, 7, 3), buildings=[], round_letter="B")
    assert s.catalog.buildings[s.catalog.index["Farm"]].cost.wood == 2
    play(s, "build Farm")
    assert s.goods[0][2] == 4  # 7 - 3: overpaid by 1


def test_sector_zero_never_usable():
    # seeds/004 "Use": buildings in sector 0 may not be used under any condition.
    s = position(buildings=[("Shipping Line", 0, "0"), ("Grocery Store", 1, "0")])
    assert uses(s, "Shipping Line") == [] and uses(s, "Grocery Store") == []
    assert "sector 0" in s.why_illegal("use Shipping Line")


def test_cannot_build_without_the_goods():
    # seeds/004 "The buildings": if a player does not have the required goods or Francs, he may not build.
    s = position(goods=(0, 0, 0, 0), francs=0, round_letter="G")
    assert not [a for a in s.legal_actions() if a.verb == "build"]
    assert s.legal_actions()[0].verb == "pass"
    try:
        parse_action(s, "build Shipping Line")
    except Exception as exc:
        assert "without change" in str(exc) or "cannot pay" in str(exc).lower()
    else:
        raise AssertionError("an unaffordable building was accepted")
