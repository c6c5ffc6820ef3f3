"""The pieces every game's view model shares (a view model: the position as one seat may see it, as
plain data, for a browser's page and for the terminal's screens alike; each game makes its own from
its state, in its package): the base class, and the result of a finished game."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class ViewModel(BaseModel):
    """A part of a view: plain data, nothing more than the model declares."""

    model_config = ConfigDict(extra="forbid", frozen=True)


def placings(wealth: Sequence[int]) -> list[int]:
    """Each seat's place by wealth (1 = the most); tied seats share a place and the next
    place is skipped (40, 40, 30 -> 1st, 1st, 3rd)."""
    return [1 + sum(1 for y in wealth if y > x) for x in wealth]


def winning_margin(wealth: Sequence[int]) -> int:
    """How far the most wealth is ahead of the next (0 when the first place is shared or no one else plays)."""
    best = max(wealth)
    rest = [x for x in wealth if x < best]
    return best - max(rest) if rest and sum(1 for x in wealth if x == best) == 1 else 0


class GameResult(ViewModel):
    """A finished game: each seat's final wealth and its parts, place (1 = the most, ties share) and the
    winner's lead over the next."""

    wealth: list[int]
    placings: list[int]
    margin: int = Field(ge=0)
    #: each seat's wealth by its parts (as the final table shows them)
    breakdown: list[dict[str, int]]


def game_result(state: Any) -> GameResult | None:
    """The result of ``state`` when it is over, else None."""
    if not state.is_terminal():
        return None
    wealth = list(state.wealth())
    return GameResult(
        wealth=wealth,
        placings=placings(wealth),
        margin=winning_margin(wealth),
        breakdown=[dict(state.wealth_breakdown(p)) for p in range(state.num_players)],
    )
