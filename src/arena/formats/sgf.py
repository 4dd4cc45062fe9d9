"""SGF (Smart Game Format, FF[4]) for Go, Othello and Gomoku games.

:func:`to_sgf` writes a :class:`~arena.formats.record.GameRecord` as one SGF game
tree; :func:`read_sgf` reads every game of an SGF collection (its main lines)
and :func:`from_sgf` the one game of a file, as a game spec and moves in
arena's notation, so records round-trip. :func:`iter_sgf` reads a collection
piece by piece and yields each game as its tree closes: a file of 100,000 games
is listed in the memory of one game.

What goes where
---------------
* ``GM`` is the game (Go 1, Othello 2, Gomoku 4), ``SZ`` the board size and
  ``KM`` Go's komi. ``RU`` holds the whole arena spec (``go:size=9,ko=simple``),
  as the rules the game was played by: it keeps the parameters SGF has no
  property for. When reading, ``SZ`` and ``KM`` win over ``RU``, and an ``RU``
  that is not an arena spec of the same game (``RU[Japanese]``) is ignored.
* ``PB``/``PW`` are the agent specs (player 0 is Black), ``RE`` the result
  (:func:`sgf_result`) and the root's ``C`` how the game ended, e.g.
  ``time: 1.204 s for a 1 s move``. Times per move stay in the JSON record.
* Go's handicap (``go:handicap=N``) is ``HA[N]`` with the stones as ``AB`` in the
  root, and White's move first; reading accepts setup stones only as that.
* A point is two letters, column then row, counted from the TOP-left corner;
  a pass is ``[]`` (Go also reads FF[3]'s ``[tt]``). Gomoku has no pass.

>>> from arena.formats.record import GameRecord
>>> record = GameRecord(game="go:size=5", players=("random", "mcts:rollouts=10"),
...                     moves=["C3", "pass", "pass"], returns=(1, -1), score=17.5)
>>> text = to_sgf(record)
>>> print(text)  # doctest: +ELLIPSIS
(;FF[4]CA[UTF-8]AP[arena:...]GM[1]SZ[5]KM[7.5]RU[go:size=5]PB[random]PW[mcts:rollouts=10]
RE[B+17.5]C[normal]
;B[cc];W[];B[])
>>> from_sgf(text)
('go:size=5', ['C3', 'pass', 'pass'])
>>> from_sgf("(;GM[2]SZ[8];B[dc];W[ce])")
('othello', ['d3', 'c5'])
>>> from_sgf("(;GM[1]SZ[9];B[jj])")
Traceback (most recent call last):
...
arena.core.errors.ArenaError: SGF move 1: B[jj] is off the 9x9 board

Tests: tests/formats/test_sgf.py
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache

from arena.core.errors import ArenaError, excerpt
from arena.core.game import Game
from arena.core.spec import is_digits, split_spec
from arena.core.version import VERSION
from arena.core.words import plural
from arena.formats.record import REASONS, GameRecord
from arena.games import load_game

__all__ = ["SgfGame", "from_sgf", "iter_sgf", "read_sgf", "sgf_result", "to_sgf"]

GM_CODES = {"go": 1, "othello": 2, "gomoku": 4}
"""SGF's game numbers for the games arena writes and reads."""
_GAME_OF_CODE = {code: name for name, code in GM_CODES.items()}
_LETTERS = "abcdefghijklmnopqrstuvwxyz"
_MOVES_PER_LINE = 12  # keeps the move lines under 80 columns
_SETUP = ("AB", "AW", "AE")

Node = dict[str, list[str]]


@dataclass
class SgfGame:
    """One game read from SGF: its arena spec, moves and the game-info properties."""

    game: str
    moves: list[str] = field(default_factory=list)
    players: tuple[str, str] = ("", "")
    """``PB`` and ``PW`` ("" when absent)."""
    result: str = ""
    """``RE`` as written, e.g. ``B+R`` or ``W+3.5`` ("" when absent)."""
    comment: str = ""
    """The root node's ``C``."""

    @property
    def reason(self) -> str | None:
        """How the game ended, from a comment written by :func:`to_sgf` (else None)."""
        head = self.comment.partition(":")[0].strip()
        return head if head in REASONS else None


# --- writing -------------------------------------------------------------------------


