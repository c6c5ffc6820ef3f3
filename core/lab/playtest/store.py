"""The playtest results database: runs and their finished games in one SQLite file,
each game committed as it arrives (an interrupted run keeps every finished game).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from core.lab.playtest.config import Config, PlaytestError

_SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    created TEXT NOT NULL,
    label TEXT NOT NULL DEFAULT '',
    rules TEXT NOT NULL,
    config_key TEXT NOT NULL,
    config_json TEXT NOT NULL,
    seed INTEGER NOT NULL,
    games INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS games (
    run_id INTEGER NOT NULL REFERENCES runs(id),
    idx INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    seats_json TEXT NOT NULL,
    actions_json TEXT NOT NULL,
    result_json TEXT NOT NULL,
    finished TEXT NOT NULL,
    trace_json TEXT,
    PRIMARY KEY (run_id, idx)
);
CREATE INDEX IF NOT EXISTS runs_by_config ON runs(config_key, seed);
"""


@dataclass
class RunInfo:
    id: int
    created: str
    config: Config
    seed: int
    games: int
    stored: int


class Store:
    """Runs and their finished games in one SQLite file; each game is committed as it arrives."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path).expanduser()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.db = sqlite3.connect(self.path, timeout=30)
            self.db.executescript(_SCHEMA)
            self._migrate()
            self.db.commit()
        except (sqlite3.DatabaseError, OSError) as exc:
            raise PlaytestError(f"cannot use '{self.path}' as the results database: {exc}") from None

    def _migrate(self) -> None:
        """Bring a database written by an older version up to this schema; its games stay readable.

        Games stored before evaluation traces existed keep ``trace_json`` NULL:
        their records have no ``trace`` and their measures say so.
        """
        columns = {str(row[1]) for row in self.db.execute("PRAGMA table_info(games)")}
        if "trace_json" not in columns:
            self.db.execute("ALTER TABLE games ADD COLUMN trace_json TEXT")

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def create_run(self, config: Config, seed: int, games: int) -> int:
        cur = self.db.execute(
            "INSERT INTO runs (created, label, rules, config_key, config_json, seed, games) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (
                datetime.now(UTC).isoformat(timespec="seconds"),
                config.label,
                config.rules,
                config.key(),
                json.dumps(config.to_dict(), sort_keys=True),
                seed,
                games,
            ),
        )
        self.db.commit()
        if cur.lastrowid is None:
            raise AssertionError("INSERT INTO runs gave no row id")
        return cur.lastrowid

    def set_games(self, run_id: int, games: int) -> None:
        self.db.execute("UPDATE runs SET games = MAX(games, ?) WHERE id = ?", (games, run_id))
        self.db.commit()

    def find_run(self, config: Config, seed: int) -> int | None:
        """The latest run with this configuration and seed."""
        row = self.db.execute(
            "SELECT id FROM runs WHERE config_key = ? AND seed = ? ORDER BY id DESC LIMIT 1", (config.key(), seed)
        ).fetchone()
        return None if row is None else int(row[0])

    def run(self, run_id: int) -> RunInfo:
        row = self.db.execute(
            "SELECT id, created, config_json, seed, games FROM runs WHERE id = ?", (run_id,)
        ).fetchone()
        if row is None:
            raise PlaytestError(f"no run {run_id} in '{self.path}' (see: lehavre compare --list-runs)")
        stored = self.db.execute("SELECT COUNT(*) FROM games WHERE run_id = ?", (run_id,)).fetchone()[0]
        return RunInfo(int(row[0]), row[1], Config.from_dict(json.loads(row[2])), int(row[3]), int(row[4]), int(stored))

    def runs(self) -> list[RunInfo]:
        ids = [int(r[0]) for r in self.db.execute("SELECT id FROM runs ORDER BY id")]
        return [self.run(i) for i in ids]

    def done(self, run_id: int) -> Iterator[int]:
        """The indices of the run's stored games, one at a time."""
        for row in self.db.execute("SELECT idx FROM games WHERE run_id = ?", (run_id,)):
            yield int(row[0])

    def add_game(self, run_id: int, record: dict[str, Any]) -> None:
        result = {k: v for k, v in record.items() if k not in ("actions", "seats", "trace")}
        trace = record.get("trace")
        self.db.execute(
            "INSERT OR IGNORE INTO games (run_id, idx, seed, seats_json, actions_json, result_json, finished, trace_json)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                run_id,
                record["index"],
                record["seed"],
                json.dumps(record["seats"]),
                json.dumps(record["actions"]),
                json.dumps(result, sort_keys=True),
                datetime.now(UTC).isoformat(timespec="seconds"),
                None if trace is None else json.dumps(trace, separators=(",", ":")),
            ),
        )
        self.db.commit()

    def count(self, run_id: int, limit: int | None = None) -> int:
        """How many games of the run are stored (among the first ``limit`` indices if given)."""
        row = self.db.execute(
            "SELECT COUNT(*) FROM games WHERE run_id = ? AND idx < ?", (run_id, _below(limit))
        ).fetchone()
        return int(row[0])

    def iter_games(self, run_id: int, limit: int | None = None, first: int = 0) -> Iterator[dict[str, Any]]:
        """Stored records of a run, by game index (indices ``first`` to ``limit - 1`` if given), one at a time.

        Only the record being read is held: a run of any size streams through in constant memory.
        """
        rows = self.db.execute(
            "SELECT idx, seats_json, actions_json, result_json, trace_json FROM games"
            " WHERE run_id = ? AND idx >= ? AND idx < ? ORDER BY idx",
            (run_id, first, _below(limit)),
        )
        for _idx, seats, actions, result, trace in rows:
            record: dict[str, Any] = json.loads(result)
            record["seats"] = json.loads(seats)
            record["actions"] = json.loads(actions)
            if trace is not None:
                record["trace"] = json.loads(trace)
            yield record

    def game(self, run_id: int, index: int) -> dict[str, Any] | None:
        """The stored record of game ``index`` of the run (None if it is not stored)."""
        return next(self.iter_games(run_id, limit=index + 1, first=index), None)

    def games(self, run_id: int, limit: int | None = None) -> list[dict[str, Any]]:
        """Stored records of a run, by game index (the first ``limit`` indices if given), as one list."""
        return list(self.iter_games(run_id, limit))


def _below(limit: int | None) -> int:
    """The first game index not wanted: SQLite's largest integer when every game is."""
    return (1 << 63) - 1 if limit is None else limit
