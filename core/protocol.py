"""The one game protocol that both rule sets implement.

Modelled on OpenSpiel's ``State`` (``current_player``, ``legal_actions``,
``apply_action``, ``is_terminal``, ``returns``, ``clone``) and on python-chess's
moves (one canonical text form per action and a parser back).  Everything
generic -- search, agents, playtest, saves, the CLI loop -- is written once
against :class:`GameState` and :class:`GameSpec` and never imports a game.

Contract
--------
* ``current_player()`` is the seat whose decision it is, or ``TERMINAL``.
* ``legal_actions()`` lists every legal action, in a deterministic order, no
  two with the same text.  An action is an immutable, hashable value whose
  ``str()`` is its canonical text form (what a human types, what a save file
  stores, what a replay reads).
* ``apply_action(a)`` mutates the state.  It trusts its argument (the search
  calls it millions of times); use :func:`parse_action` to turn untrusted text
  into an action that is known to be legal.
* All randomness is drawn at setup from the seed, so a game is reproduced by
  (rule set, options, seed, list of action texts).
* ``wealth()`` is every player's wealth (as if the game ended now, for a state
  that is not terminal) and ``wealth_breakdown(p)`` its parts; they always
  agree: ``sum(breakdown.values()) == wealth()[p]``.
* ``key()`` is a fast in-process hashable key (transposition tables);
  ``state_hash()`` is a stable hex digest, equal across processes and runs.

Declaring a game
----------------
A rule module declares itself once, as an OpenSpiel game declares its
``GameType`` and ``GameInfo``: it exports one :class:`GameSpec` named
``RULESET`` (name, title, options model, ``new_game``, player counts, AI levels,
evaluator, data digest) and its state class (``state=InlandState``); the spec
is given to that class as it is declared (``InlandState.game is RULESET``), so
a state knows its game as an OpenSpiel ``State`` knows its ``Game``: the
search, the agents and the messages ask ``state.game``, never a registry.
A state class belongs to exactly one spec.  Installed games are listed as entry
points of the group ``lehavre.games`` in ``pyproject.toml``;
:mod:`core.games` reads them, so nothing depends on which module happened to
be imported first, and ``core`` imports no game.
"""

from __future__ import annotations

import difflib
import hashlib
import random
import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Protocol, Self, runtime_checkable

from pydantic import BaseModel, ValidationError
from typing_extensions import TypeVar

TERMINAL = -1


class GameError(Exception):
    """Base of every error a person can cause; its message is shown as is."""


class ActionError(GameError):
    """Text that is not a legal action here; the message says what is allowed."""


@runtime_checkable
class Action(Protocol):
    """An immutable value with one canonical text form, ``str(action)``."""

    def __str__(self) -> str: ...

    def __hash__(self) -> int: ...


#: a game's action type (``InlandAction``, ``BaseAction``): ``GameState[A]`` lists and applies ``A``s.  Code
#: that plays any game says ``GameState[A]`` where it hands an action back; a plain ``GameState`` is a
#: state of some game (its action type unknown).
A = TypeVar("A", bound=Hashable, default=Any)


