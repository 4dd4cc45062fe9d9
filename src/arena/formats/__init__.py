"""Files: the JSON game record (what every game played leaves behind) and SGF.

:class:`~arena.formats.record.GameRecord` is the value the referee returns and
the store, the replayer and the standings read; :mod:`~arena.formats.sgf`
writes and reads it as Smart Game Format for Go, Gomoku and Othello. Imports
``core`` and ``games``.
"""
