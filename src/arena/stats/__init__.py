"""Numbers from results: Elo fitting with intervals, SPRT, standings tables."""
