"""The SPRT that decides whether an AI change is adopted: its statistics on known numbers, then the
script on cheap agents at the Inland Port (a planted strong-vs-weak pair is accepted, a self-match is not)."""

from __future__ import annotations

import importlib.util
import itertools
import json
import math
import random
import sys
from pathlib import Path
from types import ModuleType

import pytest

from core.games import game_spec
from core.lab.sprt import (
    ACCEPTED,
    CONTINUE,
    REJECTED,
    SPRT,
    SPRTError,
    bounds,
    llr,
    llr_normal_approx,
    llr_per_pair,
    logistic_elo,
    logistic_score,
    mle_with_mean,
    pair_score,
)
from core.weights import Provenance, WeightsFile, write_weights

ROOT = Path(__file__).resolve().parents[2]


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("sprt_script", ROOT / "benchmarks" / "sprt.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["sprt_script"] = module
    spec.loader.exec_module(module)
    return module


# ---------------------------------------------------------------------------
# The statistics
# ---------------------------------------------------------------------------


def test_bounds_from_alpha_and_beta() -> None:
    lower, upper = bounds(0.05, 0.05)
    assert lower == pytest.approx(math.log(0.05 / 0.95)) == pytest.approx(-2.944439, abs=1e-6)
    assert upper == pytest.approx(math.log(0.95 / 0.05)) == pytest.approx(2.944439, abs=1e-6)
    lower, upper = bounds(0.05, 0.10)
    assert lower == pytest.approx(math.log(0.10 / 0.95))
    assert upper == pytest.approx(math.log(0.90 / 0.05))
    with pytest.raises(SPRTError, match="alpha"):
        bounds(0.6, 0.5)


def test_logistic_elo_round_trip() -> None:
    assert logistic_score(0) == 0.5
    assert logistic_score(400) == pytest.approx(10 / 11)
    for elo in (-300.0, -5.0, 0.0, 5.0, 120.0):
        assert logistic_elo(logistic_score(elo)) == pytest.approx(elo)
    assert logistic_elo(1.0) == math.inf and logistic_elo(0.0) == -math.inf


def test_mle_on_two_values_is_the_only_distribution_with_that_mean() -> None:
    # on two values the mean fixes the distribution: the MLE is it, whatever was observed
    assert mle_with_mean([0.0, 1.0], [0.25, 0.75], 0.6) == pytest.approx([0.4, 0.6])
    # an observed distribution that already has the mean is its own MLE
    assert mle_with_mean([0.0, 0.5, 1.0], [0.2, 0.5, 0.3], 0.55) == pytest.approx([0.2, 0.5, 0.3])
    q = mle_with_mean([0.0, 0.25, 0.5, 0.75, 1.0], [0.1, 0.2, 0.3, 0.25, 0.15], 0.45)
    assert sum(q) == pytest.approx(1.0)
    assert sum(p * a for p, a in zip(q, [0.0, 0.25, 0.5, 0.75, 1.0], strict=True)) == pytest.approx(0.45)


def test_llr_hand_computed_case() -> None:
    # observed 1/4 losses, 3/4 wins; H0 mean 0.5 (MLE 0.5/0.5), H1 mean 0.6 (MLE 0.4/0.6):
    # 0.25 log(0.4/0.5) + 0.75 log(0.6/0.5) = -0.0557859 + 0.1367415
    expected = 0.25 * math.log(0.4 / 0.5) + 0.75 * math.log(0.6 / 0.5)
    assert expected == pytest.approx(0.0809556, abs=1e-6)
    assert llr_per_pair([0.0, 1.0], [0.25, 0.75], 0.5, 0.6) == pytest.approx(expected)


def test_llr_sign_symmetry_and_approximation() -> None:
    assert llr([0, 0, 0, 0, 0], 0, 5) == 0.0
    even = [3, 10, 20, 10, 3]
    assert llr(even, -5, 5) == pytest.approx(0.0, abs=1e-9)  # a symmetric sample favours neither side
    good, bad = [2, 8, 20, 14, 6], [6, 14, 20, 8, 2]
    assert llr(good, 0, 5) > 0 > llr(bad, 0, 5)
    assert llr(good, -5, 5) == pytest.approx(-llr(bad, -5, 5))
    # near the hypotheses (a score near 50%, elo1 small) the exact GSPRT and its Brownian approximation agree
    close = [20, 80, 200, 88, 22]
    assert llr(close, 0, 5) == pytest.approx(llr_normal_approx(close, 0, 5), rel=0.01)


def test_llr_grows_with_better_results_and_more_pairs() -> None:
    # moving pairs up the scale raises the LLR
    steps = [[4, 8, 16, 8, 4], [3, 8, 16, 9, 4], [3, 7, 16, 9, 5], [2, 7, 16, 10, 5], [2, 6, 15, 12, 5]]
    values = [llr(c, 0, 5) for c in steps]
    assert values == sorted(values) and values[0] < values[-1]
    # the same results, twice as many, give twice the LLR (up to the count given to empty categories)
    assert llr([2, 6, 15, 12, 5], 0, 5) * 2 == pytest.approx(llr([4, 12, 30, 24, 10], 0, 5))
    # a run of perfect pairs raises it every time, a run of lost pairs lowers it
    test = SPRT(0, 50)
    seen = [test.llr]
    for _ in range(5):
        test.add(2.0)
        seen.append(test.llr)
    assert all(b > a for a, b in itertools.pairwise(seen))


def test_state_reports_verdict_games_score_and_elo() -> None:
    test = SPRT(elo0=0, elo1=100, alpha=0.05, beta=0.05)
    assert test.verdict == CONTINUE and test.games == 0 and math.isnan(test.score)
    for s in (2.0, 1.5, 2.0, 1.0, 2.0, 1.5):
        test.add(s)
    assert test.pairs == 6 and test.games == 12
    assert test.score == pytest.approx(10 / 12)
    elo, lo, hi = test.elo()
    assert lo < elo < hi and elo == pytest.approx(logistic_elo(10 / 12), abs=1)
    assert test.bounds == pytest.approx(bounds(0.05, 0.05))
    while test.verdict == CONTINUE and test.pairs < 200:
        test.add(2.0 if test.pairs % 3 else 1.5)
    assert test.verdict == ACCEPTED
    data = test.to_dict()
    assert data["verdict"] == ACCEPTED and data["games"] == test.games and data["llr"] >= data["bounds"][1]
    assert "LLR" in test.line() and f"({test.games} games)" in test.line()

    losing = SPRT(elo0=0, elo1=100)
    while losing.verdict == CONTINUE and losing.pairs < 200:
        losing.add(1.0 if losing.pairs % 2 else 0.5)
    assert losing.verdict == REJECTED


def test_bad_input_is_refused_with_a_message() -> None:
    with pytest.raises(SPRTError, match="elo0 must be below elo1"):
        SPRT(elo0=5, elo1=0)
    with pytest.raises(SPRTError, match="alpha"):
        SPRT(alpha=0)
    with pytest.raises(SPRTError, match=r"0, 0\.5, 1, 1\.5 or 2"):
        SPRT().add(0.7)
    with pytest.raises(SPRTError, match="a game result"):
        pair_score(1.0, 2.0)
    assert pair_score(1.0, 0.5) == 1.5


# ---------------------------------------------------------------------------
# The script, on cheap agents at the Inland Port
# ---------------------------------------------------------------------------


def test_planted_strong_against_weak_is_accepted(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = _script()
    out = tmp_path / "sprt.json"
    args = ["--game", "inland", "--candidate", "greedy", "--base", "random", "--elo0", "0", "--elo1", "200"]
    assert script.main([*args, "--max-pairs", "40", "--seed", "11", "--json", str(out)]) == 0
    data = json.loads(out.read_text())
    assert data["test"]["verdict"] == ACCEPTED
    assert data["test"]["games"] == 2 * len(data["pair_scores"]) < 80
    text = capsys.readouterr().out
    assert text.count("LLR") >= len(data["pair_scores"]) and "ACCEPTED" in text


def test_self_match_is_not_accepted(tmp_path: Path) -> None:
    script = _script()
    out = tmp_path / "sprt.json"
    args = ["--game", "inland", "--candidate", "greedy", "--base", "greedy", "--elo0", "0", "--elo1", "200"]
    assert script.main([*args, "--max-pairs", "12", "--seed", "11", "--json", str(out)]) == 0
    data = json.loads(out.read_text())
    assert data["test"]["verdict"] != ACCEPTED
    assert data["test"]["games"] <= 24


def test_script_refuses_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    script = _script()
    assert script.main(["--candidate", "greedy", "--base", "random", "--elo0", "5", "--elo1", "0"]) == 2
    assert "elo0 must be below elo1" in capsys.readouterr().err
    assert script.main(["--candidate", "nobody"]) == 2
    assert "unknown agent" in capsys.readouterr().err
    assert script.main(["--base", "random"]) == 2
    assert "give the candidate" in capsys.readouterr().err


def _weights_file(path: Path, game: str, weights: dict[str, float]) -> Path:
    provenance = Provenance(command="test", games=0, positions=0, date="2026-01-01T00:00:00Z")
    return write_weights(path, WeightsFile(game=game, weights=weights, provenance=provenance))


def test_candidate_weights_make_the_same_agent_evaluate_with_them(tmp_path: Path) -> None:
    script = _script()
    spec = game_spec("inland")
    tuning = spec.evaluator.tuning
    assert tuning is not None
    weights = {**tuning.weights, "goods": 3.0, "tempo": 0.0}
    agent = script.make_side("ai:easy~2", 5, spec, weights)
    state = spec.new_game(3, None)
    rng = random.Random(3)
    for _ in range(40):
        state.apply_action(rng.choice(state.legal_actions()))
    for seat in (0, 1):
        assert agent.evaluator.evaluate(state, seat) == tuning.weighted(weights)(state, seat)
    assert script.make_side("ai:easy~2", 5, spec).evaluator is None  # the base keeps the game's evaluation

    path = _weights_file(tmp_path / "w.json", "inland", weights)
    out = tmp_path / "sprt.json"
    argv = ["--game", "inland", "--base", "ai:easy@nodes=30", "--candidate-weights", str(path)]
    assert script.main([*argv, "--max-pairs", "1", "--json", str(out)]) == 0
    data = json.loads(out.read_text())
    assert data["weights"]["goods"] == 3.0 and data["candidate"] == data["base"] == "ai:easy@nodes=30"
    assert data["noise"] == 2
    assert data["test"]["games"] == 2


def test_candidate_weights_are_checked(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = _script()
    tuning = game_spec("inland").evaluator.tuning
    assert tuning is not None
    path = _weights_file(tmp_path / "w.json", "inland", dict(tuning.weights))
    assert script.main(["--candidate", "greedy", "--base", "random", "--candidate-weights", str(path)]) == 2
    assert "need an ai agent" in capsys.readouterr().err
    assert script.main(["--game", "base", "--candidate-weights", str(path)]) == 2
    assert "must give one weight for each term" in capsys.readouterr().err
    assert script.main(["--candidate-weights", str(tmp_path / "missing.json")]) == 2
    assert "cannot read the evaluation weights" in capsys.readouterr().err


def test_the_stopped_elo_is_labelled_as_the_naive_estimate(capsys: pytest.CaptureFixture[str]) -> None:
    """The audit: the elo printed when the test stops is the naive one (fishtest corrects it for the stopping
    rule).  It is not corrected here, so every output names it the naive estimate."""
    test = SPRT(elo0=0, elo1=100)
    while test.verdict == CONTINUE:
        test.add(2.0 if test.pairs % 3 else 1.5)
    assert test.verdict == ACCEPTED
    assert "naive elo" in test.line()
    data = test.to_dict()
    assert data["elo_method"].startswith("naive") and "stopping rule" in data["elo_method"]
    script = _script()
    line = script._verdict_line(test, 200)
    assert line.startswith("ACCEPTED") and "naive elo" in line and "not corrected for the early stop" in line
