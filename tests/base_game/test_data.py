"""The data files: counts, validation errors, provenance.

Sources: seeds/000 Buildings Overview ("33 Standard buildings ... 6 Fishermen
and 8 Hammers"; "36 Special buildings include 6 Craftsman's, 14 Economic,
6 Industrial, 4 Public, 5 Non-buildings and a Ship ... 13 Fishermen and 9
Hammers"); REFERENCE.md [pub] tables.
"""

from __future__ import annotations

import json
from collections import Counter

import pytest

from base_game import data
from base_game.data import BuildingCard
from base_game.effects import EFFECTS
from core.cards import DataFileError, load_cards


def test_standard_building_counts():
    std = data.standard_buildings()
    assert len(std) == 33
    assert sum(c.fishermen for c in std) == 6 and sum(c.hammers for c in std) == 8
    t = Counter(c.type for c in std)
    # The overview's summary (9 C / 6 E / 10 I / 4 P / 4 N) holds: the Hardware Store, printed C in its
    # entry, is Economic (REFERENCE.md; see test_rulebook_deviations.test_type_totals_equal_the_overviews).
    assert t == {"C": 9, "E": 6, "I": 10, "P": 4, "N": 4}


def test_special_building_counts():
    sp = data.special_buildings()
    assert len(sp) == 36
    assert sum(c.fishermen for c in sp) == 13 and sum(c.hammers for c in sp) == 9
    assert Counter(c.type for c in sp) == {"C": 6, "E": 14, "I": 6, "P": 4, "N": 5, "S": 1}


def test_every_effect_is_in_the_one_registry():
    for c in data.standard_buildings() + data.special_buildings():
        assert c.effect in EFFECTS
        assert c.source_of("value") == "rulebook"


def test_reference_tables():
    assert len(data.round_cards(3, False)) == 18
    rc = data.round_cards(3, False)
    assert [r.food for r in rc[3:10]] == [3, 4, 5, 6, 7, 8, 9]  # seeds/000 Round overview excerpt
    # ... and its ships for rounds 4-10: 4 Wood, 4 Wood, 2 Iron, 6 Wood, 4 Iron, 6 Iron, 8 Iron
    assert [(r.ship_value, r.ship_type) for r in rc[3:10]] == [
        (4, "wooden"),
        (4, "wooden"),
        (2, "iron"),
        (6, "wooden"),
        (4, "iron"),
        (6, "iron"),
        (8, "iron"),
    ]
    assert not rc[5].harvest
    assert data.ship_types()["wooden"].food == (5, 4, 3, 2, 1)
    assert sum(t.interest for t in data.supply_tiles()) == 1


def test_bad_building_file_names_file_card_and_field(tmp_path):
    raw = json.loads((data.DATA_DIR / "standard_buildings.json").read_text())
    raw["buildings"][5]["value"] = -3
    raw["buildings"][7]["materials"] = {"gold": 1}
    bad = tmp_path / "std.json"
    bad.write_text(json.dumps(raw))
    with pytest.raises(DataFileError) as e:
        load_cards(bad, BuildingCard)
    msg = str(e.value)
    assert "std.json" in msg and "'Fishery'" in msg and "value" in msg and "gold" in msg


def test_unknown_effect_is_refused():
    card = data.standard_buildings()[0].model_copy(update={"effect": "teleport"})
    with pytest.raises(DataFileError, match="unknown effect 'teleport'"):
        data.check_effects([card], EFFECTS)
