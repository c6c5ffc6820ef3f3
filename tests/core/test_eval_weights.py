"""The evaluation weights as data (issue 18): today's values kept exactly, files checked."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.games import game_spec
from core.protocol import parse_action
from core.weights import TuningError, load_weights

REFERENCE = Path(__file__).parent / "data" / "eval_reference.json"


def _positions(name: str):  # type: ignore[no-untyped-def]
    data = json.loads(REFERENCE.read_text())
    for g in data["games"]:
        if g["game"] != name:
            continue
        spec = game_spec(name)
        state = spec.new_game(g["seed"], g["options"])
        for text, values in zip(g["actions"], g["values"], strict=True):
            yield spec, state, values
            state.apply_action(parse_action(state, text))


@pytest.mark.parametrize("name", ["inland", "base"])
def test_hand_set_weights_give_the_old_values_exactly(name: str) -> None:
    """Every position of two seeded games per game, evaluated before the weights became data."""
    count = 0
    for spec, state, values in _positions(name):
        for p, old in enumerate(values):
            assert spec.evaluator.evaluate(state, p) == old
        count += 1
    assert count > 300


@pytest.mark.parametrize("name", ["inland", "base"])
def test_weighted_sum_of_features_is_the_evaluation(name: str) -> None:
    """``sum(weight * feature)`` equals the evaluation (up to rounding), and ``weighted`` with today's weights too."""
    tuning = game_spec(name).evaluator.tuning
    assert tuning is not None
    same = tuning.weighted(tuning.weights)
    for i, (_spec, state, values) in enumerate(_positions(name)):
        if i % 7:
            continue
        f = tuning.features(state, 0)
        total = sum(tuning.weights[t] * x for t, x in f.items())
        assert total == pytest.approx(values[0], abs=1e-9)
        assert same(state, 0) == values[0]


def test_shipped_files_say_hand_set() -> None:
    for name in ("inland", "base"):
        tuning = game_spec(name).evaluator.tuning
        assert tuning is not None
        data = load_weights(tuning.path, list(tuning.weights))
        assert data.game == name
        assert data.provenance.games == 0 or data.fit, "fitted weights carry their fit's figures"


def test_bad_weights_file_is_refused_with_the_reason(tmp_path: Path) -> None:
    p = tmp_path / "w.json"
    good = {
        "game": "inland",
        "weights": {"wealth": 1.0, "tempo": 0.5},
        "provenance": {"command": "", "games": 0, "positions": 0, "date": "2026-01-01", "note": "hand-set"},
    }
    p.write_text(json.dumps(good))
    assert load_weights(p, ["wealth", "tempo"]).weights["tempo"] == 0.5
    with pytest.raises(TuningError, match="missing: goods"):
        load_weights(p, ["wealth", "tempo", "goods"])
    with pytest.raises(TuningError, match="unknown: tempo"):
        load_weights(p, ["wealth"])
    p.write_text(json.dumps({**good, "weights": {"wealth": "heavy", "tempo": 0.5}}))
    with pytest.raises(TuningError, match=r"weights\.wealth"):
        load_weights(p, ["wealth", "tempo"])
    with pytest.raises(TuningError, match="cannot read"):
        load_weights(tmp_path / "absent.json", ["wealth"])
