"""The balance proposal ``inland_port/data/buildings_balanced.json`` against the default building file.

REFERENCE.md "Building data [rec]": seeds/004 gives every building's function, the letters A and B and the values
of Town Hall (26), Zoo (20) and Pont de Normandie (50); costs, the other values and letters C-L were lost and are
reconstructed, "to be tuned by self-play and kept flagged as reconstructed".  The proposal may only retune such
reconstructed data: everything the rulebook (or a ruling) fixes stays as in the default file, and every changed
datum is flagged ``reconstructed``.  seeds/004 "The buildings": 21 buildings cost wood and/or clay, 5 cost food,
5 cost francs.
"""

import json
import random
from pathlib import Path

import pytest

from inland_port import RULESET
from inland_port.buildings import BUILDING_NAMES, DEFAULT_PATH, load_catalog

BALANCED_PATH = Path(DEFAULT_PATH).with_name("buildings_balanced.json")
#: the data fields of a building whose provenance the file records
FIELDS = ("letter", "cost", "value", "effect", "params", "function", "scoring", "anchor")


def _raw(path):
    return {b["name"]: b for b in json.loads(Path(path).read_text())["buildings"]}


def _source(b, field):
    return b.get("provenance", {}).get(field, "rulebook")


def test_the_proposal_loads_with_all_31_buildings():
    catalog = load_catalog(BALANCED_PATH)
    assert [b.name for b in catalog.buildings] == list(BUILDING_NAMES)


def test_the_proposal_changes_something_and_only_reconstructed_data():
    default, balanced = _raw(DEFAULT_PATH), _raw(BALANCED_PATH)
    changed = []
    for name in BUILDING_NAMES:
        d, b = default[name], balanced[name]
        for field in FIELDS:
            if d.get(field) != b.get(field):
                changed.append((name, field))
                # a retuned datum must have been reconstructed before and must still say so
                assert _source(d, field) == "reconstructed", (name, field, "is not reconstructed data")
                assert _source(b, field) == "reconstructed", (name, field, "changed but not flagged reconstructed")
        # no datum loses its flag: a reconstructed number never becomes 'rulebook' in the proposal
        for field in FIELDS:
            if _source(d, field) == "reconstructed":
                assert _source(b, field) == "reconstructed", (name, field)
    assert changed, "the proposal is identical to the default file"


def test_rulebook_data_unchanged():
    """seeds/004 "BUILDING INDEX" (functions; A- and B-Buildings) and the three printed values."""
    default = {b.name: b for b in load_catalog(DEFAULT_PATH).buildings}
    balanced = {b.name: b for b in load_catalog(BALANCED_PATH).buildings}
    for name in BUILDING_NAMES:
        d, b = default[name], balanced[name]
        assert (b.function, b.effect, b.params, b.scoring, b.anchor, b.locked) == (d.function, d.effect, d.params, d.scoring, d.anchor, d.locked), name
    a_group = {"Wood Company", "Farmland", "Clay Mound", "Grocery Store", "Hardware Store"}
    b_group = {"Farm", "Kiln", "Smokehouse", "Bakehouse"}
    assert {n for n, b in balanced.items() if b.letter == "A"} == a_group
    assert {n for n, b in balanced.items() if b.letter == "B"} == b_group
    for n in a_group | b_group:
        assert balanced[n].source_of("letter") == "rulebook"
    assert (balanced["Town Hall"].value, balanced["Zoo"].value, balanced["Pont de Normandie"].value) == (26, 20, 50)
    for n in ("Town Hall", "Zoo", "Pont de Normandie"):
        assert balanced[n].source_of("value") == "rulebook"


def test_cost_kinds_are_21_wood_clay_5_food_5_francs():
    """seeds/004 "The buildings": 21 buildings cost wood and/or clay, 5 food, the other 5 francs; each building
    pays with one kind only."""
    catalog = load_catalog(BALANCED_PATH)
    kinds = []
    for b in catalog.buildings:
        c = b.cost
        used = [k for k, n in (("wood/clay", c.wood + c.clay), ("food", c.food), ("francs", c.francs)) if n]
        assert len(used) == 1, (b.name, str(c))
        kinds.append(used[0])
    assert (kinds.count("wood/clay"), kinds.count("food"), kinds.count("francs")) == (21, 5, 5)
    # every building still costs something (nothing is free), and costs stay reconstructed
    assert all(b.source_of("cost") == "reconstructed" for b in catalog.buildings)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_game_with_the_proposal_runs_to_the_end(seed):
    """seeds/004 "END OF THE GAME": twelve rounds, wealth = building values + francs."""
    s = RULESET.new_game(seed, {"buildings": str(BALANCED_PATH)})
    assert s.catalog.buildings == load_catalog(BALANCED_PATH).buildings
    rng = random.Random(seed)
    while not s.is_terminal():
        legal = s.legal_actions()
        mains = [a for a in legal if a.verb != "sell"] or legal
        s.apply_action(rng.choice(mains))
        s.check_invariants()
    assert s.main_action_count == 72
    for p in (0, 1):
        assert s.wealth()[p] == sum(s.wealth_breakdown(p).values())
