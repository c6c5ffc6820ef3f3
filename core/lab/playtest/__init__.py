"""Playtesting: many games between agents, stored as they finish, then summarised.

Generic over :mod:`core.protocol`: a configuration names a game (an
installed game's name from :mod:`core.games`, ``inland`` or ``base``, or
``module:ATTR`` naming any :class:`~core.protocol.GameSpec`), the options for
its ``new_game`` (its options model, filled from plain values) and the agents (:func:`core.agents.make_agent`
specs).  Game ``i`` of a run with seed ``S``

* is set up with the seed :func:`game_seed` ``(S, i)``,
* seats the agent list rotated by ``i`` (seat ``s`` gets agent ``(s + i) mod K``),
* gives the agent in seat ``s`` the table's seed for that seat (:func:`core.table.seat_agent`),

so its result depends on nothing but (configuration, ``S``, ``i``): the same
for one process, ``J`` processes or a Dask cluster.

Results are stored one game at a time in SQLite (:class:`Store`), so an
interrupted run keeps every finished game and ``resume`` plays only the rest.

Where each part lives:

* :mod:`core.lab.playtest.config`: what is played (rule set, options, agents),
  checked as typed, and parsed from a configuration SPEC;
* :mod:`core.lab.playtest.game`: one game (its seeds, its job, its record);
* :mod:`core.lab.playtest.backends`: one process, ``J`` processes, or Dask;
* :mod:`core.lab.playtest.store`: the SQLite results database;
* :mod:`core.lab.playtest.runner`: a run (the plan, resuming, progress, Ctrl-C);
* :mod:`core.lab.playtest.summary`: summaries (streamed from the store) and comparisons of runs.

Every public name is importable from ``core.lab.playtest`` itself.
"""

from core.lab.playtest.backends import run_dask, run_jobs, run_local
from core.lab.playtest.config import (
    SPEC_HELP,
    Config,
    PlaytestError,
    build_options,
    load_ruleset,
    make_config,
    new_game,
    options_to_json,
    parse_spec,
)
from core.lab.playtest.game import (
    GameJob,
    decision_margins,
    game_seed,
    play_game,
    result_fingerprint,
    search_margin,
    seat_order,
)
from core.lab.playtest.runner import RunResult, execute, load_run, plan_jobs, plan_run
from core.lab.playtest.store import RunInfo, Store
from core.lab.playtest.summary import (
    MEASURE_NAMES,
    Tally,
    building_entry,
    building_keys,
    building_label,
    compare,
    records_table,
    summarize,
    summarize_run,
)

__all__ = [
    "MEASURE_NAMES",
    "SPEC_HELP",
    "Config",
    "GameJob",
    "PlaytestError",
    "RunInfo",
    "RunResult",
    "Store",
    "Tally",
    "build_options",
    "building_entry",
    "building_keys",
    "building_label",
    "compare",
    "decision_margins",
    "execute",
    "game_seed",
    "load_ruleset",
    "load_run",
    "make_config",
    "new_game",
    "options_to_json",
    "parse_spec",
    "plan_jobs",
    "plan_run",
    "play_game",
    "records_table",
    "result_fingerprint",
    "run_dask",
    "run_jobs",
    "run_local",
    "search_margin",
    "seat_order",
    "summarize",
    "summarize_run",
]
