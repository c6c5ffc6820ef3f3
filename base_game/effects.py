"""Building functions: ONE registry, ``EFFECTS``, from effect name to a small object.

A building card names its effect and carries the effect's numbers in
``params`` (base_game/data/*.json), so "upgrade X to Y for energy with a
subsidy" (Bakehouse, Brickworks, Smokehouse, Charcoal Kiln, Tannery, Cokery,
Steel Mill, Abattoir), "exchange sets of goods for francs" (Joinery, Bakery,
Fish Market, Tavern, Kiln, Steelworks, ...) and "take fixed goods" (Fishery,
Clay Mound, Colliery, Hardware Store, Grocery Market, Church, Farm, Smelter,
Labour Exchange, ...) are one function each.

Each effect has ``can_use(state, p, b)`` (may ``p`` enter ``b`` at all: its
action can be carried out), ``start(state, p, b)`` (after the entry fee:
apply it, or push a ``sub`` frame), and for sub frames ``options(state,
frame)`` / ``apply(state, frame, action)``, with typed actions
(:class:`base_game.actions.BaseAction`).  A sub frame is
:class:`base_game.frames.Sub` with ``data`` an immutable tuple each effect
documents.  The automatic continuations (:class:`base_game.frames.Use`,
``ShipGoods``) call :func:`use_building` and :func:`ship_goods`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final, final

from base_game import cards as K
from base_game.actions import DONE, BaseAction, ship_type_index
from base_game.frames import ShipGoods, Sub
from core.protocol import ActionError

if TYPE_CHECKING:
    from base_game.state import BaseState
from base_game.cards import (
    BRICK,
    CHARCOAL,
    COAL,
    ENERGY_VALUE,
    IRON,
    IS_UPGRADED,
    LEATHER,
    NG,
    SHIP_VALUE,
    STANDARD,
    STEEL,
    WOOD,
)

SWAP_YACHT: Final = BaseAction("swap yacht")
KEEP_ORDER: Final = BaseAction("keep order")
SWAP_ORDER: Final = BaseAction("swap order")
CHOOSE_GOODS: Final = BaseAction("choose goods")
SKIP_STEEL: Final = BaseAction("skip steel")
PAY_4TH_IRON: Final = BaseAction("pay 4th iron")
#: the Bridge's classes of goods (actions.BRIDGE_CLASSES)
UPGRADED_CLASS, STANDARD_CLASS, ALL_CLASS = range(3)


def _goods_counts(counts: dict[str, int]) -> tuple[tuple[int, int], ...]:
    """A data file's ``{good: count}`` as ``((good index, count), ...)``, in the file's order."""
    return tuple((K.GI[good], n) for good, n in counts.items())


#: each building's entry condition (Church: at least 5 bread and 2 fish) as ((good, count), ...); () for none
_REQUIRES: Final[tuple[tuple[tuple[int, int], ...], ...]] = tuple(
    _goods_counts(K.PARAMS[b].get("requires") or {}) for b in range(K.NB)
)


@final
class _UpgradeNumbers:
    """An upgrade building's numbers from its ``params`` (see :class:`Upgrade`), read once."""

    def __init__(self, params: dict[str, Any]) -> None:
        self.src: int = K.GI[params["src"]]
        self.most: int | None = params.get("max")
        self.energy_num: int = params.get("energy_num", 0)
        self.energy_den: int = params.get("energy_den", 1)
        self.energy_flat: int = params.get("energy_flat", 0)


@final
class _ExchangeNumbers:
    """An exchange building's numbers from its ``params`` (see :class:`Exchange`), read once."""

    def __init__(self, params: dict[str, Any]) -> None:
        self.min_francs: int = params.get("min_francs", 0)
        self.inputs: tuple[tuple[int, int], ...] = _goods_counts(params["inputs"])
        self.max_sets: int | None = params.get("max_sets")
        self.energy: int = params.get("energy", 0)


_UPGRADES: Final[tuple[_UpgradeNumbers | None, ...]] = tuple(
    _UpgradeNumbers(K.PARAMS[b]) if K.EFFECT[b] == "upgrade" else None for b in range(K.NB)
)
_EXCHANGES: Final[tuple[_ExchangeNumbers | None, ...]] = tuple(
    _ExchangeNumbers(K.PARAMS[b]) if K.EFFECT[b] == "exchange" else None for b in range(K.NB)
)


def _upgrade_numbers(b: int) -> _UpgradeNumbers:
    u = _UPGRADES[b]
    if u is None:
        raise AssertionError(f"{K.NAME[b]} is not an upgrade building")
    return u


def _exchange_numbers(b: int) -> _ExchangeNumbers:
    x = _EXCHANGES[b]
    if x is None:
        raise AssertionError(f"{K.NAME[b]} is not an exchange building")
    return x


class Effect:
    name = ""

    def can_use(self, s: BaseState, p: int, b: int) -> bool:
        return True

    def start(self, s: BaseState, p: int, b: int) -> None:
        pass

    def options(self, s: BaseState, fr: Sub) -> list[BaseAction]:
        return []

    def search_options(self, s: BaseState, fr: Sub) -> list[BaseAction]:
        """The options the search considers (a subset of :meth:`options`; default: all)."""
        return self.options(s, fr)

    def apply(self, s: BaseState, fr: Sub, a: BaseAction) -> None:
        raise AssertionError(f"{self.name} has no choices")