def to_sgf(record: GameRecord) -> str:
    """The record as one SGF game tree (see the module docstring for the properties)."""
    game = _sgf_game(record.game)
    header: list[tuple[str, str]] = [
        ("FF", "4"),
        ("CA", "UTF-8"),
        ("AP", f"arena:{VERSION}"),
        ("GM", str(GM_CODES[game.name])),
        ("SZ", str(game.config["size"])),
    ]
    if game.name == "go":
        header.append(("KM", _number(game.config["komi"])))
        if game.config["handicap"]:  # the stones as setup, White moves first
            header.append(("HA", str(game.config["handicap"])))
    header += [("RU", game.spec), ("PB", record.players[0]), ("PW", record.players[1])]
    ending = (
        [
            ("RE", sgf_result(record)),
            ("C", record.reason + (f": {record.detail}" if record.detail else "")),
        ]
        if record.finished
        else [
            ("C", f"unfinished after {plural(len(record.moves), 'move')}")
        ]  # no RE: no result yet
    )
    if record.game_id:
        ending.append(("GN", record.game_id))
    # The root on two lines (the game and players, then how it ended): each stays readable.
    root = "\n".join("".join(f"{k}[{_escape(v)}]" for k, v in part) for part in (header, ending))
    first = game.initial_state().to_move
    if first:  # a handicap: the black stones are setup (AB) in the root
        stones = [game.format_move(p) for p in _handicap_stones(game)]
        root += "AB" + "".join(f"[{_point(game, text, 0)}]" for text in stones)
    nodes = [
        f";{'BW'[(ply + first) % 2]}[{_point(game, text, ply + 1)}]"
        for ply, text in enumerate(record.moves)
    ]
    lines = ["".join(nodes[i : i + _MOVES_PER_LINE]) for i in range(0, len(nodes), _MOVES_PER_LINE)]
    return "\n".join([f"(;{root}", *lines]) + ")"


def sgf_result(record: GameRecord) -> str:
    """The ``RE`` value: ``B+R``/``W+T``/``B+F`` for resignations, time and other
    forfeits, ``W+3.5`` where the game has a score, ``B+`` where it has none, ``0``
    for a draw.

    >>> sgf_result(GameRecord("go", ("a", "b"), returns=(-1, 1), reason="time", loser=0))
    'W+T'
    >>> sgf_result(GameRecord("othello", ("a", "b"), returns=(1, -1), score=12))
    'B+12'
    >>> sgf_result(GameRecord("gomoku", ("a", "b"), returns=(0, 0)))
    '0'
    """
    winner = record.winner
    if winner is None:
        return "0"
    side = "BW"[winner]
    if record.reason == "time":
        return side + "+T"
    if record.reason == "resign":
        return side + "+R"
    if record.reason in ("illegal", "crash"):
        return side + "+F"
    return side + "+" + ("" if record.score is None else _number(abs(record.score)))


def _sgf_game(spec: str) -> Game:
    game = load_game(spec)
    if game.name not in GM_CODES:
        raise ArenaError(f"SGF supports {', '.join(GM_CODES)}, not {game.name}")
    return game


def _point(game: Game, text: str, number: int) -> str:
    """The SGF point of one move in arena notation ("" for a pass)."""
    try:
        move = game.parse_move(text)
    except ArenaError as exc:
        raise ArenaError(f"move {number}: {exc}") from None
    size = game.config["size"]
    if move == size * size:  # Go's and Othello's pass: the cell after the last
        return ""
    row, col = divmod(move, size)
    return _LETTERS[col] + _LETTERS[row]


def _handicap_stones(game: Game) -> tuple[int, ...]:
    """Go's handicap stones (the black stones of its initial position)."""
    return tuple(getattr(game, "handicap_stones", ()))


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("]", "\\]")


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


# --- reading -------------------------------------------------------------------------


def from_sgf(text: str) -> tuple[str, list[str]]:
    """The game spec and moves (arena notation) of an SGF file holding one game.

    The moves are not replayed: play them to check that they are legal.
    """
    parser = _Parser(text)
    # Reading stops where a second game starts: a collection of 12,000 games is refused
    # at once, not after every game was read.
    trees = parser.collection(most=1)
    if parser.more:
        raise ArenaError("SGF holds more than one game, not one (read_sgf reads them all)")
    try:
        game = _read_game(trees[0])
    except ArenaError as exc:
        raise ArenaError(f"SGF {exc}") from None
    return game.game, game.moves


def read_sgf(text: str) -> list[SgfGame]:
    """Every game of an SGF collection, following the main line (the first variation)."""
    return list(iter_sgf([text]))


