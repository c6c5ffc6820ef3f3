"""Balancing a game's data file: search small changes of its numbers until playtests meet targets.

* :mod:`core.datafile`: a card file's numbers as tunable fields, and the file written back;
* :mod:`core.lab.balance.measures`: the targets and how far a set of games is from them;
* :mod:`core.lab.balance.search`: the search (common random numbers, successive halving, resumable);
* :mod:`core.lab.balance.report`: the HTML report, before and after.
"""
