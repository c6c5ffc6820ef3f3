"""The warehouse as the rulebook describes it: a grid of cells, counters that move step by step,
payments without change, and selling at any time during one's own turn.

Passages (seeds/004_3575577254fe0f5a.txt):
* "The meaning of the symbols": "Emma uses the Wood Company in sector 3. She may move the Wood goods counter
  on her Warehouse board three spaces to the right"; "Max wants to use Emma's Business Office in sector 4 + 1.
  He pays Emma 1 Franc and then moves his four goods counters diagonally down to the left and collects
  4 x 5 = 20 Francs... plus 1 bonus Franc for the sector"; "A goods counter stops at the last space of a row
  or column"; "add up the values of its row and column. This player has 7 Wood (6+1)".
* "There are three ways to pay costs": left pays 1, down 3, diagonally down-left 4; "There is no change: if
  the Wood counter is on the 6 in the second column and the player wants to pay 2 Wood, he will have to
  overpay as he can only get 2 by moving Wood down".
* "Sell": "Anytime during his turn, a player may sell his own buildings in addition to his action."
* "BUILDING INDEX": the functions of the buildings named below.
* "Game setup": 4 Fish, 3 Clay, 2 Wood, 1 Grain.
The grid's size and start cells are reconstructed (6 columns +0..+5, 6 rows 0..15, start cells on the bottom
row), and the edge and payment rulings are ours; both ship in the data file and `lehavre rules inland`.

Cells are written as the rulebook adds them: row value + column value, "6+1".
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from core import records
from core.cards import DataFileError
from core.payment import payment_options
from core.protocol import parse_action
from inland_port import RULESET, effects
from inland_port.buildings import DEFAULT_PATH, load_catalog
from inland_port.evaluate import search_actions
from inland_port.state import InlandState
from tests.inland_port.helpers import position, random_game_tests, texts

START = ("0+4", "0+1", "0+2", "0+3")  # fish, grain, wood, clay (reconstructed start cells)
FISH, GRAIN, WOOD, CLAY = range(4)


def use(s: InlandState, name: str, text: str | None = None) -> InlandState:
    s.apply_action(parse_action(s, text or f"use {name}"))
    return s


# -- the grid is data ------------------------------------------------------------


def test_default_grid_is_the_reconstruction_flagged_as_such():
    cat = load_catalog()
    g = cat.grid
    assert (g.columns, g.rows) == (6, 6)
    assert {x: (g.start[x].row, g.start[x].column) for x in g.start} == {
        "fish": (0, 4),
        "clay": (0, 3),
        "wood": (0, 2),
        "grain": (0, 1),
    }
    assert all(g.source_of(f) == "reconstructed" for f in ("columns", "rows", "start"))
    s = RULESET.new_game(0)
    assert texts(s, 0) == texts(s, 1) == START
    assert s.goods[0] == (4, 1, 2, 3)  # seeds/004 "Game setup"


def _file_with_grid(tmp_path: Path, grid: dict) -> Path:
    raw = json.loads(Path(DEFAULT_PATH).read_text(encoding="utf-8"))
    raw["grid"] = grid
    p = tmp_path / "mine.json"
    p.write_text(json.dumps(raw), encoding="utf-8")
    return p


OTHER_GRID = {  # 5 columns x 7 rows, fish and clay one row up
    "columns": 5,
    "rows": 7,
    "start": {
        "fish": {"row": 1, "column": 1},
        "clay": {"row": 1, "column": 0},
        "wood": {"row": 0, "column": 2},
        "grain": {"row": 0, "column": 1},
    },
}


@pytest.mark.parametrize(
    "grid,field,words",
    [
        (
            {**OTHER_GRID, "start": {**OTHER_GRID["start"], "wood": {"row": 0, "column": 7}}},
            "start.wood",
            "off the grid",
        ),
        (
            {**OTHER_GRID, "start": {**OTHER_GRID["start"], "fish": {"row": 0, "column": 3}}},
            "start.fish",
            "starts with 4 fish",
        ),
        (
            {**OTHER_GRID, "columns": 3, "start": {**OTHER_GRID["start"], "fish": {"row": 1, "column": 1}}},
            "columns",
            "at least 4",
        ),
        ({**OTHER_GRID, "start": {"fish": {"row": 1, "column": 1}}}, "start", "no start cell for"),
        ({**OTHER_GRID, "rows": "many"}, "rows", "integer"),
    ],
)
def test_malformed_grids_are_refused_naming_file_and_field(tmp_path, grid, field, words):
    p = _file_with_grid(tmp_path, grid)
    with pytest.raises(DataFileError) as err:
        load_catalog(p)
    msg = str(err.value)
    assert str(p) in msg and f"field '{field}'" in msg and words in msg, msg


def test_another_grid_plays_full_games(tmp_path):
    p = _file_with_grid(tmp_path, OTHER_GRID)
    cat = load_catalog(p)
    assert cat.digest != load_catalog().digest
    for seed in range(20):
        s = RULESET.new_game(seed, {"buildings": str(p)})
        assert s.goods[0] == (4, 1, 2, 3) and texts(s) == ("3+1", "0+1", "0+2", "3+0")
        rng = random.Random(seed)
        while not s.is_terminal():
            s.apply_action(rng.choice(s.legal_actions()))
            s.check_invariants()
            wh = s.catalog.warehouse
            for c in s.cells[0] + s.cells[1]:
                r, k = wh.row_col(c)
                assert r < 7 and k < 5
        assert s.round == 12


# -- counters move by steps ------------------------------------------------------------


def test_wood_company_in_sector_3_moves_wood_three_spaces_right():
    """seeds/004, "The meaning of the symbols": Emma's Wood Company in sector 3."""
    s = use(position(buildings=[("Wood Company", 0, "3")]), "Wood Company")
    assert texts(s)[WOOD] == "0+5" and s.goods[0][WOOD] == 5


