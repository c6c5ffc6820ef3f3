"""Game-independent pieces: goods, payment, cards, the game protocol, agents, search, saves, playtest."""

from core import compiled

# which engine this process runs (compiled or pure Python), decided before any engine module is imported
compiled.install()
