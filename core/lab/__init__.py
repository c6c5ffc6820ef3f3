"""The designer's lab, one floor above the engine: playtests, balance, tuning, skill depth, reviews,
reports, the designer's measures and statistics.

The lab builds on the engine floor (``core``'s protocol, games, search, agents, records, table) and
loads the games by name; no game and no module of the engine floor imports it.
"""
