"""Property test: seeded random games keep every invariant to the end.

seeds/004: twelve rounds A-L; REFERENCE.md Facts: 72 actions, 36 each; "A goods counter stops at the last space"
(no counter leaves the grid); francs are never negative; wealth = building values + francs ("END OF THE GAME").
"""

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from inland_port import RULESET


@settings(max_examples=500, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**32 - 1), sell_weight=st.sampled_from([0.0, 0.05, 0.3]))
def test_random_games_keep_the_rules(seed, sell_weight):
    s = RULESET.new_game(seed)
    rng = random.Random(seed)
    per_player = [0, 0]
    rounds_seen = [s.round_letter]
    while not s.is_terminal():
        legal = s.legal_actions()
        assert legal and len({str(a) for a in legal}) == len(legal)
        sells = [a for a in legal if a.verb == "sell"]
        mains = [a for a in legal if a.verb != "sell"]
        a = rng.choice(sells) if sells and rng.random() < sell_weight else rng.choice(mains)
        player = s.current_player()
        before = s.main_action_count
        s.apply_action(a)
        if s.main_action_count > before:
            per_player[player] += 1
        s.check_invariants()  # no counter off the grid, francs never negative
        if not s.is_terminal() and s.round_letter != rounds_seen[-1]:
            rounds_seen.append(s.round_letter)
    assert per_player == [36, 36]
    assert rounds_seen == list("ABCDEFGHIJKL") and s.round == 12
    for p in (0, 1):
        assert s.wealth()[p] == sum(s.wealth_breakdown(p).values())
    assert s.legal_actions() == [] and s.current_player() == -1
