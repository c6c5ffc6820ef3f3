"""Save names and the data directory (core.records; issue 13, points 2 and 5)."""

from __future__ import annotations

import pytest

from core import records


@pytest.fixture()
def data(tmp_path, monkeypatch):
    monkeypatch.setenv(records.DATA_DIR_ENV, str(tmp_path / "data"))
    return tmp_path / "data"


def test_everything_lives_under_the_data_directory(data):
    assert records.data_dir() == data
    assert records.default_save_dir() == data / "saves"


def test_a_name_goes_into_the_saves_folder_a_slash_or_json_is_a_path(data, tmp_path):
    assert records.save_path_for("my game") == data / "saves" / "my game.json"
    assert records.save_path_for("sub/game") == records.Path("sub/game")
    assert records.save_path_for("game.json") == records.Path("game.json")
    for bad in ("", "  ", ".hidden", "x" * 101, "tab\there"):
        with pytest.raises(records.SaveError):
            records.save_path_for(bad)


def test_find_save_takes_a_listed_name_or_a_path(data, tmp_path, monkeypatch):
    saves = data / "saves"
    saves.mkdir(parents=True)
    (saves / "mine.json").write_text("{}")
    assert records.find_save("mine") == saves / "mine.json"
    assert records.find_save("mine.json") == saves / "mine.json"  # the file name as listed
    elsewhere = tmp_path / "x.json"
    elsewhere.write_text("{}")
    assert records.find_save(str(elsewhere)) == elsewhere
    with pytest.raises(records.RecordError, match="no saved game named 'nothing'"):
        records.find_save("nothing")


def test_save_name_and_autosave_names(data, tmp_path):
    saves = data / "saves"
    saves.mkdir(parents=True)
    auto = saves / "inland-20260101-120000-seed5.json"
    assert records.save_name(auto) == auto.stem and records.is_autosave_name(auto)
    assert not records.is_autosave_name(saves / "my game.json")
    assert not records.is_autosave_name(tmp_path / auto.name)  # outside the saves folder
    assert records.save_name(tmp_path / "x.json") == str(tmp_path / "x.json")


def test_games_saved_elsewhere_are_remembered_and_listed(data, tmp_path):
    rec = records.new_record("inland", None, 3, ["A", "B"])
    outside = tmp_path / "away" / "game.json"
    records.save_record(rec, outside)
    assert records.list_records() == []
    records.remember_save(outside)
    records.remember_save(outside)  # once only
    assert records.saves_elsewhere() == [outside.resolve()]
    assert [p for p, _ in records.list_records()] == [outside.resolve()]
    assert records.latest_unfinished(ruleset="inland") == outside.resolve()
    outside.unlink()
    assert records.saves_elsewhere() == []  # a file that is gone is dropped
