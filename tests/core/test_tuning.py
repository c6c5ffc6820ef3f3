"""The evaluation tuner (issue 18): the fit recovers known weights; the tool runs end to end."""

from __future__ import annotations

import json
import math
import random
import subprocess
import sys
from pathlib import Path

import pytest

from core.games import game_spec
from core.lab.tuning import Sample, fit_scale, fit_weights, log_loss, match
from core.weights import WeightsFile

ROOT = Path(__file__).resolve().parents[2]


def _synthetic(n: int, weights: list[float], scale: float, seed: int, per_game: int = 50) -> list[Sample]:
    """Results drawn from sigmoid(w.x / K): the model the fit assumes."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        x = (rng.uniform(-30, 30), rng.uniform(-5, 5), rng.uniform(-10, 10))
        z = sum(w * v for w, v in zip(weights, x, strict=True)) / scale
        y = 1.0 if rng.random() < 1.0 / (1.0 + math.exp(-z)) else 0.0
        out.append(Sample(i // per_game, 0, x, y))
    return out


def test_fit_recovers_the_scale_and_the_weights() -> None:
    true = [1.0, 2.0, -0.5]
    samples = _synthetic(6000, true, 5.0, seed=3)
    assert fit_scale(samples, true) == pytest.approx(5.0, rel=0.1)
    fitted = fit_weights(samples, [1.0, 0.0, 0.0], 5.0, free=[1, 2], l2=0.0)
    assert fitted[0] == 1.0  # the fixed weight keeps its value
    assert fitted[1] == pytest.approx(2.0, abs=0.25)
    assert fitted[2] == pytest.approx(-0.5, abs=0.1)
    assert log_loss(samples, fitted, 5.0) < log_loss(samples, [1.0, 0.0, 0.0], 5.0)


def test_l2_pulls_toward_the_start() -> None:
    samples = _synthetic(2000, [1.0, 2.0, -0.5], 5.0, seed=4)
    loose = fit_weights(samples, [1.0, 0.0, 0.0], 5.0, free=[1, 2], l2=0.0)
    tight = fit_weights(samples, [1.0, 0.0, 0.0], 5.0, free=[1, 2], l2=1.0)
    assert abs(tight[1]) < abs(loose[1]) and abs(tight[2]) < abs(loose[2])


def test_match_of_todays_weights_against_themselves_is_even() -> None:
    """The seat's agent seed does not depend on which side sits there, so the two games of one seed are the same
    game: with today's weights on both sides the candidate wins exactly as often as it loses."""
    tuning = game_spec("base").evaluator.tuning
    assert tuning is not None
    result = match("base", tuning.weights, 2, "easy", 0.5)
    assert result.games == 2 and result.wins == result.losses and result.score == 0.5
    assert not result.adopt


def test_match_refuses_zero_games() -> None:
    with pytest.raises(Exception, match="at least 1 game"):
        match("base", {}, 0, "easy", 0.5)


def test_tool_runs_end_to_end_in_a_small_configuration(tmp_path: Path) -> None:
    """Two self-play base games (some 700 positions), the fit, a two-game match; weights and a report come out."""
    cand, report = tmp_path / "weights.json", tmp_path / "report.json"
    shipped = (ROOT / "base_game" / "data" / "eval_weights.json").read_text()
    out = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "tune_eval.py"), "--game", "base", "--games", "2"]
        + ["--match-games", "2", "--candidate", str(cand), "--report", str(report), "--no-adopt"],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=tmp_path,
    )
    assert out.returncode == 0, out.stderr
    assert "scale K =" in out.stdout and "log-loss, training:" in out.stdout and "W-T-L" in out.stdout
    data = WeightsFile.model_validate_json(cand.read_text())
    assert data.provenance.games == 2 and data.provenance.positions > 300
    assert "--games 2" in data.provenance.command and "not adopted" in data.provenance.note
    assert set(data.weights) == set(json.loads(shipped)["weights"])
    assert data.weights["wealth"] == 1.0
    assert data.fit["match"]["games"] == 2
    assert json.loads(report.read_text())["adopted"] is False
    assert (ROOT / "base_game" / "data" / "eval_weights.json").read_text() == shipped


def test_tool_refuses_a_game_without_weights(tmp_path: Path) -> None:
    out = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "tune_eval.py"), "--game", "chess", "--games", "1"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
    )
    assert out.returncode == 2 and "chess" in out.stderr
