"""Every seed in lehavre, derived by one function from a parent seed and a label.

A seed that is not given (``--seed``, a run's seed, a review's seed) is derived from the one above it
with :func:`derive_seed` and a label saying what it is for, so two uses never share a stream and the
same parents always give the same seeds, in every process and on every machine.

=======================  ============================  =======================================
label                    parent                        what the index is
=======================  ============================  =======================================
:data:`GAME`             a run's seed (playtest,       the game's number in the run
                         tuning's matches)
:data:`SEAT`             a game's seed                 the seat (its agent: :mod:`core.table`)
:data:`PERSON_SEATS`     a game's seed                 players, people (the people's seats drawn)
:data:`HINT`             a game's seed                 the number of actions played ('hint')
:data:`MOVE`             an ``ai`` agent's seed        the number of actions played (its search)
:data:`NOISE`            a search's seed               (none: its draw among near-best moves)
:data:`REVIEW`           a review's seed               the decision's number
:data:`NET_AGENT`        the number of actions played  the seat (``join --agent``: a client is
                                                       never told the game's seed)
:data:`BALANCE_CHECK`    a balance search's seed       (none: the run seed of its checks)
:data:`BALANCE_ORDER`    a balance search's seed       round, candidate (the fields' order)
:data:`LONGRUN_SETUP`    a long measurement run's      the pair of games (one set-up, both
                         seed                          seats)
:data:`LONGRUN_AGENT`    a long measurement's set-up   the agent's place in the run's list
:data:`LONGRUN_PERTURB`  a long measurement run's      the pair of games (its data's perturbation)
                         seed
:data:`LONGRUN_CONFIRM`  0 (none)                      the confirmation run's name, the attempt
                                                       (the first seed no run of the plan uses)
:data:`LONGRUN_RACE`     0 (none)                      the race run's name, the attempt (the
                                                       first seed no run of the plan uses)
=======================  ============================  =======================================

The values for :data:`GAME` and :data:`SEAT` are those of the stored playtest runs (their games and
agents are reproduced by them), :data:`BALANCE_CHECK`'s those of the stored balance checks, and the
long measurements' those of the games in their store.
"""

from __future__ import annotations

import hashlib

#: game ``i`` of a run
GAME = "lehavre-playtest-game"
#: the agent of a seat
SEAT = "lehavre-playtest-agent"
#: the seats the people take, drawn
PERSON_SEATS = "lehavre-person-seats"
#: the agent that gives a hint
HINT = "lehavre-hint"
#: an ``ai`` agent's search at one decision (the hidden cards re-dealt, the root's order)
MOVE = "lehavre-search-move"
#: a search's draw among the root moves within its noise of the best
NOISE = "lehavre-search-noise"
#: the search that reviews one decision
REVIEW = "lehavre-review"
#: the agent of a network client (``join --agent``)
NET_AGENT = "lehavre-net-agent"
#: the run seed of a balance search's checks
BALANCE_CHECK = "lehavre-balance-check"
#: the order a balance search tries a candidate's fields in
BALANCE_ORDER = "lehavre-balance-order"
#: the set-up of games ``2 pair`` and ``2 pair + 1`` of a long measurement's run
LONGRUN_SETUP = "lehavre-longrun-setup"
#: an agent of a long measurement (by its place in the run's list, not its seat)
LONGRUN_AGENT = "lehavre-longrun-agent"
#: the perturbation of the data of games ``2 pair`` and ``2 pair + 1`` of a long measurement's perturbed run
LONGRUN_PERTURB = "lehavre-longrun-perturb"
#: a confirmation run's seed in the long measurements' plan (from the run's name), one no other run uses
LONGRUN_CONFIRM = "lehavre-longrun-confirm"
#: a race run's seed in the long measurements' plan (from the run's name), one no other run uses
LONGRUN_RACE = "lehavre-longrun-race"

#: the seed's bits (15 hexadecimal digits of a SHA-256)
SEED_BITS = 60


def derive_seed(parent: int, label: str, *index: int | str) -> int:
    """The 60-bit seed for ``label`` (and ``index``) under ``parent``: the one derivation.

    Stable across runs, processes and machines (a SHA-256 of ``label:parent:index...``)."""
    text = ":".join([label, str(parent), *(str(i) for i in index)])
    return int(hashlib.sha256(text.encode()).hexdigest()[: SEED_BITS // 4], 16)


__all__ = [
    "BALANCE_CHECK",
    "BALANCE_ORDER",
    "GAME",
    "HINT",
    "LONGRUN_AGENT",
    "LONGRUN_CONFIRM",
    "LONGRUN_PERTURB",
    "LONGRUN_RACE",
    "LONGRUN_SETUP",
    "MOVE",
    "NET_AGENT",
    "NOISE",
    "PERSON_SEATS",
    "REVIEW",
    "SEAT",
    "derive_seed",
]
