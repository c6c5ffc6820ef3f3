"""Pieces written once: the spec given to its state class, the default reason for an illegal action,
one write_report for every lab report, one evaluation cache for every game's evaluator."""

from __future__ import annotations

import pytest
from pydantic import BaseModel

from base_game import RULESET as BASE
from base_game.state import BaseState
from core.evalcache import WeightedSum, remember
from core.lab.report import write_report
from core.protocol import GameError, GameSpec, parse_action
from core.search import LEVELS
from inland_port import RULESET as INLAND
from inland_port.state import InlandState
from tests.core.test_search import TakeGame


class _NoOptions(BaseModel):
    pass


def test_each_game_s_state_class_knows_its_spec():
    assert InlandState.game is INLAND and INLAND.state is InlandState
    assert BaseState.game is BASE and BASE.state is BaseState
    assert INLAND.new_game(0).game is INLAND and BASE.new_game(0).game is BASE


def test_a_state_class_belongs_to_one_spec():
    with pytest.raises(ValueError, match="the state class TakeGame already belongs to the game 'take'"):
        GameSpec(
            name="take-again",
            title="Take again",
            state=TakeGame,
            options_model=_NoOptions,
            new_game=lambda seed, options: TakeGame((1,), picks=1),
            min_players=1,
            max_players=2,
            ai_levels=LEVELS,
        )
    assert TakeGame.game.name == "take"


def test_a_game_without_reasons_gets_the_generic_message():
    with pytest.raises(GameError, match=r"'take 9' is not a legal action here\. Allowed now: take\."):
        parse_action(TakeGame((1, 2), picks=1), "take 9")


def test_the_games_own_reason_comes_first():
    with pytest.raises(GameError, match="round B"):
        parse_action(INLAND.new_game(0), "build Farm")


def test_write_report_makes_the_folder_and_names_a_file_it_cannot_write(tmp_path):
    page = "<html><body>report</body></html>"
    path = write_report(tmp_path / "deep" / "er" / "r.html", page)
    assert path.read_text(encoding="utf-8") == page
    (tmp_path / "a-file").write_text("", encoding="utf-8")
    with pytest.raises(GameError, match=r"cannot write the report to '.*a-file/r\.html'"):
        write_report(tmp_path / "a-file" / "r.html", page)


def test_remember_empties_a_full_cache_first():
    cache = {1: 1.0, 2: 2.0}
    assert remember(cache, 3, 3.0, limit=2) == 3.0
    assert cache == {1: 1.0, 2: 2.0, 3: 3.0}
    assert remember(cache, 4, 4.0, limit=2) == 4.0
    assert cache == {4: 4.0}


def test_a_weighted_sum_caches_by_position_and_seat_and_weights_anew():
    calls = []

    def value(state: int, player: int, weights) -> float:
        calls.append((state, player))
        return weights["a"] * state + weights["b"] * player

    def named(state: int, player: int, weights) -> dict[str, float]:
        return {"a": weights["a"] * state, "b": weights["b"] * player}

    ws = WeightedSum(("a", "b"), {"a": 2.0, "b": 10.0}, "", value, named, lambda s: s, limit=100)
    ev = ws.evaluator(lambda s: [])
    assert ev.evaluate(3, 1) == 16.0 and ev.evaluate(3, 1) == 16.0 and calls == [(3, 1)]
    assert ev.evaluate(3, 0) == 6.0 and len(calls) == 2
    assert ev.terms(3, 1) == {"a": 6.0, "b": 10.0}
    assert ev.tuning is not None
    assert ev.tuning.features(3, 1) == {"a": 3.0, "b": 1.0}
    assert ev.tuning.weighted({"a": 1, "b": 0})(3, 1) == 3.0
    assert ev.reweighted({"a": 1.0, "b": 1.0}).evaluate(3, 1) == 4.0