def iter_sgf(pieces: Iterable[str]) -> Iterator[SgfGame]:
    """The games of an SGF collection given in pieces (a file read a block at a time),
    each yielded as its game tree closes; memory holds one game at a time.

    >>> [g.moves for g in iter_sgf(["(;GM[2]SZ[8];B[d", "c])(;GM[2]SZ[8];B[ce])"])]
    [['d3'], ['c5']]
    """
    trees = _split_trees(pieces)
    for number, (text, line, column) in enumerate(trees, 1):
        nodes = _Parser(text, line, column).collection()[0]
        try:
            game = _read_game(nodes)
        except ArenaError as exc:
            # "game N" in a collection: the first game's error looks one tree ahead.
            where = f" game {number}," if number > 1 or next(trees, None) else ""
            raise ArenaError(f"SGF{where} {exc}") from None
        yield game


_TREE_MARK = re.compile(r"[()\[]")
_VALUE_MARK = re.compile(r"[\\\]]")
_SPACE = re.compile(r"\s*")


def _split_trees(pieces: Iterable[str]) -> Iterator[tuple[str, int, int]]:
    """The text of each top-level game tree, with the line and column it starts at.

    Only parentheses outside values and the ends of values are followed here, with a
    regular expression from mark to mark; each tree's text is then parsed whole by
    :class:`_Parser`, which says what is wrong in an unclosed one. Text outside the
    trees is refused here, in the parser's words.
    """
    line, column = 1, 1  # where the next text not yet accounted for starts

    def advance(text: str) -> None:
        nonlocal line, column
        breaks = text.count("\n")
        if breaks:
            line += breaks
            column = len(text) - text.rfind("\n")
        else:
            column += len(text)

    held: list[str] = []  # the open tree's text from earlier pieces
    depth, in_value, escaped = 0, False, False
    start = (1, 1)
    found = False
    first = True
    for piece in pieces:
        if first and piece:
            piece = piece.removeprefix("\ufeff")
            first = False
        pos, end, tree_from = 0, len(piece), 0
        while pos < end:
            if depth == 0:
                space = _SPACE.match(piece, pos)
                assert space is not None  # matches the empty string
                advance(piece[pos : space.end()])
                pos = space.end()
                if pos == end:
                    break
                char = piece[pos]
                if char != "(":
                    at = f"SGF line {line}, column {column}"
                    if char == ")":
                        raise ArenaError(f"{at}: ')' without a '(' before it")
                    raise ArenaError(f"{at}: unexpected {char!r}: expected '(' to start a game")
                start, tree_from, depth, found = (line, column), pos, 1, True
                pos += 1
            elif escaped:
                escaped, pos = False, pos + 1
            elif in_value:
                mark = _VALUE_MARK.search(piece, pos)
                if mark is None:
                    pos = end
                elif piece[mark.start()] == "]":
                    in_value, pos = False, mark.end()
                else:  # a backslash: the next character is the value's, whatever it is
                    escaped, pos = True, mark.end()
            else:
                mark = _TREE_MARK.search(piece, pos)
                if mark is None:
                    pos = end
                    continue
                char, pos = piece[mark.start()], mark.end()
                if char == "[":
                    in_value = True
                elif char == "(":
                    depth += 1
                else:
                    depth -= 1
                    if depth == 0:
                        text = "".join(held) + piece[tree_from:pos]
                        held.clear()
                        advance(text)
                        yield (text, *start)
        if depth:
            held.append(piece[tree_from:])
    if depth:
        yield ("".join(held), *start)  # unclosed: the parser says where and why
    elif not found:
        raise ArenaError(
            f"SGF line {line}, column {column}: no game tree: an SGF file starts with '(;'"
        )


def _read_game(nodes: list[Node]) -> SgfGame:
    root = nodes[0]
    game = _game_of_root(root)
    moves: list[str] = []
    first = game.initial_state().to_move
    for index, node in enumerate(nodes):
        if any(key in node for key in _SETUP) and not (
            index == 0 and _is_handicap_setup(game, node)
        ):
            raise ArenaError(
                "setup stones (AB/AW/AE) are not supported: games start from the initial "
                "position (Go's handicap stones, HA with AB on the fixed points, excepted)"
            )
        colours = [c for c in "BW" if c in node]
        if not colours:
            continue
        number = len(moves) + 1
        if len(colours) == 2:
            raise ArenaError(f"move {number}: B and W in one node")
        colour, turn = colours[0], "BW"[(len(moves) + first) % 2]
        if colour != turn:
            raise ArenaError(f"move {number}: {colour} moves, but it is {turn}'s turn")
        values = node[colour]
        if len(values) != 1:
            raise ArenaError(f"move {number}: {colour} has {len(values)} values, not one")
        moves.append(_move_of_point(game, colour, values[0].strip(), number))
    return SgfGame(
        game=game.spec,
        moves=moves,
        players=(_simple(root, "PB"), _simple(root, "PW")),
        result=_simple(root, "RE"),
        comment=root.get("C", [""])[0],
    )


