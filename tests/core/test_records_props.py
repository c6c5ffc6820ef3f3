"""Property tests (hypothesis) for game records, on every available rule set.

Issue 7 acceptance: for random games, save -> load gives the same state hash
at every point, and replaying to action N equals playing to action N.  The
games are played by random legal choices; no particular rule is tested, so no
rulebook passage is cited.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.games import game_names
from core.records import (
    get_ruleset,
    load_record,
    new_record,
    new_state,
    replay,
    replay_all,
    save_record,
    state_summary,
)
from tests.core import test_records_toygame  # noqa: F401  (registers the toy rule set "toy")

RULESETS = ["toy", *[r for r in game_names() if r != "toy"]]
#: examples per rule set: the toy game is tiny, real games take 100-500 actions
EXAMPLES = {"toy": 60}
#: the every-point test saves and loads (a full replay) after each action, so it
#: is quadratic in the game's length: games are cut at this many actions there
#: (the replay test below plays games to their end)
EVERY_POINT_LENGTH = 150
OPTIONS = {
    "toy": st.fixed_dictionaries({"pile": st.integers(1, 30), "players": st.integers(1, 4)}),
    # the base game (seeds/002, seeds/000): 1-5 players, full or short version
    "base": st.fixed_dictionaries({"players": st.integers(1, 5), "short": st.booleans()}),
}


def random_game(name: str, options, seed: int, rng, length: int):
    """Play up to ``length`` random legal actions, saving after each like an autosave."""
    seats = get_ruleset(name).new_game(seed, options).num_players
    record = new_record(name, options, seed, [f"seat {i}" for i in range(seats)])
    state = new_state(record)
    states = [state.clone()]
    while len(states) <= length and not state.is_terminal():
        legal = state.legal_actions()
        assert legal, "a state that is not terminal has a legal action"
        action = rng.choice(legal)
        state.apply_action(action)
        record.append(str(action), state)
        states.append(state.clone())
    return record, states


@pytest.mark.parametrize("name", RULESETS)
def test_save_load_gives_the_same_state_at_every_point(name):
    @settings(max_examples=EXAMPLES.get(name, 8), deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(
        options=OPTIONS.get(name, st.just(None)),
        seed=st.integers(0, 2**32),
        rng=st.randoms(use_true_random=False),
        length=st.integers(0, EVERY_POINT_LENGTH),
    )
    def check(options, seed, rng, length):
        record, states = random_game(name, options, seed, rng, length)
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "autosave.json"
            prefix = record.model_copy(deep=True)
            for k, played in enumerate(states):
                # the record as it stood after k actions, saved and loaded again
                prefix.actions = record.actions[:k]
                prefix.sync(played)
                save_record(prefix, path)
                loaded = load_record(path)
                assert loaded.actions == played.history
                assert loaded.state_hash == played.state_hash()
                assert loaded.finished == played.is_terminal()
                assert replay(loaded).state_hash() == played.state_hash()

    check()


@pytest.mark.parametrize("name", RULESETS)
def test_replaying_to_action_n_equals_playing_to_action_n(name):
    @settings(max_examples=EXAMPLES.get(name, 12), deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(
        options=OPTIONS.get(name, st.just(None)),
        seed=st.integers(0, 2**32),
        rng=st.randoms(use_true_random=False),
        length=st.integers(0, 1000),
        data=st.data(),
    )
    def check(options, seed, rng, length, data):
        record, states = random_game(name, options, seed, rng, length)
        summaries = [state_summary(s, record) for s in states]
        replayed = replay_all(record)
        assert [state_summary(s, record) for s in replayed] == summaries
        n = data.draw(st.integers(0, len(states) - 1), label="N")
        at_n = replay(record, upto=n)
        assert at_n.history == states[n].history
        assert at_n.state_hash() == states[n].state_hash()
        assert state_summary(at_n, record) == summaries[n]
        assert [str(a) for a in at_n.legal_actions()] == [str(a) for a in states[n].legal_actions()]

    check()