class GameState(ABC, Generic[A]):
    """One position of a game; see the module docstring for the contract."""

    ruleset: ClassVar[str] = ""
    #: the game this state belongs to, given to the state class by the :class:`GameSpec` that declares it
    #: (as an OpenSpiel ``State`` knows its ``Game``); every game's state class has one
    game: ClassVar[GameSpec]

    num_players: int
    #: canonical texts of every action applied since setup, in order
    history: list[str]

    # -- whose decision and what is legal ---------------------------------
    @abstractmethod
    def current_player(self) -> int: ...

    @abstractmethod
    def legal_actions(self) -> list[A]: ...

    @abstractmethod
    def apply_action(self, action: A) -> None: ...

    @abstractmethod
    def clone(self) -> Self: ...

    @abstractmethod
    def is_terminal(self) -> bool: ...

    # -- scoring ----------------------------------------------------------
    @abstractmethod
    def wealth_breakdown(self, player: int) -> dict[str, int]: ...

    def wealth(self) -> list[int]:
        return [sum(self.wealth_breakdown(p).values()) for p in range(self.num_players)]

    def winners(self) -> list[int]:
        """Seats with the highest wealth (several on a tie)."""
        w = self.wealth()
        best = max(w)
        return [p for p, x in enumerate(w) if x == best]

    def returns(self) -> list[float]:
        """Zero-sum returns: winners share +1, the others share -1.

        With one player (the base game's solo version) the return is the
        wealth itself, since there is nobody to beat.
        """
        if self.num_players == 1:
            return [float(self.wealth()[0])]
        win = self.winners()
        if len(win) == self.num_players:
            return [0.0] * self.num_players
        losers = self.num_players - len(win)
        return [1.0 / len(win) if p in win else -1.0 / losers for p in range(self.num_players)]

    # -- bookkeeping ----------------------------------------------------------
    @property
    def main_action_count(self) -> int:
        """Main actions taken so far (what ``--json`` reports as ``actions``)."""
        return len(self.history)

    @abstractmethod
    def key(self) -> Hashable: ...

    def state_hash(self) -> str:
        return stable_digest(self.key())

    def describe_action(self, action: A) -> str:
        """A sentence for the log; defaults to the canonical text."""
        return str(action)

    def why_illegal(self, text: str) -> str | None:
        """The game's own reason why ``text`` is not a legal action here, or ``None`` (the generic message
        then says what is allowed)."""
        return None

    def action_building(self, action: A) -> tuple[str, str] | None:
        """For statistics: ``(verb, building name)`` if ``action`` builds, buys or
        uses a building (verbs ``build``, ``buy``, ``use``), else ``None``."""
        return None

    def building_owners(self) -> dict[str, int]:
        """For statistics: every owned building's name and its owner's seat."""
        return {}

    def player_tallies(self) -> dict[str, list[int]]:
        """For statistics: per-seat quantities whose rises over a game are counted, by name (the base game's
        loans held: their rises are the loans taken).  Games that declare none return ``{}``."""
        return {}

    def copy_for_search(self) -> Self:
        """A copy to search from: the position, without the game's action list where the game can do
        without it (the search copies its position at every node).  Games that do not say return a
        plain clone."""
        return self.clone()

    def determinize(self, player: int, rng: random.Random) -> Self:
        """A copy in which everything ``player`` cannot see is resampled.

        Games without hidden information return a plain clone.
        """
        return self.clone()


# ---------------------------------------------------------------------------
# The game spec: what a rule module declares about itself
# ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Level:
    """A playing strength of the ``ai`` agent: its budgets per move.

    ``max_nodes`` makes the choice reproducible from the seed; ``time_cap``
    (seconds) is a safety limit that only a slow machine reaches.
    """

    name: str
    max_depth: int
    max_nodes: int
    time_cap: float

    def describe(self) -> str:
        """The budgets as a person reads them: ``5,000 nodes, at most 1 s a move``."""
        return f"{self.max_nodes:,} nodes, at most {self.time_cap:g} s a move"


@dataclass(frozen=True, slots=True)
class Evaluator:
    """How the search judges a game's positions: one object per game, declared in its
    :class:`GameSpec` and handed to the search and the agents (as OpenSpiel's ``MCTSBot``
    takes one ``Evaluator``; states have no evaluation of their own).

    ``evaluate(state, player)`` is the heuristic worth for ``player`` (higher
    is better), ``terms(state, player)`` its named parts (they sum to it), and
    ``search_actions(state)`` the non-empty subset of the legal actions worth
    searching.  ``tuning`` is what the evaluation tuner needs when the
    evaluation is a weighted sum of named features.
    """

    evaluate: Callable[[Any, int], float]
    terms: Callable[[Any, int], Mapping[str, float]]
    search_actions: Callable[[Any], list[Any]]
    #: for an evaluation that is a weighted sum of named features: what the tuner needs
    tuning: EvalTuning | None = None

    def reweighted(self, weights: Mapping[str, float]) -> Evaluator:
        """This evaluator with other ``weights`` (one per term): the same actions worth searching,
        the evaluation and its terms weighted anew.  Only for an evaluator with ``tuning``."""
        tuning = self.tuning
        if tuning is None:
            raise ValueError("this evaluation has no weights to change (its game declares no tuning)")
        ws = {str(k): float(v) for k, v in weights.items()}

        def terms(state: Any, player: int) -> dict[str, float]:
            return {k: ws.get(k, 1.0) * float(v) for k, v in tuning.features(state, player).items()}

        return Evaluator(
            evaluate=tuning.weighted(ws),
            terms=terms,
            search_actions=self.search_actions,
            tuning=EvalTuning(tuning.features, tuning.weighted, ws, "", tuning.fixed),
        )


