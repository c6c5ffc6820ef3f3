"""A small game implementing :mod:`core.protocol`, used to test the records code
generically (no rule set's rules are involved, so no rulebook is cited).

"Pebbles": setup lays out a row of pebbles with values drawn from the seed;
in turn each player takes one or two pebbles from the left end of the row
(``take 1`` / ``take 2``), or ``pass``es while at least two pebbles remain
and nobody passed just before.  The game ends when the row is empty; wealth
is the value of the pebbles taken plus one per double take.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from core.protocol import TERMINAL, GameError, GameState, parse_action, stable_digest
from core.records import register_ruleset

#: stands in for a rule set's building data: its digest goes into records
TOY_DATA = {"values": (1, 2, 3, 5, 8)}


def toy_data_digest() -> str:
    return stable_digest(tuple(sorted(TOY_DATA.items())))[:16]


@dataclass(frozen=True, slots=True)
class Take:
    count: int

    def __str__(self) -> str:
        return f"take {self.count}"


@dataclass(frozen=True, slots=True)
class Pass:
    def __str__(self) -> str:
        return "pass"


class PebblesState(GameState):
    ruleset = "toy"

    def __init__(self, pile: list[int], num_players: int) -> None:
        self.num_players = num_players
        self.pile = list(pile)
        self.taken = [0] * num_players
        self.doubles = [0] * num_players
        self.turn = 0
        self.passed = False
        self.history = []
        self.data_digest = toy_data_digest()

    def current_player(self) -> int:
        return TERMINAL if not self.pile else self.turn

    def legal_actions(self) -> list:
        if not self.pile:
            return []
        acts: list = [Take(1)]
        if len(self.pile) >= 2:
            acts.append(Take(2))
            if not self.passed:
                acts.append(Pass())
        return acts

    def apply_action(self, action) -> None:
        p = self.turn
        if isinstance(action, Take):
            for _ in range(action.count):
                self.taken[p] += self.pile.pop(0)
            if action.count == 2:
                self.doubles[p] += 1
            self.passed = False
        else:
            self.passed = True
        self.history.append(str(action))
        self.turn = (self.turn + 1) % self.num_players

    def clone(self) -> "PebblesState":
        c = PebblesState.__new__(PebblesState)
        c.num_players = self.num_players
        c.pile = list(self.pile)
        c.taken = list(self.taken)
        c.doubles = list(self.doubles)
        c.turn = self.turn
        c.passed = self.passed
        c.history = list(self.history)
        c.data_digest = self.data_digest
        return c

    def is_terminal(self) -> bool:
        return not self.pile

    def wealth_breakdown(self, player: int) -> dict[str, int]:
        return {"pebbles": self.taken[player], "doubles": self.doubles[player]}

    def key(self):
        return (tuple(self.pile), tuple(self.taken), tuple(self.doubles), self.turn, self.passed)


class ToyRuleset:
    name = "toy"
    title = "Pebbles (a toy game for tests)"

    def new_game(self, seed: int, options=None) -> PebblesState:
        opts = dict(options or {})
        unknown = set(opts) - {"pile", "players"}
        if unknown:
            raise GameError(f"unknown option(s): {', '.join(sorted(unknown))} (allowed: pile, players)")
        pile = opts.get("pile", 9)
        players = opts.get("players", 2)
        if type(pile) is not int or not 1 <= pile <= 40:
            raise GameError("option 'pile' must be a whole number from 1 to 40")
        if type(players) is not int or not 1 <= players <= 4:
            raise GameError("option 'players' must be a whole number from 1 to 4")
        rng = random.Random(seed)
        return PebblesState([rng.choice(TOY_DATA["values"]) for _ in range(pile)], players)


TOY = ToyRuleset()
register_ruleset(TOY)


# -- the toy game itself keeps the protocol's contract ------------------------


def test_toy_game_keeps_the_protocol_contract():
    state = TOY.new_game(3, {"pile": 5})
    seen = 0
    while not state.is_terminal():
        legal = state.legal_actions()
        assert len({str(a) for a in legal}) == len(legal)
        action = legal[-1]
        assert parse_action(state, str(action)) == action
        state.apply_action(action)
        seen += 1
    assert state.history and len(state.history) == seen
    assert sum(state.wealth()) == sum(sum(state.wealth_breakdown(p).values()) for p in range(2))
    assert state.current_player() == TERMINAL


def test_toy_game_is_reproduced_by_its_seed():
    a, b = TOY.new_game(11), TOY.new_game(11)
    assert a.state_hash() == b.state_hash()
    assert any(TOY.new_game(s).state_hash() != a.state_hash() for s in range(12, 20))
