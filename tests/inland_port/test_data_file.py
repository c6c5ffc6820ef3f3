"""The building data file: provenance, and malformed files refused naming file, building and field.

REFERENCE.md "Building data [rec]": the reconstructed numbers stay flagged in the data; a player holding the
printed game must be able to replace them with one data file of their own.
"""

import json

import pytest

from core.cards import DataFileError
from inland_port import RULESET
from inland_port.buildings import BUILDING_NAMES, DEFAULT_PATH, load_catalog


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
    assert locked == {"Town Hall", "Zoo", "Pont de Normandie", "Fish Factory", "Grain Silo", "Wood Factory", "Dock", "Brick Factory"}


@pytest.mark.parametrize(
    "mutate,expect",
    [
        (lambda r: r["buildings"][5].update(name="Windmill"), ["unknown building 'Windmill'"]),
        (lambda r: r["buildings"].pop(3), ["'Grocery Store' is missing"]),
        (lambda r: r["buildings"][0].pop("value"), ["'Wood Company'", "field 'value'", "Field required"]),
        (lambda r: r["buildings"][1]["cost"].update(wood=-1), ["'Farmland'", "field 'cost.wood'", "greater than or equal to 0"]),
        (lambda r: r["buildings"][2].update(value="lots"), ["'Clay Mound'", "field 'value'", "integer"]),
        (lambda r: r["buildings"][4].update(letter="Q"), ["'Hardware Store'", "field 'letter'"]),
        (lambda r: r["buildings"][6].update(effect="teleport"), ["'Kiln'", "field 'effect'"]),
        (lambda r: r["buildings"][7]["params"]["steps"][0].__setitem__(0, "gold"), ["'Smokehouse'", "params", "unknown good 'gold'"]),
        (lambda r: r["buildings"][8].update(colour="red"), ["'Bakehouse'", "field 'colour'", "Extra inputs"]),
        (lambda r: r["buildings"][0]["provenance"].update(value="rumour"), ["'Wood Company'", "field 'provenance.value'"]),
        (lambda r: r["buildings"].append(dict(r["buildings"][0])), ["'Wood Company' appears twice"]),
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
    s.apply_action(next(a for a in s.legal_actions() if str(a) == "build Wood Company"))
    assert s.goods[0][2] == 1 and s.wealth_breakdown(0)["Wood Company"] == 3
    assert s.data_digest != RULESET.new_game(0).data_digest