@dataclass(frozen=True, slots=True)
class EvalTuning:
    """What the evaluation tuner (:mod:`core.lab.tuning`) needs from a game whose
    evaluation is ``sum(weights[name] * features[name])`` over named terms.

    ``features(state, player)`` are the unweighted terms (margins for
    ``player``); ``weighted(weights)`` is the evaluation with other weights
    (so a candidate can play today's in one process); ``weights`` are the
    weights in use and ``path`` the data file they were read from; the
    weights of the ``fixed`` terms are not fitted (``wealth`` keeps the
    evaluation in francs).
    """

    features: Callable[[Any, int], Mapping[str, float]]
    weighted: Callable[[Mapping[str, float]], Callable[[Any, int], float]]
    weights: Mapping[str, float]
    path: str
    fixed: tuple[str, ...] = ("wealth",)


def wealth_margin(state: GameState, player: int) -> float:
    """``player``'s wealth minus the best other player's (own wealth when alone)."""
    w = state.wealth()
    others = [x for p, x in enumerate(w) if p != player]
    return float(w[player] - (max(others) if others else 0))


def _margin_terms(state: GameState, player: int) -> dict[str, float]:
    return {"evaluate": wealth_margin(state, player)}


def _all_legal(state: GameState[A]) -> list[A]:
    return state.legal_actions()


#: the evaluator of a game that declares none: the wealth margin, every legal action
WEALTH_MARGIN = Evaluator(evaluate=wealth_margin, terms=_margin_terms, search_actions=_all_legal)


@dataclass(frozen=True, slots=True)
class TunableField:
    """One whole-number datum of a game's data file that balancing may change.

    ``key`` names it (``"Wood Company.cost.clay"``: the card, then the field);
    ``entity`` is the card it belongs to, ``source`` its provenance
    (``reconstructed``, ``rulebook``, ...), ``low``/``high`` the values allowed.
    """

    key: str
    value: int
    entity: str
    source: str = "rulebook"
    low: int = 0
    high: int = 99


@dataclass(frozen=True, slots=True)
class DataTuning:
    """How a game's data file (its ``buildings`` option) is balanced.

    ``fields(path)`` lists every numeric datum of the file at ``path``
    (``None``: the built-in file); ``write(path, changes, out, note)`` writes
    that file with ``changes`` (key -> new value) applied to ``out``: every
    changed datum tagged ``reconstructed`` and given ``note``; it raises
    :class:`GameError` if the result is not a valid data file.
    """

    fields: Callable[[str | None], list[TunableField]]
    write: Callable[[str | None, Mapping[str, int], str, str], None]


def _no_data(options: Any) -> str:
    return ""