class Counted(Effect):
    """An effect carried out N times, N chosen as ``<verb> N`` from 1 to ``max_n``."""

    verb = ""

    def max_n(self, s: BaseState, p: int, b: int) -> int:
        raise NotImplementedError

    def run(self, s: BaseState, p: int, b: int, n: int) -> None:
        raise NotImplementedError

    def can_use(self, s: BaseState, p: int, b: int) -> bool:
        return self.max_n(s, p, b) >= 1

    def start(self, s: BaseState, p: int, b: int) -> None:
        s.stack.append(Sub(p, self.name, b, ()))

    def options(self, s: BaseState, fr: Sub) -> list[BaseAction]:
        p, b = fr.player, fr.building
        return [BaseAction(self.verb, n=n) for n in range(1, self.max_n(s, p, b) + 1)]

    def apply(self, s: BaseState, fr: Sub, a: BaseAction) -> None:
        p, b = fr.player, fr.building
        s.stack.pop()
        self.run(s, p, b, a.n)


class NoAction(Effect):
    """Padlock buildings (Bank, Town Hall, Dock, Storehouse, Feedlot, ...)."""

    name = "none"

    def can_use(self, s: BaseState, p: int, b: int) -> bool:
        return False


class TakeGoods(Effect):
    """Take fixed goods (and francs), with Fisherman/Hammer bonuses and an
    optional entry condition (Church: at least 5 bread and 2 fish)."""

    name = "take_goods"

    def can_use(self, s: BaseState, p: int, b: int) -> bool:
        requires = _REQUIRES[b]
        if not requires:  # most buildings: no generator made (pure Python asks this for every built one)
            return True
        g = s.goods[p]
        return all(g[good] >= n for good, n in requires)  # mypyc compiles all(<generator>) into a loop

    def gains(self, s: BaseState, p: int, b: int) -> tuple[dict[int, int], int]:
        pr = K.PARAMS[b]
        out: dict[int, int] = {}
        for g, n in pr.get("goods", {}).items():
            out[K.GI[g]] = out.get(K.GI[g], 0) + n
        if "per_fisherman" in pr:
            gi = K.GI[pr["per_fisherman"]]
            out[gi] = out.get(gi, 0) + s.fishermen(p)
        if "per_hammer" in pr:
            gi = K.GI[pr["per_hammer"]]
            out[gi] = out.get(gi, 0) + s.hammers(p)
        if "if_hammer" in pr and s.hammers(p) >= 1:
            for g, n in pr["if_hammer"].items():
                out[K.GI[g]] = out.get(K.GI[g], 0) + n
        return out, pr.get("francs", 0)

    def start(self, s: BaseState, p: int, b: int) -> None:
        goods, francs = self.gains(s, p, b)
        for g, n in goods.items():
            s.goods[p][g] += n
        if francs:
            s.gain_francs(p, francs)