def test_a_counter_at_the_right_edge_stays_where_it_is():
    """seeds/004: "A goods counter stops at the last space of a row or column"."""
    s = use(position(goods=("0+4", "0+1", "6+5", "0+3"), buildings=[("Wood Company", 0, "4")]), "Wood Company")
    assert texts(s)[WOOD] == "6+5"
    s = use(position(goods=("0+4", "0+1", "6+4", "0+3"), buildings=[("Wood Company", 0, "4")]), "Wood Company")
    assert texts(s)[WOOD] == "6+5"  # one step, then the edge ends the move


def test_clay_mound_in_4_plus_1_moves_clay_five_spaces_right():
    """seeds/004, Clay Mound: 2-4 spaces right, then 1 more; sector 4+1 adds 1 franc."""
    s = use(position(goods=("0+4", "0+1", "0+2", "3+0"), francs=3, buildings=[("Clay Mound", 0, "4+1")]), "Clay Mound")
    assert texts(s)[CLAY] == "3+5" and s.goods[0][CLAY] == 8 and s.francs[0] == 4


@pytest.mark.parametrize("sector,cell", [("2", "3+2"), ("3", "6+3"), ("4", "9+4"), ("4+1", "9+4")])
def test_farm_moves_grain_net_one_to_three_spaces_up_right(sector, cell):
    """seeds/004, Farm: "Grain is in reality moved 1-3 spaces diagonally up to the right"."""
    s = use(position(buildings=[("Farm", 0, sector)]), "Farm")
    assert texts(s)[GRAIN] == cell


# (building, cells before, choice text) where sector 4 yields more than sector 2 (seeds/004, "BUILDING INDEX":
# "2-4 spaces ... according to the position"); each expected cell pair derived by hand
SECTOR_GAINS = [
    ("Wood Company", ("0+4", "0+1", "0+0", "0+3"), "", {WOOD: ("0+2", "0+4")}),
    ("Farmland", START, "", {GRAIN: ("0+3", "0+5"), WOOD: ("0+3", "0+3"), CLAY: ("0+4", "0+4")}),
    ("Clay Mound", ("0+4", "0+1", "0+2", "3+0"), "", {CLAY: ("3+3", "3+5")}),
    ("Hardware Store", ("0+4", "0+1", "0+0", "0+3"), ": wood", {WOOD: ("0+2", "0+4")}),
    ("Kiln", START, "", {CLAY: ("6+1", "9+0")}),
    ("Smokehouse", START, "", {FISH: ("6+2", "12+0")}),
    ("Bakehouse", ("0+4", "0+5", "0+2", "0+3"), "", {GRAIN: ("6+3", "12+1")}),
    ("Sawmill", ("0+4", "0+1", "0+5", "0+3"), "", {WOOD: ("6+3", "12+1")}),
    ("Building Firm", ("0+4", "0+1", "0+0", "0+0"), "", {WOOD: ("0+2", "0+4"), CLAY: ("0+2", "0+4")}),
    ("Church Square", ("0+0", "0+1", "0+2", "0+3"), "", {FISH: ("0+2", "0+4"), GRAIN: ("0+3", "0+5")}),
]