@dataclass(frozen=True, slots=True)
class GameSpec:
    """Everything generic code needs to know about one game, declared once.

    ``new_game(seed, options)`` sets a game up (``options`` is an instance of
    ``options_model`` or ``None`` for the defaults); ``ai_levels`` are the
    ``ai`` agent's strengths (``default_level`` is what plain ``ai`` means);
    ``data_digest(options)`` is the hash of the data files in use, recorded in
    saves, and ``data_by_digest(digest)`` finds the shipped data of a save's
    digest.  ``state`` is the game's state class: the spec is given to it as it
    is declared (``state.game``), and a state class belongs to one spec.
    """

    name: str
    title: str
    options_model: type[BaseModel]
    state: type[GameState]
    new_game: Callable[[int, Any], GameState]
    min_players: int
    max_players: int
    ai_levels: Mapping[str, Level]
    evaluator: Evaluator = WEALTH_MARGIN
    data_digest: Callable[[Any], str] = _no_data
    #: ``(options, digest)``: the option values that play a game saved with the default data of its day
    #: with that data, shipped under a name since the default changed (None: the options chose their own
    #: data); raises GameError naming the digest and the data shipped.  None: the game ships one data.
    data_by_digest: Callable[[Any, str], dict[str, Any] | None] | None = None
    default_level: str = "normal"
    #: False when players hold information the others cannot see (OpenSpiel's ``information``)
    perfect_information: bool = True
    #: a short name for lists ("Inland Port"); defaults to the title
    short_title: str = ""
    #: which numbers of its data file ``lehavre balance`` may change (``None``: not balanced)
    tuning: DataTuning | None = None
    #: the search spends no depth on a decision with one action worth searching (bookkeeping, such as
    #: ending a turn when no sale could change anything), so such decisions do not shorten its look-ahead
    forced_moves_free: bool = False
    #: for a game with hidden set-up: ``seat_setup(setup, now, seat)`` is the options of a game that
    #: replays the history as ``seat`` saw it (what it cannot see in a canonical order, no seed used);
    #: ``setup`` is the position the game started from, ``now`` the position now, ``seat`` None for a
    #: spectator.  ``None``: nothing is hidden and a seat may see the true options and seed.
    seat_setup: Callable[[Any, Any, int | None], Any] | None = None
    #: ``view(state, seat)``: the position as ``seat`` (None: a spectator) may see it, as plain data (a
    #: :class:`core.view_model.ViewModel`: what a browser draws; ``state`` is that seat's own view when
    #: the set-up is hidden).  ``None``: the game gives no view.
    view: Callable[[Any, int | None], BaseModel] | None = None

    def __post_init__(self) -> None:
        if self.default_level not in self.ai_levels:
            raise ValueError(f"game '{self.name}': default AI level '{self.default_level}' is not one of its levels")
        owner = vars(self.state).get("game")
        if owner is not None:
            raise ValueError(
                f"game '{self.name}': the state class {self.state.__name__} already belongs to the game '{owner.name}'"
            )
        self.state.game = self

    @property
    def label(self) -> str:
        return self.short_title or self.title

    def parse_options(self, options: Any = None) -> BaseModel:
        """``options`` (a model instance, a dict or ``None``) as this game's options model.

        Raises :class:`GameError` naming the wrong field and what is allowed.
        """
        if options is None:
            return self.options_model()
        if isinstance(options, self.options_model):
            return options
        if isinstance(options, BaseModel):
            options = options.model_dump()
        try:
            return self.options_model.model_validate(dict(options))
        except (ValidationError, TypeError, ValueError) as exc:
            raise GameError(
                f"the options of '{self.name}' are not valid: {_first_error(exc, self.options_model)}"
            ) from None

    def level(self, name: str | None) -> Level:
        """The AI level ``name`` (``None``: the default); :class:`GameError` naming the allowed ones."""
        key = (name or self.default_level).strip().lower()
        if key not in self.ai_levels:
            raise GameError(f"unknown AI level '{name}' (allowed: {', '.join(self.ai_levels)})")
        return self.ai_levels[key]


def _first_error(exc: Exception, model: type[BaseModel]) -> str:
    """The first problem with some options, naming the option and the allowed ones."""
    if not isinstance(exc, ValidationError):
        return str(exc)
    err = exc.errors()[0]
    where = ".".join(str(x) for x in err.get("loc", ()))
    if err.get("type") == "extra_forbidden":
        return f"unknown option '{where}' (allowed: {', '.join(model.model_fields)})"
    return f"option '{where}': {err.get('msg', 'invalid')}" if where else str(err.get("msg", "invalid"))


# ---------------------------------------------------------------------------
# Canonical keys, digests and the generic parser
# ---------------------------------------------------------------------------


def stable_digest(obj: Hashable) -> str:
    """A digest of a nested tuple of ints/strs/bools/None, stable across runs."""
    return hashlib.sha256(repr(obj).encode()).hexdigest()[:32]


_WS = re.compile(r"\s+")


def normalize_text(text: str) -> str:
    """Lower case, typographic quotes folded, spaces collapsed."""
    text = text.replace("\u2019", "'").replace("\u2018", "'").replace("\u00d7", "x")
    text = _WS.sub(" ", text.strip().lower())
    return re.sub(r"\s*([:,;/+])\s*", r"\1 ", text).strip()


def parse_action(state: GameState[A], text: str) -> A:
    """Turn typed text into one of ``state``'s legal actions.

    Accepts the canonical text (case and spacing do not matter) or whole
    leading words of exactly one legal action (``build hardware`` for
    ``build Hardware Store``).  A prefix must end at a word boundary, so
    ``build Farm`` never means ``build Farmland``.  The part before a ``:``
    may be such a prefix too (``build grocery: fish to 0+2``).  Raises
    :class:`ActionError` that says what was wrong and what is allowed, with a
    suggestion when the text looks like a typo of a legal action.
    """
    if state.is_terminal():
        raise ActionError("The game is over; no more actions are allowed.")
    want = normalize_text(text)
    if not want:
        raise ActionError("Empty input: type an action, or 'help'.")
    legal = state.legal_actions()
    found = _resolve(legal, want)
    if len(found) == 1:
        return found[0]
    if found:
        shown = ", ".join(f"'{a}'" for a in found[:8])
        more = f" and {len(found) - 8} more" if len(found) > 8 else ""
        raise ActionError(f"'{text.strip()}' is ambiguous: it could be {shown}{more}.")
    raise ActionError(explain_illegal(state, text, legal))


