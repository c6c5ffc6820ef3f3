"""Varied and reproducible AI agents: ``noise`` draws among the root moves within X of the best,
with the move's seed; node budgets (not the clock) end the searches, so a seeded game is
reproduced even on a loaded machine."""

from __future__ import annotations

import subprocess
import sys

import pytest

import core.table as table_module
from core.agents import AgentSpecError, make_agent
from core.lab import playtest as pt
from core.search import Noise, Searcher, ThinkTime
from inland_port import RULESET

DECISIONS = 24  # the first two rounds and a half: enough to differ, quick to play


def _opening(seed: int, noise: float, agent_seed: int) -> tuple[str, ...]:
    s = RULESET.new_game(seed)
    agents = [make_agent("ai:easy", agent_seed, "inland", noise=noise) for _ in range(2)]
    agents[1] = make_agent("ai:easy", agent_seed + 1, "inland", noise=noise)
    for _ in range(DECISIONS):
        s.apply_action(agents[s.current_player()].choose(s))
    return tuple(s.history)


@pytest.fixture
def busy_cpu():
    """Another process keeping a core busy while the test plays."""
    proc = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        yield
    finally:
        proc.kill()
        proc.wait()


def test_same_seed_and_noise_give_the_same_game_under_load(busy_cpu):
    assert _opening(0, 3.0, 11) == _opening(0, 3.0, 11)


def test_two_seeds_give_two_games():
    assert _opening(0, 3.0, 11) != _opening(0, 3.0, 12)


def test_noise_draws_only_among_moves_within_x_of_the_best():
    s = RULESET.new_game(0)
    exact = Searcher(max_depth=2, seed=1).search(s.clone())
    best = exact.score
    scores = dict(Searcher(max_depth=2, seed=1, alphabeta=False).search(s.clone()).root_scores)
    within = {a for a, v in scores.items() if v >= best - 3.0}
    drawn = {str(Searcher(max_depth=2, seed=k, noise=Noise(3.0)).search(s.clone()).action) for k in range(40)}
    assert drawn <= within and len(drawn) >= 2  # several moves drawn, none outside the window
    plain = Searcher(max_depth=2, seed=5, noise=Noise(0.0)).search(s.clone())
    assert plain.score == best and plain.candidates == 1  # without noise: a best move (ties broken by the seed)


def test_noise_must_be_a_non_negative_number():
    """The noise is checked once, by its value type: whatever holds a Noise holds a good one."""
    for bad in (-1.0, float("nan"), float("inf")):
        with pytest.raises(ValueError, match=r"the noise must be a number >= 0"):
            Noise(bad)
    assert Noise(0.0) == 0.0 and Noise(2.5) == 2.5


def test_think_time_must_be_a_positive_number_of_seconds():
    for bad in (0.0, -1.0, float("nan"), float("inf")):
        with pytest.raises(ValueError, match="the thinking time must be a positive number of seconds"):
            ThinkTime(bad)
    assert ThinkTime(0.25) == 0.25


def test_agent_texts_carry_the_noise():
    agent = make_agent("ai:easy~2.5", 1, "inland")
    assert agent.noise == 2.5
    for bad, words in (
        ("ai:easy~x", "must be a number"),
        ("ai~-1", "must be a number >= 0"),
        ("random~2", "only the ai"),
    ):
        with pytest.raises(AgentSpecError, match=words):
            make_agent(bad, 0, "inland")


def test_noise_and_think_time_options_reach_the_agent_when_it_is_made():
    """--noise and --think-time are typed values given to make_agent, not text: the ai agent is built with them;
    the other agents take neither."""
    agent = make_agent("ai:hard@nodes=300", 1, "inland", noise=Noise(1.5), think_time=ThinkTime(0.25))
    assert (agent.noise, agent.think_time, agent.max_nodes, agent.name) == (1.5, 0.25, 300, "ai:hard")
    assert make_agent("ai", 1, "inland").think_time is None and make_agent("ai", 1, "inland").noise == 0.0
    assert make_agent("greedy", 1, "inland", noise=Noise(2.0), think_time=ThinkTime(0.5)).name == "greedy"


def test_an_agent_with_its_own_noise_and_a_noise_option_is_refused():
    """``ai:easy~3`` with ``--noise 2``: neither silently wins; the message names both."""
    with pytest.raises(AgentSpecError, match=r"agent 'ai:easy~3' has its own noise 3; drop it or drop --noise 2"):
        make_agent("ai:easy~3", 0, "inland", noise=Noise(2.0))
    assert make_agent("ai:easy~3", 0, "inland").noise == 3.0  # the text form still works alone
    with pytest.raises(AgentSpecError, match="positive number of seconds"):  # a plain number gets the same check
        make_agent("ai", 0, "inland", think_time=0.0)
    with pytest.raises(AgentSpecError, match=">= 0"):
        make_agent("ai", 0, "inland", noise=-1.0)


def test_a_playtest_configuration_carries_its_noise_to_the_agents(monkeypatch):
    """A playtest's noise is a typed field of its configuration and of each game, given to make_agent by the table."""
    config = pt.make_config("inland", ["ai:easy@nodes=50", "random"], noise=2.0)
    assert config.noise == 2.0 and config.agents == ("ai:easy@nodes=50", "random")
    assert pt.Config.from_dict(config.to_dict()) == config
    assert config.key() != pt.make_config("inland", ["ai:easy@nodes=50", "random"]).key()
    job = pt.GameJob(config.rules, config.options, config.agents, 5, 0, config.noise)
    seen = []

    def spy(*args, **kw):
        agent = make_agent(*args, **kw)
        seen.append(getattr(agent, "noise", None))
        return agent

    monkeypatch.setattr(table_module, "make_agent", spy)  # the table makes every seat's agent
    pt.play_game(job)
    assert sorted(seen, key=str) == [2.0, None]
    with pytest.raises(AgentSpecError, match="has its own noise"):
        pt.make_config("inland", ["ai:easy~1", "random"], noise=2.0)


def test_the_distinct_game_count_sees_repeats():
    """A playtest counts the distinct games (different action sequences) and says so when repeats
    make its intervals, which assume independent games, too narrow."""
    from cli.playtest_cmd import repeats_note

    config = pt.make_config("inland", ["random", "random"])
    records = [pt.play_game(pt.GameJob(config.rules, config.options, config.agents, 5, i)) for i in range(3)]
    copies = [*records, dict(records[0]), dict(records[1])]  # five games, two of them repeats
    summary = pt.summarize(config, copies)
    assert summary["games"] == 5 and summary["distinct_games"] == 3
    note = repeats_note([summary])
    assert note is not None and "only 3 of 5 games are distinct" in note.plain and "too narrow" in note.plain
    assert repeats_note([pt.summarize(config, records)]) is None


@pytest.mark.slow
def test_a_mirrored_ai_easy_playtest_with_noise_plays_distinct_games():
    """40 games of ai:easy~2 against itself on the Inland Port: at least 90% distinct (opt-in: a few minutes)."""

    config = pt.make_config("inland", ["ai:easy~2", "ai:easy~2"])
    records = [pt.play_game(pt.GameJob(config.rules, config.options, config.agents, 11, i)) for i in range(40)]
    assert pt.summarize(config, records)["distinct_games"] >= 36
