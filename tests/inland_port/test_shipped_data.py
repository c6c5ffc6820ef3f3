"""The Inland Port's building data ships as named files; a save records its data's digest and plays on
with the shipped data of that digest after the default changes."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import inland_port
from core.records import GameRecord, RecordError, load_record, new_record, replay, save_record
from core.table import Table
from inland_port import buildings, shipped

ROOT = Path(__file__).resolve().parents[2]
#: the default data since the rebalance of 2026-11-28 (Restaurant food 4->6, Church Square food 5->2, Dock 12->10)
TODAY = "buildings-2026-11-28"
#: the data before it, still shipped so that its saves replay
PREVIOUS = "buildings-2026-11"


def played(record: GameRecord, actions: int) -> GameRecord:
    """The record with its first legal action taken ``actions`` times."""
    state = replay(record)
    for _ in range(actions):
        action = state.legal_actions()[0]
        state.apply_action(action)
        record.append(str(action), state)
    return record


@pytest.fixture
def new_default(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The data folder as it stands once new data becomes the default: today's file kept under its
    name beside a rebalanced one (a changed value), which ``default.json`` names."""
    folder = tmp_path / "data"
    folder.mkdir()
    shutil.copy(shipped.shipped_path(TODAY), folder)
    data = json.loads(shipped.shipped_path(TODAY).read_text(encoding="utf-8"))
    data["buildings"][0]["value"] += 1
    (folder / "buildings-2099-01.json").write_text(json.dumps(data), encoding="utf-8")
    (folder / "default.json").write_text(json.dumps({"buildings": "buildings-2099-01"}), encoding="utf-8")
    monkeypatch.setattr(shipped, "DATA_DIR", folder)
    monkeypatch.setattr(buildings, "DEFAULT_PATH", shipped.data_path(None))
    monkeypatch.setattr(buildings, "_DEFAULT", None)
    return folder


def test_todays_data_ships_under_its_name_and_the_default_names_it() -> None:
    assert shipped.default_name() == TODAY
    assert shipped.shipped_names() == [PREVIOUS, TODAY]
    assert shipped.shipped_path(TODAY) == buildings.DEFAULT_PATH
    assert inland_port.data_digest({"buildings": TODAY}) == inland_port.data_digest(None)


def test_a_save_of_the_previous_data_loads_and_replays_after_a_new_default(
    tmp_path: Path, new_default: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the save is made while today's data is the default
    with monkeypatch.context() as today:
        today.setattr(shipped, "DATA_DIR", ROOT / "inland_port" / "data")
        today.setattr(buildings, "DEFAULT_PATH", shipped.shipped_path(TODAY))
        today.setattr(buildings, "_DEFAULT", None)
        record = played(new_record("inland", None, 7, ["Ann", "Bob"]), 12)
        path = save_record(record, tmp_path / "old.json")
        old_digest, old_hash = record.data_digest, record.state_hash
    assert inland_port.data_digest(None) != old_digest  # a new game now plays the new default
    loaded = load_record(path)
    assert loaded.options["buildings"] == TODAY and loaded.data_digest == old_digest
    assert replay(loaded).state_hash() == old_hash
    table = Table.load(path)  # played on at the keyboard: with the data of its digest, saved as such
    assert table.state.state_hash() == old_hash and len(table.state.history) == 12
    assert inland_port.data_digest(table.options) == old_digest


#: a game saved while buildings-2026-11 was the default (40 seeded random moves; new_record, then save_record): it
#: names no data file, only its data's digest, as every save of that time does
SAVED_ON_2026_11 = Path(__file__).parent / "data" / "save_buildings_2026_11.json"


def test_a_save_made_on_the_2026_11_data_loads_and_replays_whatever_the_default() -> None:
    saved = json.loads(SAVED_ON_2026_11.read_text(encoding="utf-8"))
    assert saved["options"] == {} and len(saved["actions"]) == 40
    assert saved["data_digest"] == inland_port.data_digest({"buildings": PREVIOUS})
    assert saved["data_digest"] != inland_port.data_digest(None)  # a new game plays other data
    loaded = load_record(SAVED_ON_2026_11)
    assert inland_port.data_digest(loaded.options) == saved["data_digest"]
    assert replay(loaded).state_hash() == saved["state_hash"]
    table = Table.load(SAVED_ON_2026_11)  # and played on at the keyboard, on its own data
    assert len(table.state.history) == 40 and table.state.state_hash() == saved["state_hash"]
    assert inland_port.data_digest(table.options) == saved["data_digest"]


def test_a_save_whose_data_is_not_shipped_names_its_digest_and_what_is_shipped(tmp_path: Path) -> None:
    record = played(new_record("inland", None, 7, ["Ann", "Bob"]), 3)
    raw = json.loads(save_record(record, tmp_path / "g.json").read_text(encoding="utf-8"))
    raw["data_digest"] = "0123456789abcdef-g01234567"
    (tmp_path / "g.json").write_text(json.dumps(raw), encoding="utf-8")
    with pytest.raises(RecordError) as err:
        load_record(tmp_path / "g.json")
    assert str(err.value) == (
        f"{tmp_path / 'g.json'}: this game was made with other building data (data digest "
        f"0123456789abcdef-g01234567, this lehavre uses {inland_port.data_digest(None)}); it cannot be replayed "
        f"with these buildings: no building data of digest 0123456789abcdef-g01234567 is shipped with this "
        f"lehavre; it ships {PREVIOUS} (digest {inland_port.data_digest({'buildings': PREVIOUS})}), "
        f"{TODAY} (digest {inland_port.data_digest(None)}, the default)"
    )


def test_rules_inland_says_which_data_is_in_use() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "cli", "rules", "inland", "Farm"], capture_output=True, text=True, check=True
    ).stdout
    assert f"Building data: {TODAY} (the default)." in out
    assert f"Its digest (a save records it): {inland_port.data_digest(None)}." in out
