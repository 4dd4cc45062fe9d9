"""Playing games between agents: time controls, the referee (``match``), openings,
schedules, the runner (processes, Ray), tournaments and the results store.

The data path is one way: :mod:`~arena.compete.match` plays one game and
returns a :class:`~arena.formats.record.GameRecord`; a tournament plans the
games (``schedule``), plays the missing ones (``runner``) and keeps each
record (``store``); :mod:`arena.stats` turns records into standings. Imports
every layer below it; only experiments, benchmarks and the CLI import it.
"""