@pytest.mark.parametrize("name,before,choice,expect", SECTOR_GAINS, ids=[c[0] for c in SECTOR_GAINS])
def test_sector_4_yields_more_than_sector_2(name, before, choice, expect):
    totals = []
    for k, sector in enumerate(("2", "4")):
        s = use(position(goods=before, buildings=[(name, 0, sector)]), name, f"use {name}{choice}")
        for good, cells in expect.items():
            assert texts(s)[good] == cells[k], (name, sector, good)
        totals.append(sum(s.goods[0]))
    assert totals[1] > totals[0]


def test_business_office_example_still_gives_20_plus_1():
    """seeds/004: Max uses Emma's Business Office in sector 4+1: 1 franc to Emma, four counters
    down-left, 4 x 5 = 20 francs plus 1 bonus franc."""
    s = position(
        goods=("3+1", "3+1", "3+1", "3+1"), francs=2, opp_francs=5, buildings=[("Business Office", 0, "4+1")], turn=1
    )  # Emma is seat 0, Max seat 1
    s = use(s, "Business Office", "use Business Office: fish, grain, wood, clay")
    assert texts(s, 1) == ("0+0",) * 4
    assert s.francs[1] == 2 - 1 + 20 + 1 and s.francs[0] == 5 + 1


# -- payments ---------------------------------------------------------------------------


def test_paying_two_wood_from_the_6_in_the_second_column_overpays_by_moving_down():
    """seeds/004, "There is no change": wood on 6+1 (7) pays 2 only by moving down (3)."""
    s = position(goods=("0+4", "0+1", "6+1", "0+3"), round_letter="B")
    ways = [str(a) for a in s.legal_actions() if a.verb == "build" and a.building == "Farm"]
    assert ways == ["build Farm: wood to 3+1"]
    s.apply_action(parse_action(s, "build Farm"))
    assert texts(s)[WOOD] == "3+1" and s.goods[0][WOOD] == 4
    assert s.events[-1][1] == "builds Farm into sector 0, paying wood 7 \u2192 4 (overpays 1)"


def test_two_destinations_with_the_same_amount_are_two_choices():
    """Clay on 3+3 (6) pays 3 by moving down (to 0+3) or three times left (to 3+0): both hold 3."""
    s = position(goods=("0+4", "0+1", "0+2", "3+3"), round_letter="D")
    ways = sorted(str(a) for a in s.legal_actions() if a.verb == "build" and a.building == "Sawmill")
    assert ways == ["build Sawmill: clay to 0+3", "build Sawmill: clay to 3+0"]
    a, b = (s.clone() for _ in range(2))
    a.apply_action(parse_action(a, "build Sawmill: clay to 0+3"))
    b.apply_action(parse_action(b, "build Sawmill: clay to 3+0"))
    assert a.goods[0] == b.goods[0] and texts(a)[CLAY] != texts(b)[CLAY]
    with pytest.raises(Exception):
        parse_action(s, "build Sawmill")  # two ways: the text must say which


# -- selling at any time during one's own turn ---------------------------------------------


def test_selling_ones_own_building_right_after_using_it():
    """seeds/004, "Sell": "Anytime during his turn ... in addition to his action"."""
    s = position(buildings=[("Wood Company", 0, "2"), ("Farm", 0, "3")], round_letter="C")
    s = use(s, "Wood Company")
    assert s.current_player() == 0 and s.acted
    legal = [str(a) for a in s.legal_actions()]
    assert legal == ["end", "sell Wood Company", "sell Farm"]
    s.apply_action(parse_action(s, "sell Wood Company"))
    assert s.francs[0] == 3 + 1 and s.current_player() == 0  # still my turn: sell more or end
    s.apply_action(parse_action(s, "end"))
    assert s.current_player() == 1 and not s.acted


