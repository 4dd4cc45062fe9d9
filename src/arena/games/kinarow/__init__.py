"""k-in-a-row games: the shared rules of Tic-tac-toe, Connect Four and Gomoku
(``rules``) and the line tables their heuristics share (``lines``)."""
