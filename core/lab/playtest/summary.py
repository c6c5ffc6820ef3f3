"""Summaries of playtest runs (win rates with intervals, wealth, margins, lengths,
buildings) and comparisons of two runs with significance tests (:mod:`core.lab.stats`).
"""

from __future__ import annotations

import hashlib
import json
import statistics
from array import array
from collections.abc import Iterable, Sequence
from typing import Any

from core.lab import measures, stats
from core.lab.playtest.config import Config, load_ruleset
from core.lab.playtest.store import Store


def _agent_labels(agents: Sequence[str]) -> list[str]:
    if len(set(agents)) == len(agents):
        return list(agents)
    return [f"{a}#{i + 1}" for i, a in enumerate(agents)]


def _rate(k: int, n: int) -> dict[str, Any]:
    lo, hi = stats.wilson_interval(k, n)
    return {"count": k, "n": n, "rate": k / n if n else 0.0, "ci": [lo, hi]}


def summarize(
    config: Config, records: Iterable[dict[str, Any]], clear_lead: float = measures.CLEAR_LEAD
) -> dict[str, Any]:
    """Everything the tables and the report show about one configuration, in one pass over ``records``.

    ``records`` may be a stream (:meth:`~core.lab.playtest.store.Store.iter_games`): only one game is held
    at a time, beside counts and the per-game numbers the quantiles and tests need (:class:`Tally`).
    ``measures`` holds the designer's measures of :mod:`core.lab.measures`
    (``clear_lead``: its decisiveness threshold in francs).  Every building
    entry names its ``game`` (the rule set), so rows of two games that share a
    building name stay apart (:func:`building_keys`).
    """
    tally = Tally(config.players, clear_lead)
    for record in records:
        tally.add(record)
    return tally.summary(config)


def summarize_run(
    store: Store, run_id: int, config: Config, games: int | None = None, clear_lead: float = measures.CLEAR_LEAD
) -> dict[str, Any]:
    """:func:`summarize` of a stored run's first ``games`` games, read from ``store`` one game at a time."""
    return summarize(config, store.iter_games(run_id, limit=games), clear_lead)


class Tally:
    """A run's summary as its games are read: counts, building counts, and each per-game number once.

    The numbers a quantile or a test between runs needs (final wealth, margins, lengths, ...) are kept
    as machine arrays (8 bytes a number); every game's actions only as a 16-byte digest, to count the
    distinct games.
    """

    def __init__(self, players: int, clear_lead: float = measures.CLEAR_LEAD) -> None:
        self.k = players
        self.n = 0
        self.seat_wins = [0] * players
        self.agent_wins = [0] * players
        self.ties = 0
        self.digests: set[bytes] = set()
        #: every player's final wealth, each winner's, each game's winning margin, length, lead changes
        self.ints: dict[str, array[int]] = {key: array("q") for key in _INT_SAMPLES}
        #: each game's mean final wealth and its seconds
        self.floats: dict[str, array[float]] = {key: array("d") for key in _FLOAT_SAMPLES}
        self.buildings: dict[str, dict[str, int]] = {}
        self.tallies = SeatTallies(players)
        self.measures = measures.MeasureTally(clear_lead)

    def add(self, r: dict[str, Any]) -> None:
        """Count one game's record."""
        self.n += 1
        winners = r["winners"]
        if len(winners) == 1:
            self.seat_wins[winners[0]] += 1
            self.agent_wins[r["seat_agents"][winners[0]]] += 1
        else:
            self.ties += 1
        if "actions" in r:
            text = json.dumps(r["actions"], separators=(",", ":"))
            self.digests.add(hashlib.blake2b(text.encode(), digest_size=16).digest())
        self._numbers(r)
        _count_buildings(self.buildings, r, self.k)
        self.tallies.add(r)
        self.measures.add(r)

    def _numbers(self, r: dict[str, Any]) -> None:
        w = r["wealth"]
        self.ints["wealth"].extend(w)
        self.floats["wealth_game_mean"].append(statistics.fmean(w))
        ordered = sorted(w, reverse=True)
        self.ints["winner_wealth"].append(ordered[0])
        self.ints["margin"].append(ordered[0] - ordered[1] if len(ordered) > 1 else 0)
        self.ints["actions"].append(r["main_actions"])
        self.floats["seconds"].append(r["seconds"])
        self.ints["lead_changes"].append(r["lead_changes"])

    def summary(self, config: Config) -> dict[str, Any]:
        """The summary of the games counted so far (see :func:`summarize`)."""
        n, k = self.n, self.k
        labels = _agent_labels(config.agents)
        game = _game_of(config.rules)
        samples: dict[str, Sequence[float]] = {**self.ints, **self.floats}
        return {
            "label": config.describe(),
            "config": config.to_dict(),
            "game": game,
            "games": n,
            #: games whose actions differ from every other game's: the intervals assume independent games
            "distinct_games": len(self.digests),
            "players": k,
            "seats": [{"seat": s, **_rate(self.seat_wins[s], n)} for s in range(k)],
            "ties": _rate(self.ties, n),
            "first_seat": _first_seat(self.seat_wins[0], n - self.ties, k),
            "agents": [
                {"agent": labels[i], "spec": config.agents[i], **_rate(self.agent_wins[i], n)} for i in range(k)
            ],
            "wealth": stats.describe(samples["wealth"]),
            "wealth_values": samples["wealth"],
            "wealth_game_mean": samples["wealth_game_mean"],
            "winner_wealth": stats.describe(samples["winner_wealth"]),
            **_described(samples, "margin", "actions", "seconds", "lead_changes"),
            "buildings": {name: {"game": game["rules"], **e} for name, e in sorted(self.buildings.items())},
            "measures": self.measures.summary(),
            **({"tallies": self.tallies.summary(labels)} if self.tallies.counts else {}),
        }


