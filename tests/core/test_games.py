"""One declared game (issue 12): every game declares one GameSpec, every table
reads the specs from core.games, nothing depends on import order, core imports
no game, and a game that is not installed plugs in by declaring its spec."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from core.agents import make_agent
from core.games import game_names, game_spec, installed_games, register_game, unregister_game
from core.lab import playtest as pt
from core.protocol import GameError, GameSpec
from core.records import get_ruleset, load_record, new_record, new_state, replay, save_record
from core.search import SearchAgent


def _python(code: str) -> str:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


_AGENT_PROBE = """
import json, sys
{prelude}
from core.agents import make_agent
from base_game import RULESET
state = RULESET.new_game(3, {{"players": 2}})
out = {{}}
for spec in ("ai", "ai:easy", "ai:normal", "ai:hard"):
    for game in ("base", None):
        a = make_agent(spec, 7, game)
        lv = a.level_for(state)
        out[f"{{spec}} {{game}}"] = [type(a).__module__ + "." + type(a).__qualname__, a.name,
                                     lv.max_depth, lv.max_nodes, lv.time_cap]
a, b = make_agent("ai:easy", 5, "base"), make_agent("ai:easy", 5)
out["choice"] = [str(a.choose(state)), str(b.choose(state))]
print(json.dumps(out))
"""


def test_make_agent_for_the_base_game_does_not_depend_on_importing_the_cli():
    """In a fresh interpreter ``make_agent`` gives the same agent class and
    budgets for the base game as after importing the whole command line (every command's module; it
    used to give the Inland Port's budgets unless the command line had been imported)."""
    fresh = json.loads(_python(_AGENT_PROBE.format(prelude="")))
    every_command = "import importlib, cli.root\nfor m in cli.root.COMMANDS.values(): importlib.import_module(m)"
    after_cli = json.loads(_python(_AGENT_PROBE.format(prelude=every_command)))
    assert fresh == after_cli
    from base_game.ai import BASE_LEVELS

    for name, level in BASE_LEVELS.items():
        row = fresh[f"ai:{name} base"]
        assert row[0] == "core.search.SearchAgent"
        assert row[2:] == [level.max_depth, level.max_nodes, level.time_cap]
    assert fresh["ai base"] == fresh["ai:normal base"]


def test_core_imports_no_game():
    out = _python(
        "import sys, pkgutil, importlib, core\n"
        "for m in pkgutil.iter_modules(core.__path__):\n"
        "    if m.name != 'openspiel_adapter':\n"
        "        importlib.import_module('core.' + m.name)\n"
        "print(sorted(n for n in sys.modules if n.split('.')[0] in ('inland_port', 'base_game', 'cli')))\n"
    )
    assert out.strip() == "[]"


def test_each_installed_game_declares_one_spec_and_every_table_reads_it():
    import base_game
    import inland_port
    from cli.games import GAME_UI

    specs = {spec.name: spec for spec in installed_games()}
    assert set(specs) == {"inland", "base"}
    assert specs["inland"] is inland_port.RULESET and specs["base"] is base_game.RULESET
    for module in (inland_port, base_game):
        assert [v for v in vars(module).values() if isinstance(v, GameSpec)] == [module.RULESET]
    for name, spec in specs.items():
        assert get_ruleset(name) is spec and pt.load_ruleset(name) is spec and game_spec(name) is spec
        assert name in GAME_UI
        assert make_agent("ai", 0, name).level == spec.level(None)
        state = spec.new_game(1, None)
        assert state.ruleset == name and spec.data_digest(None)
        assert spec.min_players <= state.num_players <= spec.max_players


def test_unknown_games_and_levels_are_refused_with_what_is_allowed():
    with pytest.raises(GameError, match=r"unknown rule set 'chess' \(known: .*base.*inland"):
        game_spec("chess")
    with pytest.raises(pt.PlaytestError, match="unknown rule set 'chess'"):
        pt.load_ruleset("chess")
    with pytest.raises(GameError, match=r"unknown AI level 'wizard' \(allowed: easy, normal, hard\)"):
        make_agent("ai:wizard", 0, "base")
    with pytest.raises(GameError, match="unknown option 'colour'"):
        game_spec("inland").parse_options({"colour": "red"})


def test_a_game_that_is_not_installed_plugs_in_by_declaring_its_spec(tmp_path):
    """The toy game declares a GameSpec and registers it; records, agents, the
    search and the playtest harness then play it without knowing it."""
    import tests.core.test_records_toygame  # noqa: F401  (declares the toy game's spec and registers it)

    assert "toy" in game_names()
    record = new_record("toy", {"pile": 6}, 4, ["Ann", "Bob"])
    state = new_state(record)
    agents = [make_agent("ai:easy", 1, "toy"), make_agent("greedy", 2, "toy")]
    while not state.is_terminal():
        action = agents[state.current_player()].choose(state)
        state.apply_action(action)
        record.append(str(action), state)
    assert isinstance(agents[0], SearchAgent) and agents[0].last_info
    loaded = load_record(save_record(record, tmp_path / "toy.json"))
    assert replay(loaded).state_hash() == state.state_hash()
    config = pt.make_config("toy", ["random", "ai:easy"])
    results = [pt.play_game(pt.GameJob(config.rules, config.options, config.agents, 2, i)) for i in range(2)]
    assert all(r["actions"] for r in results)


def test_a_spec_cannot_shadow_an_installed_game():
    with pytest.raises(GameError, match="already installed"):
        register_game(game_spec("inland"))
    unregister_game("not-there")  # forgetting an unknown game is harmless


def test_base_game_playtest_on_dask_gives_the_same_games_as_a_local_run():
    """A Dask worker imports nothing but the playtest code, and plays the same
    base games with the ai as a local run (needs the extra ``.[dask]``)."""
    pytest.importorskip("distributed")
    from distributed import LocalCluster

    config = pt.make_config("base", ["ai:easy", "random"], players=2, short=True)
    jobs = [pt.GameJob(config.rules, config.options, config.agents, 3, i) for i in range(2)]
    local = sorted((pt.result_fingerprint(r) for r in pt.run_local(jobs, 1)), key=lambda r: r["index"])
    with LocalCluster(
        n_workers=1, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None
    ) as cluster:
        remote = list(pt.run_jobs(jobs, backend="dask", address=cluster.scheduler_address))
    assert sorted((pt.result_fingerprint(r) for r in remote), key=lambda r: r["index"]) == local
