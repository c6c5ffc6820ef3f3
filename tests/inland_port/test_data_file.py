"""The building data file: provenance, and malformed files refused naming file, building and field.

REFERENCE.md "Building data [rec]": the reconstructed numbers stay flagged in the data; a player holding the
printed game must be able to replace them with one data file of their own.
"""

import json
import random

import pytest

from core.cards import DataFileError
from inland_port import RULESET
from inland_port.buildings import BUILDING_NAMES, DEFAULT_PATH, load_catalog
from tests.inland_port.helpers import texts


def _raw():
    return json.loads(DEFAULT_PATH.read_text())


def _write(tmp_path, raw):
    p = tmp_path / "b.json"
    p.write_text(json.dumps(raw))
    return p


def test_default_file_has_all_31_buildings_with_provenance():
    c = load_catalog()
    assert [b.name for b in c.buildings] == list(BUILDING_NAMES)
    by = {b.name: b for b in c.buildings}
    # seeds/004: A and B letters and the values of Town Hall (26), Zoo (20), Pont de Normandie (50) are printed
    assert by["Farm"].letter == "B" and by["Farm"].source_of("letter") == "rulebook"
    assert by["Town Hall"].value == 26 and by["Town Hall"].source_of("value") == "rulebook"
    assert by["Zoo"].value == 20 and by["Pont de Normandie"].value == 50
    # costs and other values were on lost icons: reconstructed, and flagged as such
    assert all(b.source_of("cost") == "reconstructed" for b in c.buildings)
    assert by["Marketplace"].source_of("letter") == "reconstructed"
    # seeds/004 "The buildings": 21 cost wood and/or clay, 5 food, 5 francs
    kinds = [("francs" if b.cost.francs else "food" if b.cost.food else "wood/clay") for b in c.buildings]
    assert (kinds.count("wood/clay"), kinds.count("food"), kinds.count("francs")) == (21, 5, 5)
    locked = {b.name for b in c.buildings if b.locked}
    assert locked == {
        "Town Hall",
        "Zoo",
        "Pont de Normandie",
        "Fish Factory",
        "Grain Silo",
        "Wood Factory",
        "Dock",
        "Brick Factory",
    }


def test_default_grid_is_the_reconstruction_and_flagged():
    # REFERENCE.md "Warehouse grid [rec]": 6 columns (+0 ... +5) and 6 rows (0, 3, ... 15), start cells on the
    # bottom row: fish +4, clay +3, wood +2, grain +1; the printed board's size is not in our sources, so every
    # value is flagged reconstructed.  seeds/004 "GAME SETUP": 4 Fish, 3 Clay, 2 Wood, 1 Grain.
    c = load_catalog()
    g = c.grid
    assert (g.columns, g.rows) == (6, 6)
    assert {k: (v.row, v.column) for k, v in g.start.items()} == {
        "fish": (0, 4),
        "clay": (0, 3),
        "wood": (0, 2),
        "grain": (0, 1),
    }
    assert all(g.source_of(f) == "reconstructed" for f in ("columns", "rows", "start"))
    wh = c.warehouse
    assert [wh.text(x) for x in c.start_cells] == ["0+4", "0+1", "0+2", "0+3"]
    # a counter holds 0 to 15 + 5 = 20
    assert min(wh.amount) == 0 and max(wh.amount) == 20