class SeatTallies:
    """The game's per-seat tallies (a record's ``tallies``: the base game's loans taken) counted by agent as
    games are read: per tally and agent, how many were taken, in how many games, and how many of those
    games the agent did not win."""

    def __init__(self, players: int) -> None:
        self.k = players
        self.n = 0
        #: tally -> per agent (index into the run's agents) [taken, games taken in, those games not won]
        self.counts: dict[str, list[list[int]]] = {}

    def add(self, r: dict[str, Any]) -> None:
        """Count one game's record (one without ``tallies`` counts as a game with none)."""
        self.n += 1
        winners = r["winners"]
        for name, rises in r.get("tallies", {}).items():
            counts = self.counts.setdefault(name, [[0, 0, 0] for _ in range(self.k)])
            for seat, rise in enumerate(rises):
                if rise:
                    c = counts[r["seat_agents"][seat]]
                    c[0] += rise
                    c[1] += 1
                    c[2] += seat not in winners

    def summary(self, labels: Sequence[str]) -> dict[str, list[dict[str, Any]]]:
        """Per tally, per agent (named by ``labels``): the total, per game, games with any, their share and
        how many of them the agent did not win."""
        n = max(1, self.n)
        return {
            name: [
                {
                    "agent": labels[i],
                    "total": total,
                    "per_game": total / n,
                    "games": games,
                    "share_of_games": games / n,
                    "lost_games": lost,
                }
                for i, (total, games, lost) in enumerate(counts)
            ]
            for name, counts in sorted(self.counts.items())
        }


def _described(samples: dict[str, Sequence[float]], *keys: str) -> dict[str, Any]:
    """Each sample's description under its key, and the sample itself under ``KEY_values``."""
    return {
        name: value
        for key in keys
        for name, value in ((key, stats.describe(samples[key])), (f"{key}_values", samples[key]))
    }


#: the per-game numbers a summary keeps, whole numbers and not
_INT_SAMPLES = ("wealth", "winner_wealth", "margin", "actions", "lead_changes")
_FLOAT_SAMPLES = ("wealth_game_mean", "seconds")


