"""What the browser draws: one position of any game as plain JSON.

The front end knows four board kinds and nothing about rules: ``grid``
(stones in cells: Tic-tac-toe, Gomoku, Othello), ``go`` (stones on
intersections, star points), ``columns`` (Connect Four: a click anywhere in a
column drops a stone) and ``colosseum`` (walls on cell edges, two players,
reachable cells; a move is a destination then a wall side). Rows are listed
top first; ``cells`` maps every legal move's notation to the cell it marks, so
search statistics (which name moves) land on the right cell.

>>> import arena
>>> game = arena.load_game("tictactoe")
>>> v = board_view(game.play_moves(game.parse_moves("b2 a1")), last=game.parse_move("a1"))
>>> v["kind"], v["rows"], v["cols"], v["stones"], v["last"]
('grid', 3, 3, [[0, 0, 1], [1, 1, 0]], [0, 0])
>>> v["cells"]["c3"], len(v["cells"])
([2, 2], 7)
>>> c4 = arena.load_game("connect4")
>>> board_view(c4.play_moves(c4.parse_moves("4")))["cells"]["4"]   # lands on row 4 of 6
[4, 3]

Tests: tests/web/test_view.py
"""

from __future__ import annotations

from typing import Any

from arena.core.game import Game, State

STYLES = {
    "tictactoe": {"stones": ["x", "o"]},
    "connect4": {"stones": ["red", "yellow"]},
    "othello": {"stones": ["black", "white"], "board": "green"},
    "gomoku": {"stones": ["black", "white"], "board": "wood"},
    "go": {"stones": ["black", "white"], "board": "wood"},
    "colosseum": {"stones": ["a", "b"]},
}
"""How each game's two sides look (CSS classes of the front end)."""


def board_view(state: State, last: int | None = None) -> dict[str, Any]:
    """The position as the front end draws it (see the module docstring); ``last``
    is the move that led to it, if any (marked on the board)."""
    game = state.game
    view: dict[str, Any] = {
        "game": game.name,
        "names": list(game.player_names),
        "style": STYLES.get(game.name, {"stones": ["black", "white"]}),
        "toMove": state.to_move,
        "terminal": state.is_terminal(),
        "stones": [],
        "last": None,
        "cells": {},
        "pass": None,
        "counts": None,
    }
    legal = state.legal_moves()
    if game.name == "colosseum":
        _colosseum(state, view, legal, last)
    elif game.name == "connect4":
        _columns(state, view, legal, last)
    else:
        _grid(state, view, legal, last)
    k = getattr(game, "k", None)
    if k is not None and view["terminal"] and max(state.returns()) > 0:
        view["win"] = winning_cells(view["stones"], k, bool(getattr(game, "exact", False)))
    return view


def winning_cells(stones: list[list[int]], k: int, exact: bool = False) -> list[list[int]]:
    """The cells of every line of ``k`` or more stones of one side (exactly ``k`` when
    ``exact``), in the view's ``[row, column]``, for the board to mark a win.

    >>> winning_cells([[0, 0, 0], [1, 1, 0], [2, 2, 0], [0, 1, 1]], 3)
    [[0, 0], [1, 1], [2, 2]]
    """
    owner = {(r, c): who for r, c, who in stones}
    found: set[tuple[int, int]] = set()
    for (r, c), who in owner.items():
        for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
            if owner.get((r - dr, c - dc)) == who:
                continue  # not where this run starts
            run = [(r, c)]
            while owner.get((run[-1][0] + dr, run[-1][1] + dc)) == who:
                run.append((run[-1][0] + dr, run[-1][1] + dc))
            if len(run) == k or (len(run) > k and not exact):
                found.update(run)
    return [list(cell) for cell in sorted(found)]


def _grid_cells(game: Game) -> tuple[int, int, list[str], list[str]]:
    grid = game.grid  # type: ignore[attr-defined]
    return grid.rows, grid.cols, list(grid.letters), [grid.row_label(r) for r in range(grid.rows)]


