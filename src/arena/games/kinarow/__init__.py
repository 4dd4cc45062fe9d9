"""k-in-a-row games: the shared rules of Tic-tac-toe, Connect Four and Gomoku
(``rules``: bitboard states with ``bits``, a mailbox playout) and the k-window
tables their heuristics share (``lines``). Each game's own folder holds its
notation and its heuristic.
"""
