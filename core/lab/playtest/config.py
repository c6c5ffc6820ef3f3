"""Playtest configurations: what is played (a game, its options, the agents), checked
as a person typed it, and read from a configuration SPEC (``RULES[:KEY=VALUE;...]``).

The rule set is an installed game's name (:mod:`core.games`) or ``module:ATTR``
naming any :class:`~core.protocol.GameSpec`; the options are its options model,
filled from plain values; the agents are :func:`core.agents.make_agent` specs.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from core.agents import make_agent
from core.games import UnknownGameError, game_spec
from core.protocol import GameError, GameSpec, GameState
from core.records import validation_message


class PlaytestError(GameError):
    """A playtest request that cannot be carried out; the message says why and what is allowed."""


# ---------------------------------------------------------------------------
# Rule sets and their options
# ---------------------------------------------------------------------------

#: the rule sets this process has looked up, by name (a game's spec does not change while a process runs)
_IMPORTED: dict[str, GameSpec] = {}


def count(n: int, word: str) -> str:
    """'1 agent', '2 agents'."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def load_ruleset(rules: str) -> GameSpec:
    """The spec of the game ``rules``: an installed game's name (:mod:`core.games`),
    or ``package.module:ATTR`` naming a :class:`GameSpec` that is not installed
    (worker processes import it by that name).  Each is looked up once a process: finding an installed
    game reads every installed package's entry points (milliseconds, about a random game's length)."""
    if rules in _IMPORTED:
        return _IMPORTED[rules]
    if ":" not in rules:
        try:
            _IMPORTED[rules] = game_spec(rules)
        except UnknownGameError as exc:
            raise PlaytestError(str(exc)) from None
        return _IMPORTED[rules]
    module_name, _, attr = rules.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise PlaytestError(f"the rule set '{rules}' is not available: cannot import {module_name} ({exc})") from None
    spec = getattr(module, attr, None)
    if not isinstance(spec, GameSpec):
        raise PlaytestError(f"the rule set '{rules}' is not available: {module_name} has no GameSpec named {attr}")
    _IMPORTED[rules] = spec
    return spec


#: generic option names and the field names rule modules may use for them
_ALIASES = {
    "players": ("players", "num_players", "player_count", "n_players"),
    "short": ("short", "short_game"),
    "buildings": ("buildings", "buildings_file", "building_file", "buildings_path"),
}


def _field_for(fields: dict[str, Any], key: str) -> str | None:
    for name in _ALIASES.get(key, (key,)):
        if name in fields:
            return name
    return None


def build_options(rules: str, values: dict[str, Any]) -> BaseModel | None:
    """Validate plain option values (``players``, ``short``, ``buildings``, variant flags) for ``rules``.

    Keys are matched to the options model's fields (``players`` also as
    ``num_players`` and so on; ``short`` also as ``version=short``); a key the
    model does not have goes into its ``variants`` mapping if it has one,
    otherwise it is refused with the list of allowed names.
    """
    model = load_ruleset(rules).options_model
    values = {k: v for k, v in values.items() if v is not None}
    fields = model.model_fields
    data: dict[str, Any] = {}
    unknown: list[str] = []
    for key, value in values.items():
        if key == "variants":
            for vk, vv in dict(value).items():
                _put_variant(fields, data, vk, vv, unknown)
            continue
        name = _field_for(fields, key)
        if name is not None:
            data[name] = value
        elif key == "short" and "version" in fields:
            data["version"] = "short" if value else "full"
        elif key in _ALIASES:
            if key == "short" and not value:
                continue
            if key == "players":
                continue  # a fixed player count: checked against the game itself
            unknown.append(key)
        else:
            _put_variant(fields, data, key, value, unknown)
    if unknown:
        allowed = ", ".join(sorted(n for n in fields if n != "variants")) or "none"
        raise PlaytestError(
            f"the rule set '{rules}' has no option {', '.join(repr(u) for u in unknown)} (allowed: {allowed})"
        )
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise PlaytestError(f"bad options for '{rules}': {validation_message(exc)}") from None