def _count_buildings(buildings: dict[str, dict[str, int]], r: dict[str, Any], k: int) -> None:
    """Count one game in ``buildings``: per building, games built or bought in, builds, buys, uses, games
    used in, games owned at the end, and games its owner won (counted only in games not tied by all ``k``)."""

    def entry(name: str) -> dict[str, int]:
        return buildings.setdefault(
            name,
            {"built_games": 0, "builds": 0, "buys": 0, "uses": 0, "used_games": 0, "owned_games": 0, "winner_owned": 0},
        )  # the game is added by the summary

    winners = r["winners"]
    built: set[str] = set()
    used: set[str] = set()
    for verb, name, _seat in r["buildings"]:
        e = entry(name)
        if verb == "use":
            e["uses"] += 1
            used.add(name)
        else:
            e["builds" if verb == "build" else "buys"] += 1
            built.add(name)
    for name in built:
        entry(name)["built_games"] += 1
    for name in used:
        entry(name)["used_games"] += 1
    for name, owner in r["owners"].items():
        e = entry(name)
        e["owned_games"] += 1
        if owner in winners and len(winners) < k:
            e["winner_owned"] += 1


def _first_seat(first_wins: int, decisive: int, k: int) -> dict[str, Any]:
    """The first seat's share of the decisive games, its interval, and the exact binomial test against 1/k."""
    first = (
        stats.binomial_test(first_wins, decisive, 1.0 / k)
        if k > 1
        else stats.TestResult("exact binomial test", 0.0, 1.0)
    )
    first_ci = stats.wilson_interval(first_wins, decisive)
    return {
        "share_of_decisive": first_wins / decisive if decisive else 0.0,
        "decisive": decisive,
        "expected": 1.0 / k,
        "ci": [first_ci[0], first_ci[1]],
        **first.to_dict(),
    }


def _game_of(rules: str) -> dict[str, str]:
    """The rule set a summary is about: its name as configured and the game's short title."""
    return {"rules": rules, "title": load_ruleset(rules).label}


def building_keys(summaries: Sequence[dict[str, Any]]) -> list[tuple[str, str]]:
    """Every (rule set, building) row of ``summaries``, the most often built first.

    Two games may name a building alike (the Marketplace of the base game is
    not the Inland Port's): each is a row of its own.
    """
    keys = {(s["game"]["rules"], n) for s in summaries for n in s["buildings"]}

    def built(key: tuple[str, str]) -> float:
        return float(
            sum(e["built_games"] / max(1, s["games"]) for s in summaries if (e := building_entry(s, key)) is not None)
        )

    return sorted(keys, key=lambda key: (-built(key), key[1], key[0]))


def building_entry(summary: dict[str, Any], key: tuple[str, str]) -> dict[str, Any] | None:
    """The summary's figures for the building ``key`` (None when it is another game's or never seen)."""
    rules, name = key
    if summary["game"]["rules"] != rules:
        return None
    entry: dict[str, Any] | None = summary["buildings"].get(name)
    return entry


def building_label(key: tuple[str, str], summaries: Sequence[dict[str, Any]]) -> str:
    """A building row's name, with its game's title when the summaries are of different games."""
    games = {s["game"]["rules"]: s["game"]["title"] for s in summaries}
    return key[1] if len(games) < 2 else f"{key[1]} ({games[key[0]]})"


def _numeric_tests(what: str, a: Sequence[float], b: Sequence[float]) -> list[dict[str, Any]]:
    ma = statistics.fmean(a) if a else float("nan")
    mb = statistics.fmean(b) if b else float("nan")
    mda = statistics.median(a) if a else float("nan")
    mdb = statistics.median(b) if b else float("nan")
    return [
        {"what": what, "measure": "mean", "a": ma, "b": mb, "diff": mb - ma, **stats.welch_t_test(b, a).to_dict()},
        {
            "what": what,
            "measure": "median",
            "a": mda,
            "b": mdb,
            "diff": mdb - mda,
            **stats.mann_whitney_u(b, a).to_dict(),
        },
    ]