def _is_handicap_setup(game: Game, root: Node) -> bool:
    """Whether the root's setup is exactly the game's handicap: AB on its stones only."""
    if set(root) & {"AW", "AE"} or "AB" not in root:
        return False
    try:
        points = {game.parse_move(_move_of_point(game, "AB", v.strip(), 0)) for v in root["AB"]}
    except ArenaError:
        return False
    return bool(points) and points == set(_handicap_stones(game))


def _game_of_root(root: Node) -> Game:
    """The arena game the root's GM, SZ, KM and RU describe."""
    gm = _simple(root, "GM") or "1"  # SGF's default is Go
    if not is_digits(gm) or int(gm) not in _GAME_OF_CODE:
        known = ", ".join(f"{name} {code}" for name, code in GM_CODES.items())
        raise ArenaError(f"GM[{excerpt(gm)}] is not a game arena reads ({known})")
    name = _GAME_OF_CODE[int(gm)]
    params: dict[str, str] = {}
    rules = _simple(root, "RU")
    if rules.partition(":")[0].strip().lower() == name:
        try:
            params = split_spec(_load_game(rules).spec)[1]
        except ArenaError as exc:
            raise ArenaError(f"RU[{excerpt(rules)}]: {excerpt(str(exc), 200)}") from None
    size = _simple(root, "SZ")
    if size:
        columns, _, rows = size.partition(":")
        if not is_digits(columns.strip()) or (rows and rows.strip() != columns.strip()):
            raise ArenaError(f"SZ[{excerpt(size)}] is not the size of a square board")
        params["size"] = columns.strip()
    elif name == "go" and "size" not in params:
        params["size"] = "19"  # SGF's default size for Go (arena's is 9)
    handicap = _simple(root, "HA")
    if name == "go" and handicap not in ("", "0", "1") and "AB" in root:
        if not is_digits(handicap):
            raise ArenaError(f"HA[{handicap}] is not a number of stones")
        params["handicap"] = handicap
    if name == "go" and "KM" in root:
        komi = _simple(root, "KM")
        try:
            params["komi"] = _number(float(komi))
        except ValueError:
            raise ArenaError(f"KM[{excerpt(komi)}] is not a number") from None
    spec = name + (":" + ",".join(f"{k}={v}" for k, v in params.items()) if params else "")
    try:
        return _load_game(spec)
    except ArenaError as exc:  # SZ[99999]: the game says which sizes it has
        raise ArenaError(excerpt(str(exc), 200)) from None


@lru_cache(maxsize=64)
def _load_game(spec: str) -> Game:
    """The game of a spec, made once: a collection's games mostly share one."""
    return load_game(spec)


def _move_of_point(game: Game, colour: str, point: str, number: int) -> str:
    """One SGF move value in arena notation."""
    size = game.config["size"]
    if point == "" or (point == "tt" and game.name == "go" and size <= 19):
        if game.name == "gomoku":
            raise ArenaError(f"move {number}: {colour}[{point}] is a pass, and Gomoku has none")
        return "pass"
    if len(point) != 2 or any(c not in _LETTERS + _LETTERS.upper() for c in point):
        raise ArenaError(f"move {number}: {colour}[{excerpt(point)}] is not a point (two letters)")
    # Upper-case letters are FF[4]'s points 27..52: off every arena board.
    col, row = (_LETTERS.find(c) for c in point)
    if not (0 <= col < size and 0 <= row < size):
        raise ArenaError(f"move {number}: {colour}[{point}] is off the {size}x{size} board")
    return game.format_move(row * size + col)


def _simple(node: Node, key: str) -> str:
    """A SimpleText value: line breaks and tabs read as spaces, as FF[4] says."""
    values = node.get(key)
    return re.sub(r"\r\n|\n\r|\s", " ", values[0]).strip() if values else ""


