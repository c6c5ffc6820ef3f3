"""The seat balance by skill (:mod:`core.lab.skill`, :mod:`core.lab.seat_report`) on planted results:
the first seat's share of decisive games, its interval and test, the trend across levels, the lists a
designer types and the drawn curve."""

from __future__ import annotations

import math

import pytest

from core.lab import seat_report, skill, stats
from core.lab.playtest import PlaytestError


def records(first: int, second: int, ties: int) -> list[dict[str, object]]:
    """Planted records: ``first`` sole wins of seat 0, ``second`` of seat 1, ``ties`` shared wins."""
    return [{"winners": [0]}] * first + [{"winners": [1]}] * second + [{"winners": [0, 1]}] * ties


def test_share_interval_and_test_on_planted_results() -> None:
    level = skill.seat_level("ai:easy", 7, records(30, 10, 5))
    d = level.to_dict()
    assert (d["games"], d["decisive"], d["first_wins"], d["second_wins"], d["ties"]) == (45, 40, 30, 10, 5)
    assert d["share"] == pytest.approx(0.75)  # ties count for nobody: 30 of the 40 decisive games
    # Wilson score interval of 30/40 by hand
    z, n, p = stats.Z95, 40, 0.75
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    assert d["ci95"] == pytest.approx([centre - half, centre + half])
    assert d["ci95"] == pytest.approx([0.598, 0.858], abs=1e-3)
    # exact two-sided binomial test against 50%: twice P(X >= 30) for X ~ Bin(40, 1/2)
    tail = sum(math.comb(40, i) for i in range(30, 41)) / 2**40
    assert d["test"]["p_value"] == pytest.approx(2 * tail)
    assert d["test"]["significant"]


def test_no_decisive_game_has_no_share() -> None:
    d = skill.seat_level("ai:hard", 1, records(0, 0, 3)).to_dict()
    assert d["share"] is None and d["decisive"] == 0 and d["ci95"] == [0.0, 1.0]
    assert d["test"]["p_value"] == 1.0


def test_trend_flips_with_skill() -> None:
    """The first seat wins 25% of decisive games at the low level and 75% at the high one: a significant trend;
    with two levels it is the pooled two-proportion test."""
    low, high = skill.seat_level("ai:easy", 1, records(10, 30, 0)), skill.seat_level("ai:normal", 2, records(30, 10, 2))
    trend = skill.trend_test([low, high])
    assert trend["change"] == pytest.approx(0.5)
    pooled = stats.two_proportion_z_test(30, 40, 10, 40)
    assert trend["test"]["statistic"] == pytest.approx(pooled.statistic)
    assert trend["test"]["p_value"] == pytest.approx(pooled.p_value)
    assert trend["test"]["significant"]
    flat = skill.trend_test([skill.seat_level(f"l{i}", i, records(20, 20, 0)) for i in range(3)])
    assert flat["change"] == 0.0 and not flat["test"]["significant"]
    assert skill.trend_test([low])["test"] is None  # one level: no trend to test


def test_trend_over_three_levels_uses_every_level() -> None:
    """Cochran-Armitage over 0, 1, 2: a steady rise is significant where first against last alone is weaker."""
    levels = [skill.seat_level(f"l{i}", i, records(k, 60 - k, 0)) for i, k in enumerate((24, 30, 36))]
    trend = skill.trend_test(levels)
    assert trend["change"] == pytest.approx(0.2)
    assert trend["test"]["statistic"] > 0 and trend["test"]["p_value"] < 0.05


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("easy,normal,hard", ["ai:easy", "ai:normal", "ai:hard"]),
        (" Easy , ai:normal@nodes=500 ", ["ai:easy", "ai:normal@nodes=500"]),
        ("ai:easy@nodes=50", ["ai:easy@nodes=50"]),
    ],
)
def test_levels(text: str, expected: list[str]) -> None:
    assert skill.parse_levels(text) == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("easy,expert", "unknown level 'expert' in --levels: give easy, normal, hard"),
        ("greedy", "unknown level 'greedy'"),
        ("", "--levels needs at least one level"),
        ("easy,ai:easy", "names a level twice"),
    ],
)
def test_bad_levels(text: str, message: str) -> None:
    with pytest.raises(PlaytestError, match=message.replace("(", r"\(")):
        skill.parse_levels(text)


def test_games_lists() -> None:
    assert skill.parse_games("400,200,40", 3) == [400, 200, 40]
    assert skill.parse_games("16", 3) == [16, 16, 16]
    with pytest.raises(PlaytestError, match=r"gives 2 counts .* for 3 levels: give one count per level"):
        skill.parse_games("400,200", 3)
    for bad in ("ten", "4,0", "4,,2", "-3"):
        with pytest.raises(PlaytestError, match="--games takes whole numbers >= 1"):
            skill.parse_games(bad, 2)


def test_curve_is_drawn_with_intervals_even_line_and_target_zone() -> None:
    levels = [skill.seat_level("ai:easy", 1, records(75, 125, 3)), skill.seat_level("ai:normal", 2, records(0, 0, 2))]
    levels.append(skill.seat_level("ai:hard", 3, records(13, 7, 0)))
    curve = skill.summarize_seats("inland", levels, 2.0)
    page = seat_report.render([curve], ["lehavre skill inland --seats"])
    assert f'id="{seat_report.CHART_ID}"' in page
    assert page.count('class="target-zone"') == 1 and page.count('class="even-line"') == 1
    assert page.count('class="point"') == 2  # the level with no decisive game has no point
    assert page.count('class="errorbar"') == 2
    assert "37.5%" in page and "65.0%" in page and "target zone 42–58%" in page
    assert "Cochran-Armitage trend test" in page
