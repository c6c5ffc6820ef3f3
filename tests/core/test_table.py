"""The one table (core.table): push/pop, the undo rule, one seed derivation, the one loop."""

from __future__ import annotations

from pathlib import Path

import pytest

from base_game import RULESET as BASE
from core import records
from core.protocol import GameSpec, GameState
from core.search import Searcher
from core.seeds import SEAT, derive_seed
from core.table import AGENT, PERSON, EndlessGame, Seat, Table, agents_decide
from inland_port import RULESET as INLAND


def _agents_table(tmp_path: Path | None = None, keep: bool = True) -> Table:
    seats = [Seat("A", AGENT, "random"), Seat("B", AGENT, "random")]
    return Table.new(INLAND, None, 7, seats, save_path=tmp_path / "g.json" if tmp_path else None, keep_positions=keep)


def test_seat_seeds_differ_by_seat_and_game() -> None:
    assert derive_seed(7, SEAT, 0) != derive_seed(7, SEAT, 1)
    assert derive_seed(7, SEAT, 0) != derive_seed(8, SEAT, 0)
    assert derive_seed(7, SEAT, 1) == derive_seed(7, SEAT, 1)


def test_the_loop_plays_to_the_end_and_saves_after_every_action(tmp_path: Path) -> None:
    table = _agents_table(tmp_path)
    seen: list[int] = []

    def after(t: Table, before: object, actor: int, action: object) -> None:
        seen.append(len(records.load_record(tmp_path / "g.json").actions))

    state = table.play(agents_decide, after)
    assert state.is_terminal()
    assert seen == list(range(1, len(state.history) + 1))
    assert records.load_record(tmp_path / "g.json").finished
    assert len(table.positions) == len(state.history)


def test_same_seed_same_game() -> None:
    a, b = _agents_table(), _agents_table(keep=False)
    assert a.play(agents_decide).history == b.play(agents_decide).history
    assert b.positions == []


def test_undo_rule_takes_back_the_last_persons_decision_and_the_replies_after_it() -> None:
    table = Table.new(INLAND, None, 3, [Seat("You", PERSON), Seat("AI", AGENT, "random")])
    while len(table.state.history) < 12:
        table.push(table.state.legal_actions()[0] if table.state.current_player() == 0 else agents_decide(table, 1))
    target = table.undo_target()
    assert target is not None
    k, who = target
    assert who == 0 and table.positions[k].current_player() == 0
    assert all(p.current_player() == 1 for p in table.positions[k + 1 :])
    n = len(table.state.history)
    removed = table.pop_to(k)
    assert len(table.state.history) == n - len(removed) == k
    assert table.record is not None and table.record.actions == table.state.history


def _searched(game: GameSpec, state: GameState) -> tuple[str, float, int, int, list[str]]:
    r = Searcher(max_nodes=1500, seed=1, evaluator=game.evaluator).search(state)
    return str(r.action), r.score, r.depth, r.nodes, [str(a) for a in r.pv]


def test_the_search_copy_carries_no_action_list_and_searches_the_same() -> None:
    """The search copies its position at every node: its copy drops the game's action list (an Inland
    Port copy keeps the last action, which orders the sales after a sale) and searches node for node
    as a full copy does."""
    for game, options in ((INLAND, None), (BASE, {"players": 2})):
        table = Table.new(game, options, 5, [Seat("A", AGENT, "greedy"), Seat("B", AGENT, "greedy")], record=False)
        checked = 0
        while not table.state.is_terminal() and checked < 3:
            table.push(agents_decide(table, table.state.current_player()))
            n = len(table.state.history)
            if table.state.history[-1].startswith("sell ") or n % 40 == 0:
                copy = table.state.copy_for_search()
                assert copy.history == ([] if game is BASE else table.state.history[-1:])
                assert copy.key() == table.state.key() and len(table.state.history) == n
                assert _searched(game, copy) == _searched(game, table.state.clone())
                checked += 1
        assert checked == 3


def test_the_loop_is_the_one_step_repeated() -> None:
    """``play`` takes ``step``s: whose decision (to_decide), that seat's decision, played (take)."""
    a, b = _agents_table(), _agents_table()
    b.play(agents_decide)
    while a.step(agents_decide):
        pass
    assert a.state.history == b.state.history and a.to_decide() is None


def test_the_guard_on_the_number_of_actions() -> None:
    """A game that has not ended after ``max_actions`` actions is a bug: the table refuses to go on."""
    table = _agents_table()
    table.max_actions = 5
    with pytest.raises(EndlessGame, match="did not end after 5 actions"):
        table.play(agents_decide)
    assert len(table.state.history) == 5


def test_a_decision_is_taken_from_the_seat_whose_decision_it_is() -> None:
    table = _agents_table()
    seat = table.to_decide()
    assert seat is not None
    action = table.agent_for(seat).choose(table.state.clone())
    with pytest.raises(ValueError, match="decided, but it is seat"):
        table.take(1 - seat, action)
    assert table.take(seat, action) is not None and table.state.history == [str(action)]