def _grid(state: State, view: dict[str, Any], legal: tuple[int, ...], last: int | None) -> None:
    game = state.game
    rows, cols, letters, labels = _grid_cells(game)
    # Go and Gomoku are played on the intersections of a wooden board.
    view.update(kind="go" if game.name in ("go", "gomoku") else "grid", rows=rows, cols=cols)
    view.update(colLabels=letters, rowLabels=labels)
    if game.name == "othello":
        owner = [state.disc(cell) for cell in range(rows * cols)]  # type: ignore[attr-defined]
        view["counts"] = list(state.discs())  # type: ignore[attr-defined]
    elif game.name == "go":
        black, white = state.black, state.white  # type: ignore[attr-defined]
        owner = [0 if black >> p & 1 else 1 if white >> p & 1 else None for p in range(rows * cols)]
        view["stars"] = star_points(rows)
        view["komi"] = game.config["komi"]
    else:
        owner = _kinarow_owner(state, rows * cols)
        if game.name == "gomoku":  # the corner points and the centre, as on a renju board
            view["stars"] = [
                p for p in star_points(rows) if p[0] == p[1] or p[0] + p[1] == rows - 1
            ]
    view["stones"] = [
        [*divmod(cell, cols), who] for cell, who in enumerate(owner) if who is not None
    ]
    for move in legal:
        text = game.format_move(move)
        if text == "pass":
            view["pass"] = text
        else:
            view["cells"][text] = list(divmod(move, cols))
    if last is not None and game.format_move(last) != "pass":
        view["last"] = list(divmod(last, cols))


def _kinarow_owner(state: State, cells: int) -> list[int | None]:
    lines = state.game.lines  # type: ignore[attr-defined]
    owner: list[int | None] = [None] * cells
    for player, bits in enumerate(state.bits):  # type: ignore[attr-defined]
        for cell in lines.cells_of_bits(bits):
            owner[cell] = player
    return owner


def _columns(state: State, view: dict[str, Any], legal: tuple[int, ...], last: int | None) -> None:
    game = state.game
    rows, cols = game.rows, game.cols  # type: ignore[attr-defined]
    view.update(kind="columns", rows=rows, cols=cols)
    view.update(colLabels=[str(c + 1) for c in range(cols)], rowLabels=[""] * rows)
    owner = _kinarow_owner(state, rows * cols)
    # Cells count rows from the bottom; the view lists the top row first.
    height = [0] * cols
    for cell, who in enumerate(owner):
        if who is not None:
            r, c = divmod(cell, cols)
            view["stones"].append([rows - 1 - r, c, who])
            height[c] = max(height[c], r + 1)
    for move in legal:
        view["cells"][game.format_move(move)] = [rows - 1 - height[move], move]
    if last is not None:
        view["last"] = [rows - height[last], last]


def _colosseum(
    state: State, view: dict[str, Any], legal: tuple[int, ...], last: int | None
) -> None:
    game = state.game
    size = state.size  # type: ignore[attr-defined]
    view.update(kind="colosseum", rows=size, cols=size)
    view.update(colLabels=[str(c) for c in range(size)], rowLabels=[str(r) for r in range(size)])
    view["stones"] = [[r, c, who] for who, (r, c) in enumerate(state.positions)]  # type: ignore[attr-defined]
    view["walls"] = [
        [r, c, side]
        for r in range(size)
        for c in range(size)
        for side in "urdl"
        if state.has_wall(r, c, side)  # type: ignore[attr-defined]
    ]
    moves: dict[str, list[str]] = {}
    for move in legal:
        text = game.format_move(move)
        r, c, side = text.split(",")
        view["cells"][text] = [int(r), int(c)]
        moves.setdefault(f"{r},{c}", []).append(side)
    view["sides"] = moves
    """Destination cell -> the sides a wall may go on there (the second click)."""
    view["steps"] = state.max_steps  # type: ignore[attr-defined]
    if last is not None:
        r, c, side = game.format_move(last).split(",")
        view["last"] = [int(r), int(c)]
        view["lastWall"] = side
    if state.is_terminal():
        view["counts"] = list(state.regions or ())  # type: ignore[attr-defined]


def star_points(size: int) -> list[list[int]]:
    """The hoshi of a Go board: 4-4 points (3-3 below 13), sides and centre on odd boards.

    >>> star_points(9)
    [[2, 2], [2, 6], [6, 2], [6, 6], [4, 4]]
    >>> len(star_points(19)), star_points(5)
    (9, [[2, 2]])
    """
    if size < 7:
        return [[size // 2, size // 2]] if size % 2 else []
    edge = 3 if size >= 13 else 2
    far = size - 1 - edge
    points = [[edge, edge], [edge, far], [far, edge], [far, far]]
    if size % 2:
        mid = size // 2
        if size >= 13:
            points += [[edge, mid], [mid, edge], [mid, far], [far, mid]]
        points.append([mid, mid])
    return points
