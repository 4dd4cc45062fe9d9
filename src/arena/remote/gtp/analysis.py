"""Live analysis over GTP: ``lz-analyze`` (Leela Zero's lines) and ``kata-analyze`` (KataGo's).

Sabaki and Lizzie show an engine's search while it runs by sending
``lz-analyze [COLOR] [INTERVAL] [key value ...]`` (or ``kata-analyze``): the
engine answers ``=`` at once, then prints one line every INTERVAL centiseconds
until the next command (or an empty line) arrives, and ends the reply with the
usual empty line. Each line lists the root's moves best first, every move
starting with ``info``:

* ``lz-analyze``: ``info move D4 visits 120 winrate 5312 prior 123 lcb 5011
  order 0 pv D4 E5 ...``, winrate, prior and lcb as integers 0..10000;
* ``kata-analyze``: ``info move D4 visits 120 utility 0.0624 winrate 0.5312
  [scoreMean ... scoreStdev ... scoreLead ... scoreSelfplay ...] prior 0.0123
  lcb 0.5011 utilityLcb 0.0022 order 0 pv D4 E5 ...``, as floats, the score
  fields only where the agent has a score (Go's alpha-beta value is a margin
  in points).

What arena's agents give: MCTS its root statistics (visits, win rate, the
principal variation of the best move); alpha-beta and iterative deepening the
root values the web board shows (a move's evaluation, which lies in
[-1000, 1000], mapped linearly onto a win rate in [0, 1], won and lost
positions 1 and 0; Go's evaluation is a margin in points scaled by
1000 / (points + komi), so its score lead is that margin; the search's nodes
shared over the moves for visits, since alpha-beta counts no visits per move).
None has a move policy, so ``prior`` is uniform over the legal moves. Agents that
do not report while they search (minimax, alpha-beta, the simple agents) search
one second and their final report is repeated at the interval.
Values are for the player the analysis is for.

>>> from arena.core.agent import SearchInfo
>>> import arena
>>> state = arena.load_game("go:size=9").initial_state()
>>> info = SearchInfo(nodes=30, root=[
...     {"move": "E5", "visits": 20, "win_rate": 0.6, "pv": ["E5", "D4"]},
...     {"move": "D4", "visits": 10, "win_rate": 0.5}])
>>> print(info_line("lz", info, state).replace(" info", "\\n  info"))  # one line, really
info move E5 visits 20 winrate 6000 prior 122 lcb 3866 order 0 pv E5 D4
  info move D4 visits 10 winrate 5000 prior 122 lcb 2366 order 1 pv D4
>>> print(info_line("kata", info, state, max_moves=1).replace(" prior", "\\n  prior"))
info move E5 visits 20 utility 0.2 winrate 0.6
  prior 0.0121951 lcb 0.386578 utilityLcb -0.226844 order 0 pv E5 D4

Tests: tests/remote/gtp/test_gui_commands.py, tests/remote/gtp/sabaki/test_sabaki.py
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from arena.core.agent import Agent, SearchInfo
from arena.core.evaluation import SCALE
from arena.core.game import State
from arena.core.limit import Limit
from arena.remote.gtp.protocol import GTPError, parse_colour, to_vertex

KINDS = ("lz", "kata")

_PROVEN = 990_000.0
"""Search values beyond this are won or lost games (search.values.PROVEN; the remote layer
reads reports, it does not import search)."""
_Z = 1.96
"""The lower confidence bound's width in standard errors (95%)."""
_SEARCH_SECONDS = 3600.0
"""The longest an analysis searches before it holds its last line (until the next command)."""
_STREAMING = ("mcts", "ids", "best")
"""Agents whose searches report while they run and stop when asked; any other agent
searches for :data:`_SHORT_SECONDS` and its one report is repeated."""
_SHORT_SECONDS = 1.0


@dataclass(frozen=True)
class Request:
    """An ``lz-analyze`` / ``kata-analyze`` command's arguments."""

    player: int | None
    """The colour to analyse for (None: the player to move)."""
    interval: float
    """Seconds between lines."""
    max_moves: int | None = None
    min_moves: int = 0


