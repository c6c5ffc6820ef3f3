"""The seat balance by skill (:mod:`core.lab.skill`, :mod:`core.lab.seat_report`) on planted results:
the first seat's share of decisive games, its interval and test, the trend across levels, the lists a
designer types and the drawn curve."""

from __future__ import annotations

import html
import math
import re

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


# ---------------------------------------------------------------------------
# The skill ladder: one quantity, the score with ties as halves
# ---------------------------------------------------------------------------


def test_ladder_rate_interval_test_and_elo_are_on_one_score() -> None:
    """The audit's step: 30 wins, 10 losses, 40 ties in 80 games.  It printed 37.5% [27.7%, 48.5%] (ties as
    losses) with p=0.0022 (decisive games only) and an Elo on the score with ties as halves.  Now every figure
    is on the score 50/80 = 62.5%, and the interval leaves 50% out exactly when the test says p < 0.05."""
    step = skill.Step(250, 500, 1, games=80, strong_wins=30, weak_wins=10, ties=40)
    result = skill.summarize_ladder("x", [step])
    assert result["quantity"].startswith("score:") and "a tie 1/2" in result["quantity"]
    for figures in (result, result["steps"][0]):
        assert figures["points"] == 50 and figures["score"] == pytest.approx(0.625)
        assert figures["ci95"] == pytest.approx(list(stats.wilson_interval(50, 80)))
        assert figures["ci95"] == pytest.approx([0.515, 0.723], abs=1e-3)
        assert figures["elo"] == pytest.approx(400 * math.log10(0.625 / 0.375))
        lo, hi = figures["elo95"]
        assert lo == pytest.approx(400 * math.log10(figures["ci95"][0] / (1 - figures["ci95"][0])))
        assert lo < figures["elo"] < hi
        # score test of 0.625 against 0.5 with n = 80: z = 0.125 / sqrt(0.25 / 80)
        assert figures["test"]["statistic"] == pytest.approx(0.125 / math.sqrt(0.25 / 80))
        assert figures["test"]["p_value"] == pytest.approx(0.02535, abs=1e-5)
    # no tie-deflated rate left anywhere
    assert "rate" not in result and "rate" not in result["steps"][0]


@pytest.mark.parametrize("wins,losses,ties", [(30, 10, 40), (48, 32, 0), (20, 20, 40), (47, 30, 3), (9, 1, 0)])
def test_ladder_interval_and_test_never_disagree(wins: int, losses: int, ties: int) -> None:
    figures = skill.summarize_ladder("x", [skill.Step(1, 2, 1, wins + losses + ties, wins, losses, ties)])
    lo, hi = figures["ci95"]
    assert (not lo <= 0.5 <= hi) == figures["test"]["significant"]


def test_ladder_slope_follows_the_score_not_the_ties() -> None:
    """Two steps with the same score, 62.5%, one with ties and one without: the slope of the score is 0,
    where the tie-deflated rate (37.5% then 62.5%) gave a slope of +25 points per doubling."""
    steps = [skill.Step(250, 500, 1, 80, 30, 10, 40), skill.Step(500, 1000, 2, 80, 50, 30, 0)]
    fit = skill.fit_slope(steps)
    assert fit["slope"] == pytest.approx(0.0)
    assert fit["ci_low"] is not None and fit["ci_low"] < 0 < fit["ci_high"]  # type: ignore[operator]


def test_ladder_and_seat_curve_say_their_groups_are_paired() -> None:
    result = skill.summarize_ladder("x", [skill.Step(1, 2, 1, 10, 5, 5, 0), skill.Step(2, 4, 2, 10, 6, 4, 0)])
    assert "paired, not independent" in result["paired"] and "share their seeds" in result["paired"]
    curve = skill.summarize_seats("inland", [skill.seat_level("a", 1, records(5, 5, 0))], 2.0)
    assert "paired, not independent" in curve["paired"]
    assert "paired, not independent" in seat_report.render([curve])


def test_each_level_is_drawn_with_its_own_target_zone() -> None:
    """A curve whose levels have different targets (the rebalance's: ai:easy 45-55%, ai:normal 43-57%, ai:hard
    30-70%) draws one band per level, each labelled, and the page says which zone is whose."""
    levels = [skill.seat_level(name, i, records(10, 10, 0)) for i, name in enumerate(("ai:easy", "ai:normal"), 1)]
    levels.append(skill.seat_level("ai:hard", 3, records(13, 7, 0)))
    curve = skill.summarize_seats("inland", levels, 2.0)
    curve["level_zones"] = {"ai:easy": [0.45, 0.55], "ai:normal": [0.43, 0.57], "ai:hard": [0.30, 0.70]}
    page = seat_report.render([curve], ["x"])
    assert page.count('class="target-zone"') == 3
    for zone in ("45–55%", "43–57%", "30–70%"):
        assert f"<title>target zone {zone}</title>" in page
    assert "each level's target zone (ai:easy 45–55%, ai:normal 43–57%, ai:hard 30–70%)" in html.unescape(page)
    assert seat_report.zone_of(curve, "ai:hard") == (0.30, 0.70)
    assert seat_report.zone_of(curve, "ai:other") == tuple(skill.TARGET_ZONE)  # a level without its own: the curve's
    # the bands carry their zones as titles and the note names them: no zone text is drawn over the points
    assert ">target zone 45–55%</text>" not in page


def test_two_curves_labels_at_one_level_are_a_line_apart() -> None:
    """The shares 58.7% and 55.7% are 8 pixels apart on the chart: their labels are moved a line of text apart
    (the lower one down), each in its curve's colour."""
    near = [
        skill.summarize_seats("inland", [skill.seat_level("ai:normal", 1, records(first, 1000 - first, 0))], 1.0)
        for first in (587, 557)
    ]
    svg = seat_report.seat_curve_chart(near)
    heights = [float(y) for y in re.findall(r'<text x="[0-9.]+" y="([0-9.]+)" fill="#', svg)]
    assert len(heights) == 2 and heights[1] - heights[0] >= seat_report.LABEL_GAP