def test_the_turn_ends_by_itself_when_nothing_is_left_to_sell():
    s = position(round_letter="A")
    s.apply_action(parse_action(s, "build Wood Company"))
    assert s.acted and [str(a) for a in s.legal_actions()] == ["end", "sell Wood Company"]
    s.apply_action(parse_action(s, "sell Wood Company"))
    assert s.current_player() == 1 and not s.acted
    s2 = position(francs=0, round_letter="A")
    s2.owner[s2.catalog.index["Wood Company"]] = 1
    s2.sector[s2.catalog.index["Wood Company"]] = 1
    s2._legal = None
    s2.apply_action(parse_action(s2, "build Clay Mound"))
    assert s2.acted  # owns Clay Mound now
    s2.apply_action(parse_action(s2, "sell Clay Mound"))
    assert not s2.acted and s2.current_player() == 1


def test_after_the_action_no_second_action():
    s = use(position(buildings=[("Wood Company", 0, "2")], round_letter="C"), "Wood Company")
    assert {a.verb for a in s.legal_actions()} == {"end", "sell"}
    assert "main action" in s.why_illegal("build Farm")


def test_search_prunes_sales_that_cannot_change_anything():
    """After the action a sale matters only if the opponent could use the building before my next turn,
    and is searched only if denying that use could pay (see inland_port/evaluate.py, search_actions)."""
    s = position(buildings=[("Wood Company", 0, "2"), ("Farm", 0, "4"), ("Town Hall", 0, "0")], round_letter="C")
    s = use(s, "Wood Company")  # Wood Company goes to sector 0: the opponent cannot use it
    # Farm in sector 4 gives the opponent grain 0+1 -> 9+4 (12, less 2 francs) against the 2 francs the sale loses
    assert [str(a) for a in search_actions(s)] == ["end", "sell Farm"]
    assert [str(a) for a in s.legal_actions()] == ["end", "sell Wood Company", "sell Farm", "sell Town Hall"]
    s.sector[s.catalog.index["Farm"]] = 4  # in 4+1, and this is the round's last action: it is sold anyway
    s.actions_left = 1
    s._legal = None
    assert [str(a) for a in search_actions(s)] == ["end"]


# -- properties over random games ------------------------------------------------------------


def _check_payment(s: InlandState, action, before_cells) -> None:
    """Every paying counter covers its share with the least overpayment possible from its cell."""
    wh = s.catalog.warehouse
    b = s.catalog.buildings[s.catalog.index[action.building]]
    paid = {
        g: wh.amount[before_cells[i]] - wh.amount[dict(action.choice).get(g, before_cells[i])]
        for i, g in enumerate(("fish", "grain", "wood", "clay"))
    }
    for g, cost in (("wood", b.cost.wood), ("clay", b.cost.clay)):
        if cost:
            i = ("fish", "grain", "wood", "clay").index(g)
            least = min(x for x in wh.payable(before_cells[i]) if x >= cost)
            assert paid[g] == least
    if b.cost.food:
        total = paid["fish"] + paid["grain"]
        assert total >= b.cost.food
        # "The buildings" / "Building costs" (no change): some split of the food cost into a fish share and a
        # grain share is paid by each counter with the least overpayment it allows, and neither part pays for nothing
        cost = b.cost.food
        assert any(
            paid["fish"] == wh.least_payment(before_cells[0], share)
            and paid["grain"] == wh.least_payment(before_cells[1], cost - share)
            for share in range(cost + 1)
        )
        assert not (paid["fish"] and paid["grain"] >= cost) and not (paid["grain"] and paid["fish"] >= cost)