def _begins_at_word(full: str, start: str) -> bool:
    """``start`` is ``full`` or its whole leading words (it ends at a word boundary)."""
    return full == start or (full.startswith(start) and full[len(start)] in " :;,+")


def _resolve(legal: Sequence[A], want: str) -> list[A]:
    """The legal actions normalized text ``want`` may mean: one, several (ambiguous) or none."""
    by_text = {normalize_text(str(a)): a for a in legal}
    if want in by_text:
        return [by_text[want]]
    matches = [a for t, a in by_text.items() if _begins_at_word(t, want)]
    if matches:
        return matches
    if want.endswith(":"):
        return _resolve(legal, want[:-1].rstrip())
    head, colon, rest = want.partition(":")
    if not colon:
        return []
    # a prefix of a name before the payment ("build grocery: fish to 0+2"): the one head it begins
    heads = {t.partition(":")[0] for t in by_text}
    fits = [h for h in heads if _begins_at_word(h, head.strip())]
    if len(fits) != 1 or fits[0] == head.strip():
        return []
    return _resolve(legal, f"{fits[0]}:{rest}")


def explain_illegal(state: GameState, text: str, legal: Sequence[Any]) -> str:
    """Why ``text`` is not legal: the game's own reason if it has one, what is
    allowed now, and the legal action it was probably meant to be."""
    reason = state.why_illegal(text)
    verbs = sorted({str(a).split(" ")[0] for a in legal})
    head = reason or f"'{text.strip()}' is not a legal action here."
    message = f"{head} Allowed now: {', '.join(verbs)}."
    guess = suggest_action(legal, text, reason)
    return f"{message} Did you mean '{guess}'?" if guess else message


def suggest_action(legal: Sequence[Any], text: str, reason: str | None = None) -> str | None:
    """The legal action ``text`` looks like a typo of (its verb, its building name or both), or None.

    The name is corrected only when ``reason`` (the game's own explanation) does not speak of the
    typed name as a building it knows (``Farm enters the game in round B`` is no typo of Farmland).
    """
    want = normalize_text(text)
    verb, _, after = want.partition(" ")
    name, colon, pay = after.partition(":")
    name = name.strip()
    verbs = sorted({normalize_text(str(a)).split(" ")[0] for a in legal})
    fixed_verb = verb
    if verb not in verbs:
        close = difflib.get_close_matches(verb, verbs, n=1)
        if not close:
            return None
        fixed_verb = close[0]
    tries = [name]
    if name and not _knows_name(reason, name):
        tries += _close_names(legal, fixed_verb, name)
    for n in dict.fromkeys(tries):
        if fixed_verb == verb and n == name:
            continue  # nothing corrected: no suggestion
        guess = " ".join(x for x in (fixed_verb, n) if x) + (f":{pay}" if colon else "")
        found = _resolve(legal, normalize_text(guess))
        if not found:
            continue
        if len(found) == 1 and colon:
            return str(found[0])
        shown = {str(a).partition(":")[0] for a in found}
        if len(shown) == 1:
            return shown.pop()
        return guess
    return fixed_verb if fixed_verb != verb else None


def _knows_name(reason: str | None, name: str) -> bool:
    """The game's reason names ``name`` as a building (not merely quoting what was typed)."""
    if not reason:
        return False
    return re.search(rf"(?<!')\b{re.escape(name)}\b(?!')", reason, re.IGNORECASE) is not None


def _close_names(legal: Sequence[Any], verb: str, name: str) -> list[str]:
    """The legal actions' names (after ``verb``) closest to a mistyped ``name``, or their leading words."""
    heads = [normalize_text(str(a)).partition(":")[0].partition(" ") for a in legal]
    pool = {n for v, _, n in heads if v == verb and n} or {n for _, _, n in heads if n}
    # compare with as many leading words as were typed ("grocry" with "grocery", not "grocery store")
    words = len(name.split(" "))
    leading = {" ".join(n.split(" ")[:words]) for n in pool if n}
    return difflib.get_close_matches(name, sorted(leading), n=2, cutoff=0.75)
