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

from pydantic import BaseModel, ConfigDict, Field

from core.games import register_game
from core.protocol import TERMINAL, GameSpec, GameState, parse_action, stable_digest
from core.search import LEVELS

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

    def clone(self) -> PebblesState:
        c = PebblesState.__new__(PebblesState)
        c.num_players = self.num_players
        c.pile = list(self.pile)
        c.taken = list(self.taken)
        c.doubles = list(self.doubles)
        c.turn = self.turn
        c.passed = self.passed
        c.history = list(self.history)
        return c

    def is_terminal(self) -> bool:
        return not self.pile

    def wealth_breakdown(self, player: int) -> dict[str, int]:
        return {"pebbles": self.taken[player], "doubles": self.doubles[player]}

    def key(self):
        return (tuple(self.pile), tuple(self.taken), tuple(self.doubles), self.turn, self.passed)


class ToyOptions(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    pile: int = Field(9, ge=1, le=40)
    players: int = Field(2, ge=1, le=4)


def new_toy_game(seed: int = 0, options: ToyOptions | dict | None = None) -> PebblesState:
    opts = TOY.parse_options(options)
    rng = random.Random(seed)
    return PebblesState([rng.choice(TOY_DATA["values"]) for _ in range(opts.pile)], opts.players)


#: The toy game plugs in by declaring its spec, like any rule module.
TOY = GameSpec(
    name="toy",
    title="Pebbles (a toy game for tests)",
    state=PebblesState,
    options_model=ToyOptions,
    new_game=new_toy_game,
    min_players=1,
    max_players=4,
    ai_levels=LEVELS,
    data_digest=lambda options: toy_data_digest(),
)
register_game(TOY)


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
