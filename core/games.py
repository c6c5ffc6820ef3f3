"""The one place that knows which games exist: their :class:`~core.protocol.GameSpec`.

A rule module declares its game once, as ``RULESET`` (see :mod:`core.protocol`),
and is listed as an entry point of the group ``lehavre.games`` in
``pyproject.toml``::

    [project.entry-points."lehavre.games"]
    inland = "inland_port:RULESET"

Every table that needs "the games" -- records, playtest, agents, replay, the
rules reference, the CLI's commands -- asks this module, so nothing depends on
which module happened to be imported first, and ``core`` imports no game.  A
game that is not installed (a test's toy game, a plug-in being written) is
added with :func:`register_game`.
"""

from __future__ import annotations

from importlib.metadata import EntryPoint, entry_points

from core.protocol import GameError, GameSpec

#: the entry-point group listing the installed games
ENTRY_POINT_GROUP = "lehavre.games"

_loaded: dict[str, GameSpec] = {}
_registered: dict[str, GameSpec] = {}


class UnknownGameError(GameError):
    """A game name that is not installed; the message lists the known ones."""


def _entry_points() -> dict[str, EntryPoint]:
    return {ep.name: ep for ep in entry_points(group=ENTRY_POINT_GROUP)}


def _load(ep: EntryPoint) -> GameSpec:
    if ep.name in _loaded:
        return _loaded[ep.name]
    try:
        spec = ep.load()
    except ImportError as exc:
        raise UnknownGameError(f"the rule set '{ep.name}' is installed but cannot be loaded ({exc})") from None
    if not isinstance(spec, GameSpec) or spec.name != ep.name:
        raise UnknownGameError(f"the game '{ep.name}' ({ep.value}) is not a GameSpec named '{ep.name}'")
    _loaded[ep.name] = spec
    return spec


def game_names() -> list[str]:
    """The names of every known game, sorted (installed and registered)."""
    return sorted(set(_entry_points()) | set(_registered))


def installed_games() -> list[GameSpec]:
    """The installed games' specs (entry points only), in name order."""
    eps = _entry_points()
    return [_load(eps[name]) for name in sorted(eps)]


def game_spec(name: str | GameSpec) -> GameSpec:
    """The spec of the game ``name``; :class:`UnknownGameError` lists the known names."""
    if isinstance(name, GameSpec):
        return name
    if name in _registered:
        return _registered[name]
    ep = _entry_points().get(name)
    if ep is None:
        known = ", ".join(game_names()) or "none (is lehavre installed? 'pip install -e .')"
        raise UnknownGameError(f"unknown rule set '{name}' (known: {known})")
    return _load(ep)


def register_game(spec: GameSpec) -> None:
    """Make a game that is not installed known (tests, plug-ins under development)."""
    if spec.name in _entry_points():
        raise GameError(f"the game '{spec.name}' is already installed; choose another name")
    _registered[spec.name] = spec


def unregister_game(name: str) -> None:
    """Forget a game added with :func:`register_game`."""
    _registered.pop(name, None)


__all__ = [
    "ENTRY_POINT_GROUP",
    "UnknownGameError",
    "game_names",
    "game_spec",
    "installed_games",
    "register_game",
    "unregister_game",
]
