"""``--level`` and ``--think-time`` on both game commands (issue 3: levels set by --level in play and by the agent
spec in --watch; --think-time overrides the time budget)."""

import json

from typer.testing import CliRunner

from cli import play as loop
from cli.app import app

runner = CliRunner()


def test_level_and_think_time_reach_the_agent():
    p = loop.make_player(loop.with_level("ai", "hard"), 1, 1, think_time=0.3)
    assert p.agent.name == "ai:hard" and p.agent.think_time == 0.3
    assert loop.make_player("greedy", 1, 1, think_time=0.3).agent.name == "greedy"


def test_watch_with_think_time_plays_to_the_end(tmp_path, monkeypatch):
    monkeypatch.setenv("LEHAVRE_DATA_DIR", str(tmp_path))
    r = runner.invoke(
        app,
        [
            "base",
            "--watch",
            "--agents",
            "ai:easy,random",
            "--players",
            "2",
            "--short",
            "--seed",
            "2",
            "--think-time",
            "0.05",
            "--json",
        ],
    )
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["ruleset"] == "base"


def test_bad_combinations_are_usage_errors(tmp_path, monkeypatch):
    monkeypatch.setenv("LEHAVRE_DATA_DIR", str(tmp_path))
    cases = [
        ["inland", "--opponent", "greedy", "--level", "hard"],
        ["inland", "--opponent", "ai:easy", "--level", "hard"],
        ["inland", "--watch", "--agents", "ai,greedy", "--level", "hard"],
        ["inland", "--level", "brutal"],
        ["inland", "--watch", "--agents", "random,greedy", "--think-time", "1"],
        ["inland", "--think-time", "-1"],
        ["base", "--opponent", "random", "--level", "easy"],
    ]
    for args in cases:
        r = runner.invoke(app, args, input="")
        assert r.exit_code == 2, (args, r.output)
        assert "Traceback" not in r.output
    r = runner.invoke(app, ["inland", "--help"])
    # the default level's time cap, as the game's spec declares it
    from inland_port import RULESET

    cap = f"{RULESET.level(None).time_cap:g} s"
    assert "--level" in r.output and "--think-time" in r.output and cap in " ".join(r.output.split())


def test_watch_refuses_an_agent_with_its_own_noise_and_the_noise_option():
    r = runner.invoke(app, ["inland", "--agents", "ai:easy~3,random", "--noise", "2", "--seed", "1", "--json"])
    assert r.exit_code == 2
    assert "has its own noise 3; drop it or drop --noise 2" in " ".join(r.output.replace("│", " ").split())
