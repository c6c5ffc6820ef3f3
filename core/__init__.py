"""Game-independent pieces: goods, payment, cards, the game protocol, agents, search, saves, playtest."""