def _put_variant(fields: dict[str, Any], data: dict[str, Any], key: str, value: Any, unknown: list[str]) -> None:
    if key in fields:
        data[key] = value
    elif "variants" in fields:
        data.setdefault("variants", {})[key] = value
    else:
        unknown.append(key)


def options_to_json(options: BaseModel | None) -> dict[str, Any]:
    return {} if options is None else options.model_dump(mode="json")


def new_game(rules: str, options_json: dict[str, Any], seed: int) -> GameState:
    """Set up one game from a stored configuration."""
    ruleset = load_ruleset(rules)
    return ruleset.new_game(seed, ruleset.options_model.model_validate(options_json))


# ---------------------------------------------------------------------------
# Configurations
# ---------------------------------------------------------------------------


@dataclass
class Config:
    """What is played: rule set, validated options (as JSON values) and agents.

    ``noise`` (``--noise``) is given to every ``ai`` agent (none carries its own ``~X``).
    """

    rules: str
    agents: tuple[str, ...]
    options: dict[str, Any] = field(default_factory=dict)
    label: str = ""
    noise: float | None = None

    @property
    def players(self) -> int:
        return len(self.agents)

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "rules": self.rules,
            "agents": list(self.agents),
            "options": self.options,
            "label": self.label,
        }
        if self.noise is not None:
            d["noise"] = self.noise
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Config:
        return cls(
            rules=d["rules"],
            agents=tuple(d["agents"]),
            options=dict(d.get("options") or {}),
            label=d.get("label", ""),
            noise=d.get("noise"),
        )

    def key(self) -> str:
        """Identity of the configuration (label excluded): equal configurations resume each other."""
        what: dict[str, Any] = {"rules": self.rules, "agents": list(self.agents), "options": self.options}
        if self.noise is not None:
            what["noise"] = self.noise
        text = json.dumps(what, sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()[:24]

    def describe(self) -> str:
        if self.label:
            return self.label
        defaults = _default_options(self.rules)
        opts = ", ".join(
            f"{k}={_short_value(v)}"
            for k, v in sorted(self.options.items())
            if v not in (None, {}, []) and (k in _ALIASES["players"] or defaults.get(k, object()) != v)
        )
        noise = f" noise {self.noise:g}" if self.noise is not None else ""
        return f"{self.rules} [{','.join(self.agents)}]{noise}" + (f" ({opts})" if opts else "")


def _default_options(rules: str) -> dict[str, Any]:
    try:
        return load_ruleset(rules).options_model().model_dump(mode="json")
    except (GameError, ValidationError):
        return {}


def _short_value(v: Any) -> str:
    if isinstance(v, str) and ("/" in v or "\\" in v):
        return Path(v).name
    return str(v)


def _check_player_count(rules: str, players: int) -> None:
    """``players`` must be a number of players the game is made for; the message says which are."""
    spec = load_ruleset(rules)
    if spec.min_players <= players <= spec.max_players:
        return
    made_for = (
        f"{spec.min_players} players"
        if spec.min_players == spec.max_players
        else f"{spec.min_players} to {spec.max_players} players"
    )
    raise PlaytestError(f"{spec.title} is for {made_for}, not {players}")


def make_config(
    rules: str,
    agents: Sequence[str],
    players: int | None = None,
    short: bool | None = None,
    buildings: str | Path | None = None,
    variants: dict[str, Any] | None = None,
    label: str = "",
    noise: float | None = None,
) -> Config:
    """Check everything a person typed and return a :class:`Config` ready to play.

    Agent specs must be known, their number must equal the number of players,
    the options must validate and a first game must set up with that many seats;
    ``noise`` goes to every ``ai`` agent (an agent with its own ``~X`` is refused with it).
    """
    agents = tuple(a.strip() for a in agents if a.strip())
    if not agents:
        raise PlaytestError("no agents given (e.g. --agents random,greedy)")
    for spec in agents:
        make_agent(spec, 0, load_ruleset(rules), noise=noise)
    if players is not None:
        _check_player_count(rules, players)
    if players is not None and players != len(agents):
        raise PlaytestError(
            f"--players {players} needs {count(players, 'agent')}, one per seat; got {len(agents)} ({','.join(agents)})"
        )
    if buildings is not None:
        path = Path(buildings).expanduser()
        if not path.is_file():
            raise PlaytestError(f"building file '{buildings}' does not exist or is not a file")
        buildings = str(path.resolve())
    values: dict[str, Any] = {"players": len(agents), "buildings": buildings, "variants": variants or {}}
    if short:
        values["short"] = True
    options = build_options(rules, values)
    config = Config(rules=rules, agents=agents, options=options_to_json(options), label=label, noise=noise)
    try:
        state = new_game(rules, config.options, 0)
    except GameError as exc:
        raise PlaytestError(f"cannot set up '{rules}' with these options: {exc}") from None
    if state.num_players != len(agents):
        raise PlaytestError(
            f"the rule set '{rules}' is played by {count(state.num_players, 'player')} here, but "
            f"{count(len(agents), 'agent')} {'was' if len(agents) == 1 else 'were'} given ({','.join(agents)}); "
            "give one agent per seat"
        )
    return config


# ---------------------------------------------------------------------------
# Configuration specs: RULES[:KEY=VALUE;KEY=VALUE...]
# ---------------------------------------------------------------------------

SPEC_HELP = (
    "A configuration SPEC is RULES[:KEY=VALUE;KEY=VALUE...] with RULES 'inland' or 'base' and keys "
    "agents=A,B[,...] (one per seat), players=K, short (or short=yes), buildings=FILE, label=TEXT; "
    "any other KEY=VALUE is a variant flag of the rule set. Quote it in the shell because of ';'. "
    "Example: 'inland:agents=greedy,greedy;buildings=my.json' or 'base:players=2;short;agents=ai,ai'."
)

_SPEC_RE = re.compile(r"^\s*(?P<rules>inland|base|[A-Za-z_][\w.]*:[A-Za-z_]\w*)\s*(?::(?P<rest>.*))?$", re.S)
_TRUE = {"", "1", "yes", "y", "true", "on"}
_FALSE = {"0", "no", "n", "false", "off"}


def parse_spec(text: str, default_agents: Sequence[str] | None = None) -> Config:
    """Turn a configuration SPEC (see :data:`SPEC_HELP`) into a checked :class:`Config`."""
    m = _SPEC_RE.match(text or "")
    if m is None:
        raise PlaytestError(
            f"cannot read the configuration '{text}': it must start with 'inland' or 'base'. {SPEC_HELP}"
        )
    rules, rest = m.group("rules"), (m.group("rest") or "").strip()
    agents: list[str] | None = list(default_agents) if default_agents else None
    players: int | None = None
    short: bool | None = None
    buildings: str | None = None
    label = ""
    variants: dict[str, str] = {}
    for part in (p.strip() for p in rest.split(";")):
        if not part:
            continue
        key, eq, value = part.partition("=")
        key, value = key.strip().lower(), value.strip()
        if key == "agents":
            agents = [a.strip() for a in value.split(",") if a.strip()]
        elif key == "players":
            if not value.isdigit():
                raise PlaytestError(f"in '{text}': players must be a whole number, got '{value}'")
            players = int(value)
        elif key == "short":
            if value.lower() not in _TRUE | _FALSE:
                raise PlaytestError(f"in '{text}': short takes yes or no, got '{value}'")
            short = value.lower() in _TRUE
        elif key == "buildings":
            buildings = value
        elif key == "label":
            label = value
        elif eq and key:
            variants[key] = value
        else:
            raise PlaytestError(f"in '{text}': '{part}' is not KEY=VALUE. {SPEC_HELP}")
    if not agents:
        raise PlaytestError(f"in '{text}': no agents (add e.g. agents=greedy,greedy)")
    if players is None and agents and len(agents) == 1:
        agents = agents * 2
    return make_config(rules, agents, players=players, short=short, buildings=buildings, variants=variants, label=label)