def _ceil_div(a: int, b: int) -> int:
    return -(-a // b)


class Upgrade(Counted):
    """Upgrade ``src`` to ``dst`` (at most ``max``), paying energy per unit
    (``energy_num/energy_den``, rounded up) and/or a flat amount, with a
    subsidy ``francs_num/francs_den`` per unit (rounded down) and an optional
    byproduct (Abattoir: 1 hide per 2 cattle)."""

    name = "upgrade"
    verb = "upgrade"

    def energy(self, s: BaseState, p: int, b: int, n: int) -> int:
        if n <= 0:
            return 0
        u = _upgrade_numbers(b)
        return s.energy_cost(p, _ceil_div(n * u.energy_num, u.energy_den) + u.energy_flat)

    def max_n(self, s: BaseState, p: int, b: int) -> int:
        u = _upgrade_numbers(b)
        n = s.goods[p][u.src]
        if u.most is not None:
            n = min(n, u.most)
        avail = s.energy_value(p)
        while n > 0 and self.energy(s, p, b, n) > avail:
            n -= 1
        return n

    def run(self, s: BaseState, p: int, b: int, n: int) -> None:
        pr = K.PARAMS[b]
        g = s.goods[p]
        g[K.GI[pr["src"]]] -= n
        g[K.GI[pr["dst"]]] += n
        fr_ = n * pr.get("francs_num", 0) // pr.get("francs_den", 1)
        if fr_:
            s.gain_francs(p, fr_)
        if pr.get("byproduct"):
            g[K.GI[pr["byproduct"]]] += n // pr["byproduct_den"]
        s.push_pay(p, "energy", self.energy(s, p, b, n))


class Exchange(Counted):
    """Exchange sets of ``inputs`` (at most ``max_sets``) for ``francs`` each
    (+ ``bonus_francs`` once) and/or ``outputs`` each, maybe paying ``energy`` per set
    and showing ``min_francs`` (Joinery 1-3 wood for 5-7 francs; Bakery; Kiln;
    Steelworks; Brick Manufacturer; ...)."""

    name = "exchange"
    verb = "exchange"

    def max_n(self, s: BaseState, p: int, b: int) -> int:
        x = _exchange_numbers(b)
        if s.francs[p] < x.min_francs:
            return 0
        g = s.goods[p]
        n = -1
        for good, k in x.inputs:  # the sets the goods held make (the fewest over the inputs)
            sets = g[good] // k
            if n < 0 or sets < n:
                n = sets
        if x.max_sets is not None:
            n = min(n, x.max_sets)
        if x.energy:
            while n > 0:
                left = s.energy_value(p)
                for good, k in x.inputs:  # energy goods given as inputs cannot also pay the energy
                    left -= ENERGY_VALUE[good] * k * n
                if s.energy_cost(p, x.energy * n) <= left:
                    break
                n -= 1
        return n

    def run(self, s: BaseState, p: int, b: int, n: int) -> None:
        pr = K.PARAMS[b]
        g = s.goods[p]
        for x, k in pr["inputs"].items():
            g[K.GI[x]] -= k * n
        for x, k in pr.get("outputs", {}).items():
            g[K.GI[x]] += k * n
        fr_ = pr.get("francs", 0) * n + (pr.get("bonus_francs", 0) if n else 0)
        if fr_:
            s.gain_francs(p, fr_)
        if pr.get("energy"):
            s.push_pay(p, "energy", s.energy_cost(p, pr["energy"] * n))


def material_need(s: BaseState, p: int, b: int, wood_discount: int = 0) -> dict[int, int]:
    """Building materials ``p`` pays for ``b``: Sawmill 1 wood less, Masons'
    Guild 1 clay (or else 1 brick) less (seeds/000 Buildings Overview)."""
    need = dict(K.MATERIALS[b])
    if wood_discount and need.get(WOOD):
        need[WOOD] -= wood_discount
    if s.owner[K.MASONS_GUILD] == p:
        if need.get(K.CLAY):
            need[K.CLAY] -= 1
        elif need.get(BRICK):
            need[BRICK] -= 1
    return need


def can_pay_materials(g: list[int], need: dict[int, int]) -> bool:
    """Brick may replace clay and steel may replace iron (seeds/000, Constructing)."""
    wood, clay, brick = need.get(WOOD, 0), need.get(K.CLAY, 0), need.get(BRICK, 0)
    iron, steel = need.get(IRON, 0), need.get(STEEL, 0)
    return (
        g[WOOD] >= wood
        and g[BRICK] >= brick
        and g[K.CLAY] + g[BRICK] - brick >= clay
        and g[STEEL] >= steel
        and g[IRON] + g[STEEL] - steel >= iron
    )


def pay_materials(g: list[int], need: dict[int, int]) -> None:
    g[WOOD] -= need.get(WOOD, 0)
    g[BRICK] -= need.get(BRICK, 0)
    g[STEEL] -= need.get(STEEL, 0)
    for std, up in ((K.CLAY, BRICK), (IRON, STEEL)):
        n = need.get(std, 0)
        use = min(n, g[std])
        g[std] -= use
        g[up] -= n - use


class Build(Effect):
    """Building Firms, Construction Firm (up to two) and Sawmill (1 wood less,
    only buildings made with wood): build a top building of the proposals."""

    name = "build"

    def candidates(self, s: BaseState, p: int, b: int) -> list[int]:
        pr = K.PARAMS[b]
        disc = pr.get("wood_discount", 0)
        tops = []
        for pile in s.proposal_piles:
            if pile and K.BUILDABLE[pile[0]] and pile[0] not in tops:
                tops.append(pile[0])
        if s.owner[K.FOOTBALL_STADIUM] == -1 and any(not pile for pile in s.proposal_piles):
            tops.append(K.FOOTBALL_STADIUM)
        g = s.goods[p]
        out = []
        for c in tops:
            if disc and not dict(K.MATERIALS[c]).get(WOOD):
                continue
            if can_pay_materials(g, material_need(s, p, c, disc)):
                out.append(c)
        return out

    def can_use(self, s: BaseState, p: int, b: int) -> bool:
        return bool(self.candidates(s, p, b))

    def start(self, s: BaseState, p: int, b: int) -> None:
        s.stack.append(Sub(p, self.name, b, (K.PARAMS[b]["count"],)))

    def options(self, s: BaseState, fr: Sub) -> list[BaseAction]:
        p, b, (left,) = fr.player, fr.building, fr.data
        out = [BaseAction("build", ref=c) for c in self.candidates(s, p, b)]
        if left < K.PARAMS[b]["count"] and (out or s.francs[p]) and not s.final_stage:
            # seeds/000 Construction Firm: build one, buy the next with an additional action,
            # then build the third in the pile
            fr_ = s.francs[p]
            for pile in s.proposal_piles:
                price = K.PRICE[pile[0]] if pile else None
                if price is not None and price <= fr_:
                    out.append(BaseAction("buy", ref=pile[0]))
            if out:
                out.append(DONE)
        return out

    def apply(self, s: BaseState, fr: Sub, a: BaseAction) -> None:
        p, b, (left,) = fr.player, fr.building, fr.data
        s.stack.pop()
        if a.verb == "done":
            return
        c = a.ref
        if a.verb == "buy":
            price = K.PRICE[c]
            if price is None:
                raise AssertionError(f"{K.NAME[c]} has no price: options() offers only priced buildings")
            s.pay_francs(p, price)
            s.remove_from_piles(c)
            s.take_building(p, c)
            s.stack.append(fr)
            return
        pay_materials(s.goods[p], material_need(s, p, c, K.PARAMS[b].get("wood_discount", 0)))
        s.remove_from_piles(c)
        s.take_building(p, c)
        if left > 1:
            s.stack.append(Sub(p, self.name, b, (left - 1,)))


class Wharf(Effect):
    """Build one available ship (top of its pile): materials + 3 energy; the
    first non-wooden ship at this Wharf modernises it with 1 brick.  Or swap
    an iron ship for the Luxury Yacht (seeds/000 Special Buildings)."""

    name = "wharf"

    def choices(self, s: BaseState, p: int, b: int) -> list[BaseAction]:
        g = s.goods[p]
        out = []
        mod = s.modernised[K.WHARVES.index(b)]
        for t in K.SHIP_TYPES:
            if not s.ship_piles[t]:
                continue
            st = s.ship_types[t]
            mat = K.GI[st.material]
            need = {mat: st.material_count}
            if t != "wooden" and not mod:
                need[BRICK] = need.get(BRICK, 0) + 1
            if not can_pay_materials(g, need):
                continue
            left = s.energy_value(p) - (st.material_count if mat == WOOD else 0)
            if s.energy_cost(p, st.build_energy) > left:
                continue
            out.append(BaseAction("build ship", ref=ship_type_index(t)))
        if s.owner[K.LUXURY_YACHT] == -1 and any(s.ship_cards[x][0] == "iron" for x in s.ships[p]):
            out.append(SWAP_YACHT)
        return out

    def can_use(self, s: BaseState, p: int, b: int) -> bool:
        return bool(self.choices(s, p, b))

    def start(self, s: BaseState, p: int, b: int) -> None:
        s.stack.append(Sub(p, self.name, b, ()))

    def options(self, s: BaseState, fr: Sub) -> list[BaseAction]:
        return self.choices(s, fr.player, fr.building)

    def apply(self, s: BaseState, fr: Sub, a: BaseAction) -> None:
        p, b = fr.player, fr.building
        s.stack.pop()
        if a.verb == "swap yacht":
            irons = [x for x in s.ships[p] if s.ship_cards[x][0] == "iron"]
            worst = min(irons, key=lambda x: s.ship_cards[x][1])
            s.ships[p].remove(worst)  # removed from the game
            s.take_building(p, K.LUXURY_YACHT)
            return
        t = K.SHIP_TYPES[a.ref]
        st = s.ship_types[t]
        need = {K.GI[st.material]: st.material_count}
        w = K.WHARVES.index(b)
        if t != "wooden" and not s.modernised[w]:
            need[BRICK] = need.get(BRICK, 0) + 1
            s.modernised[w] = True
        pay_materials(s.goods[p], need)
        s.ships[p].append(s.ship_piles[t].pop())
        s.push_pay(p, "energy", s.energy_cost(p, st.build_energy))


class PickDistinct(Effect):
    """Take ``n`` different goods of ``goods``, one ``pick <good>`` at a time,
    in any order the player likes (Marketplace, Town Square).

    The frame keeps the goods picked so far as a tuple in ``goods`` order, so
    two orders of the same picks reach the same position (the same ``key``).
    :meth:`search_options` offers the search one canonical order (``goods``
    order), so that each set is searched once; people pick in any order."""

    goods: tuple[int, ...] = ()

    def count(self, s: BaseState, p: int, b: int) -> int:
        raise NotImplementedError

    def can_use(self, s: BaseState, p: int, b: int) -> bool:
        return self.count(s, p, b) >= 1

    def start(self, s: BaseState, p: int, b: int) -> None:
        s.stack.append(Sub(p, self.name, b, ((), min(len(self.goods), self.count(s, p, b)))))

    def options(self, s: BaseState, fr: Sub) -> list[BaseAction]:
        picked, left = fr.data
        if left <= 0:
            return []
        return [BaseAction("pick", ref=g) for g in self.goods if g not in picked]

    def search_options(self, s: BaseState, fr: Sub) -> list[BaseAction]:
        """The picks in ``goods`` order only: after the last pick, leaving enough goods for the rest."""
        picked, left = fr.data
        if left <= 0:
            return []
        start = self.goods.index(picked[-1]) + 1 if picked else 0
        return [BaseAction("pick", ref=self.goods[i]) for i in range(start, len(self.goods) - left + 1)]

    def apply(self, s: BaseState, fr: Sub, a: BaseAction) -> None:
        p, b, (picked, left) = fr.player, fr.building, fr.data
        g = a.ref if a.verb == "pick" else None
        if g is None or g not in self.goods or g in picked or left <= 0:
            raise ActionError(f"'{a}' is not a pick here: {', '.join(map(str, self.options(s, fr)))}")
        s.stack.pop()
        s.goods[p][g] += 1
        if left > 1:
            picked = tuple(x for x in self.goods if x in picked or x == g)
            s.stack.append(Sub(p, self.name, b, (picked, left - 1)))
        else:
            self.finished(s, p, b)

    def finished(self, s: BaseState, p: int, b: int) -> None:
        pass


class Marketplace(PickDistinct):
    """2 different standard goods from the supply (+1 per Craftsman's building,
    at most 8), then look at the top two special buildings and reorder them."""

    name = "marketplace"
    goods = STANDARD

    def count(self, s: BaseState, p: int, b: int) -> int:
        base: int = K.PARAMS[b].get("base", 2)
        return min(8, base + s.count_type(p, "C"))

    def finished(self, s: BaseState, p: int, b: int) -> None:
        if len(s.special_pile) >= 2:
            s.stack.append(Sub(p, "peek", b, ()))


class Peek(Effect):
    name = "peek"

    def can_use(self, s: BaseState, p: int, b: int) -> bool:
        return False

    def options(self, s: BaseState, fr: Sub) -> list[BaseAction]:
        return [KEEP_ORDER, SWAP_ORDER]

    def apply(self, s: BaseState, fr: Sub, a: BaseAction) -> None:
        p = fr.player
        s.stack.pop()
        top = s.special_pile[:2]
        if a.verb == "swap order":
            top.reverse()
            s.special_pile[:2] = top
            s.peek_known = [() for _ in s.peek_known]
        s.peek_known[p] = tuple(top)


class TownSquare(PickDistinct):
    """One upgraded good (not steel, all different) per Craftsman's building."""

    name = "town_square"
    goods = tuple(g for g in K.UPGRADED if g != STEEL)

    def count(self, s: BaseState, p: int, b: int) -> int:
        return s.count_type(p, "C")


class BlackMarket(Effect):
    """2 of each good (and francs) whose Offer space is empty."""

    name = "black_market"

    def can_use(self, s: BaseState, p: int, b: int) -> bool:
        return 0 in s.offer_spaces

    def start(self, s: BaseState, p: int, b: int) -> None:
        n = K.PARAMS[b]["amount"]
        for i, v in enumerate(s.offer_spaces):
            if v == 0:
                if i == 0:
                    s.gain_francs(p, n)
                else:
                    s.goods[p][K.offer_good(i)] += n


class ArtsCentre(Effect):
    """4 francs per other player whose disc is on one of the user's buildings."""

    name = "arts_centre"

    def visitors(self, s: BaseState, p: int) -> int:
        return sum(1 for q, d in enumerate(s.discs) if q != p and d >= 0 and s.owner[d] == p)

    def can_use(self, s: BaseState, p: int, b: int) -> bool:
        return self.visitors(s, p) >= 1

    def start(self, s: BaseState, p: int, b: int) -> None:
        s.gain_francs(p, K.PARAMS[b]["francs_per_visitor"] * self.visitors(s, p))


class LocalCourt(Effect):
    """1 loan: return it; 2: return 1 and take 2 francs; 3+: return 2, or 1 and 2 francs."""

    name = "local_court"

    def can_use(self, s: BaseState, p: int, b: int) -> bool:
        return s.loans[p] >= 1

    def start(self, s: BaseState, p: int, b: int) -> None:
        n = s.loans[p]
        if n == 1:
            s.loans[p] = 0
        elif n == 2:
            s.loans[p] = 1
            s.gain_francs(p, 2)
        else:
            s.stack.append(Sub(p, self.name, b, ()))

    def options(self, s: BaseState, fr: Sub) -> list[BaseAction]:
        return [BaseAction("return loans", n=2), BaseAction("return loans", n=1)]

    def apply(self, s: BaseState, fr: Sub, a: BaseAction) -> None:
        p = fr.player
        s.stack.pop()
        if a.n == 2:
            s.loans[p] -= 2
        else:
            s.loans[p] -= 1
            s.gain_francs(p, 2)


class ShippingLine(Effect):
    """3 energy per ship used (wooden 2, iron 3, steel 4 goods; luxury liners
    and the Luxury Yacht ship nothing); each good earns its shipping value."""

    name = "shipping_line"

    def capacities(self, s: BaseState, p: int) -> list[int]:
        st = s.ship_types
        caps = [st[s.ship_cards[x][0]].shipping_capacity for x in s.ships[p]]
        return sorted((c for c in caps if c > 0), reverse=True)

    def max_ships(self, s: BaseState, p: int, b: int) -> int:
        caps = self.capacities(s, p)
        if sum(s.goods[p]) == 0:
            return 0
        e = K.PARAMS[b]["energy_per_ship"]
        k = len(caps)
        while k > 0 and s.energy_cost(p, e * k) > s.energy_value(p):
            k -= 1
        return k

    def can_use(self, s: BaseState, p: int, b: int) -> bool:
        return self.max_ships(s, p, b) >= 1

    def start(self, s: BaseState, p: int, b: int) -> None:
        s.stack.append(Sub(p, self.name, b, ()))

    def options(self, s: BaseState, fr: Sub) -> list[BaseAction]:
        p, b = fr.player, fr.building
        out = []
        for k in range(1, self.max_ships(s, p, b) + 1):
            out.append(BaseAction("use ships", n=k))
            out.append(BaseAction("use ships choose", n=k))
        return out

    def apply(self, s: BaseState, fr: Sub, a: BaseAction) -> None:
        p, b = fr.player, fr.building
        s.stack.pop()
        k = a.n
        cap = sum(self.capacities(s, p)[:k])
        if a.verb == "use ships choose":
            s.stack.append(Sub(p, "ship_pick", b, (cap, 0)))
        else:
            s.stack.append(ShipGoods(p, cap))
        s.push_pay(p, "energy", s.energy_cost(p, K.PARAMS[b]["energy_per_ship"] * k))


class ShipPick(Effect):
    """The Shipping Line with the goods chosen by the player: for each good held,
    most valuable first, how many to ship (``ship 3 leather``)."""

    name = "ship_pick"

    def can_use(self, s: BaseState, p: int, b: int) -> bool:
        return False

    def _next(self, s: BaseState, p: int, i: int) -> int:
        g = s.goods[p]
        while i < len(SHIP_ORDER) and not g[SHIP_ORDER[i]]:
            i += 1
        return i

    def options(self, s: BaseState, fr: Sub) -> list[BaseAction]:
        p, (cap, i) = fr.player, fr.data
        i = self._next(s, p, i)
        if cap <= 0 or i >= len(SHIP_ORDER):
            return []
        good = SHIP_ORDER[i]
        top = min(cap, s.goods[p][good])
        return [BaseAction("ship", ref=good, n=n) for n in range(top, -1, -1)]

    def apply(self, s: BaseState, fr: Sub, a: BaseAction) -> None:
        p, b, (cap, i) = fr.player, fr.building, fr.data
        s.stack.pop()
        i = self._next(s, p, i)
        good = SHIP_ORDER[i]
        n = a.n
        if n:
            s.goods[p][good] -= n
            s.gain_francs(p, n * SHIP_VALUE[good])
        s.stack.append(Sub(p, self.name, b, (cap - n, i + 1)))


SHIP_ORDER: Final = sorted(range(NG), key=lambda g: (-SHIP_VALUE[g], g))


def ship_goods(s: BaseState, p: int, cap: int) -> None:
    g = s.goods[p]
    earned = 0
    for good in SHIP_ORDER:
        if cap <= 0:
            break
        n = min(cap, g[good])
        g[good] -= n
        cap -= n
        earned += n * SHIP_VALUE[good]
    if earned:
        s.gain_francs(p, earned)


#: standard goods sold at the Bridge, cheapest first (the remainder kept is the most valuable)
BRIDGE_ORDER: Final = sorted(STANDARD, key=lambda g: (SHIP_VALUE[g], g))


class Bridge(Effect):
    """Bridge over the Seine: 1 franc per upgraded good, 1 per 3 standard goods."""

    name = "bridge"

    def counts(self, s: BaseState, p: int) -> tuple[int, int]:
        g = s.goods[p]
        up = sum(g[x] for x in range(NG) if IS_UPGRADED[x])
        return up, sum(g[x] for x in STANDARD)

    def can_use(self, s: BaseState, p: int, b: int) -> bool:
        up, std = self.counts(s, p)
        return up >= 1 or std >= 3

    def start(self, s: BaseState, p: int, b: int) -> None:
        s.stack.append(Sub(p, self.name, b, ()))

    def options(self, s: BaseState, fr: Sub) -> list[BaseAction]:
        p, data = fr.player, fr.data
        if data:  # choosing good by good: (index, upgraded sold, standard sold)
            i = self._next(s, p, data[0])
            if i >= NG:
                return []
            return [BaseAction("exchange good", ref=i, n=n) for n in range(s.goods[p][i], -1, -1)]
        up, std = self.counts(s, p)
        out = []
        if up:
            out.append(BaseAction("exchange class", ref=UPGRADED_CLASS))
        if std >= 3:
            out.append(BaseAction("exchange class", ref=STANDARD_CLASS))
        if up and std >= 3:
            out.append(BaseAction("exchange class", ref=ALL_CLASS))
        out.append(CHOOSE_GOODS)
        return out

    @staticmethod
    def _next(s: BaseState, p: int, i: int) -> int:
        g = s.goods[p]
        while i < NG and not g[i]:
            i += 1
        return i

    def apply(self, s: BaseState, fr: Sub, a: BaseAction) -> None:
        p, b, data = fr.player, fr.building, fr.data
        s.stack.pop()
        g = s.goods[p]
        if a.verb == "choose goods" or data:
            i, up, std = data or (0, 0, 0)
            if data:
                i = self._next(s, p, i)
                n = a.n
                g[i] -= n
                if IS_UPGRADED[i]:
                    up += n
                else:
                    std += n
                i += 1
            if self._next(s, p, i) < NG:
                s.stack.append(Sub(p, self.name, b, (i, up, std)))
            elif up + std // 3:
                s.gain_francs(p, up + std // 3)
            return
        francs = 0
        if a.ref in (UPGRADED_CLASS, ALL_CLASS):
            for x in range(NG):
                if IS_UPGRADED[x]:
                    francs += g[x]
                    g[x] = 0
        if a.ref in (STANDARD_CLASS, ALL_CLASS):
            sell = sum(g[x] for x in STANDARD) // 3 * 3
            francs += sell // 3
            for x in BRIDGE_ORDER:
                n = min(sell, g[x])
                g[x] -= n
                sell -= n
        s.gain_francs(p, francs)


class BusinessOffice(Effect):
    """Any 4 goods for 1 steel, and/or 1 good for 1 charcoal, leather or brick.

    Sub-decisions: ``give <good>`` four times (non-decreasing order) or ``skip
    steel``; then ``trade <good>`` or ``done``; then ``for <target>``."""

    name = "business_office"
    TARGETS = (CHARCOAL, LEATHER, BRICK)

    def can_use(self, s: BaseState, p: int, b: int) -> bool:
        return sum(s.goods[p]) >= 1

    def start(self, s: BaseState, p: int, b: int) -> None:
        stage = "steel" if sum(s.goods[p]) >= 4 else "trade"
        s.stack.append(Sub(p, self.name, b, (stage, 0, ())))

    def options(self, s: BaseState, fr: Sub) -> list[BaseAction]:
        p, (stage, last, picked) = fr.player, fr.data
        g = s.goods[p]
        if stage == "steel":
            left = 4 - len(picked)
            # goods from index ``last`` on, enough of them left for the remaining picks
            out = []
            for x in range(last, NG):
                avail = g[x] - picked.count(x)
                if avail >= 1 and sum(g[y] - picked.count(y) for y in range(x, NG)) >= left:
                    out.append(BaseAction("give", ref=x))
            if not picked:
                out.append(SKIP_STEEL)
            return out
        if stage == "trade":
            return [BaseAction("trade", ref=x) for x in range(NG) if g[x]] + [DONE]
        return [BaseAction("for", ref=t) for t in self.TARGETS]

    def apply(self, s: BaseState, fr: Sub, a: BaseAction) -> None:
        p, b, (stage, last, picked) = fr.player, fr.building, fr.data
        s.stack.pop()
        g = s.goods[p]
        if stage == "steel":
            if a.verb == "skip steel":
                s.stack.append(Sub(p, self.name, b, ("trade", 0, ())))
                return
            x = a.ref
            picked = picked + (x,)
            if len(picked) == 4:
                for y in picked:
                    g[y] -= 1
                g[STEEL] += 1
                if sum(g) >= 1:
                    s.stack.append(Sub(p, self.name, b, ("trade", 0, ())))
            else:
                s.stack.append(Sub(p, self.name, b, ("steel", x, picked)))
            return
        if stage == "trade":
            if a.verb == "done":
                return
            s.stack.append(Sub(p, self.name, b, ("target", a.ref, ())))
            return
        g[last] -= 1
        g[a.ref] += 1


class Ironworks(Effect):
    """3 iron; pay 6 energy for a 4th."""

    name = "ironworks"

    def start(self, s: BaseState, p: int, b: int) -> None:
        pr = K.PARAMS[b]
        for g, n in pr["goods"].items():
            s.goods[p][K.GI[g]] += n
        if s.energy_value(p) >= s.energy_cost(p, pr["extra_energy"]):
            s.stack.append(Sub(p, self.name, b, ()))

    def options(self, s: BaseState, fr: Sub) -> list[BaseAction]:
        return [PAY_4TH_IRON, DONE]

    def apply(self, s: BaseState, fr: Sub, a: BaseAction) -> None:
        p, b = fr.player, fr.building
        s.stack.pop()
        if a.verb == "done":
            return
        pr = K.PARAMS[b]
        for g, n in pr["extra"].items():
            s.goods[p][K.GI[g]] += n
        s.push_pay(p, "energy", s.energy_cost(p, pr["extra_energy"]))


class Furriery(Effect):
    """Hides for bread (any number), and/or up to 2 leather for 5 francs each."""

    name = "furriery"

    def can_use(self, s: BaseState, p: int, b: int) -> bool:
        g = s.goods[p]
        return g[K.HIDES] >= 1 or g[LEATHER] >= 1

    def start(self, s: BaseState, p: int, b: int) -> None:
        stage = "hides" if s.goods[p][K.HIDES] else "leather"
        s.stack.append(Sub(p, self.name, b, (stage,)))

    def options(self, s: BaseState, fr: Sub) -> list[BaseAction]:
        p, b, (stage,) = fr.player, fr.building, fr.data
        g = s.goods[p]
        if stage == "hides":
            return [BaseAction("exchange good", ref=K.HIDES, n=n) for n in range(g[K.HIDES] + 1)]
        m = min(K.PARAMS[b]["leather_max"], g[LEATHER])
        return [BaseAction("exchange good", ref=LEATHER, n=n) for n in range(m + 1)] if m else []

    def apply(self, s: BaseState, fr: Sub, a: BaseAction) -> None:
        p, b, (stage,) = fr.player, fr.building, fr.data
        s.stack.pop()
        n = a.n
        g = s.goods[p]
        if stage == "hides":
            g[K.HIDES] -= n
            g[K.GI[K.PARAMS[b]["hide_to"]]] += n
            if g[LEATHER]:
                s.stack.append(Sub(p, self.name, b, ("leather",)))
        else:
            g[LEATHER] -= n
            if n:
                s.gain_francs(p, n * K.PARAMS[b]["leather_francs"])


class CoalTrader(Effect):
    """1 food for at most ``charcoal_max`` charcoal and/or 2 food per coal, at
    most ``coal_max`` coal; the food is added up and paid at once (seeds/000
    and, for the caps of 1 charcoal and 5 coal, seeds/002 Coal Trader).

    Sub-decisions: ``take K charcoal`` then ``take K coal``; taking nothing at
    all is not offered (a building entered must be used, seeds/000 Main Action B)."""

    name = "coal_trader"

    def food(self, s: BaseState, p: int) -> int:
        return s.food_value(p) + s.francs[p]

    def can_use(self, s: BaseState, p: int, b: int) -> bool:
        pr = K.PARAMS[b]
        cheapest: int = min(pr["charcoal_food"], pr["coal_food"])
        return self.food(s, p) >= cheapest

    def start(self, s: BaseState, p: int, b: int) -> None:
        s.stack.append(Sub(p, self.name, b, ("charcoal", 0)))

    def options(self, s: BaseState, fr: Sub) -> list[BaseAction]:
        p, b, (stage, n) = fr.player, fr.building, fr.data
        pr = K.PARAMS[b]
        f = self.food(s, p)
        if stage == "charcoal":
            lo = 0 if f >= pr["coal_food"] else 1  # 'take 0 charcoal' only if a coal is affordable
            hi = min(pr["charcoal_max"], f // pr["charcoal_food"])
            return [BaseAction("take good", ref=CHARCOAL, n=k) for k in range(lo, hi + 1)]
        left = f - n * pr["charcoal_food"]
        hi = min(pr["coal_max"], left // pr["coal_food"])
        return [BaseAction("take good", ref=COAL, n=k) for k in range(0 if n else 1, hi + 1)] or [
            BaseAction("take good", ref=COAL, n=0)
        ]

    def apply(self, s: BaseState, fr: Sub, a: BaseAction) -> None:
        p, b, (stage, n) = fr.player, fr.building, fr.data
        s.stack.pop()
        k = a.n
        pr = K.PARAMS[b]
        if stage == "charcoal":
            s.stack.append(Sub(p, self.name, b, ("coal", k)))
            return
        g = s.goods[p]
        g[CHARCOAL] += n
        g[COAL] += k
        cost = n * pr["charcoal_food"] + k * pr["coal_food"]
        if cost:
            s.push_pay(p, "food", cost)


class Zoo(Effect):
    """1/3 franc per cattle and per fish (rounded down); the animals stay."""

    name = "zoo"

    def animals(self, s: BaseState, p: int) -> int:
        g = s.goods[p]
        return g[K.CATTLE] + g[K.FISH]

    def can_use(self, s: BaseState, p: int, b: int) -> bool:
        divisor: int = K.PARAMS[b]["divisor"]
        return self.animals(s, p) >= divisor

    def start(self, s: BaseState, p: int, b: int) -> None:
        s.gain_francs(p, self.animals(s, p) // K.PARAMS[b]["divisor"])


class HarbourWatch(Effect):
    """Pay 1 franc to another player, send their disc home, enter that building
    (paying its entry fee if not its owner) and carry out its action."""

    name = "harbour_watch"

    def targets(self, s: BaseState, p: int, b: int) -> list[int]:
        fee = K.PARAMS[b]["francs"]
        if s.francs[p] < fee:
            return []
        out = []
        for q, d in enumerate(s.discs):
            if q == p or d < 0 or d == b or K.EFFECT[d] == "none" or d in out:
                continue
            s.francs[p] -= fee  # what is left after paying the other player
            ok = s.can_pay_fee(p, d) and EFFECT_OF[d].can_use(s, p, d)
            s.francs[p] += fee
            if ok:
                out.append(d)
        return out

    def can_use(self, s: BaseState, p: int, b: int) -> bool:
        return bool(self.targets(s, p, b))

    def start(self, s: BaseState, p: int, b: int) -> None:
        s.stack.append(Sub(p, self.name, b, ()))

    def options(self, s: BaseState, fr: Sub) -> list[BaseAction]:
        p, b = fr.player, fr.building
        return [BaseAction("evict", ref=d) for d in self.targets(s, p, b)]

    def apply(self, s: BaseState, fr: Sub, a: BaseAction) -> None:
        p, b = fr.player, fr.building
        s.stack.pop()
        d = a.ref
        q = s.discs.index(d)
        s.pay_francs(p, K.PARAMS[b]["francs"], q)
        s.discs[q] = -1
        s.enter(p, d)


HAUL_PAIRS: Final = ((1, 2), (2, 3), (3, 4), (4, 5), (5, 6))  # fish-wood ... grain-cattle


class HaulageFirm(Effect):
    """Pay 3 francs; take the goods of two adjacent Offer spaces (not francs)."""

    name = "haulage_firm"

    def pairs(self, s: BaseState) -> list[tuple[int, int]]:
        o = s.offer_spaces
        return [(i, j) for i, j in HAUL_PAIRS if o[i] or o[j]]

    def can_use(self, s: BaseState, p: int, b: int) -> bool:
        return s.francs[p] >= K.PARAMS[b]["francs"] and bool(self.pairs(s))

    def start(self, s: BaseState, p: int, b: int) -> None:
        s.stack.append(Sub(p, self.name, b, ()))

    def options(self, s: BaseState, fr: Sub) -> list[BaseAction]:
        p, b = fr.player, fr.building
        if s.francs[p] < K.PARAMS[b]["francs"]:
            return []
        return [BaseAction("haul", ref=i, n=j) for i, j in self.pairs(s)]

    def apply(self, s: BaseState, fr: Sub, a: BaseAction) -> None:
        p, b = fr.player, fr.building
        s.stack.pop()
        s.pay_francs(p, K.PARAMS[b]["francs"])
        for i in (a.ref, a.n):
            s.goods[p][K.offer_good(i)] += s.offer_spaces[i]
            s.offer_spaces[i] = 0


EFFECTS: Final[dict[str, Effect]] = {
    e.name: e
    for e in (
        NoAction(),
        TakeGoods(),
        Upgrade(),
        Exchange(),
        Build(),
        Wharf(),
        Marketplace(),
        Peek(),
        TownSquare(),
        BlackMarket(),
        ArtsCentre(),
        LocalCourt(),
        ShippingLine(),
        Bridge(),
        BusinessOffice(),
        ShipPick(),
        Ironworks(),
        Furriery(),
        CoalTrader(),
        Zoo(),
        HarbourWatch(),
        HaulageFirm(),
    )
}


from base_game.data import check_effects  # noqa: E402

check_effects(K.BUILDINGS, EFFECTS)
#: each building's effect, by building id (``EFFECTS[K.EFFECT[b]]`` in one index: the search asks for every building)
EFFECT_OF: Final[tuple[Effect, ...]] = tuple(EFFECTS[e] for e in K.EFFECT)


def use_building(s: BaseState, p: int, b: int) -> None:
    """Carry out ``b``'s action for ``p`` (its entry fee is paid)."""
    EFFECT_OF[b].start(s, p, b)
