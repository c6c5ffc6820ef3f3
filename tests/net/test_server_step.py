"""The server drives the table's one step (core.table.Table.to_decide / take) from its events, with
the table's guard on the number of actions."""

from __future__ import annotations

from core.records import load_record
from tests.net.conftest import code_of, hosted, make_table, play_bots


def test_the_tables_guard_on_the_number_of_actions_holds_on_the_server(data_dir):
    """A hosted game that does not end within the table's limit (here 6 actions, by a person's moves and
    an agent's alike) is stopped, saved, with a message saying so: it is not played on forever."""
    table = make_table("inland", "remote,random", 9)
    table.table.max_actions = 6
    with hosted(table) as (_, port):
        said = play_bots(port, [code_of(table, 0)], timeout=60)
    assert said == ["The game is stopped: it did not end after 6 actions (a bug)."]
    assert len(table.state.history) == 6 and not table.state.is_terminal()
    assert load_record(table.save_path).actions == table.state.history


def test_a_hosted_game_is_played_step_by_step_to_its_end(data_dir):
    """Without a limit the same game ends as a game ends: every action the table's, saved."""
    table = make_table("inland", "remote,random", 9)
    with hosted(table) as (_, port):
        assert play_bots(port, [code_of(table, 0)], timeout=60) == ["The game is over."]
    assert table.state.is_terminal()
    assert load_record(table.save_path).actions == table.state.history
