"""Messages in lehavre's own words: a file that is not JSON is not called truncated, pydantic's
wording and prefixes do not reach the reader, and counts agree with their nouns."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from cli.app import app
from core.lab.playtest import PlaytestError, make_config
from core.records import RecordError, load_record


def refusal(path) -> str:
    with pytest.raises(RecordError) as info:
        load_record(path)
    return str(info.value)


def test_a_file_of_plain_text_is_not_json_rather_than_truncated(tmp_path):
    path = tmp_path / "hello.json"
    path.write_text("hello\n")
    msg = refusal(path)
    assert "hello.json" in msg and "not a saved game" in msg and "not JSON" in msg
    assert "truncated" not in msg


def test_a_json_object_cut_short_is_still_called_truncated(tmp_path):
    path = tmp_path / "cut.json"
    path.write_text('{"format_version": 1, "ruleset": "inland"')
    assert "truncated" in refusal(path)


def test_field_problems_are_said_plainly(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text('{"format_version": 1, "ruleset": "inland", "seed": "x"}')
    msg = refusal(path)
    assert "field 'seed': should be a whole number (found 'x')" in msg
    assert "field 'data_digest': missing" in msg
    assert "Input should" not in msg and "Field required" not in msg and "Value error" not in msg


@pytest.mark.parametrize(
    "agents, players, says",
    [
        (("greedy",), None, "played by 2 players here, but 1 agent was given (greedy)"),
        (("greedy",), 2, "--players 2 needs 2 agents, one per seat; got 1 (greedy)"),
    ],
)
def test_counts_agree_with_their_nouns(agents, players, says):
    with pytest.raises(PlaytestError) as info:
        make_config("inland", agents, players=players)
    assert says in str(info.value)
    assert "1 agents" not in str(info.value)


def test_saves_names_the_files_that_are_not_saved_games(tmp_path, monkeypatch):
    monkeypatch.setenv("LEHAVRE_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("COLUMNS", "200")
    (tmp_path / "saves").mkdir()
    (tmp_path / "saves" / "hello.json").write_text("hello\n")
    result = CliRunner().invoke(app, ["saves"])
    assert result.exit_code == 0
    flat = " ".join(result.output.split())
    assert "No saved games" in flat
    assert "1 file there is not a readable saved game: hello.json ('lehavre replay NAME' says what is wrong)" in flat
