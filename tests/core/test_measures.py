"""The designer's measures (core.lab.measures) on hand-made traces with known answers, and the traces playtests store."""

from __future__ import annotations

import json
import sqlite3

import pytest

from core.lab import measures as ms
from core.lab import playtest as pt
from core.search import WIN_BONUS


def two(*seat0: float) -> list[list[float]]:
    """A two-player trace from seat 0's margins."""
    return [[m, -m] for m in seat0]


def test_a_game_decided_from_the_start_is_fully_decisive_without_drama_or_lead_changes():
    trace = two(6, 8, 10, 12, 14, 16, 18, 20, 22, 24)
    m = ms.game_measures(trace, [0])
    assert m is not None
    assert m["decisiveness"] == 1.0  # clearly ahead (lead 6 > 5 francs, seat 1 never led) at the first decision
    assert m["drama"] == 0.0 and m["drama_max"] == 0.0
    assert m["lead_changes_eval"] == 0 and m["lead_change_rate"] == 0.0
    assert m["curve"] == [6, 8, 10, 12, 14, 16, 18, 20, 22, 24]


def test_a_comeback_has_drama_lead_changes_and_a_late_decision():
    # seat 1 wins; seat 0 led by up to 8, then seat 1 pulls ahead and passes 8 at decision 7 of 10
    trace = two(2, 5, 8, 4, -1, -3, -6, -9, -12, -15)
    m = ms.game_measures(trace, [1])
    assert m is not None
    assert ms.decisiveness_threshold(trace, 1) == 8  # the best lead the loser ever had
    assert m["decisiveness"] == pytest.approx(3 / 10)  # decisions 7, 8, 9 are played clearly ahead
    assert m["drama"] == pytest.approx((2 + 5 + 8 + 4) / 10)  # the winner's deficit, averaged over all decisions
    assert m["drama_max"] == 8
    assert m["lead_changes_eval"] == 1  # seat 0 led until decision 4, seat 1 after
    assert m["lead_change_rate"] == pytest.approx(1 / 9)


def test_the_clear_lead_threshold_is_settable_and_a_winner_never_clearly_ahead_scores_zero():
    trace = two(1, 2, 3, 4, 3)
    assert ms.decisiveness(trace, 0) == 0.0  # never more than 5 francs ahead
    assert ms.decisiveness(trace, 0, clear_lead=2.5) == pytest.approx(3 / 5)


def test_level_positions_count_as_a_change_of_the_leaders():
    # leaders: {0}, {0, 1} (level), {1}, {1}, {0}: four different consecutive sets -> 3 changes
    assert ms.lead_changes(two(3, 0, -2, -4, 1)) == 3


def test_three_players_use_the_winner_minus_the_best_other():
    trace = [[-4, 4, -9], [2, -2, -8], [10, -10, -12]]
    m = ms.game_measures(trace, [0])
    assert m is not None
    assert m["drama_max"] == 4 and m["lead_changes_eval"] == 1
    assert m["decisiveness"] == pytest.approx(1 / 3)  # 10 > 5 and > seat 1's best lead (4)


def test_ties_one_player_and_missing_traces_have_no_measures():
    assert ms.game_measures(two(1, 2), [0, 1]) is None
    assert ms.game_measures([[5.0], [6.0]], [0]) is None
    assert ms.game_measures(None, [0]) is None
    assert ms.game_measures([], [0]) is None


def test_lead_curve_averages_each_tenth_of_a_longer_game():
    trace = two(*range(20))
    assert ms.lead_curve(trace, 0) == [0.5, 2.5, 4.5, 6.5, 8.5, 10.5, 12.5, 14.5, 16.5, 18.5]
    assert ms.lead_curve(trace, 1)[0] == -0.5
    short = ms.lead_curve(two(1, 2, 3), 0)
    assert [p for p in short if p is not None] == [1, 2, 3] and short.count(None) == 7


def test_summary_of_measures_counts_untraced_games_and_ties_apart():
    records = [
        {"trace": two(6, 8, 10), "winners": [0]},
        {"trace": two(2, -1, -6), "winners": [1]},
        {"trace": two(1, 1), "winners": [0, 1]},
        {"winners": [0]},  # stored before traces existed
    ]
    s = ms.summarize_measures(records)
    assert (s["traced"], s["measured"]) == (3, 2)
    assert list(s["decisiveness_values"]) == [1.0, pytest.approx(1 / 3)]
    assert s["drama_max"]["max"] == 2
    lo, hi = s["decisiveness"]["ci95"]
    assert 0.0 <= lo <= s["decisiveness"]["mean"] <= hi <= 1.0
    assert s["curve"][0]["n"] == 2


def test_a_proven_win_counts_at_its_true_margin():
    assert pt.search_margin(WIN_BONUS + 12) == 12
    assert pt.search_margin(-WIN_BONUS - 3) == -3
    assert pt.search_margin(7.5) == 7.5


