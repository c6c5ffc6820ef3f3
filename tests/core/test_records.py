"""Game records: save, load, replay, and refusing bad files (issue 7).

Generic over :mod:`core.protocol`: the tests run on the toy game in
``test_records_toygame`` and, where noted, on every rule set that is available.
No rule of either game is tested here, so no rulebook passage is cited.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from core.protocol import GameError, parse_action
from core.records import (
    DATA_DIR_ENV,
    FORMAT_VERSION,
    GameRecord,
    RecordError,
    SaveError,
    Seat,
    default_save_dir,
    get_ruleset,
    latest_unfinished,
    list_records,
    load_record,
    new_record,
    new_save_path,
    new_state,
    parse_record,
    record_from_state,
    replay,
    replay_all,
    save_record,
    state_summary,
)
from tests.core import test_records_toygame as toy


def play(record: GameRecord, choices: list[int]):
    """Play the record's game choosing ``legal[c % len]`` each time, recording it."""
    state = new_state(record)
    hashes = [state.state_hash()]
    for c in choices:
        if state.is_terminal():
            break
        legal = state.legal_actions()
        action = legal[c % len(legal)]
        state.apply_action(action)
        record.append(str(action), state)
        hashes.append(state.state_hash())
    return state, hashes


def toy_record(**kw) -> GameRecord:
    opts = kw.pop("options", {"pile": 8})
    return new_record("toy", opts, kw.pop("seed", 5), kw.pop("players", ["Ann", Seat.of_agent("greedy")]))


def write(path: Path, data) -> Path:
    path.write_text(json.dumps(data) if not isinstance(data, str) else data, encoding="utf-8")
    return path


# -- round trip ----------------------------------------------------------------


def test_save_load_replay_round_trip(tmp_path):
    record = toy_record()
    state, hashes = play(record, [0, 1, 2, 1, 0, 1, 1, 0, 0, 0, 0, 0])
    assert state.is_terminal() and record.finished
    assert record.final_wealth == state.wealth()
    path = save_record(record, tmp_path / "g.json")
    loaded = load_record(path)
    assert loaded.actions == record.actions == state.history
    assert loaded.players[0] == Seat(name="Ann") and loaded.players[1].agent == "greedy"
    assert loaded.seed == 5 and loaded.options == {"pile": 8}
    assert loaded.format_version == FORMAT_VERSION
    assert loaded.data_digest == toy.toy_data_digest()
    assert replay(loaded).state_hash() == state.state_hash() == loaded.state_hash
    for n, h in enumerate(hashes):
        assert replay(loaded, upto=n).state_hash() == h
    assert [s.state_hash() for s in replay_all(loaded)] == hashes


def test_saved_file_is_readable_json_with_the_documented_fields(tmp_path):
    record = toy_record()
    play(record, [1, 0])
    data = json.loads(save_record(record, tmp_path / "g.json").read_text())
    assert set(data) >= {
        "format_version",
        "ruleset",
        "options",
        "seed",
        "data_digest",
        "players",
        "actions",
        "created",
        "updated",
        "finished",
        "state_hash",
    }
    assert data["actions"] == record.actions and data["ruleset"] == "toy"


def test_new_record_takes_a_mapping_of_seats_and_dicts():
    record = new_record("toy", None, 1, {1: Seat.of_agent("random", "Bot"), 0: {"name": "Eve"}})
    assert [s.label() for s in record.players] == ["Eve", "Bot (random)"]
    assert record.seat_label(5) == "player 6"


def test_record_from_a_finished_agents_game():
    state = toy.TOY.new_game(9, {"pile": 4})
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    record = record_from_state("toy", {"pile": 4}, 9, state, ["random", "random"])
    assert record.finished and replay(record).state_hash() == state.state_hash()


def test_undo_takes_actions_back_and_replay_rebuilds():
    record = toy_record()
    _, hashes = play(record, [0, 0, 1, 0])
    removed = record.undo(2)
    assert len(removed) == 2 and len(record.actions) == 2
    assert record.state_hash is None and not record.finished
    assert replay(record).state_hash() == hashes[2]
    with pytest.raises(RecordError, match="cannot take back 3"):
        record.undo(3)