def parse_request(args: tuple[str, ...]) -> Request:
    """``[COLOR] [INTERVAL] [interval N] [maxmoves N] [minmoves N] [ownership B]``;
    GTPError when something else is there.

    >>> parse_request(("b", "10"))
    Request(player=0, interval=0.1, max_moves=None, min_moves=0)
    >>> parse_request(("interval", "50", "maxmoves", "5")).max_moves
    5
    >>> parse_request(("sometimes",))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    arena.remote.gtp.protocol.GTPError: unexpected 'sometimes': expected [COLOR] [INTERVAL] ...
    """
    usage = "[COLOR] [INTERVAL] [interval N] [maxmoves N] [minmoves N]"
    rest = list(args)
    player = None
    if rest:
        try:
            player = parse_colour(rest[0])
            rest.pop(0)
        except GTPError:
            pass
    centis: float = 100.0
    if rest and _is_number(rest[0]):
        centis = _centis(rest.pop(0))
    found: dict[str, str] = {}
    while rest:
        key = rest.pop(0).lower()
        if key not in ("interval", "maxmoves", "minmoves", "ownership") or not rest:
            raise GTPError(f"unexpected {key!r}: expected {usage}")
        found[key] = rest.pop(0)
    if "interval" in found:
        centis = _centis(found["interval"])
    counts = {}
    for key in ("maxmoves", "minmoves"):
        if key in found:
            if not found[key].isdigit():
                raise GTPError(f"{key} {found[key]!r} is not a count of moves")
            counts[key] = int(found[key])
    # Below 1 cs a GUI would get a flood of lines: the interval has a floor.
    return Request(
        player, max(centis, 1.0) / 100, counts.get("maxmoves"), counts.get("minmoves", 0)
    )


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def _centis(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise GTPError(f"interval {text!r} is not a number of centiseconds") from None
    if not 0 <= value < 10**7:
        raise GTPError(f"interval {text!r} is out of range (0..10000000 centiseconds)")
    return value


@dataclass(frozen=True)
class _Move:
    vertex: str
    visits: int
    win_rate: float
    lcb: float
    score: float | None
    pv: list[str]


def _rows(info: SearchInfo, state: State) -> list[_Move]:
    """The root's moves best first, with values for the player to move."""
    game = state.game
    rows = info.root
    is_go = game.name == "go"
    out: list[_Move] = []
    if rows and "visits" in rows[0]:  # MCTS
        for row in rows:
            n = int(row["visits"] or 0)
            rate = row.get("win_rate")
            rate = 0.0 if rate is None else float(rate)
            out.append(_Move(row["move"], n, rate, _wilson(rate, n), None, row.get("pv", [])))
    else:  # alpha-beta's root values
        share = max(1, info.nodes // max(1, len(rows)))
        points = game.config.get("size", 0) ** 2 + abs(game.config.get("komi", 0.0))
        for row in rows:
            value = float(row.get("value", 0.0))
            rate = _value_rate(value)
            exact = abs(value) >= _PROVEN or row.get("bound", "=") == "="
            score = value * points / SCALE if is_go and abs(value) < _PROVEN else None
            lcb = rate if exact else max(0.0, rate - 0.05)
            out.append(_Move(row["move"], share, rate, lcb, score, row.get("pv", [])))
    moves = []
    for move in out:
        pv = move.pv if move.pv and move.pv[0] == move.vertex else [move.vertex]
        vertices = [to_vertex(game, game.parse_move(m)) for m in pv]
        moves.append(_Move(vertices[0], move.visits, move.win_rate, move.lcb, move.score, vertices))
    return moves


def _wilson(rate: float, n: int) -> float:
    """The lower bound of the Wilson interval of a win rate seen over ``n`` visits (0 for
    none): a move won once in one visit is not sure to win.

    >>> round(_wilson(1.0, 1), 3), round(_wilson(0.6, 1000), 3)
    (0.207, 0.569)
    """
    if n <= 0:
        return 0.0
    z2 = _Z * _Z
    centre = rate + z2 / (2 * n)
    spread = _Z * math.sqrt(rate * (1 - rate) / n + z2 / (4 * n * n))
    return max(0.0, (centre - spread) / (1 + z2 / n))


def _value_rate(value: float) -> float:
    """A search value as a win rate: won and lost games 1 and 0, an evaluation in
    [-SCALE, SCALE] linearly (0 is even).

    >>> _value_rate(0.0), _value_rate(500.0), _value_rate(999_990.0)
    (0.5, 0.75, 1.0)
    """
    if value >= _PROVEN:
        return 1.0
    if value <= -_PROVEN:
        return 0.0
    return (1.0 + max(-SCALE, min(SCALE, value)) / SCALE) / 2


def info_line(
    kind: str,
    info: SearchInfo,
    state: State,
    max_moves: int | None = None,
    flip: bool = False,
    min_moves: int = 0,
) -> str:
    """One analysis line of ``kind`` (``lz`` or ``kata``) from a search report of ``state``;
    ``flip`` gives the values for the other player (an analysis for the colour not to move)."""
    legal = max(1, len(state.legal_moves()))
    prior = 1.0 / legal
    parts = []
    rows = _rows(info, state)
    # Moves the search has not visited yet say nothing (KataGo leaves them out too).
    rows = [m for i, m in enumerate(rows) if m.visits > 0 or i < min_moves]
    for order, move in enumerate(rows[:max_moves]):
        rate, lcb, score = move.win_rate, move.lcb, move.score
        if flip:
            rate, lcb = 1.0 - rate, max(0.0, 1.0 - rate - (rate - lcb))
            score = None if score is None else -score
        pv = " ".join(move.pv)
        if kind == "lz":
            parts.append(
                f"info move {move.vertex} visits {move.visits} winrate {round(rate * 10000)} "
                f"prior {round(prior * 10000)} lcb {round(lcb * 10000)} order {order} pv {pv}"
            )
            continue
        fields: list[tuple[str, Any]] = [
            ("move", move.vertex),
            ("visits", move.visits),
            ("utility", _g(2 * rate - 1)),
            ("winrate", _g(rate)),
        ]
        if score is not None:
            fields += [
                ("scoreMean", _g(score)),
                ("scoreStdev", 0),
                ("scoreLead", _g(score)),
                ("scoreSelfplay", _g(score)),
            ]
        fields += [
            ("prior", _g(prior)),
            ("lcb", _g(lcb)),
            ("utilityLcb", _g(2 * lcb - 1)),
            ("order", order),
            ("pv", pv),
        ]
        parts.append("info " + " ".join(f"{k} {v}" for k, v in fields))
    return " ".join(parts)


def gogui_gfx(info: SearchInfo, state: State, count: int = 5) -> str:
    """GoGui's ``gfx`` drawing of a search: the best ``count`` moves labelled with their
    win rates, the principal variation as numbered stones, a line of text.

    >>> import arena
    >>> state = arena.load_game("go:size=9").initial_state()
    >>> print(gogui_gfx(SearchInfo(nodes=30, root=[
    ...     {"move": "E5", "visits": 20, "win_rate": 0.6, "pv": ["E5", "D4"]},
    ...     {"move": "D4", "visits": 10, "win_rate": 0.5}]), state))
    LABEL E5 60% D4 50%
    VAR b E5 w D4
    TEXT black to move: E5, win rate 60.0% (20 visits)
    """
    rows = [m for m in _rows(info, state) if m.visits > 0][:count]
    if not rows:
        return "TEXT no search"
    labels = " ".join(f"{m.vertex} {round(m.win_rate * 100)}%" for m in rows)
    colours = ["b", "w"] if state.to_move == 0 else ["w", "b"]
    var = " ".join(f"{colours[i % 2]} {v}" for i, v in enumerate(rows[0].pv))
    best = rows[0]
    mover = "black" if state.to_move == 0 else "white"
    text = f"{mover} to move: {best.vertex}, win rate {best.win_rate:.1%} ({best.visits} visits)"
    return f"LABEL {labels}\nVAR {var}\nTEXT {text}"


def _g(x: float) -> str:
    return f"{x + 0.0:.6g}"


class Analysis:
    """One running analysis: the agent searches ``state`` on a thread and ``write`` gets a
    line every ``request.interval`` seconds until :meth:`stop`."""

    def __init__(
        self,
        kind: str,
        agent: Agent,
        state: State,
        request: Request,
        write: Callable[[str], None],
    ) -> None:
        self.kind, self.agent, self.state, self.request = kind, agent, state, request
        self.write = write
        self.flip = request.player is not None and request.player != state.to_move
        self._stopped = threading.Event()
        self._last: SearchInfo | None = None
        self._thread = threading.Thread(target=self._run, name="gtp-analysis", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def _emit(self, info: SearchInfo) -> None:
        if not info.root or self._stopped.is_set():
            return
        request = self.request
        line = info_line(
            self.kind, info, self.state, request.max_moves, self.flip, request.min_moves
        )
        if line:
            self.write(line + "\n")

    def _listen(self, info: SearchInfo) -> bool:
        self._last = info
        self._emit(info)
        return self._stopped.is_set()

    def _run(self) -> None:
        agent = self.agent
        # Users' py: classes may have neither attribute (they then report nothing).
        saved = getattr(agent, "listener", None), getattr(agent, "progress_every", 0.1)
        agent.listener, agent.progress_every = self._listen, self.request.interval
        try:
            long = getattr(agent, "name", "") in _STREAMING
            agent.choose(self.state, Limit(time=_SEARCH_SECONDS if long else _SHORT_SECONDS))
        except Exception:  # an agent's failure ends its analysis, never the engine
            pass
        finally:
            agent.listener, agent.progress_every = saved
        # The search ended by itself (a solved position, its own budget): its last
        # report stands, repeated at the interval as the engines do, until stopped.
        final = getattr(agent, "last_search", None) or self._last
        while final is not None and not self._stopped.wait(self.request.interval):
            self._emit(final)

    def stop(self) -> None:
        """End the analysis and wait for its thread (the search is asked to stop)."""
        self._stopped.set()
        stop = getattr(self.agent, "stop", None)
        if callable(stop):
            stop()
        self._thread.join()
