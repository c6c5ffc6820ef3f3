"""Every game is played through the one table (core.table.Table), and a seat's agent is seeded by the
one derivation (core.table.seat_agent, core.seeds): the same agents and seed give the same game at this keyboard,
in ``--watch`` and in a playtest game with the same seats."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from typing import Any

import pytest
from rich.console import Console

from cli.play import PlayLoop, Renderer, make_player, watch
from core import records
from core.lab import playtest as pt
from core.table import Table
from inland_port import RULESET

#: one searching agent (its seed matters) against a random one (its seed matters too)
AGENTS = ("ai:easy", "random")


@pytest.fixture()
def tables(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Table]]:
    """Every table whose loop plays a game in the test."""
    played: list[Table] = []
    real = Table.play

    def spy(self: Table, *args: Any, **kw: Any) -> Any:
        played.append(self)
        return real(self, *args, **kw)

    monkeypatch.setattr(Table, "play", spy)
    yield played


def _quiet() -> Console:
    return Console(file=io.StringIO(), width=100)


def _job() -> pt.GameJob:
    return pt.GameJob("inland", {}, AGENTS, run_seed=11, index=0)


def test_a_playtest_game_plays_through_the_table(tables: list[Table]) -> None:
    result = pt.play_game(_job())
    assert len(tables) == 1 and tables[0].positions == [] and not tables[0].keep_positions
    assert result["actions"] == tables[0].state.history and result["steps"] == len(result["actions"])


def test_the_same_game_locally_in_watch_and_in_a_playtest(data_dir: Any, tables: list[Table]) -> None:
    job = _job()
    seed = job.seed
    playtest = pt.play_game(job)["actions"]

    seats = [make_player(spec, seed, s, game=RULESET) for s, spec in enumerate(AGENTS)]
    watched = Table.new(RULESET, None, seed, seats, record=False)
    result = watch(watched, Renderer(), _quiet())

    seats = [make_player(spec, seed, s, game=RULESET) for s, spec in enumerate(AGENTS)]
    local = Table.new(RULESET, None, seed, seats)
    assert PlayLoop(local, Renderer(), _quiet()).run() == 0

    assert tables[1:] == [watched, local]
    assert watched.state.history == local.state.history == playtest
    assert result["agents"] == list(AGENTS) and result["wealth"] == list(local.state.wealth())
    assert local.record is not None and local.record.actions == playtest and local.record.finished


def test_watch_json_is_the_same_game(capsys: pytest.CaptureFixture[str], tables: list[Table]) -> None:
    job = _job()
    playtest = pt.play_game(job)
    seats = [make_player(spec, job.seed, s, game=RULESET) for s, spec in enumerate(AGENTS)]
    watch(Table.new(RULESET, None, job.seed, seats, record=False), Renderer(), _quiet(), as_json=True)
    out = json.loads(capsys.readouterr().out)
    assert out["wealth"] == playtest["wealth"] and out["seed"] == job.seed


def test_a_saved_local_game_loads_with_the_seats_agents_seeded_the_same(data_dir: Any) -> None:
    seed = 5
    seats = [make_player(spec, seed, s, game=RULESET) for s, spec in enumerate(AGENTS)]
    table = Table.new(RULESET, None, seed, seats, save_path=data_dir / "g.json")
    for _ in range(10):
        table.push(table.agent_for(table.state.current_player()).choose(table.state.clone()))
    loaded = Table.load(data_dir / "g.json")
    assert loaded.state.history == table.state.history and len(loaded.positions) == 10
    assert [s.spec for s in loaded.seats] == list(AGENTS)
    assert records.load_record(data_dir / "g.json").actions == table.state.history