def _rate_test(what: str, ka: int, na: int, kb: int, nb: int) -> dict[str, Any]:
    ra = ka / na if na else 0.0
    rb = kb / nb if nb else 0.0
    return {
        "what": what,
        "measure": "rate",
        "a": ra,
        "b": rb,
        "diff": rb - ra,
        **stats.two_proportion_z_test(kb, nb, ka, na).to_dict(),
    }


def compare(a: dict[str, Any], b: dict[str, Any]) -> list[dict[str, Any]]:
    """Tests of every difference between two summaries (B minus A), each with its test, its raw p-value
    and its p-value adjusted by Holm's step-down correction over all the tests returned
    (:func:`core.lab.stats.control_family`); ``significant`` is decided on the adjusted one.

    Rates: two-proportion z-test.  Numbers: Welch t-test on the mean and
    Mann-Whitney U on the distribution (reported with the medians).  Wealth is
    tested on each game's mean final wealth (one value per game, so the
    samples are independent).  Statistics are signed as B minus A.
    """
    tests: list[dict[str, Any]] = []
    na, nb = a["games"], b["games"]
    for s in range(min(a["players"], b["players"])):
        tests.append(_rate_test(f"seat {s + 1} wins", a["seats"][s]["count"], na, b["seats"][s]["count"], nb))
    tests.append(_rate_test("ties", a["ties"]["count"], na, b["ties"]["count"], nb))
    # agents by name, when each configuration has distinct agents (copies of one agent differ only by seat)
    agents_b = {x["agent"]: x for x in b["agents"]}
    distinct = all(len({x["spec"] for x in s["agents"]}) == len(s["agents"]) for s in (a, b))
    for x in a["agents"] if distinct else []:
        if x["agent"] in agents_b:
            tests.append(_rate_test(f"{x['agent']} wins", x["count"], na, agents_b[x["agent"]]["count"], nb))
    tests += _numeric_tests("wealth (game mean)", a["wealth_game_mean"], b["wealth_game_mean"])
    tests += _numeric_tests("winning margin", a["margin_values"], b["margin_values"])
    tests += _numeric_tests("length (actions)", a["actions_values"], b["actions_values"])
    tests += _numeric_tests("lead changes", a["lead_changes_values"], b["lead_changes_values"])
    tests.append(
        {
            "what": "length (seconds)",
            "measure": "mean",
            "a": a["seconds"]["mean"],
            "b": b["seconds"]["mean"],
            "diff": (b["seconds"]["mean"] or 0) - (a["seconds"]["mean"] or 0),
            **stats.welch_t_test(b["seconds_values"], a["seconds_values"]).to_dict(),
        }
    )
    tests += _measure_tests(a, b)
    for key in sorted(set(building_keys([a])) & set(building_keys([b]))):
        ea, eb = building_entry(a, key), building_entry(b, key)
        if ea is None or eb is None:
            continue  # a building in only one rule set: nothing to compare
        tests.append(_rate_test(f"{key[1]}: built", ea["built_games"], na, eb["built_games"], nb))
    return stats.control_family(tests)


def _measure_tests(a: dict[str, Any], b: dict[str, Any]) -> list[dict[str, Any]]:
    """Tests of the designer's measures (:mod:`core.lab.measures`) where both runs have traced games."""
    ma, mb = a.get("measures") or {}, b.get("measures") or {}
    if not ma.get("measured") or not mb.get("measured"):
        return []
    tests: list[dict[str, Any]] = []
    for key, what in MEASURE_NAMES.items():
        tests += _numeric_tests(what, ma[f"{key}_values"], mb[f"{key}_values"])
    return tests


#: the designer's measures by key, as tables name them
MEASURE_NAMES = {
    "decisiveness": "decisiveness",
    "drama": "drama (francs behind)",
    "drama_max": "drama, deepest (francs)",
    "lead_changes_eval": "lead changes (evaluation)",
    "lead_change_rate": "lead changes per decision",
}


def records_table(records: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per-game results for ``--json`` (by game index)."""
    return sorted((dict(r) for r in records), key=lambda r: r["index"])