class _Parser:
    """A reader of SGF text into game trees, each the list of its main-line nodes.

    The grammar is ``Collection = GameTree+``, ``GameTree = "(" Node+ GameTree* ")"``,
    ``Node = ";" Property*``, ``Property = Ident Value+`` and ``Value = "[" text "]"``
    with ``\\`` escaping the next character. Trees are walked with an explicit
    stack, so deeply nested variations cannot exhaust Python's recursion.
    """

    _RUN = re.compile(r"[^\\\]]*")  # a value's text up to the next escape or ']'
    _IDENT = re.compile(r"[A-Za-z]+")

    def __init__(self, text: str, line: int = 1, column: int = 1) -> None:
        self.text = text.removeprefix("\ufeff")
        self.pos = 0
        self.line, self.column = line, column
        """Where the text starts in its file (a tree read from a collection)."""
        self.more = False
        """Whether :meth:`collection` stopped at its ``most`` games with another to come."""

    def error(self, message: str, pos: int | None = None) -> ArenaError:
        at = self.pos if pos is None else pos
        breaks = self.text.count("\n", 0, at)
        line = self.line + breaks
        column = at - (self.text.rfind("\n", 0, at) + 1) + (1 if breaks else self.column)
        return ArenaError(f"SGF line {line}, column {column}: {message}")

    def peek(self) -> str:
        """The next character that is not white space ("" at the end)."""
        while self.pos < len(self.text) and self.text[self.pos].isspace():
            self.pos += 1
        return self.text[self.pos : self.pos + 1]

    def collection(self, most: int | None = None) -> list[list[Node]]:
        """The main lines of the collection's games; with ``most``, reading stops where
        game ``most + 1`` starts (and :attr:`more` says so)."""
        games: list[list[Node]] = []
        # One frame per open tree: [on the main line, nodes read, variations opened].
        stack: list[list[int]] = []
        while char := self.peek():
            if char == "(":
                if stack:
                    parent = stack[-1]
                    if not parent[1]:
                        raise self.error("a game tree starts with a node (';'), not '('")
                    main = parent[0] and not parent[2]
                    parent[2] += 1
                else:
                    if most is not None and len(games) >= most:
                        self.more = True
                        return games
                    main = True
                    games.append([])
                stack.append([main, 0, 0])
                self.pos += 1
            elif char == ")":
                if not stack:
                    raise self.error("')' without a '(' before it")
                if not stack[-1][1]:
                    raise self.error("empty game tree: a tree needs at least one node (';')")
                stack.pop()
                self.pos += 1
            elif char == ";":
                if not stack:
                    raise self.error("a node (';') outside a game tree: expected '('")
                frame = stack[-1]
                if frame[2]:
                    raise self.error("a node after a variation: expected '(' or ')'")
                node = self.node()
                frame[1] += 1
                if frame[0]:
                    games[-1].append(node)
            else:
                expected = "a property, ';', '(' or ')'" if stack else "'(' to start a game"
                raise self.error(f"unexpected {char!r}: expected {expected}")
        if stack:
            raise self.error("the game tree is not closed (missing ')')")
        if not games:
            raise self.error("no game tree: an SGF file starts with '(;'")
        return games

    def node(self) -> Node:
        self.pos += 1  # the ';'
        node: Node = {}
        while self.peek() and (match := self._IDENT.match(self.text, self.pos)):
            start = self.pos
            # FF[3] allowed lower-case letters in names (AddBlack = AB): they are ignored.
            ident = "".join(c for c in match.group() if c.isupper())
            if not ident:
                raise self.error(f"property name {excerpt(match.group())!r} has no capital letter")
            self.pos = match.end()
            values = []
            while self.peek() == "[":
                values.append(self.value(ident))
            if not values:
                raise self.error(f"property {excerpt(ident)} has no value (expected '[')")
            if ident in node:
                raise self.error(f"property {excerpt(ident)} appears twice in one node", start)
            node[ident] = values
        return node

    def value(self, ident: str) -> str:
        start = self.pos
        self.pos += 1  # the '['
        parts = []
        while True:
            run = self._RUN.match(self.text, self.pos)
            assert run is not None  # the pattern also matches the empty string
            parts.append(run.group())
            self.pos = run.end()
            if self.pos >= len(self.text):
                raise self.error(
                    f"the value of {excerpt(ident)} is not closed (missing ']')", start
                )
            if self.text[self.pos] == "]":
                self.pos += 1
                return "".join(parts)
            escaped = self.text[self.pos + 1 : self.pos + 2]
            if escaped in ("\r", "\n"):
                # A soft line break: the escaped line break is dropped with its pair.
                pair = self.text[self.pos + 1 : self.pos + 3]
                self.pos += 3 if pair in ("\r\n", "\n\r") else 2
            else:
                parts.append(escaped)
                self.pos += 2