def test_every_decision_of_a_playtest_game_has_one_evaluation():
    job = pt.GameJob(
        "inland", pt.make_config("inland", ["greedy", "ai:easy@nodes=60"]).options, ("greedy", "ai:easy@nodes=60"), 1, 0
    )
    record = pt.play_game(job)
    assert len(record["trace"]) == record["steps"]
    assert all(len(m) == 2 and m[0] == -m[1] for m in record["trace"])
    assert ms.game_measures(record["trace"], record["winners"]) is not None or len(record["winners"]) != 1


def test_a_database_from_before_traces_is_migrated_and_still_readable(tmp_path):
    path = tmp_path / "old.sqlite3"
    db = sqlite3.connect(path)
    db.executescript(
        """
        CREATE TABLE runs (id INTEGER PRIMARY KEY AUTOINCREMENT, created TEXT NOT NULL, label TEXT NOT NULL DEFAULT '',
            rules TEXT NOT NULL, config_key TEXT NOT NULL, config_json TEXT NOT NULL, seed INTEGER NOT NULL,
            games INTEGER NOT NULL);
        CREATE TABLE games (run_id INTEGER NOT NULL REFERENCES runs(id), idx INTEGER NOT NULL, seed INTEGER NOT NULL,
            seats_json TEXT NOT NULL, actions_json TEXT NOT NULL, result_json TEXT NOT NULL, finished TEXT NOT NULL,
            PRIMARY KEY (run_id, idx));
        """
    )
    config = pt.make_config("inland", ["random", "random"])
    db.execute(
        "INSERT INTO runs (created, rules, config_key, config_json, seed, games) VALUES ('x', 'inland', ?, ?, 0, 2)",
        (config.key(), json.dumps(config.to_dict())),
    )
    old = pt.play_game(pt.GameJob("inland", config.options, config.agents, 0, 0))
    result = {k: v for k, v in old.items() if k not in ("actions", "seats", "trace")}
    db.execute(
        "INSERT INTO games VALUES (1, 0, ?, ?, ?, ?, 'x')",
        (old["seed"], json.dumps(old["seats"]), json.dumps(old["actions"]), json.dumps(result)),
    )
    db.commit()
    db.close()
    with pt.Store(path) as store:
        run = pt.execute(store, config, 0, 2, resume=True)  # --resume plays the missing game, with its trace
        assert run.played == 1
        first, second = store.games(run.run_id)
        assert "trace" not in first and len(second["trace"]) == second["steps"]
        summary = pt.summarize_run(store, run.run_id, config)
    assert summary["measures"]["traced"] == 1


def _ludii_lead_change(trace: list[list[float]]) -> tuple[int, float]:
    """Ludii's "Lead Change", as its Evaluation module computes it: at each move the set of leaders is compared
    with the previous move's, starting from an empty set; the count is divided by the number of moves."""
    count, previous = 0, frozenset[int]()
    for margins in trace:
        current = ms.leaders(margins)
        count += current != previous
        previous = current
    return count, count / len(trace)


def _ludii_decisiveness_moves(trace: list[list[float]], winner: int) -> float:
    """Ludii's "Decisiveness Moves": the share of moves before the winner's evaluation first exceeds the best any
    other player reached (1 when it never does)."""
    threshold = max(x for m in trace for s, x in enumerate(m) if s != winner)
    first = next((i for i, m in enumerate(trace) if m[winner] > threshold), len(trace))
    return first / len(trace)


def test_where_the_measures_differ_from_ludii_as_the_docstrings_say():
    """The audit: "lead changes" counts changes over n - 1 comparisons, which is not Ludii's definition though the
    docstring said so.  Ludii counts the first move too and divides by n; decisiveness is one minus Ludii's
    "Decisiveness Moves" (with the clear-lead floor at 0); drama is Ludii's."""
    trace = two(2, 5, 8, 4, -1, -3, -6, -9, -12, -15)
    m = ms.game_measures(trace, [1])
    assert m is not None
    ludii_count, ludii_rate = _ludii_lead_change(trace)
    assert ludii_count == m["lead_changes_eval"] + 1 == 2
    assert ludii_rate == pytest.approx(2 / 10) and m["lead_change_rate"] == pytest.approx(1 / 9)
    assert ms.decisiveness(trace, 1, clear_lead=0.0) == pytest.approx(1 - _ludii_decisiveness_moves(trace, 1))
    # Ludii's drama on evaluations (seat 0 at its margin, seat 1 at 0, which give the trace's margins)
    evaluations = [[mg[0], 0.0] for mg in trace]
    deficits = [max(e) - e[1] for e in evaluations]
    assert m["drama"] == pytest.approx(sum(deficits) / len(deficits)) and m["drama_max"] == max(deficits)
    doc = " ".join((ms.__doc__ or "").split())
    assert "its count is ours plus one" in doc and "Ludii's rate is ``(changes + 1) / n``" in doc
    assert "one minus this" in doc and "``clear_lead`` floor, which Ludii has not" in doc