@pytest.mark.parametrize(
    "mutate,expect",
    [
        (lambda r: r["buildings"][5].update(name="Windmill"), ["unknown building 'Windmill'"]),
        (lambda r: r["buildings"].pop(3), ["'Grocery Store' is missing"]),
        (lambda r: r["buildings"][0].pop("value"), ["'Wood Company'", "field 'value'", "Field required"]),
        (
            lambda r: r["buildings"][1]["cost"].update(wood=-1),
            ["'Farmland'", "field 'cost.wood'", "greater than or equal to 0"],
        ),
        (lambda r: r["buildings"][2].update(value="lots"), ["'Clay Mound'", "field 'value'", "integer"]),
        (lambda r: r["buildings"][4].update(letter="Q"), ["'Hardware Store'", "field 'letter'"]),
        (lambda r: r["buildings"][6].update(effect="teleport"), ["'Kiln'", "field 'effect'"]),
        (
            lambda r: r["buildings"][7]["params"]["steps"][0].__setitem__(0, "gold"),
            ["'Smokehouse'", "params", "unknown good 'gold'"],
        ),
        (lambda r: r["buildings"][8].update(colour="red"), ["'Bakehouse'", "field 'colour'", "Extra inputs"]),
        (
            lambda r: r["buildings"][0]["provenance"].update(value="rumour"),
            ["'Wood Company'", "field 'provenance.value'"],
        ),
        (lambda r: r["buildings"].append(dict(r["buildings"][0])), ["'Wood Company' appears twice"]),
        # the warehouse grid (issue 10): a start cell off the grid, a start amount that is not the rulebook's
        # (seeds/004 "GAME SETUP": 4 Fish, 3 Clay, 2 Wood, 1 Grain), fewer than 4 columns (the Wood Company
        # example in seeds/004 "The meaning of the symbols" moves wood 3 spaces right from its start)
        (lambda r: r["grid"]["start"]["fish"].update(row=6, column=0), ["grid", "field 'start.fish'", "off the grid"]),
        (lambda r: r["grid"]["start"]["clay"].update(column=4), ["grid", "field 'start.clay'", "starts with 3 clay"]),
        (lambda r: r["grid"].update(columns=3), ["grid", "field 'columns'"]),
        (lambda r: r.pop("grid"), ['no "grid"']),
    ],
)
def test_malformed_files_are_refused_naming_file_building_and_field(tmp_path, mutate, expect):
    raw = _raw()
    mutate(raw)
    path = _write(tmp_path, raw)
    with pytest.raises(DataFileError) as exc:
        load_catalog(path)
    msg = str(exc.value)
    assert str(path) in msg
    for part in expect:
        assert part in msg, msg


def test_broken_json_and_missing_file(tmp_path):
    p = tmp_path / "broken.json"
    p.write_text('{"buildings": [')
    with pytest.raises(DataFileError, match="not valid JSON"):
        load_catalog(p)
    with pytest.raises(DataFileError, match="no such file"):
        load_catalog(tmp_path / "nope.json")
    p.write_text('{"houses": []}')
    with pytest.raises(DataFileError, match='list under "buildings"'):
        load_catalog(p)


def test_a_replacement_file_changes_the_game(tmp_path):
    raw = _raw()
    raw["buildings"][0]["cost"] = {"wood": 1}  # Wood Company for 1 wood instead of 1 clay
    raw["buildings"][0]["value"] = 3
    s = RULESET.new_game(0, {"buildings": str(_write(tmp_path, raw))})
    # wood 0+2 pays 1 by moving one space left (seeds/004 "There are three ways to pay costs")
    s.apply_action(next(a for a in s.legal_actions() if str(a) == "build Wood Company: wood to 0+1"))
    assert texts(s)[2] == "0+1" and s.goods[0][2] == 1 and s.wealth_breakdown(0)["Wood Company"] == 3
    assert s.data_digest != RULESET.new_game(0).data_digest


def test_a_replacement_grid_changes_the_game(tmp_path):
    # Issue 10: the grid is data.  5 columns (+0 ... +4) and 7 rows (0 ... 18), fish on 3+1 and clay on 3+0
    # (still 4 and 3: seeds/004 "GAME SETUP"), wood 0+2 and grain 0+1.
    raw = _raw()
    raw["grid"].update(columns=5, rows=7)
    raw["grid"]["start"].update(fish={"row": 1, "column": 1}, clay={"row": 1, "column": 0})
    path = str(_write(tmp_path, raw))
    s = RULESET.new_game(0, {"buildings": path})
    assert texts(s, 0) == texts(s, 1) == ("3+1", "0+1", "0+2", "3+0")
    assert s.goods[0] == (4, 1, 2, 3)
    assert s.data_digest != RULESET.new_game(0).data_digest
    # Clay Mound in sector 4: clay 3+0 -> 3+4 after four steps, the fifth (the "1 more") is lost at +4
    # (seeds/004 Clay Mound; "A goods counter stops at the last space of a row")
    s.owner[s.catalog.index["Clay Mound"]] = 0
    s.sector[s.catalog.index["Clay Mound"]] = 3  # sector 4
    s._legal = None
    s.apply_action(next(a for a in s.legal_actions() if str(a) == "use Clay Mound"))
    assert texts(s, 0)[3] == "3+4" and s.goods[0][3] == 7
    # and whole games are played on it, no counter ever leaving the 35 cells
    for seed in range(3):
        s = RULESET.new_game(seed, {"buildings": path})
        rng = random.Random(seed)
        while not s.is_terminal():
            s.apply_action(rng.choice(s.legal_actions()))
            s.check_invariants()
            assert all(0 <= c < 35 for seat in (0, 1) for c in s.cells[seat])
        assert s.main_action_count == 72
