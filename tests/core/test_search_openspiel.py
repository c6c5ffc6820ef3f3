"""The OpenSpiel adapter (core/lab/openspiel_adapter.py); needs the optional extra."""

from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip("pyspiel")

from core.lab.openspiel_adapter import TimedMCTSAgent, load_game  # noqa: E402
from inland_port import RULESET  # noqa: E402


def test_adapter_translates_a_whole_game():
    game = load_game(RULESET, seed=0)
    assert pyspiel.load_game("python_lehavre_inland").get_type().short_name == "python_lehavre_inland"
    wrapped = game.new_initial_state()
    plain = RULESET.new_game(0)
    rng = random.Random(2)
    while not wrapped.is_terminal():
        assert wrapped.current_player() == plain.current_player()
        ids = wrapped.legal_actions()
        assert ids == list(range(len(plain.legal_actions())))
        i = rng.choice(ids)
        assert wrapped.action_to_string(wrapped.current_player(), i) == str(plain.legal_actions()[i])
        clone = wrapped.clone()
        wrapped.apply_action(i)
        plain.apply_action(plain.legal_actions()[i])
        assert len(clone.inner.history) == len(plain.history) - 1  # the clone is independent
    assert plain.is_terminal()
    assert wrapped.returns() == plain.returns()
    assert wrapped.current_player() == pyspiel.PlayerId.TERMINAL


def test_mcts_agent_returns_legal_actions():
    s = RULESET.new_game(0)
    agent = TimedMCTSAgent(think_time=0.05, seed=1)
    for _ in range(3):
        a = agent.choose(s)
        assert a in s.legal_actions()
        s.apply_action(a)