def play_and_check_the_warehouse(seed: int, sell_weight: float) -> None:
    s = RULESET.new_game(seed)
    wh = s.catalog.warehouse
    rng = random.Random(seed)
    texts_played = []
    while not s.is_terminal():
        legal = s.legal_actions()
        sells = [a for a in legal if a.verb == "sell"]
        others = [a for a in legal if a.verb != "sell"]
        a = rng.choice(sells) if sells and rng.random() < sell_weight else rng.choice(others)
        p = s.current_player()
        before = s.cells[p]
        s.apply_action(a)
        texts_played.append(str(a))
        for c in s.cells[0] + s.cells[1]:
            assert 0 <= c < wh.columns * wh.rows  # no counter leaves the grid
            r, k = wh.row_col(c)
            assert wh.amount[c] == 3 * r + k  # row value + column value
        if a.verb == "build":
            _check_payment(s, a, before)
    # saved and loaded, the game replays to the same state
    rec = records.record_from_state("inland", None, seed, s, ["A", "B"])
    again = records.replay(records.parse_record(rec.model_dump_json()))
    assert again.state_hash() == s.state_hash() and again.history == texts_played


test_random_games_keep_the_warehouse_rules, test_many_random_games_keep_the_warehouse_rules = random_game_tests(
    play_and_check_the_warehouse, [0.0, 0.1, 0.5]
)


def test_an_old_save_on_the_three_column_grid_is_refused_with_the_reason():
    old = Path(__file__).parent / "data" / "save_3_column_grid.json"
    with pytest.raises(records.RecordError) as err:
        records.replay(records.load_record(old))
    assert "digest" in str(err.value)


def test_a_food_cost_may_be_paid_from_fish_alone_overpaying_to_keep_grain_in_place():
    """Rulebook, "The buildings": Food is any combination of Fish and/or Grain; "Building costs": no change.

    Fish on 3+0 (3) pays only 3 (down); grain on 0+2 (2) pays 1 or 2.  The Grocery Store costs 2 food: grain
    pays it exactly, or fish pays it alone, overpaying 1 to keep grain where it stands.  Fish 3 with grain 1
    is not offered: the grain would pay for nothing.
    """
    s = position(goods=("3+0", "0+2", "0+2", "0+3"), round_letter="A")
    ways = sorted(str(a) for a in s.legal_actions() if a.verb == "build" and a.building == "Grocery Store")
    assert ways == ["build Grocery Store: fish to 0+0", "build Grocery Store: grain to 0+0"]
    s.apply_action(parse_action(s, "build Grocery Store: fish to 0+0"))
    assert texts(s)[:2] == ("0+0", "0+2")
    assert s.events[-1][1].endswith("fish 3 \u2192 0 (overpays 1)")


def test_every_food_split_pays_each_part_with_its_least_overpayment():
    """Rulebook, "Building costs": each counter pays its part without change; 3 food from fish 4, grain 1."""
    s = position(goods=("0+4", "0+1", "0+2", "0+3"), round_letter="A")
    wh = s.catalog.warehouse
    splits = effects.food_splits(wh.parse("0+4"), wh.parse("0+1"), 3, wh)
    # fish 3 exactly; fish 2 + grain 1; (fish 1 + grain 2 cannot be paid: grain holds 1)
    assert splits == [(3, 0), (2, 1)]
    # the first way is still the least wasteful, and the search's old texts stay legal
    assert effects.food_payments(s.cells[0], 3, wh)[0] == (("fish", wh.parse("0+1")),)


def test_every_food_payment_offered_before_the_split_ruling_is_still_offered():
    """Saves stay loadable: each way of least total overpayment (the earlier offer) is still among the splits."""
    s = position()
    wh = s.catalog.warehouse
    cells_all = range(wh.rows * wh.columns)
    for fish in cells_all:
        for grain in cells_all:
            for cost in range(1, 7):
                ways = payment_options({"fish": wh.payable(fish), "grain": wh.payable(grain)}, cost)
                least = min((sum(w.values()) for w in ways), default=None)
                old = {(w.get("fish", 0), w.get("grain", 0)) for w in ways if sum(w.values()) == least}
                new = effects.food_splits(fish, grain, cost, wh)
                assert old <= set(new), (wh.text(fish), wh.text(grain), cost)
                if new:
                    assert sum(new[0]) == least  # the first way is still the least wasteful
