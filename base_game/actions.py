"""The base game's actions: small immutable typed values with one canonical text.

Like python-chess's ``Move`` (and :class:`inland_port.state.InlandAction`),
the value makes the text (``str(action)``) and :func:`parse` makes the value
from a canonical text.  An action is a :class:`BaseAction` named tuple (a
tuple, so the tens of thousands the search makes per second stay cheap):

* ``verb``: what is done, one of :data:`VERBS`;
* ``ref``: what it is done to: a building id (``enter``, ``buy``, ``sell``,
  ``build``, ``evict``), a good (``pick``, ``ship``, ``give``, ``trade``,
  ``for``, ``exchange good``, ``take good``), an offer space (``take``,
  ``haul``), a ship type (``buy ship``, ``build ship``, ``sell ship``) or a
  class of goods (``exchange class``); ``-1`` when nothing;
* ``n``: a number (``upgrade 3``, ``use 2 ships``, ``ship 3 leather``, the
  second offer space of ``haul``, a ship's value); ``-1`` when none;
* ``way``: a payment, ``((source, amount), ...)`` with ``source`` a good or
  ``"franc"`` and ``amount`` in food/energy/francs (two payments are equal
  when they take the same things).

Which sub-decision offers which verbs is told by the effects
(:mod:`base_game.effects`); this module only knows the words.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final, NamedTuple

from base_game import cards as K
from core.protocol import ActionError

#: a way to pay: (good index or "franc", amount of food/energy/francs) in preference order
Way = tuple[tuple[int | str, int], ...]

#: the classes of goods the Bridge over the Seine exchanges at once
BRIDGE_CLASSES: Final = ("upgraded", "standard", "all")

#: every verb, and the words its text starts with
VERBS: Final = (
    "take",
    "enter",
    "buy",
    "buy ship",
    "sell",
    "sell ship",
    "repay",
    "end",
    "pass",
    "pay",
    "borrow",
    "done",
    "upgrade",
    "exchange",
    "build",
    "build ship",
    "swap yacht",
    "pick",
    "keep order",
    "swap order",
    "return loans",
    "use ships",
    "use ships choose",
    "ship",
    "exchange class",
    "choose goods",
    "exchange good",
    "give",
    "skip steel",
    "trade",
    "for",
    "pay 4th iron",
    "take good",
    "evict",
    "haul",
)

_SHIP_LABEL: Final = tuple(K.SHIP_TYPE_LABEL[t] for t in K.SHIP_TYPES)


def ship_type_index(t: str) -> int:
    return K.SHIP_TYPES.index(t)


def format_way(way: Way) -> str:
    """``pay 2 fish, 1 franc`` (``pay nothing`` for an empty way)."""
    parts = []
    for k, amount in way:
        if k == "franc":
            parts.append(f"{amount} franc" + ("s" if amount != 1 else ""))
        else:
            assert isinstance(k, int)
            parts.append(f"{amount // UNIT[k]} {K.GOOD_LABEL[k]}")
    return "pay " + ", ".join(parts) if parts else "pay nothing"


#: the food or energy of one good (one source: cards.FOOD_SOURCES / ENERGY_SOURCES)
UNIT: Final[dict[int | str, int]] = {**dict(K.FOOD_SOURCES), **dict(K.ENERGY_SOURCES), "franc": 1}


def _plural(n: int, word: str) -> str:
    return word if n == 1 else word + "s"


class BaseAction(NamedTuple):
    """One action of the base game; ``str()`` is its canonical text."""

    verb: str
    ref: int = -1
    n: int = -1
    way: Way = ()

    def __str__(self) -> str:
        return _TEXT[self.verb](self)

    def __repr__(self) -> str:
        return f"BaseAction({str(self)!r})"


_TEXT: Final[dict[str, Callable[[BaseAction], str]]] = {
    "take": lambda a: f"take {K.OFFER_LABEL[a.ref]}",
    "enter": lambda a: f"enter {K.NAME[a.ref]}",
    "buy": lambda a: f"buy {K.NAME[a.ref]}",
    "buy ship": lambda a: f"buy {_SHIP_LABEL[a.ref]}",
    "sell": lambda a: f"sell {K.NAME[a.ref]}",
    "sell ship": lambda a: f"sell {_SHIP_LABEL[a.ref]} {a.n}",
    "repay": lambda a: "repay",
    "end": lambda a: "end",
    "pass": lambda a: "pass",
    "pay": lambda a: format_way(a.way),
    "borrow": lambda a: "borrow",
    "done": lambda a: "done",
    "upgrade": lambda a: f"upgrade {a.n}",
    "exchange": lambda a: f"exchange {a.n}",
    "build": lambda a: f"build {K.NAME[a.ref]}",
    "build ship": lambda a: f"build {_SHIP_LABEL[a.ref]}",
    "swap yacht": lambda a: "swap Luxury Yacht",
    "pick": lambda a: f"pick {K.GOOD_LABEL[a.ref]}",
    "keep order": lambda a: "keep order",
    "swap order": lambda a: "swap order",
    "return loans": lambda a: "return 2 loans" if a.n == 2 else "return 1 loan and take 2 francs",
    "use ships": lambda a: f"use {a.n} {_plural(a.n, 'ship')}",
    "use ships choose": lambda a: f"use {a.n} {_plural(a.n, 'ship')} and choose goods",
    "ship": lambda a: f"ship {a.n} {K.GOOD_LABEL[a.ref]}",
    "exchange class": lambda a: f"exchange {BRIDGE_CLASSES[a.ref]} goods",
    "choose goods": lambda a: "choose goods",
    "exchange good": lambda a: f"exchange {a.n} {K.GOOD_LABEL[a.ref]}",
    "give": lambda a: f"give {K.GOOD_LABEL[a.ref]}",
    "skip steel": lambda a: "skip steel",
    "trade": lambda a: f"trade {K.GOOD_LABEL[a.ref]}",
    "for": lambda a: f"for {K.GOOD_LABEL[a.ref]}",
    "pay 4th iron": lambda a: "pay for 4th iron",
    "take good": lambda a: f"take {a.n} {K.GOOD_LABEL[a.ref]}",
    "evict": lambda a: f"evict from {K.NAME[a.ref]}",
    "haul": lambda a: f"haul {K.OFFER_LABEL[a.ref]} and {K.OFFER_LABEL[a.n]}",
}
assert set(_TEXT) == set(VERBS)

# the actions without arguments, made once
END: Final = BaseAction("end")
REPAY: Final = BaseAction("repay")
PASS: Final = BaseAction("pass")
BORROW: Final = BaseAction("borrow")
DONE: Final = BaseAction("done")

#: the actions of a turn, made once (the search lists them millions of times)
TAKE: Final = tuple(BaseAction("take", ref=i) for i in range(len(K.OFFER_LABEL)))
ENTER: Final = tuple(BaseAction("enter", ref=b) for b in range(K.NB))
BUY: Final = tuple(BaseAction("buy", ref=b) for b in range(K.NB))
SELL: Final = tuple(BaseAction("sell", ref=b) for b in range(K.NB))
BUY_SHIP: Final = tuple(BaseAction("buy ship", ref=t) for t in range(len(K.SHIP_TYPES)))

_PLAIN: Final = {
    str(BaseAction(v)): BaseAction(v)
    for v in (
        "repay",
        "end",
        "pass",
        "borrow",
        "done",
        "swap yacht",
        "keep order",
        "swap order",
        "choose goods",
        "skip steel",
        "pay 4th iron",
    )
}
_PLAIN["return 2 loans"] = BaseAction("return loans", n=2)
_PLAIN["return 1 loan and take 2 francs"] = BaseAction("return loans", n=1)
_PLAIN.update({f"exchange {c} goods": BaseAction("exchange class", ref=i) for i, c in enumerate(BRIDGE_CLASSES)})


def _bad(text: str, why: str) -> ActionError:
    return ActionError(f"'{text}' is not an action of the base game: {why}")


def _int(word: str, text: str) -> int:
    if not word.isdigit():
        raise _bad(text, f"'{word}' should be a number")
    return int(word)


def _good(label: str, text: str) -> int:
    g = K.LABEL_TO_GOOD.get(label)
    if g is None:
        raise _bad(text, f"'{label}' is not a good ({', '.join(K.GOOD_LABEL)})")
    return g


def _building(name: str, text: str) -> int:
    b = K.BY_NAME.get(name.lower())
    if b is None:
        raise _bad(text, f"there is no building called '{name}'")
    return b


def _ship(label: str) -> int | None:
    return _SHIP_LABEL.index(label) if label in _SHIP_LABEL else None


def _way(rest: str, text: str) -> Way:
    if rest == "nothing":
        return ()
    out: list[tuple[int | str, int]] = []
    for part in rest.split(", "):
        count, _, what = part.partition(" ")
        n = _int(count, text)
        if what in ("franc", "francs"):
            out.append(("franc", n))
        else:
            g = _good(what, text)
            if g not in UNIT:
                raise _bad(text, f"{what} is neither food nor energy")
            out.append((g, n * UNIT[g]))
    return tuple(out)


def parse(text: str) -> BaseAction:
    """The action whose canonical text is ``text`` (raises :class:`ActionError`).

    Only canonical texts are read (what ``str()`` writes); what a person types
    goes through :func:`core.protocol.parse_action`, which also accepts
    prefixes and other spellings of the legal actions.
    """
    plain = _PLAIN.get(text)
    if plain is not None:
        return plain
    verb, _, rest = text.partition(" ")
    words = rest.split(" ")
    if verb == "take":
        if rest in K.OFFER_LABEL:
            return BaseAction("take", ref=K.OFFER_LABEL.index(rest))
        if len(words) == 2:
            return BaseAction("take good", ref=_good(words[1], text), n=_int(words[0], text))
        raise _bad(text, f"'{rest}' is not an offer space ({', '.join(K.OFFER_LABEL)})")
    if verb in ("enter", "evict", "buy", "build", "sell"):
        return _parse_building_verb(verb, rest, text)
    if verb == "pay":
        return BaseAction("pay", way=_way(rest, text))
    if verb in ("upgrade", "exchange") and len(words) == 1:
        return BaseAction(verb, n=_int(rest, text))
    if verb in ("exchange", "ship") and len(words) >= 2:
        return BaseAction(
            "exchange good" if verb == "exchange" else "ship",
            ref=_good(" ".join(words[1:]), text),
            n=_int(words[0], text),
        )
    if verb in ("pick", "give", "trade", "for"):
        return BaseAction(verb, ref=_good(rest, text))
    if verb == "use" and len(words) >= 2 and words[1] in ("ship", "ships"):
        n = _int(words[0], text)
        if rest == f"{n} {_plural(n, 'ship')}":
            return BaseAction("use ships", n=n)
        if rest == f"{n} {_plural(n, 'ship')} and choose goods":
            return BaseAction("use ships choose", n=n)
    if (
        verb == "haul"
        and len(words) == 3
        and words[1] == "and"
        and words[0] in K.OFFER_LABEL
        and words[2] in K.OFFER_LABEL
    ):
        return BaseAction("haul", ref=K.OFFER_LABEL.index(words[0]), n=K.OFFER_LABEL.index(words[2]))
    raise _bad(text, "unknown words")


def _parse_building_verb(verb: str, rest: str, text: str) -> BaseAction:
    """An action that names a building or a ship: enter, evict from, buy, build, sell."""
    if verb in ("enter", "evict"):
        if verb == "evict":
            if not rest.startswith("from "):
                raise _bad(text, "write 'evict from BUILDING'")
            rest = rest[5:]
        return BaseAction(verb, ref=_building(rest, text))
    if verb in ("buy", "build"):
        t = _ship(rest)
        if t is not None:
            return BaseAction(verb + " ship", ref=t)
        return BaseAction(verb, ref=_building(rest, text))
    label, _, value = rest.rpartition(" ")
    t = _ship(label)
    if t is not None:
        return BaseAction("sell ship", ref=t, n=_int(value, text))
    return BaseAction("sell", ref=_building(rest, text))


def as_action(action: BaseAction | str) -> BaseAction:
    """``action`` itself, or the action a canonical text names."""
    return action if isinstance(action, BaseAction) else parse(str(action))


__all__ = [
    "BORROW",
    "BRIDGE_CLASSES",
    "BUY",
    "BUY_SHIP",
    "DONE",
    "END",
    "ENTER",
    "PASS",
    "REPAY",
    "SELL",
    "TAKE",
    "UNIT",
    "VERBS",
    "BaseAction",
    "Way",
    "as_action",
    "format_way",
    "parse",
]