def test_sync_refuses_a_state_of_another_game():
    record = toy_record()
    play(record, [0])
    with pytest.raises(RecordError, match="does not match"):
        record.sync(toy.TOY.new_game(5, {"pile": 8}))


def test_replay_upto_out_of_range_is_refused():
    record = toy_record()
    play(record, [0, 0])
    with pytest.raises(RecordError, match="no action 3"):
        replay(record, upto=3)
    with pytest.raises(RecordError, match="no action -1"):
        replay(record, upto=-1)


# -- saving ------------------------------------------------------------------


def test_save_is_atomic_and_an_os_error_becomes_save_error(tmp_path, monkeypatch):
    record = toy_record()
    path = save_record(record, tmp_path / "g.json")
    before = path.read_bytes()
    play(record, [0])

    def refuse(*_a, **_k):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(SaveError, match="No space left on device") as err:
        save_record(record, path)
    assert str(path) in str(err.value)
    assert isinstance(err.value, GameError)
    assert path.read_bytes() == before  # the old save is intact
    assert [p.name for p in tmp_path.iterdir()] == ["g.json"]  # no temporary file left


def test_save_into_a_path_under_a_file_is_a_save_error(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(SaveError, match="could not save the game to"):
        save_record(toy_record(), blocker / "sub" / "g.json")


def test_save_creates_missing_folders(tmp_path):
    path = save_record(toy_record(), tmp_path / "a" / "b" / "g.json")
    assert load_record(path).ruleset == "toy"


# -- refusing bad files -------------------------------------------------------


@pytest.fixture
def saved(tmp_path):
    record = toy_record()
    play(record, [0, 1, 0])
    path = save_record(record, tmp_path / "g.json")
    return path, json.loads(path.read_text())


def refused(path: Path, *needles: str) -> str:
    with pytest.raises(RecordError) as err:
        load_record(path)
    msg = str(err.value)
    assert str(path) in msg, msg
    for n in needles:
        assert n in msg, msg
    return msg


def test_missing_file_and_folder(tmp_path):
    refused(tmp_path / "nope.json", "no such file")
    refused(tmp_path, "is a folder")


def test_empty_truncated_and_garbage_files(saved, tmp_path):
    path, _ = saved
    text = path.read_text()
    refused(write(tmp_path / "empty.json", ""), "empty")
    refused(write(tmp_path / "trunc.json", text[: len(text) // 2]), "invalid JSON", "truncated")
    (tmp_path / "bin.json").write_bytes(b"\xff\xfe\x00garbage")
    refused(tmp_path / "bin.json", "not UTF-8")
    refused(write(tmp_path / "list.json", "[1, 2]"), "expected a JSON object")
    refused(write(tmp_path / "deep.json", "[" * 100000 + "]" * 100000), "invalid JSON")


def test_unknown_or_missing_format_version(saved, tmp_path):
    _, data = saved
    refused(write(tmp_path / "v2.json", {**data, "format_version": 2}), "unknown save format version 2", "newer")
    refused(write(tmp_path / "vs.json", {**data, "format_version": "1"}), "unknown save format version '1'")
    del data["format_version"]
    refused(write(tmp_path / "v0.json", data), "no format_version")


def test_hand_edited_fields_are_named(saved, tmp_path):
    _, data = saved
    refused(write(tmp_path / "a.json", {**data, "seed": "five"}), "field 'seed'")
    refused(write(tmp_path / "b.json", {**data, "actions": "take 1"}), "field 'actions'")
    refused(write(tmp_path / "c.json", {**data, "cheat": True}), "field 'cheat'")
    refused(write(tmp_path / "d.json", {**data, "state_hash": "XYZ"}), "field 'state_hash'")
    refused(write(tmp_path / "e.json", {**data, "actions": ["take 1", "take\n2"]}), "action 2 is not one line")
    refused(write(tmp_path / "f.json", {**data, "ruleset": "chess"}), "unknown rule set 'chess'")
    refused(write(tmp_path / "g.json", {**data, "options": {"pile": 99}}), "option 'pile'")


def test_an_illegal_action_is_named_by_number_and_text(saved, tmp_path):
    _, data = saved
    data["actions"][1] = "take 7"
    data["state_hash"] = None
    msg = refused(write(tmp_path / "x.json", data), "action 2 'take 7' is not legal")
    assert "Allowed now" in msg


def test_a_non_canonical_action_text_is_refused(saved, tmp_path):
    _, data = saved
    data["actions"][0] = "TAKE   " + data["actions"][0].split()[-1]
    refused(write(tmp_path / "x.json", data), "action 1", "not a canonical action text")


def test_a_different_end_position_is_refused(saved, tmp_path):
    _, data = saved
    data["state_hash"] = "0" * 32
    refused(write(tmp_path / "x.json", data), "does not reach the position that was saved")
    data["state_hash"] = None
    data["finished"] = True
    refused(write(tmp_path / "y.json", data), "says the game is over")


def test_other_building_data_is_refused(saved, monkeypatch):
    path, data = saved
    monkeypatch.setitem(toy.TOY_DATA, "values", (1, 2, 3, 5, 8, 13))
    refused(path, "other building data", data["data_digest"])


def test_records_are_refused_whole(saved, tmp_path):
    """A refused file never half-loads: load either returns a verified record or raises."""
    path, data = saved
    data["actions"].append("take 9")
    data["state_hash"] = None
    bad = write(tmp_path / "bad.json", data)
    with pytest.raises(RecordError):
        load_record(bad)
    good = load_record(path)
    assert replay(good).state_hash() == good.state_hash


def test_parse_record_without_a_source_still_says_save_file():
    with pytest.raises(RecordError, match=r"^save file: "):
        parse_record(b"{")


# -- finding saves --------------------------------------------------------------


def test_default_save_dir_follows_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv(DATA_DIR_ENV, str(tmp_path))
    assert default_save_dir() == tmp_path / "saves"
    monkeypatch.delenv(DATA_DIR_ENV)
    assert default_save_dir().name == "saves"


def test_latest_unfinished_picks_the_newest_playable_unfinished_game(tmp_path, monkeypatch):
    monkeypatch.setenv(DATA_DIR_ENV, str(tmp_path))
    assert latest_unfinished(None, "toy") is None  # folder does not exist yet
    folder = default_save_dir()
    old = toy_record(seed=1)
    play(old, [0])
    old.updated = old.updated.replace(year=2001)
    done = toy_record(seed=2)
    play(done, [0] * 20)
    done.updated = done.updated.replace(year=2030)
    new = toy_record(seed=3)
    play(new, [1])
    new.updated = new.updated.replace(year=2020)
    broken = toy_record(seed=4)
    play(broken, [1])
    broken.updated = broken.updated.replace(year=2025)
    broken.actions = [*broken.actions[:-1], "pass"] if broken.actions[-1] != "pass" else ["take 2"]
    paths = {}
    for name, rec in [("old", old), ("done", done), ("new", new), ("broken", broken)]:
        paths[name] = save_record(rec, new_save_path(rec, folder))
    (folder / "junk.json").write_text("{not json")
    assert latest_unfinished(folder, "toy") == paths["new"]
    assert latest_unfinished(folder, "inland") is None
    listed = [p for p, _ in list_records(folder)]
    assert listed[0] == paths["done"] and folder / "junk.json" not in listed


def test_new_save_path_never_overwrites(tmp_path):
    rec = toy_record()
    first = save_record(rec, new_save_path(rec, tmp_path))
    second = new_save_path(rec, tmp_path)
    assert first != second and first.name.startswith("toy-") and second.suffix == ".json"


# -- the JSON summary -------------------------------------------------------------


def test_state_summary_is_json_and_consistent():
    record = toy_record()
    state, _ = play(record, [0, 1, 0])
    s = state_summary(state, record)
    assert json.loads(json.dumps(s)) == s
    assert s["ruleset"] == "toy" and s["action_number"] == 3 == s["actions"]
    assert s["last_action"] == record.actions[-1]
    assert s["current_player"] == state.current_player() and s["terminal"] is False
    assert s["wealth"] == [sum(b.values()) for b in s["breakdown"]]
    assert s["state_hash"] == state.state_hash() and s["winners"] is None
    assert s["players"][0]["name"] == "Ann"
    end, _ = play(record, [0] * 20)
    e = state_summary(end)
    assert e["terminal"] and e["current_player"] is None and e["winners"] == end.winners()


def test_get_ruleset_unknown_name():
    with pytest.raises(RecordError, match="unknown rule set 'nope'"):
        get_ruleset("nope")


def test_parse_action_round_trip_of_recorded_texts():
    record = toy_record()
    state, _ = play(record, [1, 1, 0])
    fresh = new_state(record)
    for text in record.actions:
        fresh.apply_action(parse_action(fresh, text))
    assert fresh.state_hash() == state.state_hash()


def test_seat_count_and_final_wealth_must_fit_the_game(saved, tmp_path):
    _, data = saved
    refused(write(tmp_path / "a.json", {**data, "players": [{"name": "Solo"}]}), "names 1 players", "2 seats")
    refused(write(tmp_path / "b.json", {**data, "final_wealth": [1, 2]}), "final wealth", "not over")
    with pytest.raises(RecordError, match="names 3 players"):
        new_record("toy", {"pile": 3}, 1, ["a", "b", "c"])


def test_field_errors_show_what_was_found(saved, tmp_path):
    _, data = saved
    refused(write(tmp_path / "a.json", {**data, "finished": "maybe"}), "field 'finished'", "'maybe'")


def test_the_digest_is_the_one_the_game_declares(tmp_path):
    """A record keeps the data digest the game's spec declares (issue 12: the
    fallback to hashing a package's data folder is gone; every game declares
    its digest).  A game that declares none records an empty digest."""
    from core.games import register_game, unregister_game
    from core.protocol import GameSpec
    from core.records import data_digest_of

    assert data_digest_of(toy.TOY, {"pile": 3}) == toy.toy_data_digest()
    assert new_record("toy", {"pile": 3}, 1, ["a", "b"]).data_digest == toy.toy_data_digest()

    class BarePebbles(toy.PebblesState):
        ruleset = "toy-without-data"

    bare = GameSpec(
        name="toy-without-data",
        title="Pebbles without data",
        state=BarePebbles,
        options_model=toy.ToyOptions,
        new_game=toy.new_toy_game,
        min_players=1,
        max_players=4,
        ai_levels=toy.TOY.ai_levels,
    )
    register_game(bare)
    try:
        assert data_digest_of(bare) == ""
        record = new_record("toy-without-data", {"pile": 3}, 1, ["a", "b"])
        assert record.data_digest == ""
        path = save_record(record, tmp_path / "bare.json")
        assert load_record(path).data_digest == ""
    finally:
        unregister_game("toy-without-data")


def test_an_inland_game_with_a_changed_building_file_is_refused(tmp_path):
    """A record keeps the digest of the building data; editing the building file
    the game was played with makes the record refuse to load (issue 7)."""
    from inland_port.buildings import DEFAULT_PATH

    data = json.loads(Path(DEFAULT_PATH).read_text(encoding="utf-8"))
    buildings = tmp_path / "buildings.json"
    buildings.write_text(json.dumps(data), encoding="utf-8")
    record = new_record("inland", {"buildings": str(buildings)}, 3, ["Ann", "Bob"])
    play(record, [0, 3, 1])
    path = save_record(record, tmp_path / "g.json")
    assert replay(load_record(path)).state_hash() == record.state_hash
    data["buildings"][0]["value"] += 1
    buildings.write_text(json.dumps(data), encoding="utf-8")
    refused(path, "other building data", record.data_digest)
    buildings.unlink()
    refused(path, "cannot start a game of 'inland'", "buildings.json")


def test_a_device_or_huge_file_is_refused_without_reading_it_all(tmp_path, monkeypatch):
    import core.records as records

    if Path("/dev/zero").exists():
        refused(Path("/dev/zero"), "not a regular file")
    monkeypatch.setattr(records, "MAX_RECORD_BYTES", 100)
    big = write(tmp_path / "big.json", "{" + " " * 200 + "}")
    refused(big, "too large")
