"""Numbers from results: Elo fitting with intervals, SPRT, standings tables.

Pure functions of game records and scores (no games are played here):
maximum-likelihood Elo with 95% intervals (``ratings``), the sequential
probability ratio test (``sprt``) and the standings of a tournament
(``standings``). Imports ``core`` and ``formats``.
"""
