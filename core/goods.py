"""Goods of both games, with their food, energy and shipping values.

Values from seeds/000_3a1c2d85c0e157da.txt: the component list (fish 1 food,
smoked fish 2, coal 3 energy, coke 10), the Shipping Line entry (shipping
values) and the summary of upgrades.  Francs count as food 1:1, never the
reverse (REFERENCE.md, Rulings).
"""

from __future__ import annotations

from enum import Enum


class Good(str, Enum):
    FRANC = "franc"
    FISH = "fish"
    SMOKED_FISH = "smoked_fish"
    WOOD = "wood"
    CHARCOAL = "charcoal"
    CLAY = "clay"
    BRICK = "brick"
    IRON = "iron"
    STEEL = "steel"
    GRAIN = "grain"
    BREAD = "bread"
    CATTLE = "cattle"
    MEAT = "meat"
    HIDES = "hides"
    LEATHER = "leather"
    COAL = "coal"
    COKE = "coke"

    @property
    def label(self) -> str:
        return self.value.replace("_", " ")

    @classmethod
    def parse(cls, text: str) -> "Good":
        t = text.strip().lower().replace(" ", "_").replace("-", "_")
        aliases = {"francs": "franc", "hide": "hides", "loaves": "bread", "smoked": "smoked_fish"}
        t = aliases.get(t, t)
        if t.endswith("s") and t[:-1] in cls._value2member_map_:
            t = t[:-1]
        try:
            return cls(t)
        except ValueError:
            allowed = ", ".join(g.value for g in cls)
            raise ValueError(f"unknown good '{text}' (allowed: {allowed})") from None


#: food value of one unit (francs count as food, seeds/000 "Feeding")
FOOD_VALUE: dict[Good, int] = {
    Good.FRANC: 1,
    Good.FISH: 1,
    Good.SMOKED_FISH: 2,
    Good.BREAD: 2,
    Good.MEAT: 3,
}

#: energy value of one unit
ENERGY_VALUE: dict[Good, int] = {
    Good.WOOD: 1,
    Good.CHARCOAL: 3,
    Good.COAL: 3,
    Good.COKE: 10,
}

#: francs earned per unit shipped with the Shipping Line (seeds/000, Shipping Line)
SHIPPING_VALUE: dict[Good, int] = {
    **{g: 1 for g in Good if g is not Good.FRANC},
    Good.MEAT: 2, Good.SMOKED_FISH: 2, Good.CHARCOAL: 2, Good.HIDES: 2, Good.BRICK: 2, Good.IRON: 2,
    Good.CATTLE: 3, Good.BREAD: 3, Good.COAL: 3,
    Good.LEATHER: 4,
    Good.COKE: 5,
    Good.STEEL: 8,
}
