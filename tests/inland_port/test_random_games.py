"""Property test: seeded random games keep every invariant to the end.

seeds/004: twelve rounds A-L; REFERENCE.md Facts: 72 actions, 36 each; "A goods counter stops at the last space"
(no counter leaves the grid); "add up the values of its row and column" (each amount is row value + column
value: REFERENCE.md warehouse grid [rec], rows 0, 3, ..., 15 and columns +0 ... +5); francs are never negative;
wealth = building values + francs ("END OF THE GAME").
Turn structure: seeds/004 "Main phase" (build or use, one of the two) and "Sell" ("Anytime during his turn, a
player may sell his own buildings in addition to his action"): a turn is any sales, one main action, then any
sales and 'end' -- or, when the player owns nothing after the action, the turn ends by itself.
"""

import random

from inland_port import RULESET
from tests.inland_port.helpers import random_game_tests

ROWS = (0, 3, 6, 9, 12, 15)
COLUMNS = 6


def play_and_check(seed: int, sell_weight: float) -> None:
    s = RULESET.new_game(seed)
    rng = random.Random(seed)
    per_player = [0, 0]
    rounds_seen = [s.round_letter]
    while not s.is_terminal():
        legal = s.legal_actions()
        assert legal and len({str(a) for a in legal}) == len(legal)
        player = s.current_player()
        verbs = {a.verb for a in legal}
        if s.acted:
            # after the main action: 'end' or sell one's own buildings, nothing else
            assert verbs <= {"end", "sell"} and "end" in verbs
        else:
            assert "end" not in verbs and verbs & {"build", "use", "pass"}
            assert ("pass" in verbs) == (not verbs & {"build", "use"})  # pass only when nothing else is possible
        for a in legal:
            if a.verb == "sell":
                assert s.owner[s.catalog.index[a.building]] == player  # only one's own buildings
        sells = [a for a in legal if a.verb == "sell"]
        mains = [a for a in legal if a.verb != "sell"]
        a = rng.choice(sells) if sells and rng.random() < sell_weight else rng.choice(mains)
        before = s.main_action_count
        actions_left, round_before, acted_before = s.actions_left, s.round, s.acted
        s.apply_action(a)
        if s.main_action_count > before:
            per_player[player] += 1
            assert not acted_before
        if a.verb in ("build", "use", "pass"):
            # the turn stays open exactly when the player still owns a building
            if s.owned(player):
                assert s.acted and s.current_player() == player and s.actions_left == actions_left
            else:
                assert not s.acted and (s.round > round_before or s.actions_left == actions_left - 1)
        elif a.verb == "end" or (a.verb == "sell" and acted_before and not s.owned(player)):
            assert not s.acted and (s.is_terminal() or s.round > round_before or s.actions_left == actions_left - 1)
        elif a.verb == "sell":
            assert s.acted == acted_before and s.current_player() == player and s.actions_left == actions_left
        s.check_invariants()  # no counter off the grid, francs never negative
        wh = s.catalog.warehouse
        for p in (0, 1):
            for cell, amount in zip(s.cells[p], s.goods[p], strict=False):
                assert 0 <= cell < len(ROWS) * COLUMNS
                row, column = divmod(cell, COLUMNS)
                assert amount == ROWS[row] + column == wh.amount[cell]
        if not s.is_terminal() and s.round_letter != rounds_seen[-1]:
            rounds_seen.append(s.round_letter)
    assert per_player == [36, 36]
    assert rounds_seen == list("ABCDEFGHIJKL") and s.round == 12
    for p in (0, 1):
        assert s.wealth()[p] == sum(s.wealth_breakdown(p).values())
    assert s.legal_actions() == [] and s.current_player() == -1


test_random_games_keep_the_rules, test_many_random_games_keep_the_rules = random_game_tests(
    play_and_check, [0.0, 0.05, 0.3]
)
